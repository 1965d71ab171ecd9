/**
 * Overloads are told apart by how many arguments a call passes (Java, C#,
 * C++): `f(1)` lands on `f(int)`, never on the `f(String, int)` declared
 * after it, defaults and varargs widen what a definition accepts, and a
 * class whose own overloads take none of them passes the call to its base.
 * The fixture (`tests/fixtures/callgraph/overloads/`) is indexed with real
 * extraction and resolution; an edit that
 * changes a parameter list moves the calls of other files as a fresh index
 * would.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Journal } from "../src/store/mod.ts";
import { freshComparer, indexer } from "./graph_compare.ts";
import { removeTree, tempDir } from "./helpers.ts";

const FIXTURE = new URL("./fixtures/callgraph/overloads/", import.meta.url).pathname;

/** The fixture's files by path (they are also among the convergence test's sources). */
const FILES: Record<string, string> = Object.fromEntries(
  ["java/Shape.java", "java/Box.java", "java/Use.java", "cs/Store.cs", "cpp/math.cpp", "cpp/tray.h"]
    .map(
      (rel) => [rel, Deno.readTextFileSync(join(FIXTURE, rel))],
    ),
);

/** Every resolved call as `file:caller -> file:callee:line`. */
function calls(j: Journal): string[] {
  return j.all<{ e: string }>(
    `SELECT DISTINCT ps.rel || ':' || s.qualname || ' -> ' || pd.rel || ':' || d.qualname || ':'
       || d.start_line AS e
     FROM edges e JOIN nodes s ON s.id = e.src JOIN nodes d ON d.id = e.dst
     JOIN paths ps ON ps.id = s.path_id JOIN paths pd ON pd.id = d.path_id
     WHERE e.kind = 'calls' ORDER BY 1`,
  ).map((r) => r.e);
}

function writeFiles(repo: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    Deno.mkdirSync(join(repo, rel, ".."), { recursive: true });
    Deno.writeTextFileSync(join(repo, rel), text);
  }
}

Deno.test("a call lands on the overload that takes as many arguments as it passes", async () => {
  const base = tempDir();
  const repo = join(base, "repo");
  writeFiles(repo, FILES);
  const live = indexer(join(base, "home"), repo);
  try {
    await live.r.audit();
    assert.deepEqual(
      calls(live.journal),
      [
        // Box's own draw takes two or three: draw(1) is its base's.
        "cpp/math.cpp:use -> cpp/math.cpp:add:1",
        "cpp/math.cpp:use -> cpp/math.cpp:add:3",
        // In a header read as C++: put(1) and this->put(1, 2), each its own.
        "cpp/tray.h:Tray.one -> cpp/tray.h:Tray.put:5",
        "cpp/tray.h:Tray.two -> cpp/tray.h:Tray.put:6",
        "cs/Store.cs:Store.Main -> cs/Store.cs:Store.Put:2",
        "cs/Store.cs:Store.Main -> cs/Store.cs:Store.Put:3",
        "java/Box.java:Box.run -> java/Box.java:Box.draw:2",
        "java/Box.java:Box.run -> java/Box.java:Box.draw:3",
        "java/Box.java:Box.run -> java/Box.java:Box.log:4",
        "java/Box.java:Box.run -> java/Shape.java:Shape.draw:2",
        "java/Use.java:Use.go -> java/Box.java:Box.draw:2",
        "java/Use.java:Use.go -> java/Shape.java:Shape.draw:2",
      ],
    );
  } finally {
    live.journal.close();
    removeTree(base);
  }
});

Deno.test("an edit that changes a parameter list moves other files' calls as a fresh index would", async () => {
  const base = tempDir();
  const repo = join(base, "repo");
  writeFiles(repo, FILES);
  const live = indexer(join(base, "home"), repo);
  const compare = freshComparer(base, repo, live, calls);
  const sameAsFresh = async (what: string) =>
    (await compare(what)).filter((l) => l.startsWith("java/Use.java"));
  try {
    await sameAsFresh("first index");
    // Box's two-argument draw now takes one: b.draw(3) is Box's own, and
    // b.draw(3, 4) fits no draw at all (it would not compile): no edge.
    writeFiles(repo, {
      "java/Box.java": FILES["java/Box.java"]!.replace(
        "void draw(int x, int y) {}",
        "void draw(int x) {}",
      ),
    });
    assert.deepEqual(await sameAsFresh("Box.draw(int, int) became draw(int)"), [
      "java/Use.java:Use.go -> java/Box.java:Box.draw:2",
    ]);
    writeFiles(repo, { "java/Box.java": FILES["java/Box.java"]! });
    await sameAsFresh("and back");
  } finally {
    live.journal.close();
    removeTree(base);
  }
});
