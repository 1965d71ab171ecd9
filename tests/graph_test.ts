/** The code graph end to end: real tree-sitter extraction, real resolution, the CLI's graph commands. */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { homePaths } from "../src/config/mod.ts";
import { Journal } from "../src/store/mod.ts";
import { cli, copyDir, removeTree, tempDir, writeTree } from "./helpers.ts";

const FIXTURES = new URL("./fixtures/graph/", import.meta.url).pathname;

/** Copies a fixture repository to a temp folder (tests never index the source tree itself). */
function copyFixture(name: string): { base: string; repo: string; home: string } {
  const base = tempDir();
  const repo = join(base, name);
  copyDir(join(FIXTURES, name), repo);
  return { base, repo, home: join(base, "home") };
}

/** Every resolved edge as "file:symbol -kind-> file:symbol (how)". */
function edges(home: string): string[] {
  const j = Journal.open(homePaths(home).journal, { readOnly: true });
  try {
    return j.all<{ e: string }>(
      `SELECT ps.rel || ':' || s.qualname || ' -' || e.kind || '-> ' || pd.rel || ':' || d.qualname
         || ' (' || e.how || ')' AS e
       FROM edges e JOIN nodes s ON s.id = e.src JOIN nodes d ON d.id = e.dst
       JOIN paths ps ON ps.id = s.path_id JOIN paths pd ON pd.id = d.path_id
       ORDER BY 1`,
    ).map((r) => r.e);
  } finally {
    j.close();
  }
}

const EXPECTED: Record<string, string[]> = {
  ts: [
    "src/app/main.ts: -imports-> src/util/math.ts:Shape (import)",
    "src/app/main.ts: -imports-> src/util/math.ts:add (import)",
    "src/app/main.ts:Square -inherits-> src/util/math.ts:Shape (import)",
    "src/app/main.ts:Square.area -calls-> src/util/math.ts:add (import)",
  ],
  py: [
    "pkg/service.py: -imports-> pkg/core/models.py:Base (import)",
    "pkg/service.py: -imports-> pkg/core/models.py:load (import)",
    "pkg/service.py:User -inherits-> pkg/core/models.py:Base (import)",
    "pkg/service.py:User.persist -calls-> pkg/core/models.py:load (import)",
    "pkg/service.py:main -calls-> pkg/core/models.py:load (import)",
  ],
  go: ["cmd/main.go:main -calls-> internal/store/store.go:Open (import)"],
  rs: ["src/main.rs:main -calls-> src/store/paths.rs:join (import)"],
  java: [
    "src/main/java/com/acme/app/Main.java:Main.main -calls-> src/main/java/com/acme/store/Paths.java:Paths.join (import)",
  ],
};

for (const [lang, want] of Object.entries(EXPECTED)) {
  Deno.test(`cross-file edges of the ${lang} fixture resolve through its imports`, async () => {
    const t = copyFixture(lang);
    const r = await cli(t.home, ["index", t.repo]);
    assert.equal(r.code, 0, r.stderr);
    const got = edges(t.home);
    for (const e of want) assert.ok(got.includes(e), `${e}\nnot in\n${got.join("\n")}`);
    removeTree(t.base);
  });
}

/** The files of a fixture repository, relative to it, sorted. */
function fixtureFiles(name: string): string[] {
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const e of Deno.readDirSync(join(FIXTURES, name, rel))) {
      if (e.isDirectory) walk(join(rel, e.name));
      else files.push(join(rel, e.name));
    }
  };
  walk("");
  return files.sort();
}

/**
 * The graph of a fixture repository built one file at a time, in `order`:
 * its root is indexed while empty, so each file joins the index by its own
 * `heimdall reconcile FILE`.
 */
async function fileByFile(name: string, order: readonly string[]): Promise<string[]> {
  const base = tempDir();
  const repo = join(base, name);
  const home = join(base, "home");
  try {
    Deno.mkdirSync(repo);
    assert.equal((await cli(home, ["roots", "add", repo])).code, 0);
    assert.equal((await cli(home, ["reconcile"])).code, 0);
    copyDir(join(FIXTURES, name), repo);
    for (const f of order) {
      const r = await cli(home, ["reconcile", join(repo, f)]);
      assert.equal(r.code, 0, r.stderr);
    }
    return edges(home);
  } finally {
    removeTree(base);
  }
}

Deno.test("files reconciled one by one in opposite orders give the same graph", async () => {
  const files = fixtureFiles("ts");
  const forward = await fileByFile("ts", files);
  assert.deepEqual(forward, await fileByFile("ts", [...files].reverse()));
  assert.ok(forward.length >= 6);
});

Deno.test("a first index (resolved once at the end) equals file-by-file reconciles, in any order", async () => {
  for (const lang of ["ts", "py", "go"]) {
    const cold = copyFixture(lang);
    assert.equal((await cli(cold.home, ["index", cold.repo])).code, 0);
    const files = fixtureFiles(lang);
    // Reversed; and the last first, which puts an importer before the
    // packages of what it imports: `pkg/service.py`, then the package
    // `pkg/core/__init__.py`, then the module it imports, `pkg/core/models.py`.
    for (const order of [[...files].reverse(), [files.at(-1)!, ...files.slice(0, -1)]]) {
      assert.deepEqual(
        await fileByFile(lang, order),
        edges(cold.home),
        `${lang}: ${order.join(", ")}`,
      );
    }
    removeTree(cold.base);
  }
});

