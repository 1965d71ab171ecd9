import assert from "node:assert/strict";
import { join } from "node:path";
import { Journal, setBusyTimeout } from "../store/mod.ts";
import {
  awaitWriteTurn,
  busyMessage,
  type BusyOutcome,
  type Holder,
  MCP_BUSY_MS,
} from "./write_turn.ts";

Deno.test("busyMessage() names who holds the lock, what was done, and what to do", () => {
  const cases: [Holder, BusyOutcome, RegExp[]][] = [
    [null, { waitedMs: 2000 }, [
      /^Cannot remember now: the journal "\/h\/journal.db" is locked for writing by another process/,
      /sqlite3/,
      /waited 2\.0 s and wrote nothing; call remember again in a few seconds$/,
    ]],
    [{ pid: 41, role: "daemon" }, { waitedMs: 2000 }, [
      /by the daemon \(pid 41\), which may be indexing/,
    ]],
    [{ pid: 7, role: "index" }, "partway", [
      /by a one-shot `heimdall index` \(pid 7\)/,
      /stopped partway: check with `why` or `search`/,
    ]],
    [{ pid: undefined, role: undefined }, "reading", [
      /is locked by pid unknown \(the daemon or a one-shot heimdall command\); call remember again/,
    ]],
  ];
  for (const [holder, outcome, patterns] of cases) {
    const m = busyMessage("/h/journal.db", "remember", holder, outcome);
    for (const p of patterns) assert.match(m, p);
  }
});

Deno.test("awaitWriteTurn() waits for a held lock without blocking, and writes once it is free", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const file = join(dir, "journal.db");
    const holder = Journal.open(file);
    setBusyTimeout(MCP_BUSY_MS);
    const mine = Journal.open(file);
    holder.db.exec("BEGIN IMMEDIATE");

    // Held throughout: the wait gives up, and a timer due in the meantime still fires first.
    const order: string[] = [];
    const timer = new Promise<void>((r) => setTimeout(() => r(void order.push("timer")), 20));
    const turn = awaitWriteTurn(() => mine, 400).then((free) => void order.push(`turn ${free}`));
    await Promise.all([timer, turn]);
    assert.deepEqual(order, ["timer", "turn false"]);

    // Released while waiting: the turn comes.
    setTimeout(() => holder.db.exec("ROLLBACK"), 150);
    assert.equal(await awaitWriteTurn(() => mine, 10_000), true);
    mine.close();
    holder.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
