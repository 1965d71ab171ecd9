import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultConfig, homePaths } from "../config/mod.ts";
import { GraphLangExtractor } from "./graph_lang_fixture.ts";
import { createExtractor } from "../extract/mod.ts";
import { Journal } from "../store/mod.ts";
import { Reconciler } from "./reconciler.ts";
import { Resolver } from "./resolve.ts";

function setup(roots: Record<string, Record<string, string>>) {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-graph-" });
  for (const [name, files] of Object.entries(roots)) {
    for (const [rel, content] of Object.entries(files)) {
      Deno.mkdirSync(join(base, name, rel, ".."), { recursive: true });
      Deno.writeTextFileSync(join(base, name, rel), content);
    }
  }
  const home = homePaths(join(base, "home"));
  const journal = Journal.open(home.journal);
  const config = {
    ...defaultConfig(),
    roots: Object.keys(roots).map((n) => ({ path: join(base, n), depth: "max" as const })),
  };
  const r = new Reconciler(journal, home, config, new GraphLangExtractor());
  r.syncRoots();
  return {
    base,
    journal,
    r,
    edges: () =>
      journal.all<{ src: string; dst: string; how: string }>(
        `SELECT s.qualname || '@' || ps.rel AS src, d.qualname || '@' || pd.rel AS dst, e.how
         FROM edges e JOIN nodes s ON s.id = e.src JOIN nodes d ON d.id = e.dst
         JOIN paths ps ON ps.id = s.path_id JOIN paths pd ON pd.id = d.path_id
         ORDER BY 1, 2`,
      ).map((e) => `${e.src} -> ${e.dst} (${e.how})`),
    pending: () =>
      journal.all<{ target: string }>("SELECT target FROM pending_edges ORDER BY target").map((p) =>
        p.target
      ),
    [Symbol.dispose]() {
      journal.close();
      Deno.removeSync(base, { recursive: true });
    },
  };
}

const FILES = {
  "a.ts": "import helper from ./b.ts\ndef main\ncall helper\ncall local\ncall shared\ndef local\n",
  "b.ts": "def helper\ncall shared\n",
  "c.ts": "def shared\n",
};

Deno.test("two files in either reconcile order give the same graph", async () => {
  using one = setup({ repo: FILES });
  using two = setup({ repo: FILES });
  const order = ["a.ts", "b.ts", "c.ts"];
  for (const f of order) await one.r.reconcilePaths([join(one.base, "repo", f)]);
  for (const f of [...order].reverse()) await two.r.reconcilePaths([join(two.base, "repo", f)]);
  assert.deepEqual(one.edges(), [
    "@a.ts -> helper@b.ts (import)",
    "helper@b.ts -> shared@c.ts (unique)",
    "main@a.ts -> helper@b.ts (import)",
    "main@a.ts -> local@a.ts (same-file)",
  ]);
  // a.ts is a module (it imports): a name it neither imports nor defines is
  // not looked up elsewhere; b.ts imports nothing, a script sharing globals.
  assert.deepEqual(one.pending(), ["shared"]);
  assert.deepEqual(two.edges(), one.edges());
  assert.deepEqual(two.pending(), one.pending());
});

Deno.test("a renamed function retracts its node and its edges turn back into pending ones", async () => {
  using t = setup({ repo: FILES });
  await t.r.audit();
  assert.ok(t.edges().includes("helper@b.ts -> shared@c.ts (unique)"));
  Deno.writeTextFileSync(join(t.base, "repo", "c.ts"), "def renamed\n");
  await t.r.audit();
  assert.ok(!t.edges().some((e) => e.includes("shared@")));
  assert.deepEqual(t.pending().filter((p) => p === "shared"), ["shared", "shared"]);
  Deno.writeTextFileSync(join(t.base, "repo", "c.ts"), "def shared\n");
  await t.r.audit();
  assert.ok(t.edges().includes("helper@b.ts -> shared@c.ts (unique)"));
});

