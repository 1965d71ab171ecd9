/**
 * A damaged journal is found and repaired: real SQLite files damaged on
 * purpose (garbage over the memory tables' pages or the code index's, a cut,
 * a bad header), the real CLI in subprocesses.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  iteratePathStats,
  Journal,
  listRoots,
  quickCheck,
  salvageJournal,
} from "../src/store/mod.ts";
import {
  countPlanted,
  garbleHeader,
  garblePages,
  pagesOf,
  plantHome,
  truncateTo,
} from "./corruption_fixture.ts";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cli, MAIN } from "./helpers.ts";

/** One line on stderr, no stack frames. */
function assertOneLine(stderr: string, context: string): void {
  const lines = stderr.trim().split("\n");
  assert.equal(lines.length, 1, `${context}: ${stderr}`);
  assert.doesNotMatch(stderr, /^\s+at /m, `${context}: a stack trace`);
}

/** The files rebuild moved aside: `journal.db.damaged-<stamp>`. */
function keptAside(home: string): string[] {
  return [...Deno.readDirSync(home)].map((e) => e.name).filter((n) =>
    /^journal\.db\.damaged-\d{8}T\d{6}Z$/.test(n)
  );
}

/** The leaf pages of `table` and how many rows each holds. */
function leafCells(journal: string, table: string): { pageno: number; ncell: number }[] {
  const j = Journal.open(journal, { readOnly: true });
  try {
    return j.all("SELECT pageno, ncell FROM dbstat WHERE name = ? AND pagetype = 'leaf'", table);
  } finally {
    j.close();
  }
}

/** Rowids of `memories` on the given pages of the healthy journal (what garbage there costs). */
function memoriesOnPages(journal: string, pages: number[]): number {
  const j = Journal.open(journal, { readOnly: true });
  try {
    return pages.reduce(
      (n, p) =>
        n + j.get<{ ncell: number }>(
          "SELECT ncell FROM dbstat WHERE name = 'memories' AND pageno = ?",
          p,
        )!.ncell,
      0,
    );
  } finally {
    j.close();
  }
}