Deno.test("symbols, callers, callees and blast-radius answer by name, Class.method and path:name", async () => {
  const t = copyFixture("ts");
  Deno.writeTextFileSync(
    join(t.repo, "src/app/log.ts"),
    'export function note(): void {\n  console.warn("x");\n  nowhere(1);\n  nowhere(2);\n}\n',
  );
  await cli(t.home, ["index", t.repo]);
  const outline = JSON.parse(
    (await cli(t.home, ["symbols", join(t.repo, "src/util/math.ts"), "--json"])).stdout,
  );
  assert.deepEqual(
    outline.symbols.map((s: { kind: string; qualname: string; depth: number; line: number }) =>
      `${s.depth}:${s.kind}:${s.qualname}:${s.line}`
    ),
    ["0:function:add:2", "0:class:Shape:6", "1:method:Shape.area:7"],
  );
  const callers = JSON.parse((await cli(t.home, ["callers", "add", "--json"])).stdout);
  assert.deepEqual(callers.callers.map((c: { qualname: string }) => c.qualname), ["Square.area"]);
  const callees = await cli(t.home, ["callees", "Square.area", "--json"], { cwd: t.repo });
  assert.equal(callees.code, 0);
  assert.deepEqual(JSON.parse(callees.stdout).callees.map((c: { name: string }) => c.name), [
    "add",
  ]);
  // A callee is shown where it is defined, with the line that calls it.
  const told = await cli(t.home, ["callees", "Square.area"], { cwd: t.repo });
  assert.match(told.stdout, /function add — \S*src\/util\/math\.ts:2 {2}\(called at line 6\)/);
  // Calls that resolve nowhere are listed with their line, as written: a
  // name called twice by one symbol once, at its first call.
  const open = JSON.parse((await cli(t.home, ["callees", "note", "--json"])).stdout);
  assert.deepEqual(
    open.unresolved.map((u: { name: string; line: number }) => `${u.name}:${u.line}`),
    ["console.warn:2", "nowhere:3"],
  );
  const byPath = await cli(t.home, ["callers", "src/util/math.ts:add", "--json"], { cwd: t.repo });
  assert.equal(byPath.code, 0, byPath.stderr);
  const blast = JSON.parse(
    (await cli(t.home, ["blast-radius", "add", "--depth", "2", "--json"])).stdout,
  );
  const reached = blast.hits.map((h: { qualname: string; distance: number }) =>
    `${h.distance}:${h.qualname}`
  );
  assert.ok(reached.includes("1:Square.area"), reached.join(", "));
  assert.ok(reached.includes("2:run"), reached.join(", "));
  // An ambiguous name lists the candidates instead of guessing.
  const ambiguous = await cli(t.home, ["callers", "area"]);
  assert.equal(ambiguous.code, 2);
  assert.match(ambiguous.stderr, /"area" is ambiguous: 2 symbols match/);
  assert.match(ambiguous.stderr, /Shape\.area/);
  assert.match(ambiguous.stderr, /Square\.area/);
  const blank = await cli(t.home, ["callers", " "]);
  assert.equal(blank.code, 2);
  assert.match(blank.stderr, /Expected exactly one SYMBOL/);
  const missing = await cli(t.home, ["callees", "nope"]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /No symbol "nope"/);
  removeTree(t.base);
});

Deno.test("an edit that renames a function retracts its node and its callers' edges go pending", async () => {
  const t = copyFixture("ts");
  await cli(t.home, ["index", t.repo]);
  const math = join(t.repo, "src/util/math.ts");
  Deno.writeTextFileSync(
    math,
    Deno.readTextFileSync(math).replace("function add(", "function sum("),
  );
  assert.equal((await cli(t.home, ["reconcile", math])).code, 0);
  assert.ok(!edges(t.home).some((e) => e.includes(":add")));
  const j = Journal.open(homePaths(t.home).journal, { readOnly: true });
  const pending = j.all<{ kind: string }>("SELECT kind FROM pending_edges WHERE target = 'add'");
  j.close();
  assert.deepEqual(pending.map((p) => p.kind), ["calls"], "the call of add waits for a definition");
  // The imports still name modules that exist, and say they found only the module.
  assert.ok(edges(t.home).includes("src/app/main.ts: -imports-> src/util/mod.ts: (module)"));
  Deno.writeTextFileSync(
    math,
    Deno.readTextFileSync(math).replace("function sum(", "function add("),
  );
  assert.equal((await cli(t.home, ["reconcile", math])).code, 0);
  assert.ok(
    edges(t.home).includes("src/app/main.ts:Square.area -calls-> src/util/math.ts:add (import)"),
  );
  removeTree(t.base);
});