Deno.test("a namesake makes a unique-name resolution ambiguous: the call is left unresolved, never guessed", async () => {
  using t = setup({ repo: FILES });
  await t.r.audit();
  Deno.writeTextFileSync(join(t.base, "repo", "d.ts"), "def shared\n");
  await t.r.audit();
  assert.ok(!t.edges().some((e) => e.includes("-> shared@")));
  assert.equal(t.pending().filter((p) => p === "shared").length, 2);
  Deno.removeSync(join(t.base, "repo", "d.ts"));
  await t.r.audit();
  assert.ok(t.edges().includes("helper@b.ts -> shared@c.ts (unique)"));
});

Deno.test("an edit reopens unique-name edges elsewhere only for a namesake it adds", async () => {
  using t = setup({ repo: { ...FILES, "e.ts": "def K.shared\ndef other\n" } });
  await t.r.audit();
  // A method named `shared` is no namesake for a bare call: the edge stays unique.
  assert.ok(t.edges().includes("helper@b.ts -> shared@c.ts (unique)"));
  const rowid = () =>
    t.journal.get<{ rowid: number }>(
      "SELECT e.rowid FROM edges e JOIN nodes d ON d.id = e.dst WHERE d.name = 'shared' AND e.how = 'unique'",
    )?.rowid;
  const before = rowid();
  // Edited, its definitions the same: the edge is left where it is, not reopened and written again.
  Deno.writeTextFileSync(join(t.base, "repo", "e.ts"), "def K.shared\ndef other\ncall other\n");
  await t.r.audit();
  assert.equal(rowid(), before);
  // Edited to define a function `shared`: now a namesake, and the call is left unresolved.
  Deno.writeTextFileSync(join(t.base, "repo", "e.ts"), "def K.shared\ndef shared\n");
  await t.r.audit();
  assert.ok(!t.edges().some((e) => e.includes("-> shared@c.ts")), t.edges().join("; "));
  assert.equal(t.pending().filter((p) => p === "shared").length, 2);
});

Deno.test("same-named files in two repositories do not collide", async () => {
  using t = setup({ one: FILES, two: FILES });
  await t.r.audit();
  const ids = t.journal.all<{ id: string }>("SELECT id FROM nodes");
  assert.equal(new Set(ids.map((r) => r.id)).size, ids.length);
  assert.equal(ids.length, 2 * (3 + 4));
  const cross = t.journal.get<{ n: number }>(
    `SELECT count(*) AS n FROM edges e JOIN nodes s ON s.id = e.src JOIN nodes d ON d.id = e.dst
     JOIN paths ps ON ps.id = s.path_id JOIN paths pd ON pd.id = d.path_id WHERE ps.root_id != pd.root_id`,
  )!;
  assert.equal(cross.n, 0);
});

Deno.test("a call bound to an import of an outside package stays pending with its name", async () => {
  using t = setup({
    repo: { "a.ts": "import np from numpy\ndef f\ncall array np\n", "b.ts": "def array\n" },
  });
  await t.r.audit();
  assert.deepEqual(t.edges(), []);
  assert.deepEqual(t.pending(), ["array", "np"]);
});

Deno.test("an import through a re-exporting module reaches the definition in any order", async () => {
  const files = {
    "a.ts": "import helper from ./m.ts\ndef main\ncall helper\n",
    "m.ts": "import helper from ./b.ts\n",
    "b.ts": "def helper\n",
  };
  for (
    const order of [["a.ts", "m.ts", "b.ts"], ["b.ts", "m.ts", "a.ts"], ["m.ts", "a.ts", "b.ts"]]
  ) {
    using t = setup({ repo: files });
    for (const f of order) await t.r.reconcilePaths([join(t.base, "repo", f)]);
    assert.ok(t.edges().includes("main@a.ts -> helper@b.ts (import)"), order.join(" "));
    assert.ok(t.edges().includes("@a.ts -> helper@b.ts (import)"), order.join(" "));
  }
});

