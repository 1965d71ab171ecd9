import assert from "node:assert/strict";
import { join } from "node:path";
import { type Config, defaultConfig, homePaths } from "../config/mod.ts";
import { type Extractor, L1Extractor } from "../extract/mod.ts";
import { dumpIndex, fullTextSegments, Journal, queueStats } from "../store/mod.ts";
import { Reconciler } from "./reconciler.ts";
import { LineExtractor } from "../../tests/line_extractor.ts";

function setup(
  files: Record<string, string>,
  extractor: Extractor = new L1Extractor(),
  over: Partial<Config> = {},
) {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-rec-" });
  const root = join(base, "repo");
  for (const [rel, content] of Object.entries(files)) {
    Deno.mkdirSync(join(root, rel, ".."), { recursive: true });
    Deno.writeTextFileSync(join(root, rel), content);
  }
  Deno.mkdirSync(root, { recursive: true });
  const home = homePaths(join(base, "home"));
  const journal = Journal.open(home.journal);
  const config = { ...defaultConfig(), roots: [{ path: root, depth: "max" as const }], ...over };
  const r = new Reconciler(journal, home, config, extractor);
  r.syncRoots();
  return {
    root,
    home,
    journal,
    r,
    [Symbol.dispose]() {
      journal.close();
      Deno.removeSync(base, { recursive: true });
    },
  };
}

Deno.test("Reconciler indexes a tree at L1 and reconciling twice is byte-identical", async () => {
  using t = setup({
    "a.ts": "export const a = 1;\n",
    "docs/b.md": "# Title\n",
    "c.bin": "\u0000\u0001",
  });
  await t.r.audit();
  const once = dumpIndex(t.journal, "raw");
  assert.match(once, /"rel":"a.ts"/);
  assert.match(once, /"rel":"c.bin","state":"skipped","reason":"binary"/);
  await new Promise((r) => setTimeout(r, 5));
  await t.r.audit();
  await t.r.audit({ deep: true });
  assert.equal(dumpIndex(t.journal, "raw"), once);
});

Deno.test("Reconciler retracts exactly the rows of a deleted file", async () => {
  const ex = new LineExtractor();
  using t = setup({ "a.ts": "function one\nfunction two\n", "b.ts": "function three\n" }, ex);
  await t.r.audit();
  const before = dumpIndex(t.journal).split("\n");
  Deno.removeSync(join(t.root, "a.ts"));
  const stats = await t.r.audit();
  assert.equal(stats.retracted, 1);
  const after = dumpIndex(t.journal).split("\n");
  const gone = before.filter((l) => !after.includes(l));
  assert.ok(gone.length >= 4, "the path row, its file node and two symbols went");
  for (const l of gone) assert.match(l, /a\.ts/);
  assert.ok(after.some((l) => l.includes('"name":"three"')));
  const counts = t.journal.get<{ n: number }>(
    "SELECT count(*) AS n FROM nodes WHERE path_id NOT IN (SELECT id FROM paths)",
  )!;
  assert.equal(counts.n, 0);
});

Deno.test("a stale commit is rejected by the generation guard and the path requeued", async () => {
  const ex = new LineExtractor();
  using t = setup({ "a.ts": "function first\n" }, ex);
  await t.r.audit();
  const path = join(t.root, "a.ts");
  // A second writer that bypasses the lock (what the guard defends against).
  const other = new Reconciler(t.journal, t.home, t.r.config, new LineExtractor());
  other.syncRoots();
  let open!: () => void;
  ex.gate = new Promise((r) => (open = r));
  Deno.writeTextFileSync(path, "function second\n");
  const slow = t.r.reconcilePaths([path]);
  await new Promise((r) => setTimeout(r, 20));
  Deno.writeTextFileSync(path, "function third\nfunction fourth\n");
  await other.reconcilePaths([path]);
  open();
  const stats = await slow;
  assert.equal(stats.requeued, 1);
  assert.equal(queueStats(t.journal).length, 1);
  const names = t.journal.all<{ name: string }>(
    "SELECT name FROM nodes WHERE kind = 'function' ORDER BY name",
  );
  assert.deepEqual(names.map((n) => n.name), ["fourth", "third"]);
});

