/**
 * What a person or an agent writes into memory is held to what an import of
 * its export accepts, and keeps no secret in any field: real repositories
 * in temp folders, the real CLI, export → import into a fresh home.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { homePaths } from "../src/config/mod.ts";
import { exportMemories, importMemories, recordAttempt, remember } from "../src/memory/mod.ts";
import { Journal } from "../src/store/mod.ts";
import { cli, indexedTree, MAIN, PERMS, tempDir, writeTree } from "./helpers.ts";

const ENV = { HEIMDALL_AUTHOR: "alice" };
// Assembled at run time, so this file holds no token for a scanner to find.
const GITHUB = "gh" + "p_Zx9Kq2Lm8Np4Rs6Tv1Wy3Ab5Cd7Ef0GhIjKl";
const SLACK = "xo" + "xb-2384756102-9182736450-QwErTyUiOpAsDfGhJkLzXcVb";

/** A repository with one TypeScript file, indexed into a fresh home. */
const indexedRepo = () =>
  indexedTree({ "src/util.ts": "export function formatBytes(n: number) {\n  return n;\n}\n" });

function count(home: string, sql: string): number {
  const j = Journal.open(homePaths(home).journal, { readOnly: true });
  try {
    return j.get<{ n: number }>(sql)!.n;
  } finally {
    j.close();
  }
}

/** Every export line of `home` imported into a fresh home; returns how many records were read. */
function exportImports(home: string, fresh: string): number {
  const from = Journal.open(homePaths(home).journal, { readOnly: true });
  const to = Journal.open(homePaths(fresh).journal);
  try {
    const lines = [...exportMemories(from)];
    const r = importMemories(to, lines.join("\n") + "\n", "export");
    // All but the header and the end record.
    assert.equal(r.added + r.notesAdded, lines.length - 2);
    return lines.length - 2;
  } finally {
    from.close();
    to.close();
  }
}

Deno.test("remember and attempt redact secrets in --task and --author; the author still sees a private memory", async () => {
  const { repo, home } = await indexedRepo();
  let r = await cli(home, [
    "remember",
    "--kind",
    "note",
    "--about",
    "src/util.ts",
    "--task",
    GITHUB,
    "--author",
    SLACK,
    "--scope",
    "private",
    "deploy note",
  ], { cwd: repo });
  assert.equal(r.code, 0, r.stderr);
  r = await cli(home, [
    "attempt",
    "--about",
    "src/util.ts",
    "--failed",
    "--task",
    `T-1 ${GITHUB}`,
    "--author",
    `bot ${SLACK}`,
    "deploy failed",
  ], { cwd: repo });
  assert.equal(r.code, 0, r.stderr);
  r = await cli(home, ["why", "src/util.ts", "--json", "--author", SLACK], { cwd: repo });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.stdout.includes(GITHUB) && !r.stdout.includes(SLACK), r.stdout);
  const w = JSON.parse(r.stdout);
  assert.deepEqual(
    w.current.map((m: { author: string; task_id: string }) => [m.author, m.task_id]).sort(),
    [
      ["[REDACTED:slack_token]", "[REDACTED:github_token]"],
      ["bot [REDACTED:slack_token]", "T-1 [REDACTED:github_token]"],
    ],
  );
  // history --author finds them by the name as typed, secret and all.
  r = await cli(home, ["history", "--json", "--author", `bot ${SLACK}`], { cwd: repo });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    JSON.parse(r.stdout).memories.map((m: { author: string }) => m.author),
    ["bot [REDACTED:slack_token]"],
  );
  r = await cli(home, ["forget", w.current[0].id, "--author", `me ${GITHUB}`], { cwd: repo });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    count(
      home,
      `SELECT count(*) AS n FROM memories WHERE forgotten_by = 'me [REDACTED:github_token]'`,
    ),
    1,
  );
  assert.equal(
    count(
      home,
      `SELECT count(*) AS n FROM memories
       WHERE author || task_id || coalesce(forgotten_by, '') LIKE '%QwErTy%'
          OR author || task_id || coalesce(forgotten_by, '') LIKE '%Zx9Kq2%'`,
    ),
    0,
  );
});