Deno.test("a first index finds a re-export for every importer, those resolved before it and after", async () => {
  // Resolved in path order: a.ts asks k.ts for `helper` before k.ts's own
  // import of it is resolved, z.ts after. A look-up remembered for a.ts
  // must not answer z.ts.
  using t = setup({
    repo: {
      "a.ts": "import helper from ./k.ts\ndef first\ncall helper\n",
      "b.ts": "def helper\n",
      "k.ts": "import helper from ./b.ts\n",
      "z.ts": "import helper from ./k.ts\ndef last\ncall helper\n",
    },
  });
  await t.r.audit();
  for (const edge of ["@a.ts", "@z.ts", "first@a.ts", "last@z.ts"]) {
    assert.ok(t.edges().includes(`${edge} -> helper@b.ts (import)`), `${edge}: ${t.edges()}`);
  }
  assert.deepEqual(t.pending(), []);
});

Deno.test("a first index resolves once at the end and gives the same graph as file-by-file reconciles", async () => {
  using cold = setup({ repo: FILES });
  using warm = setup({ repo: FILES });
  await cold.r.audit();
  for (const f of ["c.ts", "a.ts", "b.ts"]) {
    await warm.r.reconcilePaths([join(warm.base, "repo", f)]);
  }
  assert.deepEqual(cold.edges(), warm.edges());
  assert.deepEqual(cold.pending(), warm.pending());
  assert.equal(
    cold.journal.get("SELECT 1 FROM meta WHERE key LIKE 'resolve_pending:%'"),
    undefined,
  );
});

Deno.test("a first index interrupted before its resolution pass is resolved by the next audit", async () => {
  using t = setup({ repo: FILES });
  await t.r.audit();
  const want = t.edges();
  // What a crash after the last commit, before the resolution pass, leaves behind.
  t.journal.tx(() => {
    t.journal.run(
      `INSERT INTO pending_edges (owner_id, src, kind, target, name, module, module_tail, line)
       SELECT owner_id, src, kind, target, name, module, module_tail, line FROM edges WHERE target IS NOT NULL`,
    );
    t.journal.run("DELETE FROM edges WHERE target IS NOT NULL");
    t.journal.run("INSERT INTO meta (key, value) VALUES ('resolve_pending:1', '1')");
  });
  assert.deepEqual(t.edges(), []);
  await t.r.audit();
  assert.deepEqual(t.edges(), want);
});

/** A second reconciler on `t`'s journal that resolves a root whole past one changed file, and what it logged. */
function bulkReconciler(t: ReturnType<typeof setup>): { r: Reconciler; said: string[] } {
  const said: string[] = [];
  const r = new Reconciler(
    t.journal,
    homePaths(join(t.base, "home")),
    { ...defaultConfig(), roots: [{ path: join(t.base, "repo"), depth: "max" }] },
    new GraphLangExtractor(),
    { info: (m) => said.push(m), warn: (m) => said.push(m) },
  );
  r.syncRoots();
  r.bulkChanges = 1;
  return { r, said };
}

Deno.test("a call that changes more files of a root than bulkChanges resolves the root whole at its end, as a first index would", async () => {
  using t = setup({ repo: FILES });
  await t.r.audit();
  const { r, said } = bulkReconciler(t);
  // A checkout: the helper moves from b.ts to a new d.ts, and c.ts goes.
  const final = {
    "a.ts":
      "import helper from ./d.ts\ndef main\ncall helper\ncall local\ncall shared\ndef local\n",
    "b.ts": "def other\ncall shared\n",
    "d.ts": "def helper\ndef shared\n",
  };
  for (const [rel, text] of Object.entries(final)) {
    Deno.writeTextFileSync(join(t.base, "repo", rel), text);
  }
  Deno.removeSync(join(t.base, "repo", "c.ts"));
  await new Promise((res) => setTimeout(res, 5));
  await r.audit();
  assert.ok(said.some((m) => /more than 1 files changed under .*resolved again whole/.test(m)));
  assert.equal(t.journal.get("SELECT 1 FROM meta WHERE key LIKE '%resolve%'"), undefined);
  using fresh = setup({ repo: final });
  await fresh.r.audit();
  assert.deepEqual(t.edges(), fresh.edges());
  assert.deepEqual(t.pending(), fresh.pending());
  assert.ok(t.edges().includes("main@a.ts -> helper@d.ts (import)"), t.edges().join("\n"));
});

