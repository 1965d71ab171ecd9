/**
 * Memory end to end: real repositories in temp folders, indexed through the
 * real CLI, memory written and read through the CLI and the library on the
 * same SQLite journal.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { homePaths } from "../src/config/mod.ts";
import {
  describeFailure,
  exportMemories,
  forget,
  history,
  importMemories,
  knowledgePage,
  loadMemories,
  MAX_TEXT,
  type Memory,
  MemoryInputError,
  openFailures,
  prepareRemember,
  recordAttempt,
  remember,
  type RememberInput,
  why,
  writeRemembered,
} from "../src/memory/mod.ts";
import { SymbolLookupError } from "../src/search/mod.ts";
import { Journal } from "../src/store/mod.ts";
import {
  cli,
  indexedTree,
  removeTree,
  startDaemon,
  tempDir,
  waitFor,
  writeTree,
} from "./helpers.ts";

const STORE_TS = `export class Store {
  open(path: string): number {
    const handle = path.length * 2;
    return handle + 1;
  }

  close(handle: number): void {
    console.log("closing", handle);
  }
}

export function retryConnect(times: number): boolean {
  for (let i = 0; i < times; i++) {
    if (i > 3) return true;
  }
  return false;
}
`;

const UTIL_TS = `export function formatBytes(n: number): string {
  return (n / 1024).toFixed(1) + " KiB";
}

export function open(): void {}
`;

const ENV = { HEIMDALL_AUTHOR: "alice" };

/** A repository with two TypeScript files, indexed into a fresh home. */
const indexedRepo = () => indexedTree({ "src/store.ts": STORE_TS, "src/util.ts": UTIL_TS });

function openJournal(home: string): Journal {
  return Journal.open(homePaths(home).journal);
}

/** The journal of a freshly indexed repository, with where the repository and home are. */
interface IndexedJournal {
  j: Journal;
  base: string;
  repo: string;
  home: string;
}

/** Runs `fn` with the journal of a freshly indexed repository open; closes it after, pass or fail. */
async function withIndexedJournal(fn: (t: IndexedJournal) => void | Promise<void>): Promise<void> {
  const { base, repo, home } = await indexedRepo();
  const j = openJournal(home);
  try {
    await fn({ j, base, repo, home });
  } finally {
    j.close();
  }
}