Deno.test("a secret file is never in the journal, by name or by content", async () => {
  const key = "-----BEGIN OPENSSH PRIVATE KEY-----\n" +
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW".repeat(4) +
    "\n-----END OPENSSH PRIVATE KEY-----\n";
  using t = setup({
    ".env": "DATABASE_PASSWORD=hunter2-very-secret\n",
    "config/prod.env": "x",
    "src/deploy_key.txt": key,
    "src/ok.ts": "export const ok = true;\n",
  });
  await t.r.audit();
  t.journal.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const bytes = new TextDecoder("latin1").decode(Deno.readFileSync(t.home.journal));
  assert.ok(!bytes.includes("hunter2"), "no secret value");
  assert.ok(!bytes.includes("deploy_key"), "no secret file name");
  assert.ok(!bytes.includes("PRIVATE KEY"), "no key material");
  assert.ok(bytes.includes("src/ok.ts"));
  const root = t.journal.get<{ secrets_skipped: number }>("SELECT secrets_skipped FROM roots")!;
  assert.ok(root.secrets_skipped >= 2);
});

Deno.test("a file that turns into a secret is retracted", async () => {
  using t = setup({ "notes.txt": "plain words\n" });
  await t.r.audit();
  Deno.writeTextFileSync(
    join(t.root, "notes.txt"),
    "token ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8" + "\n",
  );
  await t.r.audit();
  assert.equal(t.journal.get<{ n: number }>("SELECT count(*) AS n FROM paths")!.n, 0);
});

Deno.test("a symlink loop does not hang the walk and links are not followed", async () => {
  using t = setup({ "a.ts": "export {};\n" });
  Deno.symlinkSync(t.root, join(t.root, "loop"));
  Deno.symlinkSync("/etc/hostname", join(t.root, "outside"));
  await t.r.audit();
  const rels = t.journal.all<{ rel: string }>("SELECT rel FROM paths ORDER BY rel").map((r) =>
    r.rel
  );
  assert.deepEqual(rels, ["a.ts"]);
});

Deno.test("ignored folders, .gitignore and files over the size cap are handled", async () => {
  using t = setup({
    ".gitignore": "generated/\n*.log\n",
    "generated/x.ts": "x",
    "node_modules/p/index.js": "x",
    "app.log": "x",
    "big.txt": "y".repeat(2000),
    "src/main.ts": "export {};\n",
  });
  t.r.config.maxFileBytes = 1000;
  await t.r.audit();
  const rows = t.journal.all<{ rel: string; state: string; reason: string | null }>(
    "SELECT rel, state, reason FROM paths ORDER BY rel",
  ).map((r) => ({ ...r }));
  assert.deepEqual(rows, [
    { rel: ".gitignore", state: "indexed", reason: null },
    { rel: "big.txt", state: "skipped", reason: "too large" },
    { rel: "src/main.ts", state: "indexed", reason: null },
  ]);
  // A rule added later retracts what it now excludes.
  Deno.writeTextFileSync(join(t.root, ".gitignore"), "generated/\n*.log\nsrc/\n");
  await t.r.audit();
  assert.equal(
    t.journal.get<{ n: number }>("SELECT count(*) AS n FROM paths WHERE rel LIKE 'src/%'")!.n,
    0,
  );
});

Deno.test("a hinted folder is walked, and deletions inside it are found", async () => {
  using t = setup({ "pkg/a.ts": "a", "pkg/b.ts": "b" });
  await t.r.audit();
  Deno.removeSync(join(t.root, "pkg/a.ts"));
  Deno.writeTextFileSync(join(t.root, "pkg/c.ts"), "c");
  await t.r.reconcilePaths([join(t.root, "pkg")]);
  const rels = t.journal.all<{ rel: string }>("SELECT rel FROM paths ORDER BY rel").map((r) =>
    r.rel
  );
  assert.deepEqual(rels, ["pkg/b.ts", "pkg/c.ts"]);
});

Deno.test("removing a root from the configuration retracts all its rows", async () => {
  using t = setup({ "a.ts": "a" });
  await t.r.audit();
  t.r.syncRoots({ ...t.r.config, roots: [] });
  assert.equal(t.journal.get<{ n: number }>("SELECT count(*) AS n FROM paths")!.n, 0);
  assert.equal(t.journal.get<{ n: number }>("SELECT count(*) AS n FROM nodes")!.n, 0);
});