Deno.test("a file that keeps its definitions and imports counts a 25th toward bulkChanges; the graph is a fresh index's either way", async () => {
  using t = setup({ repo: FILES });
  await t.r.audit();
  const { r, said } = bulkReconciler(t);
  const now: Record<string, string> = { ...FILES };
  const change = async (files: Record<string, string>) => {
    Object.assign(now, files);
    for (const [rel, text] of Object.entries(files)) {
      Deno.writeTextFileSync(join(t.base, "repo", rel), text);
    }
    await new Promise((res) => setTimeout(res, 5));
    said.length = 0;
    await r.audit();
    using fresh = setup({ repo: now });
    await fresh.r.audit();
    assert.deepEqual(t.edges(), fresh.edges());
    assert.deepEqual(t.pending(), fresh.pending());
    return said.some((m) => /resolved again whole/.test(m));
  };
  // Three body edits: 3/25 of a file, under 1, so each is resolved on its own.
  const bodies = {
    "a.ts": FILES["a.ts"].replace("call shared\n", "call shared\ncall helper\n"),
    "b.ts": "def helper\ncall shared\ncall shared\n",
    "c.ts": "def shared\ncall shared\n",
  };
  assert.equal(await change(bodies), false, said.join("\n"));
  // Two more body edits and a new definition in b.ts: over 1, the root is resolved whole.
  const whole = await change({
    "a.ts": FILES["a.ts"],
    "b.ts": "def helper\ncall shared\ndef extra\n",
    "c.ts": FILES["c.ts"],
  });
  assert.equal(whole, true, said.join("\n"));
  assert.equal(t.journal.get("SELECT 1 FROM meta WHERE key LIKE '%resolve%'"), undefined);
});

Deno.test("a definition added to a file retries its importers, not theirs when their imports land where they did", async () => {
  const files = {
    "f.ts": "def helper\n",
    "i1.ts": "import helper from ./f.ts\n",
    "i2.ts": "import helper from ./f.ts\n",
    "j1.ts": "import helper from ./i1.ts\ndef main\ncall helper\n",
    "j2.ts": "import helper from ./i2.ts\ndef other\ncall helper\n",
  };
  using t = setup({ repo: files });
  const now = await indexThenAddExtra(t, files);
  const steps = await afterChangeSteps(() => t.r.reconcilePaths([join(t.base, "repo", "f.ts")]));
  // Their imports of f.ts find helper where it was: j1 and j2 have nothing new to see.
  assert.deepEqual(retriedPaths(t.journal, steps), ["i1.ts", "i2.ts"]);
  await assertAsFresh(t, now);
  assert.ok(t.edges().includes("main@j1.ts -> helper@f.ts (import)"), t.edges().join("\n"));
});

/** Indexes `t`'s tree (`files`), then gives f.ts a second definition, `extra`: the tree it leaves. */
async function indexThenAddExtra(
  t: ReturnType<typeof setup>,
  files: Record<string, string>,
): Promise<Record<string, string>> {
  await t.r.audit();
  const now = { ...files, "f.ts": "def helper\ndef extra\n" };
  Deno.writeTextFileSync(join(t.base, "repo", "f.ts"), now["f.ts"]);
  return now;
}

/** The steps every `Resolver.afterChange` yields while `fn` runs. */
async function afterChangeSteps(fn: () => Promise<unknown>): Promise<string[]> {
  const steps: string[] = [];
  const afterChange = Resolver.prototype.afterChange;
  Resolver.prototype.afterChange = function* (...args) {
    for (const step of afterChange.apply(this, args)) {
      steps.push(step);
      yield step;
    }
  };
  try {
    await fn();
  } finally {
    Resolver.prototype.afterChange = afterChange;
  }
  return steps;
}

/** The files whose imported names `steps` say were retried, sorted. */
function retriedPaths(journal: Journal, steps: readonly string[]): string[] {
  return steps.flatMap((step) => {
    const m = /^retrying the imported names of path (\d+)$/.exec(step);
    return m
      ? [journal.get<{ rel: string }>("SELECT rel FROM paths WHERE id = ?", Number(m[1]))!.rel]
      : [];
  }).sort();
}