Deno.test("an --author or --task with stray spaces is stored trimmed, the person HEIMDALL_AUTHOR names", async () => {
  const { repo, home } = await indexedRepo();
  let r = await cli(home, [
    "remember",
    "--kind",
    "note",
    "--about",
    "src/util.ts",
    "--author",
    " zed ",
    "--scope",
    "private",
    "mine",
  ], { cwd: repo });
  assert.equal(r.code, 0, r.stderr);
  // Stored as " zed ": zed (HEIMDALL_AUTHOR, trimmed) did not see their own private note.
  r = await cli(home, ["why", "src/util.ts", "--json"], {
    cwd: repo,
    env: { HEIMDALL_AUTHOR: "zed" },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).current.map((m: { author: string }) => m.author), ["zed"]);
  r = await cli(home, ["history", "--json", "--author", "zed"], {
    cwd: repo,
    env: { HEIMDALL_AUTHOR: "zed" },
  });
  assert.deepEqual(JSON.parse(r.stdout).memories.map((m: { text: string }) => m.text), ["mine"]);
  // The filter as typed with spaces is the same person too.
  r = await cli(home, ["history", "--json", "--author", "zed "], {
    cwd: repo,
    env: { HEIMDALL_AUTHOR: "zed" },
  });
  assert.deepEqual(JSON.parse(r.stdout).memories.map((m: { text: string }) => m.text), ["mine"]);
  // Typed with spaces again, zed may replace it by id, as `forget --author " zed "` may forget it.
  const id = JSON.parse(r.stdout).memories[0].id as string;
  r = await cli(home, [
    "remember",
    "--kind",
    "note",
    "--about",
    "src/util.ts",
    "--author",
    " zed ",
    "--scope",
    "private",
    "--supersedes",
    id,
    "mine, reworded",
  ], { cwd: repo });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`supersedes ${id}`));
  // A task id typed with spaces is the task's id.
  r = await cli(home, [
    "remember",
    "--kind",
    "note",
    "--about",
    "src/util.ts",
    "--task",
    " T-1 ",
    "on it",
  ], {
    cwd: repo,
  });
  assert.equal(r.code, 0, r.stderr);
  r = await cli(home, ["why", "src/util.ts", "--json"], { cwd: repo });
  const tasks = JSON.parse(r.stdout).current.map((m: { task_id: string | null }) => m.task_id);
  assert.ok(tasks.includes("T-1"), JSON.stringify(tasks));
});