Deno.test("a grammar that cannot load clamps to L1 with its reason, and the next audit goes deeper once it can", async () => {
  const { createExtractor, defaultGrammarPaths, GrammarStore } = await import("../extract/mod.ts");
  // A grammar folder with the manifest but without Python's grammar.
  const grammars = Deno.makeTempDirSync({ prefix: "heimdall-grammars-" });
  const shipped = defaultGrammarPaths();
  Deno.copyFileSync(new URL("manifest.json", shipped.grammars), join(grammars, "manifest.json"));
  const crippled = createExtractor({
    store: new GrammarStore({ ...shipped, grammars: new URL(`file://${grammars}/`) }),
  });
  using t = setup({ "tool.py": "def run():\n    return 1\n" }, crippled);
  await t.r.audit();
  const before = t.journal.get<
    { effective_depth: number; target_depth: number; depth_reason: string }
  >(
    "SELECT effective_depth, target_depth, depth_reason FROM paths",
  )!;
  assert.equal(before.effective_depth, 1);
  assert.match(before.depth_reason, /python/i);
  // Capability rises (the grammar is back): the same, unchanged file is re-read deeper.
  const full = new Reconciler(t.journal, t.home, t.r.config, createExtractor());
  full.syncRoots();
  const stats = await full.audit();
  assert.equal(stats.changed, 1);
  const after = t.journal.get<{ effective_depth: number }>("SELECT effective_depth FROM paths")!;
  assert.equal(after.effective_depth, 3);
  assert.equal(
    t.journal.get<{ n: number }>("SELECT count(*) AS n FROM nodes WHERE name = 'run'")!.n,
    1,
  );
  Deno.removeSync(grammars, { recursive: true });
});

Deno.test("a pass that indexes a quarter of the files or more leaves one full-text segment; a small pass leaves FTS5's merging", async () => {
  const files = Object.fromEntries(
    Array.from(
      { length: 150 },
      (_, i) => [`src/f${i}.ts`, `export const v${i} = "lantern ${i}";\n`],
    ),
  );
  // Committed ten files at a time: a full-text segment each, which FTS5 merges only four at a time.
  using t = setup(files, new L1Extractor(), { batchSize: 10 });
  await t.r.pass({ audit: true });
  assert.equal(fullTextSegments(t.journal), 1);
  const one = join(t.root, "src/f1.ts");
  Deno.writeTextFileSync(one, `export const v1 = "lantern moved";\n`);
  await t.r.pass({ paths: [one] });
  assert.equal(fullTextSegments(t.journal), 2, "one changed file: its own segment, not merged");
  const hits = t.journal.all("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH 'lantern'");
  assert.equal(hits.length, 150);
});

Deno.test("a file turned binary or too large loses its symbols, and what follows the index runs after that pass", async () => {
  const ex = new LineExtractor();
  using t = setup({ "a.ts": "function one\n", "b.ts": "function two\n" }, ex, {
    maxFileBytes: 1000,
  });
  let runs = 0;
  t.r.follow({ name: "counter", afterPass: () => void runs++ });
  await t.r.pass({ audit: true });
  await t.r.pass({ audit: true });
  assert.equal(runs, 1, "the first pass runs them; an unchanged index does not");
  const symbols = () =>
    t.journal.all<{ name: string }>("SELECT name FROM nodes WHERE kind = 'function' ORDER BY name")
      .map((n) => n.name);
  Deno.writeFileSync(join(t.root, "a.ts"), new Uint8Array([0, 1, 2, 0, 255]));
  const binary = await t.r.pass({ paths: [join(t.root, "a.ts")] });
  assert.equal(binary.stats.skipped, 1);
  assert.deepEqual(symbols(), ["two"]);
  assert.equal(runs, 2, "the followers see that a.ts's symbols are gone");
  Deno.writeTextFileSync(join(t.root, "b.ts"), "function two\n" + "// filler\n".repeat(200));
  await t.r.pass({ audit: true });
  assert.deepEqual(symbols(), []);
  assert.equal(runs, 3, "and that b.ts's are");
});

Deno.test("a folder replaced by a file of its name leaves nothing indexed below it, by path or by hint", async (t) => {
  for (const how of ["reconcilePaths", "queue"] as const) {
    await t.step(how, async () => {
      using s = setup({ "a/x/z.ts": "z", "a/x/y/w.ts": "w", "a/xy.ts": "xy" });
      await s.r.audit();
      const x = join(s.root, "a/x");
      Deno.removeSync(x, { recursive: true });
      Deno.writeTextFileSync(x, "now a file");
      if (how === "queue") {
        s.r.enqueue([x], "hint");
        await s.r.drainQueue();
      } else await s.r.reconcilePaths([x]);
      const rels = s.journal.all<{ rel: string }>("SELECT rel FROM paths ORDER BY rel");
      assert.deepEqual(rels.map((r) => r.rel), ["a/x", "a/xy.ts"]);
    });
  }
});