/** Runs the CLI in `repo` with `home` as alice; asserts it exits 0 and gives its stdout. */
function succeedingIn({ repo, home }: { repo: string; home: string }) {
  return async (args: string[]): Promise<string> => {
    const r = await cli(home, args, { cwd: repo, env: ENV });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
}

function count(home: string, sql = "SELECT count(*) AS n FROM memories"): number {
  const j = Journal.open(homePaths(home).journal, { readOnly: true });
  try {
    return j.get<{ n: number }>(sql)!.n;
  } finally {
    j.close();
  }
}

const T0 = Date.parse("2025-03-01T10:00:00Z");
const DAY = 86_400_000;

Deno.test("remember() supersedes the current decision on the same anchor; why --as-of answers as memory stood then", () =>
  withIndexedJournal(({ j, repo }) => {
    const first = remember(j, {
      kind: "decision",
      about: ["Store.open"],
      text: "open() never throws; it returns -1",
      author: "alice",
      cwd: repo,
      now: T0,
    });
    // A note on the same anchor does not supersede; a decision elsewhere neither.
    remember(j, {
      kind: "note",
      about: ["Store.open"],
      text: "profiled: 2 µs per call",
      author: "bob",
      cwd: repo,
      now: T0 + DAY,
    });
    remember(j, {
      kind: "decision",
      about: ["Store.close"],
      text: "close() is idempotent",
      author: "bob",
      cwd: repo,
      now: T0 + DAY,
    });
    const second = remember(j, {
      kind: "decision",
      about: ["src/store.ts:open"],
      text: "open() throws OpenError on EACCES",
      author: "bob",
      cwd: repo,
      now: T0 + 2 * DAY,
    });
    assert.deepEqual(second.superseded, [first.memory.id]);

    const now = why(j, "Store.open", { viewer: "alice", cwd: repo, now: T0 + 3 * DAY });
    assert.equal(now.target.type, "symbol");
    assert.deepEqual(
      now.current.map((m) => [m.text, m.author, m.standing]),
      [
        ["open() throws OpenError on EACCES", "bob", "current"],
        ["profiled: 2 µs per call", "bob", "current"],
      ],
    );
    assert.deepEqual(now.history.map((m) => [m.id, m.standing, m.superseded_by]), [
      [first.memory.id, "superseded", second.memory.id],
    ]);

    // As of a day after the first: the first is current, unsuperseded, and the second not yet recorded.
    const then = why(j, "Store.open", {
      viewer: "alice",
      asOf: T0 + DAY + 1,
      cwd: repo,
      now: T0 + 3 * DAY,
    });
    assert.deepEqual(
      then.current.map((m) => m.id).sort(),
      [
        first.memory.id,
        now.current[1]!.id,
      ].sort(),
    );
    const firstThen = then.current.find((m) => m.id === first.memory.id)!;
    assert.equal(firstThen.superseded_at, null);
    assert.equal(firstThen.superseded_by, null);
    assert.equal(then.history.length, 0);
    // Before anything was recorded: nothing.
    const before = why(j, "Store.open", { viewer: "alice", asOf: T0 - 1, cwd: repo, now: T0 });
    assert.equal(before.current.length + before.history.length, 0);
  }));

Deno.test("two writers superseding the same memory at once leave one successor: the later one is refused and writes nothing", async () => {
  const { repo, home } = await indexedRepo();
  const a = openJournal(home);
  const b = openJournal(home);
  try {
    const old = remember(a, {
      kind: "decision",
      about: ["Store.open"],
      text: "open() retries twice",
      author: "alice",
      cwd: repo,
      now: T0,
    }).memory;
    const input = (text: string, now: number): RememberInput => ({
      kind: "note",
      about: ["src/util.ts"],
      text,
      author: "bob",
      supersedes: [old.id],
      cwd: repo,
      now,
    });
    // Both check `supersedes` while the old one is current, as two processes would.
    const pa = prepareRemember(a, input("open() retries three times", T0 + DAY));
    const pb = prepareRemember(b, input("open() never retries", T0 + DAY + 1));
    const first = writeRemembered(a, pa);
    assert.deepEqual(first.superseded, [old.id]);
    assert.throws(
      () => writeRemembered(b, pb),
      (e) =>
        e instanceof MemoryInputError &&
        e.message.includes(`${old.id} is already superseded by ${first.memory.id}`),
    );
    assert.equal(count(home), 2, "the refused write added no row");
    const row = b.get<{ superseded_by: string }>(
      "SELECT superseded_by FROM memories WHERE id = ?",
      old.id,
    );
    assert.equal(row?.superseded_by, first.memory.id);
  } finally {
    a.close();
    b.close();
  }
});

Deno.test("remember() of a decision not in force when recorded leaves the current one current", () =>
  withIndexedJournal(({ j, repo }) => {
    const current = remember(j, {
      kind: "decision",
      about: ["Store.open"],
      text: "open() throws OpenError on EACCES",
      author: "alice",
      cwd: repo,
      now: T0,
    });
    // Back-filled history (valid and expired before it is recorded), and a rule from a later date.
    const past = remember(j, {
      kind: "decision",
      about: ["Store.open"],
      text: "open() returned -1 back then",
      author: "alice",
      cwd: repo,
      now: T0 + DAY,
      validFrom: T0 - 300 * DAY,
      validTo: T0 - 100 * DAY,
    });
    const later = remember(j, {
      kind: "decision",
      about: ["Store.open"],
      text: "open() retries from next quarter",
      author: "alice",
      cwd: repo,
      now: T0 + DAY,
      validFrom: T0 + 90 * DAY,
    });
    assert.deepEqual([past.superseded, later.superseded], [[], []]);
    const now = why(j, "Store.open", { viewer: "alice", cwd: repo, now: T0 + 2 * DAY });
    assert.deepEqual(now.current.map((m) => m.id), [current.memory.id]);
    assert.deepEqual(
      now.history.map((m) => [m.id, m.standing]).sort(),
      [[past.memory.id, "expired"], [later.memory.id, "upcoming"]].sort(),
    );
    // Named explicitly, it still replaces it.
    const named = remember(j, {
      kind: "decision",
      about: ["Store.open"],
      text: "open() retries from next quarter, and the old rule ends now",
      author: "alice",
      cwd: repo,
      now: T0 + 2 * DAY,
      validFrom: T0 + 90 * DAY,
      supersedes: [current.memory.id],
    });
    assert.deepEqual(named.superseded, [current.memory.id]);
  }));

Deno.test("memory text is refused past MAX_TEXT on write, so every export imports back", () =>
  withIndexedJournal(({ j, base, repo }) => {
    const note = { kind: "note", about: ["src/util.ts"], author: "alice", cwd: repo, now: T0 };
    assert.throws(
      () => remember(j, { ...note, text: "x".repeat(MAX_TEXT + 1) }),
      (e: unknown) =>
        e instanceof MemoryInputError && /65537 characters, at most 65536/.test(e.message),
    );
    assert.throws(
      () =>
        recordAttempt(j, {
          about: ["src/util.ts"],
          outcome: "failed",
          text: "the suite failed",
          tests: Array.from({ length: 8000 }, (_, i) => `test_${i}`),
          author: "alice",
          cwd: repo,
          now: T0,
        }),
      /Too many test names: 8000/,
    );
    remember(j, { ...note, text: "y".repeat(MAX_TEXT) });
    // A failure's account is not appended past the limit: the row stays importable.
    const failure = recordAttempt(j, {
      about: ["src/util.ts"],
      outcome: "failed",
      text: "z".repeat(MAX_TEXT - 10),
      tests: ["t1"],
      author: "alice",
      cwd: repo,
      now: T0,
    });
    const told = describeFailure(j, {
      about: ["src/util.ts"],
      text: "my account of it",
      tests: ["t1"],
      author: "alice",
      cwd: repo,
      now: T0 + 1,
    });
    assert.equal(told, failure.memory.id);
    // A knowledge page of long decisions is cut to what a memory keeps.
    for (let i = 0; i < 15; i++) {
      remember(j, {
        ...note,
        kind: "decision",
        text: `${i} ${"w".repeat(MAX_TEXT - 10)}`,
        keep: true,
      });
    }
    const page = knowledgePage(j, repo, { sinceMs: 7 * DAY, now: T0 });
    assert.ok(page.length <= MAX_TEXT, `${page.length} characters`);
    remember(j, { ...note, kind: "page", about: [repo], text: page });
    const exported = [...exportMemories(j)].join("\n") + "\n";
    const fresh = Journal.open(homePaths(join(base, "home2")).journal);
    try {
      assert.equal(importMemories(fresh, exported).added, 18);
      assert.equal([...exportMemories(fresh)].join("\n") + "\n", exported);
    } finally {
      fresh.close();
    }
  }));

Deno.test("knowledgePage() leaves expired and upcoming decisions out of what holds now", () =>
  withIndexedJournal(({ j, repo }) => {
    const on = (about: string, text: string, extra: Partial<RememberInput> = {}) =>
      remember(j, {
        kind: "decision",
        about: [about],
        text,
        author: "alice",
        cwd: repo,
        now: T0,
        ...extra,
      });
    on("src/store.ts", "Store keeps one handle");
    on("src/util.ts", "formatBytes used MiB once", { validFrom: T0 - 9 * DAY, validTo: T0 - DAY });
    on("Store.close", "close() flushes from next month", { validFrom: T0 + 30 * DAY });
    const page = knowledgePage(j, repo, { sinceMs: 7 * DAY, now: T0 + DAY });
    assert.match(page, /Store keeps one handle/);
    assert.doesNotMatch(page, /used MiB once/);
    assert.doesNotMatch(page, /from next month/);
  }));

Deno.test("knowledgePage() names a window shorter than a day in hours or minutes, not as 0 days", () =>
  withIndexedJournal(({ j, repo }) => {
    const head = (sinceMs: number) => knowledgePage(j, repo, { sinceMs, now: T0 }).split("\n")[0]!;
    assert.match(head(7 * DAY), /activity of the last 7 days$/);
    assert.match(head(DAY), /activity of the last 1 day$/);
    assert.match(head(36 * 3_600_000), /activity of the last 36 hours$/);
    assert.match(head(7 * 3_600_000), /activity of the last 7 hours$/);
    assert.match(head(90 * 60_000), /activity of the last 90 minutes$/);
  }));

Deno.test("why: valid time expires a fact, and a class's decision applies to its methods and file", () =>
  withIndexedJournal(({ j, repo }) => {
    remember(j, {
      kind: "fact",
      about: ["Store.open"],
      text: "open() is called 40k times per index",
      author: "alice",
      cwd: repo,
      now: T0,
      validFrom: T0,
      validTo: T0 + 10 * DAY,
    });
    remember(j, {
      kind: "convention",
      about: ["Store"],
      text: "Store methods never log",
      author: "alice",
      cwd: repo,
      now: T0,
    });
    remember(j, {
      kind: "convention",
      about: ["src"],
      text: "2-space indent everywhere",
      author: "alice",
      cwd: repo,
      now: T0,
    });
    const during = why(j, "Store.open", {
      viewer: "alice",
      asOf: T0 + DAY,
      cwd: repo,
      now: T0 + 20 * DAY,
    });
    assert.deepEqual(during.current.map((m) => [m.kind, m.via]), [
      ["fact", "symbol"],
      ["convention", "enclosing Store"],
      ["convention", `folder ${repo}/src`],
    ]);
    const after = why(j, "Store.open", { viewer: "alice", cwd: repo, now: T0 + 20 * DAY });
    assert.deepEqual(after.current.map((m) => m.kind), ["convention", "convention"]);
    assert.deepEqual(after.history.map((m) => [m.kind, m.standing]), [["fact", "expired"]]);
    // The file answers with the symbol inside it and the folder holding it.
    const file = why(j, join(repo, "src/store.ts"), { viewer: "alice", cwd: repo, now: T0 + DAY });
    assert.deepEqual(file.current.map((m) => m.via).sort(), [
      `folder ${repo}/src`,
      "symbol Store",
      "symbol Store.open",
    ]);
  }));

Deno.test("recordAttempt() counts a repeated failure once, by tests or wording, and a pass resolves and links the fix", async () => {
  const { repo, home } = await indexedRepo();
  const j = openJournal(home);
  const attempt = (
    outcome: "failed" | "passed",
    text: string,
    tests: string[],
    about = ["retryConnect"],
    extra: { fix?: string } = {},
  ) => recordAttempt(j, { about, outcome, text, tests, author: "alice", cwd: repo, ...extra });
  try {
    const a = attempt("failed", "Retry loop around connect; test still times out", [
      "t_retry",
      "t_conn",
    ]);
    assert.equal(a.repeated, false);
    // Same failing tests (in any order), other words: a repeat.
    const b = attempt("failed", "Bumped the loop bound", ["t_conn", "t_retry"]);
    assert.deepEqual([b.repeated, b.matchedBy, b.memory.id, b.memory.count], [
      true,
      "tests",
      a.memory.id,
      2,
    ]);
    // Near-identical wording, no tests: a repeat too.
    const c = attempt("failed", "retry loop around connect, test still times out", []);
    assert.deepEqual([c.repeated, c.matchedBy, c.memory.count], [true, "wording", 3]);
    assert.ok(c.similarity! >= 0.75);
    // Different failure on the same code: a new row.
    const d = attempt("failed", "Raised the connect timeout to 60s; flaky on CI", ["t_ci"]);
    assert.equal(d.repeated, false);
    // The same words on other code: a new row.
    const e = attempt("failed", "Retry loop around connect; test still times out", [
      "t_retry",
      "t_conn",
    ], ["formatBytes"]);
    assert.equal(e.repeated, false);
    assert.equal(count(home, "SELECT count(*) AS n FROM memories WHERE kind = 'attempt'"), 3);

    const node = j.get<{ id: string }>("SELECT id FROM nodes WHERE name = 'retryConnect'")!.id;
    assert.deepEqual(openFailures(j, [node], "alice").map((m) => [m.id, m.count]), [
      [a.memory.id, 3],
      [d.memory.id, 1],
    ]);

    // A pass naming only t_ci resolves only the failure whose failing tests it covers.
    const p1 = attempt("passed", "Backoff with jitter", ["t_ci"], ["retryConnect"], {
      fix: "abc1234",
    });
    assert.deepEqual(p1.resolved, [d.memory.id]);
    // A pass without tests resolves every open failure on its code.
    const p2 = attempt("passed", "Reuse the socket", []);
    assert.deepEqual(p2.resolved, [a.memory.id]);
    assert.deepEqual(openFailures(j, [node], "alice"), []);
    const resolved = j.get<{ status: string; resolved_by: string }>(
      "SELECT status, resolved_by FROM memories WHERE id = ?",
      d.memory.id,
    )!;
    assert.deepEqual({ ...resolved }, { status: "resolved", resolved_by: p1.memory.id });
    assert.equal(p1.memory.fix, "abc1234");
    // After the fix, the same failure again is a new open failure, not a repeat of a resolved one.
    const again = attempt("failed", "Retry loop around connect; test still times out", [
      "t_retry",
      "t_conn",
    ]);
    assert.equal(again.repeated, false);
    // why shows the resolved failure as history, with its fix.
    const w = why(j, "retryConnect", { viewer: "alice", cwd: repo });
    assert.deepEqual(
      w.history.filter((m) => m.standing === "resolved").map((m) => m.resolved_by).sort(),
      [p1.memory.id, p2.memory.id].sort(),
    );
  } finally {
    j.close();
  }
});

Deno.test("failures worded without a word (an emoji, punctuation, stop words) are one failure only when written alike", () =>
  withIndexedJournal(({ j, repo }) => {
    const fail = (text: string) =>
      recordAttempt(j, {
        about: ["Store.open"],
        outcome: "failed",
        text,
        author: "alice",
        cwd: repo,
      });
    assert.equal(fail("💥").repeated, false);
    assert.equal(fail("❌").repeated, false);
    assert.equal(fail("???").repeated, false);
    assert.equal(fail("it was the").repeated, false);
    assert.equal(fail("💥").repeated, true);
    assert.deepEqual(
      openFailures(j, [fail("❌").memory.anchors[0]!.node_id!], "alice")
        .map((m) => [m.text, m.count]).sort(),
      [["???", 1], ["it was the", 1], ["❌", 2], ["💥", 2]],
    );
  }));

Deno.test("the same failure recorded by several processes at once is counted on one row", async () => {
  const { base, repo, home } = await indexedRepo();
  try {
    const n = 10;
    const results = await Promise.all(
      Array.from({ length: n }, () =>
        cli(home, [
          "attempt",
          "--about",
          "src/util.ts:formatBytes",
          "--failed",
          "--tests",
          "t::kib",
          "rounding broke t::kib",
        ], { cwd: repo, env: ENV })),
    );
    for (const r of results) assert.equal(r.code, 0, r.stderr);
    const j = openJournal(home);
    try {
      const rows = j.all<{ count: number }>(
        "SELECT count FROM memories WHERE kind = 'attempt' AND status = 'open'",
      );
      assert.deepEqual(rows.map((r) => r.count), [n]);
    } finally {
      j.close();
    }
  } finally {
    removeTree(base);
  }
});

Deno.test("agents' accounts of one failure told by several processes at once are all kept", async () => {
  const { repo, home } = await indexedRepo();
  const r = await cli(home, [
    "attempt",
    "--about",
    "src/util.ts:formatBytes",
    "--failed",
    "--tests",
    "t::kib",
    "rounding broke t::kib",
  ], { cwd: repo, env: ENV });
  assert.equal(r.code, 0, r.stderr);
  const n = 30;
  // Each process tells n accounts, one after another, while the other does the same.
  const script = (tag: string) => `
    import { Journal } from ${JSON.stringify(new URL("../src/store/mod.ts", import.meta.url).href)};
    import { describeFailure } from ${
    JSON.stringify(new URL("../src/memory/mod.ts", import.meta.url).href)
  };
    const j = Journal.open(${JSON.stringify(homePaths(home).journal)});
    for (let i = 0; i < ${n}; i++) {
      describeFailure(j, {
        about: ["src/util.ts:formatBytes"],
        text: "account ${tag}" + i,
        author: "alice",
        tests: ["t::kib"],
        cwd: ${JSON.stringify(repo)},
      });
    }
    j.close();`;
  const runs = await Promise.all(["a", "b"].map((tag) =>
    new Deno.Command(Deno.execPath(), {
      args: ["eval", script(tag)],
      env: { DENO_NO_UPDATE_CHECK: "1" },
      stdout: "null",
      stderr: "piped",
    }).output()
  ));
  for (const run of runs) assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
  const j = openJournal(home);
  try {
    const text = j.get<{ text: string }>("SELECT text FROM memories WHERE kind = 'attempt'")!.text;
    const kept = text.match(/Agent's account: /g)?.length ?? 0;
    assert.equal(kept, 2 * n, `${kept} accounts kept of ${2 * n}`);
  } finally {
    j.close();
  }
});

Deno.test("a memory forgotten by two processes at once is forgotten once, by the one told it was", async () => {
  const { repo, home } = await indexedRepo();
  const n = 400;
  const ids = (() => {
    const j = openJournal(home);
    try {
      return Array.from({ length: n }, (_, i) =>
        remember(j, {
          kind: "note",
          about: ["Store.open"],
          text: `note ${i}`,
          author: "alice",
          cwd: repo,
        }).memory.id);
    } finally {
      j.close();
    }
  })();
  // Each process forgets every one, in the same order, and prints those it was told it forgot.
  const script = (who: string) => `
    import { Journal } from ${JSON.stringify(new URL("../src/store/mod.ts", import.meta.url).href)};
    import { forget } from ${JSON.stringify(new URL("../src/memory/mod.ts", import.meta.url).href)};
    const j = Journal.open(${JSON.stringify(homePaths(home).journal)});
    for (const id of ${JSON.stringify(ids)}) {
      try {
        forget(j, id, { author: "${who}" });
        console.log(id);
      } catch (e) {
        if (!/already forgotten/.test(e.message)) throw e;
      }
    }
    j.close();`;
  const runs = await Promise.all(["bob", "carol"].map((who) =>
    new Deno.Command(Deno.execPath(), {
      args: ["eval", script(who)],
      env: { DENO_NO_UPDATE_CHECK: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output()
  ));
  const told = runs.map((run) => {
    assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
    return new TextDecoder().decode(run.stdout).split("\n").filter((l) => l !== "");
  });
  assert.deepEqual([...told[0]!, ...told[1]!].sort(), [...ids].sort());
  const j = openJournal(home);
  try {
    for (const [i, who] of ["bob", "carol"].entries()) {
      for (const id of told[i]!) assert.equal(loadMemories(j, [id])[0]!.forgotten_by, who, id);
    }
  } finally {
    j.close();
  }
});

Deno.test("memory follows a method renamed whose body still calls what it wraps by the old name (real files, CLI reconcile)", async () => {
  const base = tempDir();
  const repo = join(base, "repo");
  const home = join(base, "home");
  const door = `import type { Lock } from "./lock.ts";

export class Door {
  constructor(private lock: Lock) {}

  open(): boolean {
    return this.lock.open();
  }

  close(): void {
    this.lock.close();
  }
}
`;
  writeTree(repo, {
    "src/lock.ts": "export interface Lock {\n  open(): boolean;\n  close(): void;\n}\n",
    "src/door.ts": door,
  });
  try {
    let r = await cli(home, ["index", repo]);
    assert.equal(r.code, 0, r.stderr);
    r = await cli(home, ["remember", "--kind", "decision", "--about", "Door.open", "Never retry"], {
      cwd: repo,
      env: ENV,
    });
    assert.equal(r.code, 0, r.stderr);
    // Only the method's own name changes: it still calls the lock's open().
    Deno.writeTextFileSync(
      join(repo, "src/door.ts"),
      door.replace("  open(): boolean {", "  unlock(): boolean {"),
    );
    r = await cli(home, ["reconcile", "src"], { cwd: repo, env: ENV });
    assert.equal(r.code, 0, r.stderr);
    r = await cli(home, ["why", "Door.unlock", "--json"], { cwd: repo, env: ENV });
    assert.equal(r.code, 0, r.stderr);
    const w = JSON.parse(r.stdout);
    assert.deepEqual(w.current.map((m: Memory) => m.text), ["Never retry"]);
    assert.deepEqual(
      w.current[0].anchors.map((a: Memory["anchors"][0]) => [a.state, a.symbol]),
      [["moved", "Door.unlock"]],
    );
  } finally {
    removeTree(base);
  }
});

Deno.test("a file's memory follows it when the move is reconciled in two passes, the old path first (real files, CLI reconcile)", async () => {
  const { repo, home } = await indexedRepo();
  let r = await cli(home, ["remember", "--kind", "decision", "--about", "src/util.ts", "Pure"], {
    cwd: repo,
    env: ENV,
  });
  assert.equal(r.code, 0, r.stderr);
  Deno.renameSync(join(repo, "src/util.ts"), join(repo, "src/helpers.ts"));
  // One hint for each path, each its own pass (as two daemon passes would take them).
  for (const path of ["src/util.ts", "src/helpers.ts"]) {
    r = await cli(home, ["reconcile", path], { cwd: repo, env: ENV });
    assert.equal(r.code, 0, r.stderr);
  }
  r = await cli(home, ["why", "src/helpers.ts", "--json"], { cwd: repo, env: ENV });
  assert.equal(r.code, 0, r.stderr);
  const w = JSON.parse(r.stdout);
  assert.deepEqual(w.current.map((m: Memory) => m.text), ["Pure"]);
  assert.deepEqual(
    w.current[0].anchors.map((a: Memory["anchors"][0]) => [a.state, a.path, a.moved_from]),
    [["moved", `${repo}/src/helpers.ts`, `${repo}/src/util.ts`]],
  );
});

Deno.test("a new decision leaves a back-filled one whose valid time ended before as history, not superseded (CLI)", async () => {
  const run = succeedingIn(await indexedRepo());
  const about = ["--kind", "decision", "--about", "formatBytes"];
  await run(["remember", ...about, "--valid-from", "2020-01-01", "--valid-to", "2021-01-01", "KB"]);
  await run(["remember", ...about, "--valid-from", "2024-01-01", "Bytes"]);
  const out = await run(["remember", ...about, "--json", "KiB"]);
  const rows = JSON.parse(await run(["history", "formatBytes", "--json"])).memories as Memory[];
  const byText = (t: string) => rows.find((m) => m.text === t)!;
  // Only the decision in force when KiB begins is replaced; the one of 2020 was history already.
  assert.deepEqual(JSON.parse(out).superseded, [byText("Bytes").id]);
  assert.equal(byText("KB").superseded_at, null);
  assert.equal(byText("Bytes").superseded_by, byText("KiB").id);
});

Deno.test("a superseded decision is shown right below the decision that replaced it, even asked in its own words (CLI)", async () => {
  const run = succeedingIn(await indexedRepo());
  const about = ["--kind", "decision", "--about", "formatBytes"];
  await run(["remember", ...about, "Sizes are shown in kilobytes of 1000 bytes, never kibibytes."]);
  await run(["remember", ...about, "Sizes are shown in KiB since the 2.0 release."]);
  await run(["remember", ...about, "--keep", "Sizes round to one decimal place."]);
  const hits = JSON.parse(
    await run(["search", "sizes shown in kilobytes of 1000 bytes", "--kind", "memory", "--json"]),
  ).hits as { summary: string; symbol: string }[];
  // The old words match the old decision best; it was the first hit, the rule no longer in force.
  assert.deepEqual(hits.slice(0, 2).map((h) => h.summary), [
    "Sizes are shown in KiB since the 2.0 release.",
    "Sizes are shown in kilobytes of 1000 bytes, never kibibytes.",
  ]);
  assert.match(hits[1]!.symbol, /\[superseded by \w+\]$/);
});

Deno.test("memory follows a renamed and a moved symbol, and an orphaned one stays answerable (real files, CLI reconcile)", async () => {
  const { repo, home } = await indexedRepo();
  const run = async (args: string[]) => {
    const r = await cli(home, args, { cwd: repo, env: ENV });
    return r;
  };
  let r = await run([
    "remember",
    "--kind",
    "decision",
    "--about",
    "retryConnect",
    "Give up after 4 tries",
  ]);
  assert.equal(r.code, 0, r.stderr);
  r = await run(["remember", "--kind", "note", "--about", "formatBytes", "Uses KiB, not KB"]);
  assert.equal(r.code, 0, r.stderr);
  r = await run(["remember", "--kind", "decision", "--about", "src/util.ts", "Pure helpers only"]);
  assert.equal(r.code, 0, r.stderr);

  // Rename retryConnect (same body), move formatBytes to another file, move util.ts.
  const store = Deno.readTextFileSync(join(repo, "src/store.ts"));
  Deno.writeTextFileSync(
    join(repo, "src/store.ts"),
    store.replaceAll("retryConnect", "connectWithRetries"),
  );
  Deno.renameSync(join(repo, "src/util.ts"), join(repo, "src/helpers.ts"));
  r = await run(["reconcile", "src"]);
  assert.equal(r.code, 0, r.stderr);

  r = await run(["why", "connectWithRetries", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  let w = JSON.parse(r.stdout);
  assert.deepEqual(w.current.map((m: Memory) => m.text), ["Give up after 4 tries"]);
  assert.deepEqual(
    w.current[0].anchors.map((a: Memory["anchors"][0]) => [a.state, a.symbol, a.moved_from]),
    [["moved", "connectWithRetries", `${repo}/src/store.ts:retryConnect`]],
  );
  r = await run(["why", "formatBytes", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  w = JSON.parse(r.stdout);
  assert.equal(w.target.path, `${repo}/src/helpers.ts`);
  // The symbol's own note first, then its (moved) file's decision.
  assert.deepEqual(w.current.map((m: Memory & { via: string }) => [m.text, m.via]), [
    ["Uses KiB, not KB", "symbol"],
    ["Pure helpers only", "file"],
  ]);
  r = await run(["why", "src/helpers.ts", "--json"]);
  w = JSON.parse(r.stdout);
  assert.deepEqual(w.current.map((m: Memory) => m.text).sort(), [
    "Pure helpers only",
    "Uses KiB, not KB",
  ]);

  // Delete the symbol: the memory is orphaned, kept, and still found by its old name.
  Deno.writeTextFileSync(
    join(repo, "src/store.ts"),
    store.slice(0, store.indexOf("export function retryConnect")),
  );
  r = await run(["reconcile", "src"]);
  assert.equal(r.code, 0, r.stderr);
  r = await run(["why", "connectWithRetries", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  w = JSON.parse(r.stdout);
  assert.equal(w.target.type, "gone");
  assert.deepEqual(w.current.map((m: Memory) => [m.text, m.anchors[0]!.state]), [
    ["Give up after 4 tries", "orphaned"],
  ]);
  assert.equal(count(home), 3);
  // Still searchable: its search chunk stays, without a place in a file.
  assert.equal(
    count(
      home,
      "SELECT count(*) AS n FROM chunks WHERE source = 'memory' AND anchor IS NULL AND title LIKE '%code gone%'",
    ),
    1,
  );
  // The history tells the story.
  r = await run(["history", "connectWithRetries", "--json"]);
  const h = JSON.parse(r.stdout);
  assert.deepEqual(h.events.map((e: { event: string }) => e.event).sort(), [
    "orphaned",
    "recorded",
  ]);

  // The symbol comes back where it was: the anchor is restored.
  Deno.writeTextFileSync(
    join(repo, "src/store.ts"),
    store.replaceAll("retryConnect", "connectWithRetries"),
  );
  r = await run(["reconcile", "src"]);
  r = await run(["why", "connectWithRetries", "--json"]);
  w = JSON.parse(r.stdout);
  assert.equal(w.target.type, "symbol");
  assert.equal(w.current[0].anchors[0].state, "moved");
});

/**
 * A memory on retryConnect, renamed dialOnce and reconciled, whose anchor is
 * put back as it was before the writer's sweep: a writer that died between
 * its commit and its sweep. The index moved on, the anchor did not.
 */
async function anchorLeftBehind(): Promise<{ repo: string; home: string }> {
  const { repo, home } = await indexedRepo();
  let r = await cli(home, ["remember", "--kind", "note", "--about", "retryConnect", "slow"], {
    cwd: repo,
    env: ENV,
  });
  assert.equal(r.code, 0, r.stderr);
  const columns = "node_id, symbol, name, struct_hash, shape";
  const j = openJournal(home);
  try {
    const before = j.get<Record<string, string>>(`SELECT ${columns} FROM memory_anchors`)!;
    const store = Deno.readTextFileSync(join(repo, "src/store.ts"));
    Deno.writeTextFileSync(
      join(repo, "src/store.ts"),
      store.replaceAll("retryConnect", "dialOnce"),
    );
    r = await cli(home, ["reconcile", "src"], { cwd: repo });
    assert.equal(r.code, 0, r.stderr);
    j.run(
      "UPDATE memory_anchors SET node_id = ?, symbol = ?, name = ?, struct_hash = ?, shape = ?, state = 'active', moved_from = NULL",
      ...columns.split(", ").map((c) => before[c]!),
    );
  } finally {
    j.close();
  }
  return { repo, home };
}

Deno.test("a read re-anchors the code it asks about when a writer died between its commit and its sweep", async () => {
  const { repo, home } = await anchorLeftBehind();
  const j = openJournal(home);
  try {
    const w = why(j, "dialOnce", { viewer: "alice", cwd: repo });
    assert.deepEqual(w.current.map((m) => [m.text, m.anchors[0]!.state, m.anchors[0]!.symbol]), [
      ["slow", "moved", "dialOnce"],
    ]);
  } finally {
    j.close();
  }
});

Deno.test("a read-only reader (hooks, MCP, the dashboard) asking about code a dead writer left un-swept gets its memory, not 'attempt to write a readonly database'", async () => {
  const { repo, home } = await anchorLeftBehind();
  const j = Journal.open(homePaths(home).journal, { readOnly: true });
  try {
    const w = why(j, "dialOnce", { viewer: "alice", cwd: repo });
    assert.deepEqual(w.current.map((m) => [m.text, m.anchors[0]!.state, m.anchors[0]!.symbol]), [
      ["slow", "moved", "dialOnce"],
    ]);
    assert.equal(history(j, "dialOnce", { viewer: "alice", cwd: repo }).memories.length, 1);
  } finally {
    j.close();
  }
});

Deno.test("the daemon re-anchors memory after a pass, before anyone reads it", async () => {
  const { repo, home } = await indexedRepo();
  let r = await cli(home, ["remember", "--kind", "note", "--about", "retryConnect", "slow"], {
    cwd: repo,
    env: ENV,
  });
  assert.equal(r.code, 0, r.stderr);
  const daemon = await startDaemon(home);
  try {
    const store = Deno.readTextFileSync(join(repo, "src/store.ts"));
    Deno.writeTextFileSync(
      join(repo, "src/store.ts"),
      store.replaceAll("retryConnect", "connectOnce"),
    );
    await waitFor(
      () =>
        count(
          home,
          "SELECT count(*) AS n FROM memory_anchors WHERE symbol = 'connectOnce' AND state = 'moved'",
        ) === 1,
      20_000,
      "the anchor to follow the rename",
    );
  } finally {
    assert.equal(await daemon.stop(), 0);
  }
  r = await cli(home, ["why", "connectOnce"], { cwd: repo, env: ENV });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /slow/);
});

Deno.test("export → import into a fresh home → export is byte-identical; a second import changes nothing", async () => {
  const { base, repo, home } = await indexedRepo();
  const j = openJournal(home);
  try {
    const d1 = remember(j, {
      kind: "decision",
      about: ["Store.open", "src/util.ts"],
      text: 'line one\nline two, with "quotes" and ünïcode',
      author: "alice",
      cwd: repo,
      now: T0,
      taskId: "T-1",
    });
    remember(j, {
      kind: "decision",
      about: ["Store.open", "src/util.ts"],
      text: "replaced",
      author: "bob",
      cwd: repo,
      now: T0 + DAY,
      validTo: T0 + 9 * DAY,
    });
    remember(j, {
      kind: "note",
      about: ["src"],
      text: "mine",
      author: "alice",
      scope: "private",
      cwd: repo,
      now: T0,
    });
    recordAttempt(j, {
      about: ["retryConnect"],
      outcome: "failed",
      text: "x",
      tests: ["t1"],
      author: "carol",
      cwd: repo,
      now: T0,
    });
    recordAttempt(j, {
      about: ["retryConnect"],
      outcome: "failed",
      text: "y",
      tests: ["t1"],
      author: "carol",
      cwd: repo,
      now: T0 + 1,
    });
    recordAttempt(j, {
      about: ["retryConnect"],
      outcome: "passed",
      text: "z",
      author: "carol",
      cwd: repo,
      now: T0 + 2,
      fix: "https://example.com/pr/1",
    });
    forget(j, d1.memory.id, { author: "alice", now: T0 + 3 * DAY });
  } finally {
    j.close();
  }
  // An orphaned anchor too.
  Deno.removeSync(join(repo, "src/util.ts"));
  let r = await cli(home, ["reconcile", "src"], { cwd: repo });
  assert.equal(r.code, 0, r.stderr);
  // And a note (`heimdall insert`), with a path it points at.
  r = await cli(home, [
    "insert",
    "--title",
    "Backoff for flaky uploads",
    "--body",
    "Retry uploads with jittered exponential backoff",
    "--keywords",
    "retry,upload",
    "--path",
    join(repo, "src"),
  ]);
  assert.equal(r.code, 0, r.stderr);

  const exported = join(base, "a.jsonl");
  r = await cli(home, ["export", "--out", exported]);
  assert.equal(r.code, 0, r.stderr);
  const first = Deno.readTextFileSync(exported);
  assert.equal(first.trim().split("\n").length, 1 + 5 + 1 + 1); // header, memories, a note, the end
  assert.match(first, /"state":"orphaned"/);
  assert.match(first, /"type":"note","title":"Backoff for flaky uploads"/);

  const fresh = join(base, "fresh-home");
  r = await cli(fresh, ["import", exported]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /imported 5 new memories, .*; 1 new note, 0 already here/);
  r = await cli(fresh, ["export"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, first);
  // The imported note is searchable there at once.
  r = await cli(fresh, ["search", "jittered backoff", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(
    (JSON.parse(r.stdout).hits as { source: string; title?: string }[]).some((h) =>
      h.source === "notes"
    ),
    r.stdout,
  );

  r = await cli(home, ["import", exported, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    added: 0,
    updated: 0,
    unchanged: 5,
    kept: 0,
    rebased: 0,
    redacted: 0,
    notesAdded: 0,
    notesUnchanged: 1,
    unchecked: 0,
  });

  // A bad line: exit 2, the line named, nothing written.
  const bad = join(base, "bad.jsonl");
  const lines = first.trim().split("\n");
  Deno.writeTextFileSync(
    bad,
    [lines[0], lines[1]!.replace(/"kind":"[a-z]+"/, '"kind":"wish"')].join("\n"),
  );
  const empty = join(base, "empty-home");
  r = await cli(empty, ["import", bad]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /bad\.jsonl:2: unknown kind "wish"/);
  assert.equal(count(empty), 0);
});

Deno.test("import keeps a forget made on the other machine, though the copy here changed later (superseded here)", async () => {
  const { base, repo, home } = await indexedRepo();
  // Another machine with the same repository indexed.
  assert.equal((await cli(join(base, "home2"), ["index", repo])).code, 0);
  const a = openJournal(home);
  const b = openJournal(join(base, "home2"));
  const now = Date.now(); // import refuses times after this machine's clock
  const move = (from: Journal, to: Journal) =>
    importMemories(to, [...exportMemories(from)].join("\n") + "\n", "export");
  try {
    const on = { kind: "decision", about: ["Store.open"], cwd: repo, author: "alice" } as const;
    const d1 = remember(a, { ...on, text: "open() retries twice", now: now - 3 * DAY }).memory;
    move(a, b);
    // On A, the decision is forgotten; later, on B, a new decision supersedes it.
    forget(a, d1.id, { author: "bob", now: now - 2 * DAY });
    const d2 = remember(b, { ...on, text: "open() never retries", now: now - DAY }).memory;
    const r = move(a, b);
    assert.equal(r.updated, 1, JSON.stringify(r));
    const [m] = loadMemories(b, [d1.id]);
    assert.deepEqual(
      [m!.forgotten_by, m!.forgotten_at, m!.superseded_by],
      ["bob", now - 2 * DAY, d2.id],
    );
    // The same file again changes nothing; and B's copy, taken back to A, keeps both marks there.
    assert.equal(move(a, b).updated, 0);
    move(b, a);
    const [back] = loadMemories(a, [d1.id]);
    assert.deepEqual([back!.forgotten_by, back!.superseded_by], ["bob", d2.id]);
  } finally {
    a.close();
    b.close();
  }
});

Deno.test("import does not hide a failure that came back after the other copy's fix, whichever copy is newer", async () => {
  const { base, repo, home } = await indexedRepo();
  assert.equal((await cli(join(base, "home2"), ["index", repo])).code, 0);
  const a = openJournal(home);
  const b = openJournal(join(base, "home2"));
  const now = Date.now(); // import refuses times after this machine's clock
  const move = (from: Journal, to: Journal) =>
    importMemories(to, [...exportMemories(from)].join("\n") + "\n", "export");
  const attempt = (j: Journal, about: string, outcome: "failed" | "passed", at: number) =>
    recordAttempt(j, {
      about: [about],
      outcome,
      text: outcome === "failed" ? `${about} leaks a handle` : "closed in finally",
      author: "alice",
      cwd: repo,
      now: at,
    }).memory;
  const state = (j: Journal, id: string) => {
    const [m] = loadMemories(j, [id]);
    return [m!.status, m!.count];
  };
  try {
    const f = attempt(a, "Store.open", "failed", now - 5 * DAY);
    const g = attempt(a, "Store.close", "failed", now - 5 * DAY);
    move(a, b);
    // F: fixed on A, failing again on B later (B's copy is newer).
    attempt(a, "Store.open", "passed", now - 4 * DAY);
    assert.equal(attempt(b, "Store.open", "failed", now - 3 * DAY).id, f.id);
    // G: fixed on B, failing again on A later (A's copy is newer).
    attempt(b, "Store.close", "passed", now - 4 * DAY);
    assert.equal(attempt(a, "Store.close", "failed", now - 3 * DAY).id, g.id);
    move(b, a);
    assert.deepEqual(state(a, f.id), ["open", 2]);
    assert.deepEqual(state(a, g.id), ["open", 2]);
  } finally {
    a.close();
    b.close();
  }
});

Deno.test("rebuild backs up the journal, re-derives the index and keeps every memory", async () => {
  const { repo, home } = await indexedRepo();
  for (
    const args of [
      ["remember", "--kind", "decision", "--about", "Store.open", "keep me"],
      ["attempt", "--about", "retryConnect", "--failed", "--tests", "t1", "nope"],
      ["remember", "--kind", "note", "--about", "src/util.ts", "and me"],
    ]
  ) {
    const r = await cli(home, args, { cwd: repo, env: ENV });
    assert.equal(r.code, 0, r.stderr);
  }
  // Drift the rebuild must clear: a ghost node no path owns.
  const j = openJournal(home);
  j.run(
    "INSERT INTO nodes (id, path_id, kind, name, qualname) VALUES ('ghost', 9999, 'function', 'ghost', 'ghost')",
  );
  j.close();
  const r = await cli(home, ["rebuild", "--json"], { cwd: repo });
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.ok(Deno.statSync(out.backup).isFile);
  assert.equal(out.kept.memories, 3);
  assert.equal(out.anchors.orphaned, 0);
  assert.equal(count(home, "SELECT count(*) AS n FROM nodes WHERE id = 'ghost'"), 0);
  assert.ok(count(home, "SELECT count(*) AS n FROM nodes") > 0);
  // The backup is a journal holding the ghost and the memories.
  const backup = Journal.open(out.backup, { readOnly: true });
  assert.equal(backup.get<{ n: number }>("SELECT count(*) AS n FROM memories")!.n, 3);
  assert.equal(
    backup.get<{ n: number }>("SELECT count(*) AS n FROM nodes WHERE id = 'ghost'")!.n,
    1,
  );
  backup.close();
  const w = await cli(home, ["why", "Store.open", "--json"], { cwd: repo, env: ENV });
  assert.equal(w.code, 0, w.stderr);
  assert.deepEqual(JSON.parse(w.stdout).current[0].anchors[0].state, "active");
  assert.equal(count(home, "SELECT count(*) AS n FROM memory_anchors WHERE state != 'active'"), 0);
});

Deno.test("bad input exits 2 with the value named, and writes nothing", async () => {
  const { repo, home } = await indexedRepo();
  const ok = await cli(home, ["remember", "--kind", "note", "--about", "Store.open", "base"], {
    cwd: repo,
    env: ENV,
  });
  assert.equal(ok.code, 0, ok.stderr);
  const cases: [string[], RegExp][] = [
    [
      ["remember", "--kind", "wish", "--about", "Store.open", "x"],
      /Unknown kind "wish": expected one of decision, convention, note, fact, preference, page$/m,
    ],
    [["remember", "--kind", "decision", "--about", "noSuchThing", "x"], /No symbol "noSuchThing"/],
    [
      ["remember", "--kind", "decision", "--about", "open", "x"],
      /"open" is ambiguous[\s\S]*Store\.open/,
    ],
    [["remember", "--kind", "decision", "x"], /pass --about/],
    [["remember", "--kind", "decision", "--about", "Store.open", "  "], /Empty text/],
    [
      ["remember", "--kind", "decision", "--about", "Store.open", "--scope", "world", "x"],
      /Unknown scope "world"/,
    ],
    [
      [
        "remember",
        "--kind",
        "decision",
        "--about",
        "Store.open",
        "--valid-from",
        "2025-02-30",
        "x",
      ],
      /Invalid --valid-from "2025-02-30"/,
    ],
    [
      [
        "remember",
        "--kind",
        "fact",
        "--about",
        "Store.open",
        "--valid-from",
        "2025-03-02",
        "--valid-to",
        "2025-03-01",
        "x",
      ],
      /--valid-to .* is not after --valid-from/,
    ],
    [["remember", "--kind", "attempt", "--about", "Store.open", "x"], /use `heimdall attempt/],
    [["attempt", "--about", "Store.open", "x"], /exactly one of --failed or --passed/],
    [
      ["attempt", "failed", "--about", "Store.open", "x"],
      /"failed" before the text .*write --failed/,
    ],
    [
      ["remember", "decision", "--about", "Store.open", "x"],
      /Missing --kind.*pass it as the flag: `heimdall remember --kind decision --about …`/,
    ],
    [
      ["attempt", "--about", "Store.open", "--failed", "--fix", "abc", "x"],
      /--fix names what fixed it/,
    ],
    [["why", "Store.open", "--as-of", "yesterday"], /Invalid --as-of "yesterday"/],
    [["why", "nothingByThisName"], /No symbol "nothingByThisName"/],
    [["forget", "mzzzzzzzzzz"], /No memory "mzzzzzzzzzz"/],
    [["history", "--kind", "gossip"], /Unknown kind "gossip"/],
  ];
  for (const [args, message] of cases) {
    const r = await cli(home, args, { cwd: repo, env: ENV });
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message, args.join(" "));
    assert.equal(count(home), 1, `${args.join(" ")} wrote something`);
  }
  // The library says the same through its own error types.
  const j = openJournal(home);
  try {
    assert.throws(
      () => remember(j, { kind: "wish", about: ["Store.open"], text: "x", author: "a", cwd: repo }),
      MemoryInputError,
    );
    assert.throws(
      () => remember(j, { kind: "note", about: ["nope"], text: "x", author: "a", cwd: repo }),
      SymbolLookupError,
    );
  } finally {
    j.close();
  }
  assert.equal(count(home), 1);
});

Deno.test("secrets are redacted on write; forget marks, keeps history and leaves search", async () => {
  const { repo, home } = await indexedRepo();
  const token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
  let r = await cli(
    home,
    [
      "remember",
      "--kind",
      "fact",
      "--about",
      "Store.open",
      "--json",
      `CI uses token ${token} for pushes`,
    ],
    { cwd: repo, env: ENV },
  );
  assert.equal(r.code, 0, r.stderr);
  const id = JSON.parse(r.stdout).memory.id as string;
  const j = openJournal(home);
  try {
    const stored = j.get<{ text: string }>("SELECT text FROM memories WHERE id = ?", id)!.text;
    assert.equal(stored, "CI uses token [REDACTED:github_token] for pushes");
    assert.equal(
      j.get<{ n: number }>("SELECT count(*) AS n FROM chunks WHERE text LIKE ?", `%${token}%`)!.n,
      0,
    );
    assert.equal(
      j.get<{ n: number }>(
        "SELECT count(*) AS n FROM chunks WHERE source = 'memory' AND ref_id = ?",
        id,
      )!
        .n,
      1,
    );
  } finally {
    j.close();
  }
  r = await cli(home, ["forget", id.slice(0, 6)], { cwd: repo, env: { HEIMDALL_AUTHOR: "bob" } });
  assert.equal(r.code, 0, r.stderr);
  r = await cli(home, ["forget", id], { cwd: repo, env: ENV });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /already forgotten/);
  r = await cli(home, ["why", "Store.open", "--json"], { cwd: repo, env: ENV });
  const w = JSON.parse(r.stdout);
  assert.equal(w.current.length, 0);
  assert.deepEqual(
    w.history.map((m: Memory & { standing: string }) => [m.id, m.standing, m.forgotten_by]),
    [
      [id, "forgotten", "bob"],
    ],
  );
  assert.equal(count(home, `SELECT count(*) AS n FROM chunks WHERE source = 'memory'`), 0);
  const h = openJournal(home);
  try {
    const all = history(h, null, { viewer: "alice" });
    assert.deepEqual(all.events.map((e) => e.event), ["forgotten", "recorded"]);
  } finally {
    h.close();
  }
});

Deno.test("private memories are shown to their author only", () =>
  withIndexedJournal(({ j, repo }) => {
    remember(j, {
      kind: "note",
      about: ["Store.open"],
      text: "my hunch",
      author: "alice",
      scope: "private",
      cwd: repo,
    });
    assert.equal(why(j, "Store.open", { viewer: "alice", cwd: repo }).current.length, 1);
    assert.equal(why(j, "Store.open", { viewer: "bob", cwd: repo }).current.length, 0);
  }));

Deno.test("history without a target lists the newest memories the viewer may see, however many private ones of others are newer", () =>
  withIndexedJournal(({ j, repo }) => {
    const note = (text: string, author: string, scope: string, now: number) =>
      remember(j, { kind: "note", about: ["Store.open"], text, author, scope, cwd: repo, now });
    note("shared rule", "alice", "project", T0);
    note("also shared", "alice", "project", T0 + 1);
    for (let i = 0; i < 10; i++) note(`bob's aside ${i}`, "bob", "private", T0 + 10 + i);
    const seen = (limit: number, author?: string) =>
      history(j, null, { viewer: "alice", limit, ...(author ? { author } : {}) }).memories
        .map((m) => m.text);
    assert.deepEqual(seen(2), ["also shared", "shared rule"]);
    assert.deepEqual(seen(1), ["also shared"]);
    assert.deepEqual(seen(1, "bob"), []);
    assert.equal(history(j, null, { viewer: "bob", limit: 1 }).memories[0]!.text, "bob's aside 9");
  }));

Deno.test("a private decision leaves the shared one current for everyone else", () =>
  withIndexedJournal(({ j, repo }) => {
    const on = { kind: "decision", about: ["Store.open"], cwd: repo } as const;
    const shared = remember(j, { ...on, text: "open() throws", author: "alice", now: T0 });
    const aside = remember(j, {
      ...on,
      text: "I would return -1 here",
      author: "bob",
      scope: "private",
      now: T0 + DAY,
    });
    assert.deepEqual(aside.superseded, []);
    const seen = (viewer: string) =>
      why(j, "Store.open", { viewer, cwd: repo, now: T0 + 2 * DAY }).current.map((m) => m.id);
    assert.deepEqual(seen("alice"), [shared.memory.id]);
    assert.deepEqual(seen("bob").sort(), [shared.memory.id, aside.memory.id].sort());
    // Bob's next private thought replaces his own; naming the shared one is refused.
    const next = remember(j, {
      ...on,
      text: "maybe -2",
      author: "bob",
      scope: "private",
      now: T0 + 3 * DAY,
    });
    assert.deepEqual(next.superseded, [aside.memory.id]);
    assert.throws(
      () =>
        remember(j, {
          ...on,
          text: "mine wins",
          author: "bob",
          scope: "private",
          supersedes: [shared.memory.id],
        }),
      /is shared \(project\): a private memory cannot supersede it.*--scope project/,
    );
  }));

Deno.test("a mistyped path is named as a missing file, not only as an unknown symbol", () =>
  withIndexedJournal(({ j, repo }) => {
    const missing = (e: unknown) =>
      e instanceof SymbolLookupError &&
      e.message.startsWith(`No file or folder "${repo}/src/stor.ts", and no symbol "src/stor.ts`);
    assert.throws(
      () =>
        remember(j, { kind: "note", about: ["src/stor.ts"], text: "x", author: "a", cwd: repo }),
      missing,
    );
    assert.throws(() => why(j, "src/stor.ts", { viewer: "a", cwd: repo }), missing);
    assert.throws(
      () =>
        remember(j, {
          kind: "note",
          about: ["src/stor.ts:open"],
          text: "x",
          author: "a",
          cwd: repo,
        }),
      missing,
    );
    // The file is there, the symbol is not: only the symbol is missing.
    assert.throws(
      () => why(j, "src/store.ts:nope", { viewer: "a", cwd: repo }),
      /^SymbolLookupError: No symbol "src\/store\.ts:nope" in the index/,
    );
  }));

Deno.test("another author's private memory cannot be forgotten or superseded by id", () =>
  withIndexedJournal(({ j, repo }) => {
    const hunch = remember(j, {
      kind: "decision",
      about: ["Store.open"],
      text: "my hunch",
      author: "alice",
      scope: "private",
      cwd: repo,
    }).memory.id;
    const unknown = new RegExp(`No memory "${hunch.slice(0, 6)}"`);
    assert.throws(() => forget(j, hunch.slice(0, 6), { author: "bob" }), unknown);
    assert.throws(
      () =>
        remember(j, {
          kind: "decision",
          about: ["src/util.ts"],
          text: "x",
          author: "bob",
          cwd: repo,
          supersedes: [hunch.slice(0, 6)],
        }),
      unknown,
    );
    assert.equal(why(j, "Store.open", { viewer: "alice", cwd: repo }).current[0]?.id, hunch);
    assert.equal(forget(j, hunch, { author: "alice" }).forgotten_by, "alice");
  }));

Deno.test("an export is the journal at one instant, though another process supersedes a decision while it is written", async () => {
  const { repo, home } = await indexedRepo();
  const writer = openJournal(home);
  const reader = Journal.open(homePaths(home).journal, { readOnly: true });
  try {
    const decide = (text: string, now: number, kind = "decision") =>
      remember(writer, {
        kind,
        about: ["src/util.ts"],
        text,
        author: "alice",
        cwd: repo,
        now,
      });
    const first = decide("sizes are in bytes", T0);
    decide("a note before it", T0 - DAY, "note"); // exported first (oldest)
    const lines = exportMemories(reader);
    const head = [lines.next().value, lines.next().value]; // the header, the oldest memory
    // Meanwhile, another process decides again: the first decision is superseded.
    const second = decide("sizes are in kibibytes", T0 + DAY);
    assert.deepEqual(second.superseded, [first.memory.id]);
    const rest = [...lines];
    const exported = [...head, ...rest].map((l) => JSON.parse(l!));
    const ids = exported.filter((r) => r.id).map((r) => r.id);
    assert.ok(!ids.includes(second.memory.id), "the later decision is not in this export");
    const kept = exported.find((r) => r.id === first.memory.id);
    assert.equal(kept.superseded_by, null, "nor is its mark on the first");
  } finally {
    reader.close();
    writer.close();
  }
});

Deno.test("a decision that waited for the lock is recorded after the one committed meanwhile, which it supersedes no earlier than that was recorded", async () => {
  const { repo, home } = await indexedRepo();
  const a = openJournal(home);
  const b = openJournal(home);
  try {
    const input = (text: string): RememberInput => ({
      kind: "decision",
      about: ["src/util.ts"],
      text,
      author: "alice",
      cwd: repo,
    });
    // One process checks its decision, then waits for the lock while another commits one.
    const waited = prepareRemember(a, input("sizes are in kibibytes"));
    await new Promise((r) => setTimeout(r, 20));
    const meanwhile = remember(b, input("sizes are in bytes"));
    const last = writeRemembered(a, waited);
    assert.deepEqual(last.superseded, [meanwhile.memory.id]);
    const [earlier] = loadMemories(a, [meanwhile.memory.id]);
    assert.ok(
      earlier!.superseded_at! >= earlier!.recorded_at,
      `superseded at ${earlier!.superseded_at}, before it was recorded at ${earlier!.recorded_at}`,
    );
    assert.ok(last.memory.recorded_at >= earlier!.recorded_at);
    // As of every instant, one decision on the file stands, never two.
    for (const t of [earlier!.recorded_at, last.memory.recorded_at, waited.now]) {
      const current = why(a, "src/util.ts", { viewer: "alice", cwd: repo, asOf: t }).current;
      assert.ok(current.filter((m) => m.kind === "decision").length <= 1, `as of ${t}`);
    }
  } finally {
    a.close();
    b.close();
  }
});

Deno.test("a forget that waited for the lock while the decision was superseded is dated after that, not before", async () => {
  const { repo, home } = await indexedRepo();
  const b = openJournal(home);
  try {
    const input = (text: string): RememberInput => ({
      kind: "decision",
      about: ["src/util.ts"],
      text,
      author: "alice",
      cwd: repo,
    });
    const first = remember(b, input("sizes are in bytes"));
    // This process holds the lock; `heimdall forget` starts and waits for it.
    b.db.exec("BEGIN IMMEDIATE");
    const forgetting = cli(home, ["forget", first.memory.id], { cwd: repo });
    const intent = Deno.openSync(`${homePaths(home).journal}-wait`, {
      read: true,
      write: true,
      create: true,
    });
    try {
      await waitFor(
        () => {
          if (!intent.tryLockSync(true)) return true; // held shared: the forget waits
          intent.unlockSync();
          return false;
        },
        20_000,
        "the forget waiting for the lock",
      );
    } finally {
      intent.close();
    }
    await new Promise((r) => setTimeout(r, 50));
    const second = remember(b, input("sizes are in kibibytes"));
    b.db.exec("COMMIT");
    const r = await forgetting;
    assert.equal(r.code, 0, r.stderr);
    const [x] = loadMemories(b, [first.memory.id]);
    assert.equal(x!.superseded_by, second.memory.id);
    assert.ok(
      x!.forgotten_at! >= x!.superseded_at!,
      `forgotten at ${x!.forgotten_at}, before the supersede it waited for (${x!.superseded_at})`,
    );
  } finally {
    if (b.db.isTransaction) b.db.exec("ROLLBACK");
    b.close();
  }
});