Deno.test("garbage over memory pages: status exits 3 naming rebuild; rebuild keeps the damaged file and salvages every other memory", async () => {
  const p = await plantHome(300, 40);
  const leaves = pagesOf(p.journal, /^memories$/);
  const bad = [leaves[2]!, leaves[Math.floor(leaves.length / 2)]!];
  const onBad = memoriesOnPages(p.journal, bad);
  assert.ok(onBad > 0 && onBad < 60, `${onBad} memories on the garbled pages`);
  const original = Deno.readFileSync(p.journal);
  garblePages(p.journal, bad);
  const damaged = Deno.readFileSync(p.journal);
  assert.notDeepEqual(damaged, original);

  let r = await cli(p.home, ["status"]);
  assert.equal(r.code, 3, r.stdout + r.stderr);
  assert.match(r.stdout, /is damaged .*run `heimdall rebuild`/);
  assert.doesNotMatch(r.stdout + r.stderr, /^\s+at /m);

  r = await cli(p.home, ["rebuild"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^lost {5}memories: rowids \d+–\d+/m);
  // Each lost memory is named (its search text survived on other pages).
  assert.equal((r.stdout.match(/^lost {5}memory m/gm) ?? []).length, onBad, r.stdout);
  const aside = keptAside(p.home);
  assert.equal(aside.length, 1, `kept aside: ${aside}`);
  assert.deepEqual(Deno.readFileSync(join(p.home, aside[0]!)), damaged, "damaged file untouched");
  assert.ok(!existsSync(join(p.home, `${aside[0]}.salvage`)), "scratch copy removed");

  assert.deepEqual(countPlanted(p.journal), { memories: 300 - onBad, notes: 40 });
  r = await cli(p.home, ["status"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout, /damaged/);
  // The salvaged memories are searchable again, anchored to re-indexed code.
  r = await cli(p.home, ["search", "planted memory 299"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^ {3}planted memory 299:/m);
});

Deno.test("garbage over the code index's pages: rebuild salvages every planted memory and note", async () => {
  const p = await plantHome(200, 40);
  const index = pagesOf(p.journal, /^(nodes|edges|paths|chunks|chunks_fts.*|nodes_.*|edges_.*)$/);
  assert.ok(index.length >= 10, `${index.length} index pages`);
  garblePages(p.journal, index.filter((_, i) => i % 3 === 0));
  const r = await cli(p.home, ["rebuild"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^salvaged 200 memories, 40 notes/m);
  assert.doesNotMatch(r.stdout, /^lost /m);
  assert.deepEqual(countPlanted(p.journal), { memories: 200, notes: 40 });
  const j = Journal.open(p.journal, { readOnly: true });
  try {
    assert.equal(quickCheck(j.db), undefined);
    assert.equal(
      j.get<{ n: number }>("SELECT count(*) AS n FROM paths WHERE state = 'indexed'")!.n,
      30,
      "the code is re-indexed",
    );
  } finally {
    j.close();
  }
});

Deno.test("a truncated journal: reads and writes exit 3 in one line, no stack; rebuild salvages what precedes the cut", async () => {
  const p = await plantHome(200, 20);
  const leaves = leafCells(p.journal, "memories");
  truncateTo(p.journal, 0.7);
  const whole = Math.floor(Deno.statSync(p.journal).size / 4096);
  // Leaves are not in rowid order: readable ones sit between cut-off ones.
  const readable = leaves.filter((l) => l.pageno <= whole).reduce((a, l) => a + l.ncell, 0);
  assert.ok(readable > 0 && readable < 200, `${readable} memories before the cut`);
  for (const args of [["search", "retry"], ["history"], ["remember", "--kind", "note", "x"]]) {
    const r = await cli(p.home, args);
    assert.equal(r.code, 3, `${args}: ${r.stderr}`);
    assertOneLine(r.stderr, args.join(" "));
    assert.match(r.stderr, /truncated: .*`heimdall rebuild`/);
  }
  const status = await cli(p.home, ["status"]);
  assert.equal(status.code, 3);
  const r = await cli(p.home, ["rebuild"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^mended {3}header of a scratch copy: .*page count/m);
  // Every memory on a whole page before the cut; some of the cut page's may survive too.
  const upTo = leaves.filter((l) => l.pageno <= whole + 1).reduce((a, l) => a + l.ncell, 0);
  const got = countPlanted(p.journal).memories;
  assert.ok(got >= readable && got <= upTo, `${got} salvaged, ${readable}–${upTo} readable`);
  assert.equal((await cli(p.home, ["status"])).code, 0);
});

Deno.test("a bad header: found on open; rebuild mends a scratch copy's header and salvages everything", async () => {
  const p = await plantHome(120, 30);
  garbleHeader(p.journal);
  let r = await cli(p.home, ["why", "anything"]);
  assert.equal(r.code, 3, r.stderr);
  assertOneLine(r.stderr, "why");
  assert.match(r.stderr, /header is not a SQLite header.*`heimdall rebuild`/);
  r = await cli(p.home, ["rebuild"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^mended {3}header of a scratch copy: magic string/m);
  assert.deepEqual(countPlanted(p.journal), { memories: 120, notes: 30 });
  // Nothing of the fresh journal's making is left under its working name.
  const left = [...Deno.readDirSync(p.home)].map((e) => e.name);
  assert.deepEqual(left.filter((n) => n.includes(".salvage")), []);
});

Deno.test("damage met by a query marks the journal: exit 3 once, then reads warn until rebuild", async () => {
  const p = await plantHome(200, 20);
  const leaves = pagesOf(p.journal, /^memories$/);
  garblePages(p.journal, [leaves[1]!]);
  // `history` reads every memory: it trips on the bad page (no open check can see it).
  let r = await cli(p.home, ["history", "--limit", "1000"]);
  assert.equal(r.code, 3, r.stdout + r.stderr);
  assertOneLine(r.stderr, "history");
  assert.match(r.stderr, /is damaged \(database disk image is malformed\)/);
  assert.ok(existsSync(`${p.journal}.damaged`), "marker written");
  // A read that avoids the bad page still answers, and says the journal is damaged.
  r = await cli(p.home, ["search", "warm the hot keys"]);
  assert.match(r.stderr, /warning: answered from a damaged journal/);
  // A writer is refused: nothing is written on top of bad pages.
  r = await cli(p.home, ["insert", "--title", "t", "--body", "b"]);
  assert.equal(r.code, 3);
  assertOneLine(r.stderr, "insert");
  r = await cli(p.home, ["rebuild"]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(`${p.journal}.damaged`), "marker cleared by rebuild");
  r = await cli(p.home, ["search", "warm the hot keys"]);
  assert.doesNotMatch(r.stderr, /damaged/);
});

Deno.test("salvageJournal() reads through a WAL and leaves the damaged file as it was", async () => {
  const p = await plantHome(50, 5);
  // Rows only in the WAL: committed, never checkpointed.
  const j = Journal.open(p.journal);
  j.run(
    "INSERT INTO notes (title, body, keywords, created_ms) VALUES ('wal only', 'planted note wal', '', 1)",
  );
  const before = Deno.readFileSync(p.journal);
  const wal = Deno.readFileSync(`${p.journal}-wal`);
  const fresh = Journal.open(join(p.home, "fresh.db"));
  try {
    const report = salvageJournal(p.journal, fresh, join(p.home, "scratch.db"));
    assert.deepEqual(report.header, []);
    assert.equal(report.tables.find((t) => t.table === "notes")!.copied, 6);
    assert.equal(report.tables.find((t) => t.table === "memories")!.copied, 50);
    // (Before the writer closes: its close checkpoints the WAL into the file.)
    assert.deepEqual(Deno.readFileSync(p.journal), before);
    assert.deepEqual(Deno.readFileSync(`${p.journal}-wal`), wal);
  } finally {
    fresh.close();
    j.close();
  }
  assert.ok(wal.length > 0);
  assert.ok(!existsSync(join(p.home, "scratch.db")));
});

Deno.test("MCP answers from a journal known to be damaged say so, in text and structured content", async () => {
  const p = await plantHome(120, 20);
  garblePages(p.journal, [pagesOf(p.journal, /^memories$/)[1]!]);
  assert.equal((await cli(p.home, ["history", "--limit", "1000"])).code, 3);
  const client = new Client({ name: "corruption-test", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", MAIN, "mcp"],
      env: { HEIMDALL_HOME: p.home, DENO_NO_UPDATE_CHECK: "1", PATH: Deno.env.get("PATH") ?? "" },
      stderr: "ignore",
    }),
  );
  try {
    const r = await client.callTool({
      name: "search",
      arguments: { query: "warm the hot keys" },
    }) as {
      content: { text: string }[];
      structuredContent?: Record<string, unknown>;
    };
    assert.match(
      r.content[0]!.text,
      /^Warning: answering from a damaged journal .*heimdall rebuild/,
    );
    assert.match(String(r.structuredContent?.journal_damaged), /malformed/);
  } finally {
    await client.close();
  }
});

Deno.test("a rebuild interrupted between its two renames is finished by the next one", async () => {
  const p = await plantHome(40, 5);
  // The state a kill leaves after the damaged journal moved aside, before the
  // salvaged one moved into place.
  Deno.renameSync(p.journal, `${p.journal}.salvaged`);
  const r = await cli(p.home, ["rebuild"]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(countPlanted(p.journal), { memories: 40, notes: 5 });
  assert.ok(!existsSync(`${p.journal}.salvaged`));
});

Deno.test("rebuild of a damaged journal keeps local claims, tasks and their hand-offs", async () => {
  const p = await plantHome(60, 5);
  const env = { HEIMDALL_AUTHOR: "ada" };
  let r = await cli(p.home, ["task", "start", "Speed up the cache warm-up", "--json"], {
    cwd: p.repo,
    env,
  });
  assert.equal(r.code, 0, r.stderr);
  const task = (JSON.parse(r.stdout) as { id: string }).id;
  r = await cli(p.home, ["claim", "part3_4", "--ttl", "2h"], { cwd: p.repo, env });
  assert.equal(r.code, 0, r.stderr);
  r = await cli(p.home, ["task", "handoff", task, "--to", "bob", "--note", "half done"], {
    cwd: p.repo,
    env,
  });
  assert.equal(r.code, 0, r.stderr);
  const count = (sql: string) => {
    const j = Journal.open(p.journal, { readOnly: true });
    try {
      return j.get<{ n: number }>(sql)!.n;
    } finally {
      j.close();
    }
  };
  const before = {
    claims: count("SELECT count(*) AS n FROM claims"),
    events: count("SELECT count(*) AS n FROM task_events"),
  };
  assert.ok(before.claims >= 1 && before.events >= 2, JSON.stringify(before));
  garbleHeader(p.journal);
  r = await cli(p.home, ["rebuild"]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual({
    claims: count("SELECT count(*) AS n FROM claims"),
    events: count("SELECT count(*) AS n FROM task_events"),
  }, before);
  r = await cli(p.home, ["task", "show", task], { cwd: p.repo, env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /half done/);
});

Deno.test("damage under the paths table is reported as damage, never as files missing from the index", async () => {
  const p = await plantHome(20, 5);
  // Only the table's leaves: its index still lists every path, so a scan that
  // stopped quietly at the damage would call the rest "missing" (drift, exit 1).
  const leaves = pagesOf(p.journal, /^paths$/);
  assert.ok(leaves.length >= 2, `${leaves.length} leaf pages`);
  garblePages(p.journal, leaves.slice(1));
  const r = await cli(p.home, ["verify"]);
  assert.equal(r.code, 3, r.stdout + r.stderr);
  assert.match(r.stderr, /damaged.*heimdall rebuild/);
  assert.doesNotMatch(r.stdout, /missing/);
  // The scan the audit and verify make throws; it never ends early with half the rows.
  const j = Journal.open(p.journal, { readOnly: true });
  try {
    const [root] = listRoots(j);
    assert.throws(() => [...iteratePathStats(j, root!)], /malformed|corrupt|damaged/i);
  } finally {
    j.close();
  }
});

Deno.test("a damaged journal replaced by its backup by hand opens: the marker was about the file it found damaged", async () => {
  const p = await plantHome(60, 10);
  const good = `${p.journal}.by-hand`;
  Deno.copyFileSync(p.journal, good);
  const leaves = pagesOf(p.journal, /^memories$/);
  garblePages(p.journal, [leaves[1]!]);
  let r = await cli(p.home, ["history", "--limit", "1000"]);
  assert.equal(r.code, 3, r.stdout + r.stderr);
  assert.ok(existsSync(`${p.journal}.damaged`), "marker written");
  r = await cli(p.home, ["insert", "--title", "t", "--body", "b"]);
  assert.equal(r.code, 3, "the damaged file itself is still refused");
  Deno.copyFileSync(good, p.journal); // what a person restoring a copy does
  r = await cli(p.home, ["insert", "--title", "t", "--body", "b"]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(`${p.journal}.damaged`), "the stale marker is gone");
  assert.deepEqual(
    countPlanted(p.journal),
    { memories: 60, notes: 10 },
    "every planted row is back",
  );
});