/** Asserts that `t` holds the graph a fresh index of `tree` gives. */
async function assertAsFresh(t: ReturnType<typeof setup>, tree: Record<string, string>) {
  using fresh = setup({ repo: tree });
  await fresh.r.audit();
  assert.deepEqual(t.edges(), fresh.edges());
  assert.deepEqual(t.pending(), fresh.pending());
}

Deno.test("edits that keep or change what other files resolve through give the graph of a fresh index", async () => {
  const files = {
    "a.ts": "import helper from ./m.ts\ndef main\ncall helper\n",
    "m.ts": "import helper from ./b.ts\n",
    "b.ts": "def helper\ncall shared\n",
    "c.ts": "def helper\n",
    "d.ts": "def shared\n",
  };
  // Each step: an edit, and the tree it leaves.
  const steps: [string, string][] = [
    // A body edit keeps every definition: only b.ts's own references resolve again.
    ["b.ts", "def helper\ncall shared\ncall shared\n"],
    // The re-exporter now passes on c.ts's helper: a.ts must follow it.
    ["m.ts", "import helper from ./c.ts\n"],
    // A second definition of a name, after the first: the look-up takes the last.
    ["d.ts", "def shared\ndef other\ndef shared\n"],
    // The same definitions, reordered.
    ["d.ts", "def shared\ndef shared\ndef other\n"],
  ];
  using t = setup({ repo: files });
  await t.r.audit();
  const now: Record<string, string> = { ...files };
  for (const [rel, text] of steps) {
    now[rel] = text;
    Deno.writeTextFileSync(join(t.base, "repo", rel), text);
    await t.r.reconcilePaths([join(t.base, "repo", rel)]);
    using fresh = setup({ repo: now });
    await fresh.r.audit();
    assert.deepEqual(t.edges(), fresh.edges(), `after editing ${rel}`);
    assert.deepEqual(t.pending(), fresh.pending(), `after editing ${rel}`);
  }
  assert.ok(t.edges().includes("main@a.ts -> helper@c.ts (import)"), t.edges().join("\n"));
});