Deno.test("a C++ method is found as Class::method, path:Class::method and Class.method, its declaration and definition as one", async () => {
  const base = tempDir();
  const repo = join(base, "cpp");
  const home = join(base, "home");
  writeTree(repo, {
    "include/widget.h":
      "namespace ui {\nclass Widget {\n public:\n  void open();\n  void close();\n};\n}\n",
    "widget.cpp":
      '#include "include/widget.h"\nnamespace ui {\nvoid Widget::open() {\n  close();\n}\n\nvoid Widget::close() {}\n}\n',
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  // `::` is C++'s (and Rust's, PHP's) separator, never a path:name colon.
  for (const q of ["Widget::open", "ui::Widget::open", "widget.cpp:Widget::open"]) {
    const r = await cli(home, ["callees", q], { cwd: repo });
    assert.equal(r.code, 0, `${q}: ${r.stderr}`);
    assert.match(r.stdout, /^method ui\.Widget\.open — widget\.cpp:3\n/, q);
    // The call lands on the declaration the reader of widget.cpp sees through its #include.
    assert.match(r.stdout, /ui\.Widget\.close — include\/widget\.h:5 {2}\(called at line 4\)/, q);
  }
  // path:Class.method names the method without its namespace, as Class.method does.
  const inFile = await cli(home, ["callees", "widget.cpp:Widget.open"], { cwd: repo });
  assert.equal(inFile.code, 0, inFile.stderr);
  // The declaration in the header and the definition are one method: the definition answers.
  const both = await cli(home, ["callers", "Widget.close", "--json"], { cwd: repo });
  assert.equal(both.code, 0, both.stderr);
  const answer = JSON.parse(both.stdout);
  assert.equal(answer.symbol.path, join(repo, "widget.cpp"));
  assert.deepEqual(answer.callers.map((c: { qualname: string }) => c.qualname), ["ui.Widget.open"]);
  removeTree(base);
});

Deno.test("callers counts the unresolved calls of its name only where they could resolve to it: its repository and language", async () => {
  const base = tempDir();
  const home = join(base, "home");
  writeTree(join(base, "a"), {
    "lib.ts": "export function helper(): number {\n  return 1;\n}\n",
    // A receiver of unknown type: this call may be helper's, and stays pending.
    "use.ts":
      "declare const box: any, jar: any;\nexport function go(): number {\n  return box.helper() + jar.helper();\n}\n",
    // Python never calls a TypeScript function.
    "script.py": "def run():\n    helper()\n",
  });
  // Another repository never calls into this one.
  writeTree(join(base, "b"), { "other.ts": "export function main(): void {\n  helper();\n}\n" });
  assert.equal((await cli(home, ["index", join(base, "a"), join(base, "b")])).code, 0);
  const r = await cli(home, ["callers", "helper", "--json"]);
  assert.equal(JSON.parse(r.stdout).unresolved_calls_by_name, 1);
  const told = await cli(home, ["callers", "helper"]);
  // Counted by caller: go calls it on two receivers.
  assert.match(
    told.stdout,
    /\(\+1 more caller\(s\) whose call named helper resolves to no single definition\)/,
  );
  removeTree(base);
});

/** `callers SYMBOL --json`'s count of unresolved calls that might reach it, over one indexed repository of `files`. */
async function uncertainCallers(files: Record<string, string>, symbol: string): Promise<number> {
  const base = tempDir();
  try {
    const home = join(base, "home");
    writeTree(join(base, "a"), files);
    assert.equal((await cli(home, ["index", join(base, "a")])).code, 0);
    const r = await cli(home, ["callers", symbol, "--json"]);
    return JSON.parse(r.stdout).unresolved_calls_by_name;
  } finally {
    removeTree(base);
  }
}

Deno.test("callers of a method never count a bare call of its name (a builtin's) as a caller it might have", async () => {
  const n = await uncertainCallers({
    "conn.py": "class Conn:\n    def len(self):\n        return 1\n",
    // len([]) is the builtin: a bare call never lands on a method.
    "size.py": "def size(items):\n    return len(items)\n",
    // A receiver of unknown type: this call may be Conn.len's.
    "use.py": "def use(c):\n    return c.len()\n",
  }, "Conn.len");
  assert.equal(n, 1);
});

Deno.test("callers of a function named as a builtin never count the builtin's bare calls elsewhere", async () => {
  const n = await uncertainCallers({
    "gz.py": "def open(path):\n    return path\n",
    // open(p) in another file is Python's builtin: it never lands on gz.open.
    "read.py": "def read(p):\n    return open(p).read()\n",
    // A receiver of unknown type: this call may be gz.open's.
    "use.py": "def use(m, p):\n    return m.open(p)\n",
  }, "open");
  assert.equal(n, 1);
});

Deno.test("callers of a function outside every class never count calls on self or cls, which land on the caller's own class", async () => {
  const n = await uncertainCallers({
    "gz.py": "def fetch(path):\n    return path\n",
    "reader.py": "class Reader:\n    def go(self, p):\n        return self.fetch(p)\n",
    "pool.py":
      "class Pool:\n    @classmethod\n    def make(cls, p):\n        return cls.fetch(p)\n",
    // A receiver of unknown type: this call may be gz.fetch's.
    "use.py": "def use(m, p):\n    return m.fetch(p)\n",
  }, "gz.py:fetch");
  assert.equal(n, 1);
});

Deno.test("symbols says why a path has no outline: no such file, a folder, a link, under no root, ignored, a secret, not indexed yet", async () => {
  const base = tempDir();
  const repo = join(base, "repo");
  const home = join(base, "home");
  writeTree(repo, {
    "src/a.ts": "export function a(): void {}\n",
    ".gitignore": "gen/\n",
    "gen/out.ts": "export function g(): void {}\n",
    "node_modules/x/i.ts": "export function i(): void {}\n",
    ".env": "MODE=dev\n",
  });
  writeTree(base, { "outside.ts": "export function b(): void {}\n" });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  writeTree(repo, {
    "src/later.ts": "export function c(): void {}\n",
    "my notes/later.ts": "export function d(): void {}\n",
  });
  Deno.symlinkSync(join(base, "outside.ts"), join(repo, "src/link.ts"));
  const cases: [string, RegExp][] = [
    ["src/link.ts", /".*\/src\/link\.ts" is a symbolic link to .*\/outside\.ts, .*never followed/],
    ["src/nope.ts", /No file ".*\/repo\/src\/nope\.ts"; check the path/],
    ["src", /".*\/repo\/src" is a folder; .*heimdall symbols .*\/repo\/src\/FILE/],
    ["../outside.ts", /".*\/outside\.ts" is under no root.*heimdall roots add DIR/],
    ["src/later.ts", /".*\/repo\/src\/later\.ts" is not in the index yet.*heimdall reconcile/],
    // A remedy is a command to paste: a path with a space in it is quoted.
    ["my notes/later.ts", /`heimdall reconcile '\S*\/repo\/my notes\/later\.ts'` indexes it/],
    // Skipped again by any reconcile: that is not the remedy.
    ["gen/out.ts", /".*\/gen\/out\.ts" is ignored \(\.gitignore:1 gen\/\), .*edit that rule/],
    [
      "node_modules/x/i.ts",
      /".*\/i\.ts" is ignored \(default: node_modules\), so it is not indexed$/m,
    ],
    [".env", /"\S*\/\.env" is never indexed \(secret file name: \.env\)/],
  ];
  for (const [path, want] of cases) {
    const r = await cli(home, ["symbols", path], { cwd: repo });
    assert.equal(r.code, 2, path);
    assert.match(r.stderr, want, path);
  }
  removeTree(base);
});

Deno.test("symbols finds a file by its path in its root, or the end of it, from any folder, and lists the files such an end names", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, {
    "pkg/util.py": "def total(items):\n    return 0\n",
    "tools/util.py": "def other():\n    return 1\n",
    "src/only.ts": "export function only(): void {}\n",
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  // Typed as `callers src/only.ts:only` takes it: the outline of the one file, named first.
  for (const typed of ["src/only.ts", "only.ts", "pkg/util.py"]) {
    const r = await cli(home, ["symbols", typed], { cwd: "/" });
    assert.equal(r.code, 0, `${typed}: ${r.stderr}`);
    const file = join(repo, typed === "only.ts" ? "src/only.ts" : typed);
    assert.equal(r.stdout.split("\n")[0], `${file}:`, typed);
  }
  const json = JSON.parse((await cli(home, ["symbols", "only.ts", "--json"], { cwd: "/" })).stdout);
  assert.equal(json.path, join(repo, "src/only.ts"));
  // Two files end so: both are named, nothing is picked.
  const two = await cli(home, ["symbols", "util.py"], { cwd: "/" });
  assert.equal(two.code, 2);
  assert.match(
    two.stderr,
    /"util\.py" is the end of 2 indexed files' paths; name one by more of its path/,
  );
  assert.ok(
    two.stderr.includes(join(repo, "pkg/util.py")) &&
      two.stderr.includes(join(repo, "tools/util.py")),
  );
  // A path the index does not end with is still no file.
  const none = await cli(home, ["symbols", "nope.py"], { cwd: "/" });
  assert.match(none.stderr, /No file "\/nope\.py"; check the path/);
  removeTree(base);
});

Deno.test("the graph commands say when a file they answer from changed or went away since it was indexed", async () => {
  const t = copyFixture("ts");
  await cli(t.home, ["index", t.repo]);
  const math = join(t.repo, "src/util/math.ts");
  Deno.writeTextFileSync(math, "// moved down a line\n" + Deno.readTextFileSync(math));
  const outline = await cli(t.home, ["symbols", "src/util/math.ts"], { cwd: t.repo });
  assert.equal(outline.code, 0);
  assert.match(
    outline.stderr,
    /src\/util\/math\.ts changed since it was indexed: its lines may have moved; `heimdall reconcile/,
  );
  Deno.removeSync(math);
  const callers = await cli(t.home, ["callers", "add"], { cwd: t.repo });
  assert.equal(callers.code, 0);
  assert.match(callers.stderr, /src\/util\/math\.ts is gone from disk since it was indexed/);
  // A file as indexed gets no note.
  const callees = await cli(t.home, ["callees", "src/app/main.ts:Square.area", "--json"], {
    cwd: t.repo,
  });
  assert.doesNotMatch(callees.stderr, /src\/app\/main\.ts/);
  assert.match(callees.stderr, /src\/util\/math\.ts is gone/);
  JSON.parse(callees.stdout);
  removeTree(t.base);
});

Deno.test("an ambiguous name says how many match, lists 20 with how many are left out, and escapes file names", async () => {
  const base = tempDir();
  const repo = join(base, "dups");
  const home = join(base, "home");
  const dup = (k: number) => `export function dup(): number {\n  return ${k};\n}\n`;
  const files: Record<string, string> = {};
  for (let k = 0; k < 25; k++) files[`d${String(k).padStart(2, "0")}.ts`] = dup(k);
  for (let k = 0; k < 60; k++) files[`many/m${k}.ts`] = `export function lots(): void {}\n`;
  files["odd\nname.ts"] = `export function twin(): void {}\n`;
  files["plain.ts"] = `export function twin(): void {}\n`;
  writeTree(repo, files);
  assert.equal((await cli(home, ["index", repo])).code, 0);

  const some = await cli(home, ["callers", "dup"], { cwd: repo });
  assert.equal(some.code, 2);
  assert.match(some.stderr, /"dup" is ambiguous: 25 symbols match/);
  assert.equal(some.stderr.match(/function dup$/gm)?.length, 20);
  assert.match(some.stderr, /… and 5 more; name a file \(path:name\)/);
  // The look-up reads 50 and one more: it never claims exactly 50 when there are more.
  const many = await cli(home, ["callers", "lots"], { cwd: repo });
  assert.equal(many.code, 2);
  assert.match(many.stderr, /"lots" is ambiguous: more than 50 symbols match/);
  assert.match(many.stderr, /… and more; name a file/);
  // A newline in a file's name stays on its candidate's line.
  const odd = await cli(home, ["callers", "twin"], { cwd: repo });
  assert.equal(odd.code, 2);
  assert.match(odd.stderr, /odd\\nname\.ts:1 {2}function twin$/m);
  removeTree(base);
});

Deno.test("overloads, which share a name, are told apart as path:line, the place the ambiguity lists", async () => {
  const base = tempDir();
  const repo = join(base, "java");
  const home = join(base, "home");
  writeTree(repo, {
    "A.java":
      'public class A {\n  int f(int x) { return x; }\n  int f(String s) { return 1; }\n  int g() {\n    return f("a");\n  }\n}\n',
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const both = await cli(home, ["callers", "A.f"], { cwd: repo });
  assert.equal(both.code, 2);
  assert.match(both.stderr, /name one as path:name, Class\.method or path:line/);
  assert.match(both.stderr, /A\.java:2 {2}method A\.f\n.*A\.java:3 {2}method A\.f/);
  for (const line of [2, 3]) {
    const one = await cli(home, ["callers", `A.java:${line}`, "--json"], { cwd: repo });
    assert.equal(one.stderr, "");
    assert.equal(JSON.parse(one.stdout).symbol.line, line);
  }
  // A line inside a definition names the innermost one around it.
  const inside = await cli(home, ["callees", "A.java:5", "--json"], { cwd: repo });
  assert.equal(inside.code, 0, inside.stderr);
  assert.equal(JSON.parse(inside.stdout).symbol.qualname, "A.g");
  removeTree(base);
});

Deno.test("a file or Class.method is matched by its exact characters: `_` and `%` are no wildcards, case counts", async () => {
  const base = tempDir();
  const repo = join(base, "py");
  const home = join(base, "home");
  writeTree(repo, {
    "a/Util.py": "def run():\n    pass\n",
    "b/util.py": "def run():\n    pass\n",
    "c/load_all.py": "def go():\n    pass\n",
    "c/load-all.py": "def go():\n    pass\n",
    "c/load%.py": "def go():\n    pass\n",
    "m.py": "class Outer:\n    class Parser:\n        def read_all(self):\n            pass\n\n" +
      "class Other:\n    class parser:\n        def READ_ALL(self):\n            pass\n" +
      "        def readXall(self):\n            pass\n",
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const one = async (query: string, path: string, qualname: string) => {
    const r = await cli(home, ["callers", query, "--json"], { cwd: repo });
    assert.equal(r.code, 1, `${query}: ${r.stderr}`);
    const { symbol } = JSON.parse(r.stdout);
    assert.deepEqual([relative(repo, symbol.path), symbol.qualname], [path, qualname], query);
  };
  await one("util.py:run", "b/util.py", "run");
  await one("Util.py:run", "a/Util.py", "run");
  await one("load_all.py:go", "c/load_all.py", "go");
  await one("c/load_all.py:go", "c/load_all.py", "go");
  await one("load%.py:go", "c/load%.py", "go");
  await one("Parser.read_all", "m.py", "Outer.Parser.read_all");
  await one("m.py:Parser.read_all", "m.py", "Outer.Parser.read_all");
  removeTree(base);
});

Deno.test("path:name and path:line name a file through a linked folder, as symbols PATH does", async () => {
  const base = tempDir();
  const repo = join(base, "repo");
  const home = join(base, "home");
  writeTree(repo, {
    "src/a.py": "def alpha():\n    beta()\n\ndef beta():\n    pass\n",
  });
  Deno.symlinkSync(repo, join(base, "link"));
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const outline = await cli(home, ["symbols", "link/src/a.py"], { cwd: base });
  assert.equal(outline.code, 0, outline.stderr);
  for (const query of ["link/src/a.py:beta", join(base, "link/src/a.py:beta"), "link/src/a.py:4"]) {
    const r = await cli(home, ["callers", query, "--json"], { cwd: base });
    assert.equal(r.code, 0, `${query}: ${r.stderr}`);
    const { symbol, callers } = JSON.parse(r.stdout);
    assert.equal(symbol.path, join(repo, "src/a.py"), query);
    assert.deepEqual(callers.map((c: { name: string }) => c.name), ["alpha"], query);
  }
  removeTree(base);
});

Deno.test("callers, callees and blast-radius list the first --limit (default 100) and say how many more there are", async () => {
  const base = tempDir();
  const repo = join(base, "fan");
  const home = join(base, "home");
  const files: Record<string, string> = { "hub.ts": "export function hub(): void {}\n" };
  for (let k = 0; k < 130; k++) {
    files[`c${String(k).padStart(3, "0")}.ts`] =
      `import { hub } from "./hub.ts";\nexport function caller${k}(): void {\n  hub();\n}\n`;
  }
  writeTree(repo, files);
  assert.equal((await cli(home, ["index", repo])).code, 0);

  const plain = await cli(home, ["callers", "hub"], { cwd: repo });
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(plain.stdout.match(/^ {2}calls /gm)?.length, 100);
  assert.match(plain.stdout, /… and 30 more callers; --limit 1000 lists more$/m);
  const json = JSON.parse((await cli(home, ["callers", "hub", "--json", "--limit", "7"])).stdout);
  assert.equal(json.callers.length, 7);
  assert.equal(json.total, 130);
  const all = await cli(home, ["blast-radius", "hub", "--limit", "500"], { cwd: repo });
  assert.doesNotMatch(all.stdout, /more dependents/);
  for (const bad of ["0", "-3", "1.5", "ten", ""]) {
    const r = await cli(home, ["callees", "hub", `--limit=${bad}`]);
    assert.equal(r.code, 2, bad);
    assert.match(
      r.stderr,
      /Invalid --limit "[^"]*": expected a whole number from 1 to 1000000/,
      bad,
    );
  }
  removeTree(base);
});

Deno.test("a graph listing counts one left out, and one hop, in the singular", async () => {
  const base = tempDir();
  const repo = join(base, "repo");
  const home = join(base, "home");
  writeTree(repo, {
    "a.py": "def hub():\n    pass\n\ndef one():\n    hub()\n\ndef two():\n    hub()\n",
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  // It said "… and 1 more callers" and "no dependents within 1 hops".
  const callers = await cli(home, ["callers", "hub", "--limit", "1"], { cwd: repo });
  assert.equal(callers.code, 0, callers.stderr);
  assert.match(callers.stdout, /… and 1 more caller; --limit 10 lists more$/m);
  const blast = await cli(home, ["blast-radius", "hub", "--limit", "1"], { cwd: repo });
  assert.match(blast.stdout, /… and 1 more dependent within 3 hops;/);
  const none = await cli(home, ["blast-radius", "two", "--depth", "1"], { cwd: repo });
  assert.equal(none.code, 1, none.stderr);
  assert.match(none.stdout, /no dependents within 1 hop in the index/);
  removeTree(base);
});

Deno.test("a symbol written with another separator (pkg.mod.fn, Class#method) is refused naming the one it means", async () => {
  const base = tempDir();
  const repo = join(base, "repo");
  const home = join(base, "home");
  writeTree(repo, {
    "pkg/util.py": "def compute_total(items):\n    return 0\n",
    "auth.ts":
      "export class Session {\n  open(): void {}\n}\nexport function go() {\n  new Session().open();\n}\n",
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  // Each said only "No symbol … check the spelling", though the spelling was right.
  const cases: [string[], string][] = [
    [["callers", "Session#open"], `${join(repo, "auth.ts")}:Session.open`],
    [["callers", "pkg.util.compute_total"], `${join(repo, "pkg/util.py")}:compute_total`],
    [["why", "Session->open"], `${join(repo, "auth.ts")}:Session.open`],
    [
      ["remember", "--kind", "fact", "--about", "util::compute_total", "x"],
      `${join(repo, "pkg/util.py")}:compute_total`,
    ],
  ];
  for (const [args, meant] of cases) {
    const r = await cli(home, args, { cwd: repo });
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.ok(r.stderr.includes(`did you mean ${meant}?`), r.stderr);
    const again = await cli(home, ["callers", meant], { cwd: repo });
    assert.ok(again.code <= 1, `the name suggested is found: ${again.stderr}`);
  }
  const typo = await cli(home, ["callers", "Session#opne"], { cwd: repo });
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /No symbol "Session#opne" in the index; check the spelling/);
  // Nothing was remembered: the export holds its header and its end record only.
  assert.equal((await cli(home, ["export"])).stdout.split("\n").filter((l) => l).length, 2);
  removeTree(base);
});

Deno.test("a Rust `use … as` binding lands on what it imports", async () => {
  const base = tempDir();
  const repo = join(base, "crate");
  const home = join(base, "home");
  writeTree(repo, {
    "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
    "src/lib.rs": "pub mod hooks;\npub mod alias;\n",
    "src/hooks.rs": "pub fn notify() {}\n",
    "src/alias.rs": "use crate::hooks::notify as ping;\npub fn alias_user() {\n    ping()\n}\n",
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const r = JSON.parse((await cli(home, ["callees", "alias_user", "--json"])).stdout);
  assert.deepEqual(r.callees.map((c: { qualname: string }) => c.qualname), ["notify"]);
  removeTree(base);
});

Deno.test("a Rust workspace: paths into another crate by its name land there, and a module bound by `self` or by name stays that module", async () => {
  const base = tempDir();
  const repo = join(base, "ws");
  const home = join(base, "home");
  writeTree(repo, {
    "Cargo.toml": '[workspace]\nmembers = ["app", "crates/*"]\n',
    // Another crate that passes on a module named `write` and one named `consts`.
    "crates/codegen-ssa/src/lib.rs": "pub mod traits;\npub fn link_binary() {}\n",
    "crates/codegen-ssa/src/traits/mod.rs":
      "mod write;\nmod consts;\npub use self::write::*;\npub use self::consts::*;\n",
    "crates/codegen-ssa/src/traits/write.rs": "pub fn llvm_err() {}\n",
    "crates/codegen-ssa/src/traits/consts.rs": "pub fn ptrcast() {}\n",
    "app/src/main.rs": "mod back;\nmod consts;\n",
    "app/src/consts.rs": "use codegen_ssa::traits::*;\npub fn ptrcast() {}\n",
    "app/src/back/mod.rs": "pub mod write;\npub mod lto;\n",
    "app/src/back/write.rs": "use codegen_ssa::traits::*;\npub fn llvm_err() {}\n",
    "app/src/back/lto.rs": [
      "use crate::back::write::{self};",
      "use crate::consts;",
      "use codegen_ssa::link_binary;",
      "pub fn fat_lto() {",
      "    write::llvm_err();",
      "    consts::ptrcast();",
      "    link_binary();",
      "}",
      "",
    ].join("\n"),
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const r = JSON.parse((await cli(home, ["callees", "fat_lto", "--json"])).stdout);
  assert.deepEqual(
    r.callees.map((c: { qualname: string; path: string }) =>
      `${relative(repo, c.path)}:${c.qualname}`
    )
      .sort(),
    [
      "app/src/back/write.rs:llvm_err",
      "app/src/consts.rs:ptrcast",
      "crates/codegen-ssa/src/lib.rs:link_binary",
    ],
  );
  removeTree(base);
});

Deno.test("a Rust `super` is the module above the file's own, and above an inline module, the file", async () => {
  const base = tempDir();
  const repo = join(base, "crate");
  const home = join(base, "home");
  writeTree(repo, {
    "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod a;\npub fn helper() {}\n",
    "src/a/mod.rs": "pub mod b;\npub fn helper() {}\n",
    "src/a/b.rs": [
      "use super::helper;",
      "pub fn run() {",
      "    helper();",
      "}",
      "pub fn local() {}",
      "mod tests {",
      "    use super::local;",
      "    fn check() {",
      "        local();",
      "        super::super::helper();",
      "    }",
      "}",
      "",
    ].join("\n"),
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const callees = async (name: string) =>
    JSON.parse((await cli(home, ["callees", name, "--json"])).stdout).callees.map(
      (c: { qualname: string; path: string }) => `${relative(repo, c.path)}:${c.qualname}`,
    ).sort();
  assert.deepEqual(await callees("run"), ["src/a/mod.rs:helper"]);
  assert.deepEqual(await callees("tests.check"), ["src/a/b.rs:local", "src/a/mod.rs:helper"]);
  removeTree(base);
});

Deno.test("a Rust type named in code is its struct, never one of its impl blocks, also through a module the file declares", async () => {
  const base = tempDir();
  const repo = join(base, "crate");
  const home = join(base, "home");
  writeTree(repo, {
    "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
    "src/lib.rs":
      "mod span;\nmod debug;\npub use span::Span;\nimpl Span {\n    pub fn lo(&self) {}\n}\n",
    "src/span.rs":
      "pub struct Span {}\nimpl Span {\n    pub fn new() -> Span {\n        Span {}\n    }\n}\n",
    "src/debug.rs": "pub fn dump() {}\n",
    // `debug!` is a macro of another crate, and `debug()` nothing here: never the
    // module `debug`, which no call can mean.
    "src/user.rs":
      'use crate::*;\nuse crate::Span;\npub fn make() {\n    let s = Span::new();\n    Span {};\n    debug!("made");\n}\n',
    "src/glob.rs": "use crate::*;\npub fn other() {\n    debug();\n}\n",
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const j = Journal.open(homePaths(home).journal, { readOnly: true });
  try {
    const targets = j.all<{ l: string }>(
      `SELECT ps.rel || ' ' || e.kind || ' ' || e.target || ' -> ' || pd.rel || ':' || d.kind || ' ' || d.qualname AS l
       FROM edges e JOIN nodes d ON d.id = e.dst JOIN paths pd ON pd.id = d.path_id
       JOIN paths ps ON ps.id = e.owner_id
       WHERE ps.rel IN ('src/user.rs', 'src/lib.rs', 'src/glob.rs')
         AND (e.kind = 'calls' OR e.target = 'Span') ORDER BY 1`,
    ).map((r) => r.l);
    assert.deepEqual(targets, [
      "src/lib.rs imports Span -> src/span.rs:struct Span",
      "src/user.rs calls Span -> src/span.rs:struct Span",
      "src/user.rs calls new -> src/span.rs:method Span.new",
      "src/user.rs imports Span -> src/span.rs:struct Span",
    ]);
  } finally {
    j.close();
    removeTree(base);
  }
});

Deno.test("a Rust macro's call lands only on a macro, and a bare call under a glob import on what the glob passes on", async () => {
  const base = tempDir();
  const repo = join(base, "ws");
  const home = join(base, "home");
  writeTree(repo, {
    "Cargo.toml": '[workspace]\nmembers = ["ast", "hir", "macros"]\n',
    "ast/src/lib.rs": "pub mod visit;\n",
    "ast/src/visit.rs": "pub fn walk_item() {}\n",
    "hir/src/lib.rs": "pub fn walk_item() {}\npub fn walk_expr() {}\npub fn write() {}\n",
    // A function-like procedural macro: what `newtype!` means.
    "macros/src/lib.rs":
      "use proc_macro::TokenStream;\npub fn newtype(input: TokenStream) -> TokenStream {\n    input\n}\n",
    "ast/src/user.rs": [
      "use crate::visit::*;",
      "use macros::newtype;",
      "pub fn run() {",
      "    walk_item();",
      "    walk_expr();", // hir's, which no glob here passes on
      '    write!(out, "x");', // std's macro, not hir's fn write
      "    newtype!(Idx);",
      "}",
      "",
    ].join("\n"),
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const r = JSON.parse((await cli(home, ["callees", "run", "--json"])).stdout);
  assert.deepEqual(
    r.callees.map((c: { qualname: string; path: string }) =>
      `${relative(repo, c.path)}:${c.qualname}`
    )
      .sort(),
    ["ast/src/visit.rs:walk_item", "macros/src/lib.rs:newtype"],
  );
  removeTree(base);
});

Deno.test("callers and callees list each symbol once, at its first call, however the calls are written", async () => {
  const base = tempDir();
  const repo = join(base, "java");
  const home = join(base, "home");
  writeTree(repo, {
    // `put("a")` and `this.put("b")` are two references to one method, and
    // `log(1)` and `log(1, 2)` two argument counts of one varargs method.
    "A.java":
      'class A {\n  void put(String s) {}\n  void log(int... xs) {}\n  void run() {\n    put("a");\n    this.put("b");\n    log(1);\n    log(1, 2);\n  }\n}\n',
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const callees = JSON.parse((await cli(home, ["callees", "A.run", "--json"])).stdout);
  assert.deepEqual(
    callees.callees.map((c: { qualname: string; at: number }) => `${c.qualname}@${c.at}`),
    ["A.put@5", "A.log@7"],
  );
  const callers = JSON.parse((await cli(home, ["callers", "A.put", "--json"])).stdout);
  assert.deepEqual(
    callers.callers.map((c: { qualname: string; at: number }) => `${c.qualname}@${c.at}`),
    ["A.run@5"],
  );
  removeTree(base);
});

Deno.test("a PHP class imported under an alias (use A\\B as C, use A\\{B as C}) is the class it names, never another file of its namespace", async () => {
  const base = tempDir();
  const repo = join(base, "php");
  const home = join(base, "home");
  writeTree(repo, {
    // First of its folder: the file a module-only import would point at.
    "src/Models/Animal.php":
      "<?php\nnamespace Acme\\Models;\n\nabstract class Animal {\n    public function speak() { return 1; }\n}\n",
    "src/Models/Dog.php":
      "<?php\nnamespace Acme\\Models;\n\nclass Dog extends Animal {\n    public static function make(): Dog { return new Dog(); }\n    public function fetch() { return 2; }\n}\n",
    "src/Support/Str.php":
      "<?php\nnamespace Acme\\Support;\n\nclass Str {\n    public static function upper($s) { return $s; }\n}\n",
    "src/App.php": [
      "<?php",
      "namespace Acme\\App;",
      "",
      "use Acme\\Models\\Dog as Doggo;",
      "use Acme\\Support\\{Str as S};",
      "",
      "function run() {",
      "    $d = Doggo::make();",
      "    $x = new Doggo();",
      "    $x->fetch();",
      "    return S::upper('a');",
      "}",
      "",
    ].join("\n"),
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const got = edges(home).filter((e) => e.startsWith("src/App.php:"));
  assert.deepEqual(got, [
    "src/App.php: -imports-> src/Models/Dog.php:Dog (import)",
    "src/App.php: -imports-> src/Support/Str.php:Str (import)",
    "src/App.php:run -calls-> src/Models/Dog.php:Dog (import)",
    "src/App.php:run -calls-> src/Models/Dog.php:Dog.fetch (import)",
    "src/App.php:run -calls-> src/Models/Dog.php:Dog.make (import)",
    "src/App.php:run -calls-> src/Support/Str.php:Str.upper (import)",
  ]);
  removeTree(base);
});

Deno.test("a name a TS module re-exports under an alias (export { drive as go } from) is the function it passes on, as that is renamed and back", async () => {
  const base = tempDir();
  const repo = join(base, "ts");
  const home = join(base, "home");
  const car = "export function drive(): void {}\nexport function go(): void {}\n";
  writeTree(repo, {
    // car.ts has a `go` of its own: the alias passes on drive, never it.
    "src/car.ts": car,
    "src/index.ts": 'export { drive as go } from "./car";\n',
    "src/app.ts": 'import { go } from "./index";\n\nexport function main(): void {\n  go();\n}\n',
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const calls = () => edges(home).filter((e) => e.includes("-calls->"));
  assert.deepEqual(calls(), ["src/app.ts:main -calls-> src/car.ts:drive (import)"]);
  writeTree(repo, { "src/car.ts": car.replace("drive", "ride") });
  assert.equal((await cli(home, ["reconcile", join(repo, "src/car.ts")])).code, 0);
  assert.deepEqual(calls(), []);
  writeTree(repo, { "src/car.ts": car });
  assert.equal((await cli(home, ["reconcile", join(repo, "src/car.ts")])).code, 0);
  assert.deepEqual(calls(), ["src/app.ts:main -calls-> src/car.ts:drive (import)"]);
  removeTree(base);
});

Deno.test("a JS/TS default import is the module's default export whatever it is named, as the default moves", async () => {
  const base = tempDir();
  const repo = join(base, "ts");
  const home = join(base, "home");
  const car = [
    "export default class Car {",
    "  start(): number {",
    "    return 1;",
    "  }",
    "}",
    "",
    "export function Other(): number {",
    "  return 2;",
    "}",
    "",
  ].join("\n");
  writeTree(repo, {
    "src/car.ts": car,
    // `Other` names the default (Car), never car.ts's function Other.
    "src/app.ts": [
      'import Other from "./car";',
      'import Vehicle from "./car";',
      "",
      "export function main(): number {",
      "  new Vehicle().start();",
      "  return Other.length;",
      "}",
      "",
      "export function run(): void {",
      "  Other();",
      "}",
      "",
    ].join("\n"),
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const calls = () => edges(home).filter((e) => e.includes("-calls->"));
  assert.deepEqual(calls(), [
    "src/app.ts:main -calls-> src/car.ts:Car (import)",
    "src/app.ts:main -calls-> src/car.ts:Car.start (import)",
    "src/app.ts:run -calls-> src/car.ts:Car (import)",
  ]);
  // The default moves to the function: both names follow it (`new Vehicle()`
  // calls it too, and `.start()` is no method of a function).
  writeTree(repo, {
    "src/car.ts": car.replace("export default class", "export class").replace(
      "export function Other",
      "export default function Other",
    ),
  });
  assert.equal((await cli(home, ["reconcile", join(repo, "src/car.ts")])).code, 0);
  assert.deepEqual(calls(), [
    "src/app.ts:main -calls-> src/car.ts:Other (import)",
    "src/app.ts:run -calls-> src/car.ts:Other (import)",
  ]);
  // A default with no name of its own is the symbol `default`: both names call it.
  writeTree(repo, {
    "src/car.ts": car.replace("export default class", "export class").replace(
      "export function Other(): number {",
      "export default function (): number {",
    ),
  });
  assert.equal((await cli(home, ["reconcile", join(repo, "src/car.ts")])).code, 0);
  assert.deepEqual(calls(), [
    "src/app.ts:main -calls-> src/car.ts:default (import)",
    "src/app.ts:run -calls-> src/car.ts:default (import)",
  ]);
  // And back.
  writeTree(repo, { "src/car.ts": car });
  assert.equal((await cli(home, ["reconcile", join(repo, "src/car.ts")])).code, 0);
  assert.deepEqual(calls(), [
    "src/app.ts:main -calls-> src/car.ts:Car (import)",
    "src/app.ts:main -calls-> src/car.ts:Car.start (import)",
    "src/app.ts:run -calls-> src/car.ts:Car (import)",
  ]);
  removeTree(base);
});

Deno.test("the remedy a drift note gives for a file whose name begins with - runs when pasted", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "-dash.ts": "export function add(a: number) {\n  return a;\n}\n" });
  try {
    assert.equal((await cli(home, ["index", repo])).code, 0);
    writeTree(repo, { "-dash.ts": "\n\nexport function add(a: number) {\n  return a;\n}\n" });
    const r = await cli(home, ["symbols", "./-dash.ts"], { cwd: repo });
    assert.equal(r.code, 0, r.stderr);
    // Was `heimdall reconcile -dash.ts`: pasted, it read as the options -d -a -s -h.
    const remedy = /`heimdall reconcile (\S+)` brings the index up to date/.exec(r.stderr);
    assert.equal(remedy?.[1], "./-dash.ts", r.stderr);
    const pasted = await cli(home, ["reconcile", remedy![1]!], { cwd: repo });
    assert.equal(pasted.code, 0, pasted.stderr);
    const after = await cli(home, ["symbols", "./-dash.ts"], { cwd: repo });
    assert.equal(after.stderr, "");
    assert.match(after.stdout, /^3-5 +function add/);
  } finally {
    removeTree(base);
  }
});
