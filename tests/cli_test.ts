/** End to end through the real CLI in subprocesses: real temp folders, real SQLite. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { homePaths, loadConfig } from "../src/config/mod.ts";
import { commandHelp, main } from "../src/cli/mod.ts";
import type { Context } from "../src/cli/context.ts";
import { L1Extractor } from "../src/extract/mod.ts";
import { Reconciler } from "../src/reconcile/mod.ts";
import { Journal } from "../src/store/mod.ts";
import { cli, nextSecond, removeTree, sh, startDaemon, tempDir, writeTree } from "./helpers.ts";

Deno.test("index, status and verify agree on a fresh tree", async () => {
  const base = tempDir();
  const home = join(base, "home");
  writeTree(join(base, "repo"), {
    "src/a.py": "def a():\n    return 1\n",
    "README.md": "# Repo\n",
  });
  const idx = await cli(home, ["index", join(base, "repo")]);
  assert.equal(idx.code, 0, idx.stderr);
  assert.match(idx.stdout, /indexed 2 files, [1-9]\d* symbols in/);
  const st = JSON.parse((await cli(home, ["status", "--json"])).stdout);
  assert.equal(st.paths.indexed, 2);
  assert.equal(st.daemon, null);
  const v = await cli(home, ["verify"]);
  assert.equal(v.code, 0, v.stdout);
  removeTree(base);
});

Deno.test("a rewrite that keeps size and mtime (cp -p, an archive's fixed mtimes) is seen by the stat screen and re-read", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  const file = join(repo, "version.py");
  // npm and other archives give every file one fixed mtime.
  const fixed = new Date("1985-10-26T08:15:00Z");
  writeTree(repo, { "version.py": 'VERSION = "1.0.0"\ndef old_api():\n    return VERSION\n' });
  Deno.utimeSync(file, fixed, fixed);
  assert.equal((await cli(home, ["index", repo])).code, 0);
  // The next release, extracted over it: the same size, the same mtime.
  const next = join(base, "next.py");
  Deno.writeTextFileSync(next, 'VERSION = "1.0.1"\ndef new_api():\n    return VERSION\n');
  Deno.utimeSync(next, fixed, fixed);
  // In a later second than the index's read (one within it is left to verify --deep).
  await nextSecond();
  await sh(`cp -p '${next}' '${file}'`);
  assert.equal(Deno.statSync(file).mtime?.getTime(), fixed.getTime());
  const v = await cli(home, ["verify", "--json"]);
  assert.equal(v.code, 1, v.stdout);
  assert.deepEqual(
    JSON.parse(v.stdout).drift.map((d: { kind: string; path: string }) => [d.kind, d.path]),
    [["stat", file]],
  );
  const r = await cli(home, ["reconcile", "--all"]);
  assert.match(r.stdout, /1 changed/, r.stdout);
  const symbols = await cli(home, ["symbols", file]);
  assert.match(symbols.stdout, /new_api/);
  assert.doesNotMatch(symbols.stdout, /old_api/);
  assert.equal((await cli(home, ["verify", "--deep"])).code, 0);
  // Unchanged since: nothing is read again.
  assert.match((await cli(home, ["reconcile", "--all"])).stdout, /0 changed, 0 touched/);
  removeTree(base);
});

Deno.test("verify says a root gone from disk is gone, with roots remove, not 'fix its permissions'", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "a.ts": "export const a = 1;\n" });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  Deno.removeSync(repo, { recursive: true });
  for (const args of [["verify"], ["verify", "--json"]]) {
    const v = await cli(home, args);
    const text = args.includes("--json")
      ? JSON.parse(v.stdout).skipped.map((s: { reason: string }) => s.reason).join("\n")
      : v.stdout;
    assert.match(text, /the root is gone from disk; `heimdall roots remove` it/, args.join(" "));
    assert.doesNotMatch(text, /permissions/);
  }
  removeTree(base);
});

Deno.test("verify reports missing, ghost and stat drift and exits 1", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "a.ts": "a", "b.ts": "b" });
  await cli(home, ["index", repo]);
  Deno.removeSync(join(repo, "a.ts"));
  Deno.writeTextFileSync(join(repo, "b.ts"), "bb");
  Deno.writeTextFileSync(join(repo, "c.ts"), "c");
  const v = await cli(home, ["verify", "--json"]);
  assert.equal(v.code, 1);
  const kinds = JSON.parse(v.stdout).drift.map((d: { kind: string }) => d.kind).sort();
  assert.deepEqual(kinds, ["ghost", "missing", "stat"]);
  removeTree(base);
});

Deno.test("hints from several OS processes for one path collapse to one queue row", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "a.ts": "a" });
  await cli(home, ["roots", "add", repo]);
  const results = await Promise.all(
    Array.from({ length: 8 }, () => cli(home, ["hint", join(repo, "a.ts"), join(repo, "./a.ts")])),
  );
  for (const r of results) assert.equal(r.code, 0, r.stderr);
  const hp = homePaths(home);
  assert.equal([...Deno.readDirSync(hp.hints)].length, 8);
  const journal = Journal.open(hp.journal);
  const rec = new Reconciler(
    journal,
    hp,
    (await import("../src/config/mod.ts")).loadConfig(hp.config),
    new L1Extractor(),
  );
  rec.syncRoots();
  await rec.ingestHints();
  // The new root's own folder waits in the queue too (syncRoots owes it a walk).
  const rows = journal.all<{ path: string }>("SELECT path FROM queue WHERE reason = 'hint'");
  assert.deepEqual(rows.map((r) => r.path), [join(repo, "a.ts")]);
  assert.equal([...Deno.readDirSync(hp.hints)].length, 0, "ingested hint files are deleted");
  journal.close();
  removeTree(base);
});

Deno.test("garbage hints are dropped with a warning and never stored", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "a.ts": "a" });
  await cli(home, ["roots", "add", repo]);
  const empty = await cli(home, ["hint", ""]);
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /dropped hint "": empty path/);
  const outside = await cli(home, ["hint", "/definitely/not/a/root/x.ts"]);
  assert.equal(outside.code, 2);
  assert.match(outside.stderr, /not under any root/);
  const binary = await cli(home, ["hint", "--stdin"], {
    stdin: "\u0000\u0001\u0002\ufffd garbage",
  });
  assert.equal(binary.code, 2);
  // A file piped by mistake: one warning per line was thousands of lines.
  const lines = Array.from({ length: 5_000 }, (_, i) => `/not/a/root/${i}.ts`).join("\n");
  const many = await cli(home, ["hint", "--stdin"], { stdin: lines });
  assert.equal(many.code, 2);
  const warned = many.stderr.trimEnd().split("\n");
  assert.equal(warned.length, 11, many.stderr.slice(0, 400));
  assert.match(warned[10]!, /dropped 4990 more hints the same way \(5000 of 5000 in all\)/);
  const badJson = await cli(home, ["hint", "--stdin"], { stdin: '{"tool_input": {"file_path": ' });
  assert.equal(badJson.code, 2);
  const hook = await cli(home, ["hint", "--stdin"], {
    stdin: JSON.stringify({ cwd: repo, tool_input: { file_path: "a.ts" } }),
  });
  assert.equal(hook.code, 0, hook.stderr);
  const hints = homePaths(home).hints;
  const files = [...Deno.readDirSync(hints)].map((e) => Deno.readTextFileSync(join(hints, e.name)));
  assert.deepEqual(files.map((f) => JSON.parse(f).paths), [[join(repo, "a.ts")]]);
  // A foreign garbage file in the hints folder is dropped at ingestion, with a warning.
  Deno.writeTextFileSync(join(hints, "0-garbage.hint"), "\u0000junk");
  const rec = await cli(home, ["reconcile"]);
  assert.equal(rec.code, 0, rec.stderr);
  assert.match(rec.stderr, /dropped hint .*0-garbage\.hint: unreadable hint file/);
  assert.equal([...Deno.readDirSync(hints)].length, 0);
  const journal = Journal.open(homePaths(home).journal, { readOnly: true });
  assert.equal(journal.get<{ n: number }>("SELECT count(*) AS n FROM queue")!.n, 0);
  journal.close();
  // A path under no root is refused by name, with the remedy, and nothing is written.
  const stray = await cli(home, ["reconcile", join(base, "elsewhere.ts")]);
  assert.equal(stray.code, 2);
  assert.match(stray.stderr, /elsewhere\.ts" is under no root.*heimdall roots add DIR/);
  removeTree(base);
});

Deno.test("only one writer holds the lock, and a killed writer's lock is free again", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "a.ts": "a" });
  await cli(home, ["roots", "add", repo]);
  const daemon = await startDaemon(home);
  try {
    const second = await cli(home, ["daemon"]);
    assert.equal(second.code, 3);
    assert.match(second.stderr, new RegExp(`held by the daemon \\(pid ${daemon.pid}\\)`));
    // A stat audit of every root goes to the daemon; a deep one needs the writer here.
    const all = await cli(home, ["reconcile", "--all"]);
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stderr, /handed 1 root to it, which audits them now/);
    const deep = await cli(home, ["reconcile", "--all", "--deep"]);
    assert.equal(deep.code, 3);
    assert.match(deep.stderr, /stop it to re-hash every file/);
    const handed = await cli(home, ["reconcile", join(repo, "a.ts")]);
    assert.equal(handed.code, 0);
    assert.match(
      handed.stderr,
      new RegExp(`daemon \\(pid ${daemon.pid}\\) is running: handed 1 path`),
    );
    const st = JSON.parse((await cli(home, ["status", "--json"])).stdout);
    assert.equal(st.daemon, daemon.pid);
  } finally {
    await daemon.kill();
  }
  const after = await cli(home, ["reconcile", "--all"]);
  assert.equal(after.code, 0, after.stderr);
  assert.equal(JSON.parse((await cli(home, ["status", "--json"])).stdout).daemon, null);
  removeTree(base);
});

Deno.test("bad input gets a clear error and a non-zero exit, and loses nothing", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "a.ts": "a" });
  await cli(home, ["index", repo]);
  const cases: [string[], RegExp][] = [
    [["index", join(base, "nope")], /Cannot index ".*nope": no such folder/],
    // A file on the way was "it cannot be read …; check its permissions", exit 3.
    [
      ["index", join(repo, "a.ts", "src")],
      /Cannot index ".*a\.ts\/src": no such folder \(".*a\.ts" is a file\)/,
    ],
    [["roots", "add", join(repo, "a.ts", "src")], /no such folder \(".*a\.ts" is a file\)/],
    [["index", "--depth", "L9", repo], /Invalid --depth "L9"/],
    [["frobnicate"], /Unknown command "frobnicate"/],
    [["verify", "--nope"], /Unknown option "--nope"; `heimdall help verify` shows the options/],
    [["roots", "remove", join(base, "other")], /Not a root: ".*other"/],
    // An argument more was ignored: the answer was about the first folder alone, or all roots.
    [["depth", repo, base], /Expected at most one PATH, got 2/],
    [["roots", "list", repo], /Unexpected ".*": roots list takes no folder/],
    // Each listed or removed, exit 0, the depth asked for never set.
    [["roots", "--depth", "L1"], /--depth applies to roots add only \(not list\)/],
    // Started the task as the caller's own, exit 0: the hand-off never made.
    [["task", "start", "fix it", "--to", "bob"], /--to applies to task handoff only \(not start\)/],
    [["task", "list", "--take"], /--take applies to task resume only \(not list\)/],
    [
      ["roots", "remove", repo, "--depth", "L1"],
      /--depth applies to roots add only.*roots add DIR --depth L1/,
    ],
    // A file was "no such folder", though it is there.
    [["reflect", join(repo, "a.ts")], /Cannot reflect on ".*a\.ts": a file, not a folder/],
  ];
  for (const [args, re] of cases) {
    const r = await cli(home, args);
    assert.equal(r.code, 2, args.join(" "));
    assert.match(r.stderr, re);
  }
  Deno.writeTextFileSync(homePaths(home).config, "{ not json");
  const broken = await cli(home, ["reconcile"]);
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, /config\.json.*fix the syntax/);
  const st = await cli(home, ["verify"]);
  assert.equal(st.code, 0, "the journal still holds the index");
  assert.match(
    Deno.readTextFileSync(homePaths(home).config),
    /^\{ not json/,
    "and the config as it was",
  );
  removeTree(base);
});

Deno.test("escape sequences in a file's name or text never reach the terminal raw", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  const ESC = "\x1b";
  writeTree(repo, {
    "sig.ts": `export function paint${ESC}[31m() { return 1 }\n`,
    "doc.md":
      `# Intro\n\n## Zebra ${ESC}]0;pwned\x07 one\n\nzebra\n\n## Zebra two ${ESC}[2J\n\nzebra\n`,
    [`e${ESC}[31mvil.ts`]:
      "export function callee() { return 1 }\nexport const c = () => callee();\n",
    ".heimdall/map.toml": `[component.store]\ndescription = "The \\u001b[2Jjournal"\n` +
      `paths = ["*.ts", "gone\\u001b/**"]\nmust = ["Only \\u001b]0;x\\u0007 this"]\n`,
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const runs = await Promise.all([
    ["symbols", "sig.ts"],
    ["symbols", "doc.md"],
    ["search", "zebra"],
    ["callers", "callee"],
    ["blast-radius", "callee"],
    ["constraints", "sig.ts"],
    ["map", "check"],
    ["symbols", `gone${ESC}[31m.ts`],
  ].map((args) => cli(home, args, { cwd: repo }).then((r) => ({ args, ...r }))));
  for (const r of runs) {
    assert.ok(r.code !== 70, `${r.args.join(" ")}: ${r.stderr}`);
    assert.ok(!r.stdout.includes(ESC), `${r.args.join(" ")} printed ${JSON.stringify(r.stdout)}`);
    assert.ok(!r.stderr.includes(ESC), `${r.args.join(" ")} printed ${JSON.stringify(r.stderr)}`);
  }
  // Shown, escaped: the answer is still there to read.
  assert.match(runs[0]!.stdout, /paint\\x1b\[31m\(\)/);
  assert.match(runs[3]!.stdout, /e\\x1b\[31mvil\.ts:2/);
  assert.match(runs[5]!.stdout, /The \\x1b\[2Jjournal/);
  assert.match(runs[7]!.stderr, /No file ".*gone\\x1b\[31m\.ts"/);
  removeTree(base);
});

Deno.test("a path typed through a linked folder names the same root and rows as the real one", async () => {
  const base = Deno.realPathSync(tempDir());
  const home = join(base, "home");
  const repo = join(base, "repo");
  const link = join(base, "link");
  writeTree(repo, { "src/lib.ts": "export function addNumbers(a: number, b: number) {}\n" });
  Deno.symlinkSync(repo, link);
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const viaLink = join(link, "src", "lib.ts");
  const runs: [string[], number][] = [
    [["symbols", viaLink, "--json"], 0],
    [["search", "addNumbers", "--path", join(link, "src"), "--json"], 0],
    [["search", "addNumbers", "--repo", link, "--json"], 0],
    [["insert", "--title", "linked", "--body", "b", "--path", viaLink, "--json"], 0],
    [["hint", viaLink], 0],
  ];
  for (const [args, code] of runs) {
    const r = await cli(home, args, { cwd: base });
    assert.equal(r.code, code, `${args.join(" ")}: ${r.stderr}`);
  }
  const symbols = JSON.parse((await cli(home, ["symbols", viaLink, "--json"])).stdout);
  assert.equal(symbols.path, join(repo, "src", "lib.ts"));
  const note = JSON.parse((await cli(home, runs[3]![0])).stdout);
  assert.deepEqual(note.paths, [join(repo, "src", "lib.ts")], "the note names the real path");
  const removed = await cli(home, ["roots", "remove", link]);
  assert.equal(removed.code, 0, removed.stderr);
  assert.deepEqual(JSON.parse((await cli(home, ["roots", "--json"])).stdout), []);
  removeTree(base);
});

Deno.test("each command's help lists every option it accepts, and accepts every option it lists", async () => {
  const base = tempDir();
  const home = homePaths(join(base, "home"));
  // The commands of paths, roots and output; each is asked about every option any help names.
  const checked = [
    "index",
    "search",
    "insert",
    "hint",
    "roots",
    "symbols",
    "callers",
    "callees",
    "blast-radius",
    "constraints",
    "map",
    "export",
    "import",
    "remember",
    "attempt",
    "why",
    "history",
    "forget",
  ];
  // Options as a help names them, outside `…` (which quotes another command line).
  const named = (help: string) =>
    new Set(
      help.replace(/`[^`]*`/g, "").match(/--[a-z][a-z-]*|(?<![\w-])-[a-z](?![\w-])/g) ?? [],
    );
  const helps = new Map<string, string>();
  for (const [name, help] of commandHelp()) helps.set(name, await help());
  const probes = new Set([...helps.values()].flatMap((h) => [...named(h)]));
  for (const global of ["--help", "-h", "--debug"]) probes.delete(global);
  const problems: string[] = [];
  for (const name of checked) {
    const listed = named(helps.get(name)!);
    for (const flag of probes) {
      // search reads `-word` as a word of its query, never as an option.
      if (name === "search" && !flag.startsWith("--")) continue;
      let err = "";
      const ctx: Context = {
        home,
        config: () => loadConfig(home.config),
        extractor: () => Promise.reject(new Error("no command of this test parses")),
        out: () => {},
        err: (t) => (err += t),
        tty: false,
      };
      // An unknown option after it: the command stops at its arguments, whatever it would do.
      await main([name, flag, "--zzz-probe"], ctx);
      const accepted = !err.includes(`Unknown option "${flag}"`);
      assert.match(err, /Unknown option|looks like another option/, `${name} ${flag}: ${err}`);
      if (accepted !== listed.has(flag)) {
        problems.push(
          `${name} ${flag}: ${accepted ? "accepted, not in its help" : "listed, refused"}`,
        );
      }
    }
  }
  assert.deepEqual(problems, []);
  removeTree(base);
});

Deno.test("--json prints one JSON document for roots add and remove, and an index a daemon takes", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "a.ts": "export const a = 1;\n" });
  const real = Deno.realPathSync(repo);
  const added = await cli(home, ["roots", "add", repo, "--json"]);
  assert.equal(added.code, 0, added.stderr);
  assert.deepEqual(JSON.parse(added.stdout), { added: [real], daemon: null });
  const daemon = await startDaemon(home);
  try {
    const idx = await cli(home, ["index", repo, "--json"]);
    assert.equal(idx.code, 0, idx.stderr);
    assert.deepEqual(JSON.parse(idx.stdout), { roots: [real], daemon: daemon.pid });
    assert.match(idx.stderr, /The daemon \(pid \d+\) is running/);
  } finally {
    await daemon.stop();
  }
  const removed = await cli(home, ["roots", "remove", repo, "--json"]);
  assert.equal(removed.code, 0, removed.stderr);
  assert.deepEqual(JSON.parse(removed.stdout), { removed: [repo], daemon: null });
  removeTree(base);
});

Deno.test("roots remove with one folder that is not a root removes none of them", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repos = ["one", "two"].map((n) => join(base, n));
  for (const r of repos) writeTree(r, { "a.ts": "export const a = 1;\n" });
  assert.equal((await cli(home, ["roots", "add", ...repos])).code, 0);
  const before = (await cli(home, ["roots", "--json"])).stdout;
  // A typo among the folders: the two real roots were removed, then the command said "Not a root".
  const r = await cli(home, ["roots", "remove", repos[0]!, join(base, "tow")]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /Not a root: ".*tow"; nothing removed/);
  assert.equal((await cli(home, ["roots", "--json"])).stdout, before);
  removeTree(base);
});

Deno.test("status names a root added but not indexed yet, and one removed whose files are still in the journal", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const [kept, dropped, added] = ["kept", "dropped", "added"].map((n) => join(base, n));
  for (const r of [kept!, dropped!, added!]) writeTree(r, { "a.py": "def f():\n    pass\n" });
  assert.equal((await cli(home, ["index", kept!, dropped!])).code, 0);
  assert.equal((await cli(home, ["roots", "add", added!])).code, 0);
  assert.equal((await cli(home, ["roots", "remove", dropped!])).code, 0);
  // Status listed the journal's roots only: the removed one as any other, the added one not at all.
  const status = await cli(home, ["status"]);
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, new RegExp(`^root +${added} +not indexed yet`, "m"));
  assert.match(status.stdout, new RegExp(`^root +${dropped} .*removed from config\\.json`, "m"));
  assert.doesNotMatch(status.stdout, new RegExp(`^root +${kept} .*(removed|not indexed)`, "m"));
  const json = JSON.parse((await cli(home, ["status", "--json"])).stdout);
  assert.deepEqual(json.roots_not_indexed, [added]);
  assert.deepEqual(
    json.roots.map((r: { path: string; removed: boolean }) => [r.path, r.removed]),
    [[dropped, true], [kept, false]],
  );
  assert.equal((await cli(home, ["reconcile", "--all"])).code, 0);
  const after = JSON.parse((await cli(home, ["status", "--json"])).stdout);
  assert.deepEqual(after.roots_not_indexed, []);
  assert.deepEqual(after.roots.map((r: { path: string }) => r.path), [added, kept]);
  removeTree(base);
});

Deno.test("reconcile DIR counts the files it looked at, not the folder: its counts add up", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "src/a.py": "def a():\n    pass\n", "src/b.py": "def b():\n    pass\n" });
  const hourAgo = new Date(Date.now() - 3600_000);
  for (const f of ["src/a.py", "src/b.py"]) Deno.utimeSync(join(repo, f), hourAgo, hourAgo);
  assert.equal((await cli(home, ["index", repo])).code, 0);
  // It said "reconciled 3 paths …: 0 changed, 0 touched, 0 removed, 2 unchanged".
  const r = await cli(home, ["reconcile", join(repo, "src")]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /^reconciled 2 paths in [\d.]+s: 0 changed, 0 touched, 0 removed, 2 unchanged$/m,
  );
  const json = JSON.parse((await cli(home, ["reconcile", join(repo, "src"), "--json"])).stdout);
  assert.deepEqual([json.seen, json.unchanged], [2, 2]);
  removeTree(base);
});

Deno.test("reconcile of a path neither on disk nor indexed (a typo) says so and exits 2; a deleted indexed file or folder is still retracted", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "src/a.py": "def a():\n    pass\n", "old/b.py": "def b():\n    pass\n" });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  // It said "reconciled 1 path …: 0 changed, 0 touched, 0 removed, 1 unchanged", exit 0.
  const typo = await cli(home, ["reconcile", join(repo, "src", "aa.py"), join(repo, "src/a.py")]);
  assert.equal(typo.code, 2, typo.stdout);
  assert.match(typo.stderr, /"[^"]*src\/aa\.py" is not on disk and nothing is indexed there/);
  assert.equal(typo.stdout, "");
  Deno.removeSync(join(repo, "src", "a.py"));
  Deno.removeSync(join(repo, "old"), { recursive: true });
  const gone = await cli(home, ["reconcile", join(repo, "src", "a.py"), join(repo, "old")]);
  assert.equal(gone.code, 0, gone.stderr);
  assert.match(gone.stdout, /0 changed, 0 touched, 2 removed/);
  removeTree(base);
});

Deno.test("index and roots add refuse the filesystem's root and system folders, and say what they skipped", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "a.ts": "export const a = 1;\n" });
  // A name that is not UTF-8 cannot be indexed: the summary says so instead of leaving it out.
  const made = new Deno.Command("sh", {
    args: ["-c", `printf x > "$(printf 'bad\\377.ts')"`],
    cwd: repo,
  }).outputSync();
  assert.ok(made.success);
  const refused: [string[], number, RegExp][] = [
    // Ordered so that a build without the check fails before it starts to index "/".
    [["roots", "add", "/"], 2, /Cannot add root "\/": it is the filesystem's root/],
    [["index", "/proc"], 2, /Cannot index "\/proc": a system folder.*pass a project folder/],
    [["index"], 2, /Cannot index "\/": it is the filesystem's root.*pass a project folder/],
  ];
  for (const [args, code, says] of refused) {
    const r = await cli(home, args, { cwd: "/" });
    assert.equal(r.code, code, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, says);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  }
  assert.deepEqual(JSON.parse((await cli(home, ["roots", "--json"])).stdout), []);
  const twice = await cli(home, ["index", repo, `${repo}/`, join(repo, ".")], { cwd: base });
  assert.equal(twice.code, 0, twice.stderr);
  assert.match(twice.stdout, /^indexed 1 file, .*, 1 unreadable: `heimdall verify` names them\)$/m);
  assert.deepEqual(
    JSON.parse((await cli(home, ["roots", "--json"])).stdout).map((r: { path: string }) => r.path),
    [Deno.realPathSync(repo)],
  );
  // Typed in /, the remedy names a path that exists to be typed.
  const folder = await cli(home, ["symbols", "."], { cwd: "/" });
  assert.match(folder.stderr, /"\/" is a folder; .*`heimdall symbols \/FILE`/);
  removeTree(base);
});

Deno.test("status counts the files another build derived, and reconcile --all derives them again", async () => {
  const base = tempDir();
  const repo = join(base, "repo");
  const home = join(base, "home");
  writeTree(repo, {
    "A.java": "class A {\n  void f(int a) {}\n}\n",
    "b.py": "def g():\n    return 1\n",
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const fresh = JSON.parse((await cli(home, ["status", "--json"])).stdout);
  assert.equal(fresh.rederive, 0);
  // As an older build would have left it: A.java derived by java's queries at 0.
  const j = Journal.open(homePaths(home).journal);
  j.run("UPDATE paths SET derivation = '1.1.0' WHERE rel = 'A.java'");
  j.close();
  const behind = await cli(home, ["status"]);
  assert.match(
    behind.stdout,
    /^derive {3}1 file indexed by another build: .*`heimdall reconcile --all`/m,
  );
  assert.equal(JSON.parse((await cli(home, ["status", "--json"])).stdout).rederive, 1);
  assert.equal((await cli(home, ["reconcile", "--all"])).code, 0);
  const after = await cli(home, ["status"]);
  assert.doesNotMatch(after.stdout, /^derive/m);
  removeTree(base);
});

Deno.test("reconcile says so when a file it reconciled is now skipped: binary, its symbols gone", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "a.py": "def alpha():\n    pass\n" });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  Deno.writeFileSync(join(repo, "a.py"), new Uint8Array([0, 1, 2, 0, 255]));
  const r = await cli(home, ["reconcile", join(repo, "a.py")]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /: 0 changed, .*, 1 skipped, kept at L1 \(`heimdall depth PATH` says why\)/,
  );
  const depth = await cli(home, ["depth", join(repo, "a.py")]);
  assert.match(depth.stdout, /clamped +binary file/);
  removeTree(base);
});

Deno.test("a root's depth lowered with index --depth or roots add --depth drops the deeper rows", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, {
    "a.py": "def alpha():\n    beta()\n\ndef beta():\n    pass\n",
  });
  // Written an hour ago: a row read just after a write is re-read anyway (racy).
  const hourAgo = new Date(Date.now() - 3600_000);
  Deno.utimeSync(join(repo, "a.py"), hourAgo, hourAgo);
  const counts = async () => {
    const status = await cli(home, ["status"]);
    return /graph +(\d+) nodes?, (\d+) edges?/.exec(status.stdout)?.slice(1, 3).map(Number);
  };
  assert.equal((await cli(home, ["index", repo])).code, 0);
  assert.deepEqual(await counts(), [3, 1]);
  assert.equal((await cli(home, ["index", repo, "--depth", "L2"])).code, 0);
  assert.deepEqual(await counts(), [3, 0], "L2: the symbols, no call edge");
  const depth = await cli(home, ["depth", join(repo, "a.py")]);
  assert.match(depth.stdout, /effective +L2 symbols/);
  assert.equal((await cli(home, ["roots", "add", repo, "--depth", "L1"])).code, 0);
  // A plain reconcile applies it, as it applies a root added.
  assert.equal((await cli(home, ["reconcile"])).code, 0);
  assert.deepEqual(await counts(), [0, 0], "L1: no symbols");
  const v = await cli(home, ["verify"]);
  assert.equal(v.code, 0, v.stdout);
  removeTree(base);
});

Deno.test("index and roots add without --depth keep the depth a root was given", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "a.py": "def alpha():\n    pass\n" });
  const depths = async () =>
    JSON.parse((await cli(home, ["roots", "--json"])).stdout).map((r: { depth: string }) =>
      r.depth
    );
  assert.equal((await cli(home, ["index", repo, "--depth", "L1"])).code, 0);
  // Indexing it again (or adding it again) reset it to max, and re-derived every file.
  assert.equal((await cli(home, ["index", repo])).code, 0);
  assert.deepEqual(await depths(), [1]);
  assert.equal((await cli(home, ["roots", "add", repo])).code, 0);
  assert.deepEqual(await depths(), [1]);
  const depth = await cli(home, ["depth", join(repo, "a.py")]);
  assert.match(depth.stdout, /effective +L1/);
  assert.equal((await cli(home, ["roots", "add", repo, "--depth", "max"])).code, 0);
  assert.deepEqual(await depths(), ["max"]);
  const other = join(base, "other");
  writeTree(other, { "b.py": "def beta():\n    pass\n" });
  assert.equal((await cli(home, ["index", other])).code, 0);
  assert.deepEqual(await depths(), ["max", "max"], "a new root's depth is max");
  removeTree(base);
});

Deno.test("a path through a linked folder inside a root reconciles the real file, never a copy at the link's name", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "src/util.py": "def helper():\n    pass\n" });
  // A link to a folder of the root, inside it, and one to the root from outside.
  Deno.symlinkSync(join(repo, "src"), join(repo, "alias"));
  Deno.symlinkSync(repo, join(base, "outside"));
  assert.equal((await cli(home, ["index", repo])).code, 0);
  Deno.writeTextFileSync(
    join(repo, "src/util.py"),
    "def helper():\n    pass\n\ndef more():\n    pass\n",
  );
  const inside = await cli(home, ["reconcile", join(repo, "alias/util.py")]);
  assert.equal(inside.code, 0, inside.stderr);
  const hinted = await cli(home, ["hint", join(repo, "alias/util.py")]);
  assert.equal(hinted.code, 0, hinted.stderr);
  assert.equal((await cli(home, ["reconcile"])).code, 0);
  const outside = await cli(home, ["reconcile", join(base, "outside/src/util.py")]);
  assert.equal(outside.code, 0, outside.stderr);
  const depth = await cli(home, ["depth", join(base, "outside/src/util.py")]);
  assert.equal(depth.code, 0, depth.stderr);
  // One helper, in the real file, which holds the edit: no copy under alias/.
  const callers = await cli(home, ["callers", "helper", "--json"]);
  assert.equal(callers.code, 1, callers.stderr);
  assert.equal(JSON.parse(callers.stdout).symbol.path, join(repo, "src/util.py"), callers.stderr);
  assert.equal((await cli(home, ["callers", "more"])).code, 1);
  const v = await cli(home, ["verify"]);
  assert.equal(v.code, 0, v.stdout);
  removeTree(base);
});

Deno.test("a root configured by a path through a link (a hand-written config) keeps a hinted or reconciled file", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const real = join(base, "real");
  writeTree(real, { "util.py": "def helper():\n    pass\n" });
  Deno.symlinkSync(base, join(base, "via"));
  const repo = join(base, "via", "real");
  Deno.mkdirSync(home, { mode: 0o700 });
  Deno.writeTextFileSync(
    join(home, "config.json"),
    JSON.stringify({ roots: [{ path: repo, depth: "max" }] }),
    { mode: 0o600 },
  );
  assert.equal((await cli(home, ["reconcile", "--all"])).code, 0);
  Deno.writeTextFileSync(
    join(real, "util.py"),
    "def helper():\n    pass\n\ndef more():\n    pass\n",
  );
  assert.equal((await cli(home, ["hint", join(repo, "util.py")])).code, 0);
  const hinted = await cli(home, ["reconcile"]);
  assert.equal(hinted.code, 0, hinted.stderr);
  const more = await cli(home, ["callers", "more", "--json"]);
  assert.equal(more.code, 1, more.stderr);
  assert.equal(JSON.parse(more.stdout).symbol.path, join(repo, "util.py"));
  const typed = await cli(home, ["reconcile", join(repo, "util.py")]);
  assert.equal(typed.code, 0, typed.stderr);
  const outline = await cli(home, ["symbols", join(repo, "util.py")]);
  assert.match(outline.stdout, /function more/, outline.stderr);
  const byPath = await cli(home, ["callers", `${join(repo, "util.py")}:more`]);
  assert.equal(byPath.code, 1, byPath.stderr);
  assert.equal((await cli(home, ["callers", "more"])).code, 1);
  const v = await cli(home, ["verify"]);
  assert.equal(v.code, 0, v.stdout);
  removeTree(base);
});

Deno.test("reflect typed outside any project, or on /, stores no page: one there showed in why for every file below it", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  const loose = join(base, "downloads");
  writeTree(repo, { "a.ts": "export function alpha() {}\n" });
  Deno.mkdirSync(loose);
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const here = await cli(home, ["reflect"], { cwd: loose });
  assert.equal(here.code, 2, here.stdout);
  assert.match(
    here.stderr,
    /No project holds "[^"]*\/downloads": it is in no git repository and under no root; pass the project folder \(`heimdall reflect DIR`\)/,
  );
  for (const cwd of ["/", loose]) {
    const r = await cli(home, ["reflect", "/"], { cwd });
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stderr, /Cannot reflect on "\/": the filesystem's root is no project/);
  }
  const why = await cli(home, ["why", join(repo, "a.ts")]);
  assert.equal(why.code, 1, why.stdout);
  assert.doesNotMatch(why.stdout, /page/);
  // Under a root, a folder with no .git is the project.
  const inRoot = await cli(home, ["reflect", "--dry-run"], { cwd: repo });
  assert.equal(inRoot.code, 0, inRoot.stderr);
  assert.match(inRoot.stdout, /^Knowledge page of repo:/);
  removeTree(base);
});

Deno.test("symbols shows a long Python __all__ cut to one outline line, while star imports still read all of it", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  const names = Array.from({ length: 60 }, (_, i) => `name_${i}`);
  writeTree(repo, {
    "pkg/api.py": `__all__ = [\n${names.map((n) => `    "${n}",\n`).join("")}]\n\n` +
      names.map((n) => `def ${n}():\n    return 1\n\n`).join("") + "def hidden():\n    return 2\n",
    "pkg/use.py": "from .api import *\n\n\ndef main():\n    name_59()\n    hidden()\n",
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const s = await cli(home, ["symbols", join(repo, "pkg/api.py")]);
  assert.equal(s.code, 0, s.stderr);
  const line = s.stdout.split("\n").find((l) => l.includes("__all__"))!;
  assert.ok(line.length < 260, line);
  assert.match(line, /…$/);
  const g = await cli(home, ["callees", "pkg/use.py:main", "--json"]);
  const out = JSON.parse(g.stdout);
  assert.deepEqual(out.callees.map((c: { name: string }) => c.name), ["name_59"], g.stdout);
  assert.deepEqual(out.unresolved.map((c: { name: string }) => c.name), ["hidden"], g.stdout);
  removeTree(base);
});

Deno.test("status counts the files held below their depth by the kind of reason, not by each file's figures", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  // Two bundles (4,096 characters or more) whose lines average different lengths, both over the limit.
  const bundle = (width: number) =>
    Array.from({ length: 8 }, (_, i) => `var v${i}=${"1+".repeat(width)}1;`).join("\n") + "\n";
  writeTree(repo, { "static/a.js": bundle(400), "static/b.js": bundle(900) });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const status = await cli(home, ["status"]);
  assert.equal(status.code, 0, status.stderr);
  const depth = status.stdout.split("\n").filter((l) => l.startsWith("depth "));
  assert.deepEqual(depth, [
    "depth    2 files below the depth asked for: minified or generated (see `heimdall depth`)",
  ]);
  // `heimdall depth` still says each file's figures.
  const one = await cli(home, ["depth", join(repo, "static/b.js")]);
  assert.match(one.stdout, /lines average \d+ chars > 300 limit/);
  removeTree(base);
});