Deno.test("a namesake class added or removed elsewhere moves Type.m() calls as a fresh index would (Ruby, the real extractor)", async () => {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-graph-" });
  const logger = "class Logger\n  def self.outputs_to?(x)\n    true\n  end\nend\n";
  const files: Record<string, string> = {
    "logger.rb": logger,
    "logger_test.rb": "class LoggerTest\n  def test_it\n    Logger.outputs_to?(1)\n  end\nend\n",
  };
  const open = (name: string) => {
    const home = homePaths(join(base, name, "home"));
    const journal = Journal.open(home.journal);
    const r = new Reconciler(journal, home, {
      ...defaultConfig(),
      roots: [{ path: join(base, name, "repo"), depth: "max" }],
    }, createExtractor());
    r.syncRoots();
    return { journal, r };
  };
  const graph = (j: Journal) =>
    j.all<{ l: string }>(
      `SELECT s.qualname || ' -> ' || d.qualname || ' (' || e.how || ')' AS l FROM edges e
       JOIN nodes s ON s.id = e.src JOIN nodes d ON d.id = e.dst ORDER BY 1`,
    ).map((r) => r.l);
  const write = (name: string, tree: Record<string, string>) => {
    Deno.removeSync(join(base, name, "repo"), { recursive: true });
    for (const [rel, text] of Object.entries(tree)) {
      Deno.mkdirSync(join(base, name, "repo"), { recursive: true });
      Deno.writeTextFileSync(join(base, name, "repo", rel), text);
    }
  };
  try {
    Deno.mkdirSync(join(base, "inc", "repo"), { recursive: true });
    write("inc", files);
    const inc = open("inc");
    await inc.r.audit();
    assert.ok(graph(inc.journal).includes("LoggerTest.test_it -> Logger.outputs_to? (member)"));
    for (const tree of [{ ...files, "logger_copy.rb": logger }, files]) {
      write("inc", tree);
      await inc.r.audit();
      Deno.mkdirSync(join(base, "fresh", "repo"), { recursive: true });
      write("fresh", tree);
      const fresh = open("fresh");
      await fresh.r.audit();
      assert.deepEqual(graph(inc.journal), graph(fresh.journal), Object.keys(tree).join(" "));
      fresh.journal.close();
      Deno.removeSync(join(base, "fresh"), { recursive: true });
    }
    inc.journal.close();
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

/**
 * The path ids whose imports `#retryBound` read while `fn` ran (its first
 * query compares a file's imports before and after), and every SQL text run.
 */
async function importsRead(
  journal: Journal,
  fn: () => Promise<unknown>,
): Promise<{ owners: Set<number>; sql: string[] }> {
  const owners = new Set<number>();
  const sql: string[] = [];
  const all = journal.all;
  journal.all = function <T>(text: string, ...params: Parameters<Journal["all"]>[1][]): T[] {
    sql.push(text);
    if (text.includes("json_array(src, target, module, line, dst, how)")) {
      owners.add(params[0] as number);
    }
    return all.call(this, text, ...params) as T[];
  };
  try {
    await fn();
  } finally {
    journal.all = all;
  }
  return { owners, sql };
}

Deno.test("a change passed on through files that import it whole retries only the files that import a name through them", async () => {
  const files = {
    "f.ts": "def helper\n",
    "s1.ts": "import * from ./f.ts\n",
    "s2.ts": "import * from ./s1.ts\n",
    "n.ts": "import extra from ./s2.ts\ndef main\ncall extra\n",
    "w.ts": "import * from ./s2.ts\ndef other\n",
  };
  using t = setup({ repo: files });
  const now = await indexThenAddExtra(t, files);
  const { owners } = await importsRead(
    t.journal,
    () => t.r.reconcilePaths([join(t.base, "repo", "f.ts")]),
  );
  const rel = (id: number) =>
    t.journal.get<{ rel: string }>("SELECT rel FROM paths WHERE id = ?", id)!.rel;
  // s1 imports the changed file itself; s2 and w only pass s1 and s2 on.
  assert.deepEqual([...owners].map(rel).sort(), ["n.ts", "s1.ts"]);
  assert.ok(t.edges().includes("main@n.ts -> extra@f.ts (import)"), t.edges().join("\n"));
  await assertAsFresh(t, now);
});

Deno.test("an edit of a C++ header or a C# file retries what it may answer, and lands as a fresh index would (the real extractor)", async () => {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-graph-" });
  const header = (members: string) =>
    `namespace ns {\nclass W {\n public:\n  void open();\n${members}};\ninline void extra() {}\n}\n`;
  const files: Record<string, string> = {
    "include/w.h": "namespace ns {\nclass W {\n public:\n  void open();\n};\n}\n",
    "w.cpp": '#include "include/w.h"\nvoid ns::W::open() { close(); }\n',
    "util/Helper.cs": "namespace Util {\nclass Helper {\n  void A() {}\n}\n}\n",
    "java/Main.java": "import java.util.List;\nclass Main {\n  void run() {}\n}\n",
  };
  const open = (name: string, tree: Record<string, string>) => {
    for (const [rel, text] of Object.entries(tree)) {
      Deno.mkdirSync(join(base, name, "repo", rel, ".."), { recursive: true });
      Deno.writeTextFileSync(join(base, name, "repo", rel), text);
    }
    const home = homePaths(join(base, name, "home"));
    const journal = Journal.open(home.journal);
    const r = new Reconciler(journal, home, {
      ...defaultConfig(),
      roots: [{ path: join(base, name, "repo"), depth: "max" }],
    }, createExtractor());
    r.syncRoots();
    return { journal, r };
  };
  const graph = (j: Journal) => [
    ...j.all<{ l: string }>(
      `SELECT s.qualname || ' -> ' || d.qualname || ' (' || e.how || ')' AS l FROM edges e
       JOIN nodes s ON s.id = e.src JOIN nodes d ON d.id = e.dst ORDER BY 1`,
    ).map((r) => r.l),
    ...j.all<{ l: string }>("SELECT 'pending ' || target AS l FROM pending_edges ORDER BY 1")
      .map((r) => r.l),
  ];
  // The query that reads one out-of-line method's pending calls, whatever they are named.
  const everyCall = (sql: string[]) =>
    sql.filter((s) => /FROM pending_edges\s+WHERE owner_id = \? AND src = \?/.test(s)).length;
  try {
    const inc = open("inc", files);
    await inc.r.audit();
    const edit = async (rel: string, text: string) => {
      Deno.writeTextFileSync(join(base, "inc", "repo", rel), text);
      let read = { owners: new Set<number>(), sql: [] as string[] };
      const retried = await afterChangeSteps(async () => {
        read = await importsRead(
          inc.journal,
          () => inc.r.reconcilePaths([join(base, "inc", "repo", rel)]),
        );
      });
      return { ...read, retried };
    };
    // A function added to the namespace: no class of the header answers a new name
    // for `ns::W::open`'s call of `close`, so its pending calls are not all read again.
    const added = await edit("include/w.h", header(""));
    assert.equal(everyCall(added.sql), 0);
    assert.ok(graph(inc.journal).includes("pending close"));
    // W gains `close`: the out-of-line method's call lands on it.
    const tree: Record<string, string> = { ...files, "include/w.h": header("  void close();\n") };
    await edit("include/w.h", tree["include/w.h"]!);
    assert.ok(graph(inc.journal).includes("ns.W.open -> ns.W.close (member)"));
    // A C# folder named `util` is no package `java.util` reaches: Main.java is not retried.
    const javaId = inc.journal.get<{ id: number }>(
      "SELECT id FROM paths WHERE rel = 'java/Main.java'",
    )!.id;
    tree["util/Helper.cs"] =
      "namespace Util {\nclass Helper {\n  void A() {}\n  void B() {}\n}\n}\n";
    const cs = await edit("util/Helper.cs", tree["util/Helper.cs"]!);
    assert.ok(
      !cs.retried.includes(`retrying the imported names of path ${javaId}`),
      cs.retried.join("\n"),
    );
    const fresh = open("fresh", tree);
    await fresh.r.audit();
    assert.deepEqual(graph(inc.journal), graph(fresh.journal));
    fresh.journal.close();
    inc.journal.close();
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("a member or a definition added to a file that calls already looked in is found at once (Python, the real extractor)", async () => {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-graph-" });
  try {
    const repo = join(base, "repo");
    Deno.mkdirSync(repo);
    const store = "class Store:\n    def get(self):\n        return 1\n";
    Deno.writeTextFileSync(join(repo, "store.py"), store);
    // `self.get()` and the import of `load` read store.py's definitions before it changes.
    Deno.writeTextFileSync(
      join(repo, "sub.py"),
      "from store import Store, load\n\n\nclass Sub(Store):\n    def f(self):\n" +
        "        self.get()\n        self.put()\n        return load()\n",
    );
    const home = homePaths(join(base, "home"));
    const journal = Journal.open(home.journal);
    const r = new Reconciler(journal, home, {
      ...defaultConfig(),
      roots: [{ path: repo, depth: "max" }],
    }, createExtractor());
    r.syncRoots();
    const graph = () =>
      journal.all<{ l: string }>(
        `SELECT s.qualname || ' -> ' || d.qualname AS l FROM edges e JOIN nodes s ON s.id = e.src
         JOIN nodes d ON d.id = e.dst WHERE e.kind = 'calls' ORDER BY 1`,
      ).map((x) => x.l);
    try {
      await r.audit();
      assert.deepEqual(graph(), ["Sub.f -> Store.get"]);
      Deno.writeTextFileSync(
        join(repo, "store.py"),
        store + "\n    def put(self):\n        return 2\n\n\ndef load():\n    return 3\n",
      );
      await r.reconcilePaths([join(repo, "store.py")]);
      assert.deepEqual(graph(), ["Sub.f -> Store.get", "Sub.f -> Store.put", "Sub.f -> load"]);
    } finally {
      journal.close();
    }
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});