Deno.test("a bad author, task, valid time or id prefix exits 2 naming the value, and writes nothing", async () => {
  const { repo, home } = await indexedRepo();
  const ok = await cli(
    home,
    ["remember", "--kind", "note", "--about", "src/util.ts", "--json", "base"],
    { cwd: repo, env: ENV },
  );
  assert.equal(ok.code, 0, ok.stderr);
  const id = JSON.parse(ok.stdout).memory.id as string;
  const note = ["remember", "--kind", "note", "--about", "src/util.ts"];
  const long = "a".repeat(4_097);
  const cases: [string[], RegExp][] = [
    [[...note, "--author", "", "x"], /Empty author "": give a name with --author NAME/],
    [[...note, "--author", "  ", "x"], /Empty author/],
    [[...note, "--author", long, "x"], /Author too long: 4097 characters, at most 4096/],
    [[...note, "--task", "", "x"], /Empty task id "": give the task's id with --task ID/],
    [[...note, "--task", "  ", "x"], /Empty task id "": give the task's id with --task ID/],
    [[...note, "--task", long, "x"], /Task id too long: 4097 characters, at most 4096/],
    [
      [...note, "--task", ("https://u:" + "k9d2m7q@h ").repeat(150), "x"],
      /Task id too long: 5399 characters once secrets are redacted, at most 4096/,
    ],
    [
      [...note, "--valid-to", "2100-01-01", "x"],
      /Invalid --valid-to "2100-01-01": expected a date from 1970-01-01 to 2099-12-31/,
    ],
    [
      [...note, ("https://u:" + "k9d2m7q@h ").repeat(3_000)],
      /Text too long: 107999 characters once secrets are redacted, at most 65536/,
    ],
    [["attempt", "--about", "src/util.ts", "--failed", "--author", "", "x"], /Empty author/],
    [["attempt", "--about", "src/util.ts", "--failed", "--task", long, "x"], /Task id too long/],
    [["forget", id, "--author", ""], /Empty author/],
    [
      ["forget", id.slice(0, 3)],
      new RegExp(
        `"${id.slice(0, 3)}" is too short to name a memory: give its whole id or its first 4`,
      ),
    ],
  ];
  for (const [args, message] of cases) {
    const r = await cli(home, args, { cwd: repo, env: ENV });
    assert.equal(r.code, 2, `${args.join(" ").slice(0, 80)}: ${r.stderr}`);
    assert.match(r.stderr, message, args.join(" ").slice(0, 80));
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.equal(count(home, "SELECT count(*) AS n FROM memories"), 1);
    assert.equal(count(home, "SELECT count(*) AS n FROM memories WHERE forgotten_at IS NULL"), 1);
  }
  // The last valid day is accepted, and what it stores imports back.
  const last = await cli(home, [...note, "--valid-to", "2099-12-31", "until then"], {
    cwd: repo,
    env: ENV,
  });
  assert.equal(last.code, 0, last.stderr);
  const full = await cli(home, [
    ...note,
    "--author",
    "b".repeat(4_096),
    "--task",
    "t".repeat(4_096),
    "x",
  ], {
    cwd: repo,
  });
  assert.equal(full.code, 0, full.stderr);
  assert.equal(exportImports(home, join(home, "..", "home2")), 3);
});

Deno.test("insert refuses what an import would refuse; a note at every limit exports and imports back", async () => {
  const { base, repo, home } = await indexedRepo();
  const insert = (args: string[], stdin?: string) =>
    cli(home, ["insert", ...args], { cwd: repo, ...(stdin === undefined ? {} : { stdin }) });
  const cases: [string[], string | undefined, RegExp][] = [
    [["--title", "  ", "--body", "b"], undefined, /Empty --title " {2}": give the note a title/],
    [["--body", "b"], undefined, /Missing --title/],
    // Each was "Missing --body: … (or --body - to read it from stdin)", to someone who had.
    [["--title", "t", "--body", "-"], "", /Empty --body: nothing came on stdin for --body -/],
    [["--title", "t", "--body", "-"], " \n", /Empty --body: nothing came on stdin/],
    [["--title", "t", "--body", ""], undefined, /Empty --body "": say what was done/],
    [["--title", "t"], undefined, /Missing --body: say what was done/],
    [
      ["--title", "t".repeat(4_097), "--body", "b"],
      undefined,
      /Note title too long: 4097 characters, at most 4096 are kept .*; say it in one line/,
    ],
    [
      ["--title", "t", "--body", "-"],
      "b".repeat(65_537),
      /Note body too long: 65537 characters, at most 65536 are kept/,
    ],
    [
      ["--title", "t", "--body", "-"],
      ("https://u:" + "k9d2m7q@h ").repeat(3_000),
      /Note body too long: 107999 characters once secrets are redacted, at most 65536/,
    ],
    [
      ["--title", "t", "--body", "b", "--keywords", "k".repeat(2_048) + "," + "k".repeat(2_048)],
      undefined,
      /Note keywords too long: 4097 characters, at most 4096 are kept .*; give fewer/,
    ],
  ];
  for (const [args, stdin, message] of cases) {
    const r = await insert(args, stdin);
    assert.equal(r.code, 2, `${args.join(" ").slice(0, 60)}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(count(home, "SELECT count(*) AS n FROM notes"), 0);
  }
  // 257 different files: a path given twice is attached once.
  const names = Array.from({ length: 257 }, (_, i) => `notes/p${i}.txt`);
  writeTree(repo, Object.fromEntries(names.map((n) => [n, "x\n"])));
  const many = names.flatMap((n) => ["--path", n]);
  const r = await insert(["--title", "t", "--body", "b", ...many]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /Too many paths: 257, a note keeps at most 256/);
  const full = await insert(
    [
      "--title",
      "t".repeat(4_096),
      "--body",
      "-",
      "--keywords",
      "k".repeat(2_047) + "," + "k".repeat(2_048),
      ...many.slice(2),
    ],
    "b".repeat(65_536),
  );
  assert.equal(full.code, 0, full.stderr);
  assert.equal(exportImports(home, join(base, "home2")), 1);
});

Deno.test("a failure repeated with thousands of test names keeps the newest and still imports back", async () => {
  const { base, repo, home } = await indexedRepo();
  const names = (prefix: string) =>
    Array.from({ length: 2_500 }, (_, i) => `${prefix}_${String(i).padStart(15, "0")}`);
  const j = Journal.open(homePaths(home).journal);
  try {
    const failed = { about: ["src/util.ts"], outcome: "failed", author: "alice", cwd: repo };
    recordAttempt(j, {
      ...failed,
      outcome: "failed",
      text: "the suite broke",
      tests: names("old"),
    });
    const again = recordAttempt(j, {
      ...failed,
      outcome: "failed",
      text: "the suite broke",
      tests: names("new"),
    });
    assert.equal(again.repeated, true);
    assert.ok(again.memory.tests.length <= 65_536, `${again.memory.tests.length} characters`);
    const kept = JSON.parse(again.memory.tests) as string[];
    assert.ok(names("new").every((t) => kept.includes(t)), "the repeat's tests are all kept");
    assert.equal(kept.length + again.testsLeftOut!, 5_000);
  } finally {
    j.close();
  }
  // The CLI says how many were left out.
  const r = await cli(home, [
    "attempt",
    "--about",
    "src/util.ts",
    "--failed",
    "--tests",
    names("cli").join(","),
    "the suite broke",
  ], { cwd: repo, env: ENV });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /failed again .*3 times now .*older failing tests left out to keep its list within 65536 characters/,
  );
  assert.equal(exportImports(home, join(base, "home2")), 1);
});

Deno.test("remember() from a library caller holds author and task as the CLI does", async () => {
  const { repo, home } = await indexedRepo();
  const j = Journal.open(homePaths(home).journal);
  try {
    const base = { kind: "note", about: ["src/util.ts"], text: "x", cwd: repo };
    assert.throws(() => remember(j, { ...base, author: "" }), /Empty author/);
    assert.throws(() => remember(j, { ...base, author: "a", taskId: "" }), /Empty task id/);
    const m = remember(j, { ...base, author: `ci ${GITHUB}`, taskId: `deploy ${SLACK}` }).memory;
    assert.deepEqual([m.author, m.task_id], [
      "ci [REDACTED:github_token]",
      "deploy [REDACTED:slack_token]",
    ]);
  } finally {
    j.close();
  }
});

Deno.test("remember and attempt refuse more anchors than an import accepts; a memory at the limit exports and imports back", async () => {
  const base = tempDir();
  const repo = join(base, "repo");
  const home = join(base, "home");
  const files: Record<string, string> = {};
  for (let i = 0; i <= 256; i++) files[`f${i}.ts`] = `export const v${i} = ${i};\n`;
  writeTree(repo, files);
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const about = (n: number) => Object.keys(files).slice(0, n).flatMap((f) => ["--about", f]);
  for (const command of [["remember", "--kind", "note"], ["attempt", "--failed"]]) {
    const r = await cli(home, [...command, ...about(257), "touches every file"], {
      cwd: repo,
      env: ENV,
    });
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stderr, /Too many anchors: 257 different --about, at most 256 are kept/);
  }
  assert.equal(count(home, "SELECT count(*) AS n FROM memories"), 0);
  const r = await cli(home, ["remember", "--kind", "note", ...about(256), "touches them all"], {
    cwd: repo,
    env: ENV,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(exportImports(home, join(base, "fresh")), 1);
});

Deno.test("an --about longer than an import accepts is refused, though it names a file that exists", async () => {
  const { repo, home } = await indexedRepo();
  const long = "./".repeat(2_100) + "src/util.ts";
  for (const command of [["remember", "--kind", "note"], ["attempt", "--failed"]]) {
    const r = await cli(home, [...command, "--about", long, "bytes are formatted here"], {
      cwd: repo,
      env: ENV,
    });
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stderr, /--about too long: 4211 characters, at most 4096 are kept/);
  }
  assert.equal(count(home, "SELECT count(*) AS n FROM memories"), 0);
});

Deno.test("a symbol in a file not indexed yet, or changed since, is refused with the reconcile that catches up, not a spelling hint", async () => {
  const { repo, home } = await indexedRepo();
  writeTree(repo, {
    "src/fresh.ts": "export function fresh(): number {\n  return 1;\n}\n",
    "src/util.ts": "export function formatBytes(n: number) {\n  return n;\n}\n\n" +
      "export function parseBytes(s: string) {\n  return +s;\n}\n",
  });
  const cases: [string[], RegExp][] = [
    [
      ["remember", "--kind", "note", "--about", "src/fresh.ts:fresh", "new"],
      /^heimdall remember: No symbol "src\/fresh\.ts:fresh" in the index: src\/fresh\.ts is not indexed yet; run `heimdall reconcile src\/fresh\.ts`/,
    ],
    [
      ["why", "src/util.ts:parseBytes"],
      /^heimdall why: No symbol "src\/util\.ts:parseBytes" in the index: src\/util\.ts changed since it was indexed; run `heimdall reconcile src\/util\.ts`/,
    ],
  ];
  for (const [args, message] of cases) {
    const r = await cli(home, args, { cwd: repo, env: ENV });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  }
  assert.equal(count(home, "SELECT count(*) AS n FROM memories"), 0);
  // The remedy works.
  assert.equal((await cli(home, ["reconcile", "src"], { cwd: repo })).code, 0);
  const r = await cli(home, cases[0]![0], { cwd: repo, env: ENV });
  assert.equal(r.code, 0, r.stderr);
});

Deno.test("an --about or --path whose name holds a token is refused, so the export that would hold it still imports", async () => {
  const { base, repo, home } = await indexedRepo();
  // A folder named like a token (a pasted name, a generated folder): an anchor keeps its path.
  writeTree(repo, { [`${GITHUB}/notes.md`]: "# notes\n" });
  const cases: string[][] = [
    ["remember", "--kind", "note", "--about", GITHUB, "generated here"],
    ["attempt", "--failed", "--about", `${GITHUB}/notes.md`, "generated here"],
    ["insert", "--title", "t", "--body", "b", "--path", `${GITHUB}/notes.md`],
  ];
  for (const args of cases) {
    const r = await cli(home, args, { cwd: repo, env: ENV });
    assert.equal(r.code, 2, `${args[0]}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /holds what looks like a secret \(github_token\)/);
    assert.ok(!r.stderr.includes(GITHUB), r.stderr);
  }
  assert.equal(count(home, "SELECT count(*) AS n FROM memories"), 0);
  assert.equal(count(home, "SELECT count(*) AS n FROM notes"), 0);
  // What was stored beside it exports and imports back.
  const ok = await cli(home, ["remember", "--kind", "note", "--about", ".", "kept"], {
    cwd: repo,
    env: ENV,
  });
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(exportImports(home, join(base, "home2")), 1);
});

Deno.test("a NUL character in what is written or imported is refused, not cut off with everything after it", async () => {
  const { base, repo, home } = await indexedRepo();
  const cases: [string[], string, RegExp][] = [
    [
      ["remember", "--kind", "note", "--about", "src/util.ts", "-"],
      "before\0after",
      /Text holds a NUL character \(\\u0000\) at character 7, .*; remove it/,
    ],
    [
      ["attempt", "--failed", "--about", "src/util.ts", "-"],
      "tried\0this",
      /Text holds a NUL character \(\\u0000\) at character 6/,
    ],
    [
      ["insert", "--title", "t", "--body", "-"],
      "body\0tail",
      /Note body holds a NUL character \(\\u0000\) at character 5/,
    ],
  ];
  for (const [args, stdin, message] of cases) {
    const r = await cli(home, args, { cwd: repo, env: ENV, stdin });
    assert.equal(r.code, 2, `${args[0]}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, message);
  }
  assert.equal(count(home, "SELECT count(*) AS n FROM memories"), 0);
  assert.equal(count(home, "SELECT count(*) AS n FROM notes"), 0);
  // An export edited to hold one: refused, naming the line and field, nothing written.
  const ok = await cli(home, ["remember", "--kind", "note", "--about", "src/util.ts", "kept"], {
    cwd: repo,
    env: ENV,
  });
  assert.equal(ok.code, 0, ok.stderr);
  const exported = await cli(home, ["export"]);
  const file = join(base, "nul.jsonl");
  Deno.writeTextFileSync(file, exported.stdout.replace('"kept"', '"kept\\u0000 and the rest"'));
  const fresh = join(base, "home2");
  const r = await cli(fresh, ["import", file]);
  assert.equal(r.code, 2, r.stdout);
  assert.match(
    r.stderr,
    /nul\.jsonl:2: field "text" holds a NUL character \(\\u0000\) at character 5/,
  );
  assert.equal(count(fresh, "SELECT count(*) AS n FROM memories"), 0);
});

Deno.test("import reads an export saved as UTF-16 (PowerShell's >), and refuses one whose bytes are not UTF-8, naming the line", async () => {
  const { base, repo, home } = await indexedRepo();
  const r0 = await cli(home, ["remember", "--kind", "note", "--about", "src/util.ts", "café ✓"], {
    cwd: repo,
    env: ENV,
  });
  assert.equal(r0.code, 0, r0.stderr);
  const exported = (await cli(home, ["export"])).stdout;
  // UTF-16LE with its byte order mark: one export, as Windows PowerShell's `>` saves it.
  const utf16 = new Uint8Array(2 + exported.length * 2);
  utf16.set([0xff, 0xfe]);
  for (let i = 0; i < exported.length; i++) {
    utf16[2 + 2 * i] = exported.charCodeAt(i) & 0xff;
    utf16[3 + 2 * i] = exported.charCodeAt(i) >> 8;
  }
  Deno.writeFileSync(join(base, "utf16.jsonl"), utf16);
  const fresh = join(base, "home2");
  let r = await cli(fresh, ["import", join(base, "utf16.jsonl")]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((await cli(fresh, ["export"])).stdout, exported);
  // The é re-saved as Latin-1 (one byte, 0xe9): not UTF-8, refused, nothing written.
  const bytes = new TextEncoder().encode(exported.replace("café", "caf\u0001"));
  bytes[bytes.indexOf(1)] = 0xe9;
  Deno.writeFileSync(join(base, "latin1.jsonl"), bytes);
  const other = join(base, "home3");
  r = await cli(other, ["import", join(base, "latin1.jsonl")]);
  assert.equal(r.code, 2, r.stdout);
  assert.match(r.stderr, /latin1\.jsonl:2: not UTF-8 text .*; export it again/);
  assert.throws(() => Deno.statSync(homePaths(other).journal), Deno.errors.NotFound);
});

Deno.test("a blank --fix is refused as the fix, not as an empty text, and nothing is resolved", async () => {
  const { repo, home } = await indexedRepo();
  const failed = await cli(home, ["attempt", "--about", "src/util.ts", "--failed", "bytes off"], {
    cwd: repo,
    env: ENV,
  });
  assert.equal(failed.code, 0, failed.stderr);
  for (const fix of ["", "   "]) {
    const r = await cli(home, [
      "attempt",
      "--about",
      "src/util.ts",
      "--passed",
      "--fix",
      fix,
      "rounded once",
    ], { cwd: repo, env: ENV });
    assert.equal(r.code, 2, `${JSON.stringify(fix)}: ${r.stdout}`);
    assert.match(
      r.stderr,
      /^heimdall attempt: Empty --fix ".*": it names nothing .*leave --fix out/,
    );
  }
  assert.equal(count(home, "SELECT count(*) AS n FROM memories WHERE status = 'open'"), 1);
  assert.equal(count(home, "SELECT count(*) AS n FROM memories"), 1);
});

Deno.test("text piped in that is not UTF-8 (a Latin-1 file) is refused, not stored with U+FFFD in place of its letters", async () => {
  const { repo, home } = await indexedRepo();
  // "café au lait" as Latin-1: é is the one byte 0xe9.
  const latin1 = new Uint8Array([...new TextEncoder().encode("caf"), 0xe9, 0x20, 0x61, 0x75]);
  const cases: [string[], RegExp][] = [
    [
      ["remember", "--kind", "note", "--about", "src/util.ts", "-"],
      /^heimdall remember: TEXT read from stdin is not UTF-8 text/,
    ],
    [
      ["insert", "--title", "t", "--body", "-"],
      /^heimdall insert: --body read from stdin is not UTF-8 text/,
    ],
  ];
  for (const [args, message] of cases) {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...PERMS, MAIN, ...args],
      cwd: repo,
      env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1", ...ENV },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const w = child.stdin.getWriter();
    await w.write(latin1);
    await w.close();
    const out = await child.output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 2, `${args[0]}: ${new TextDecoder().decode(out.stdout)}${stderr}`);
    assert.match(stderr, message);
  }
  assert.equal(count(home, "SELECT count(*) AS n FROM memories"), 0);
  assert.equal(count(home, "SELECT count(*) AS n FROM notes"), 0);
});
