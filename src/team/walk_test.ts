import assert from "node:assert/strict";
import { pathTo, walk } from "./walk.ts";

/** An expand over a fixed adjacency list, recording each frontier it was asked for. */
function graph(edges: Record<string, string[]>, asked: string[][] = []) {
  return (frontier: string[]) => {
    asked.push([...frontier]);
    return frontier.flatMap((from) => (edges[from] ?? []).map((to) => [from, to] as const));
  };
}

Deno.test("walk() reaches each node at its shortest distance, with a shortest path", () => {
  // a → b → c → d, and a shortcut a → c.
  const reached = walk(["a"], 5, graph({ a: ["b", "c"], b: ["c"], c: ["d"] }));
  assert.deepEqual(
    [...reached].map(([id, r]) => [id, r.distance]),
    [["a", 0], ["b", 1], ["c", 1], ["d", 2]],
  );
  assert.deepEqual(pathTo(reached, "d"), ["a", "c", "d"]);
  assert.deepEqual(pathTo(reached, "a"), ["a"]);
});

Deno.test("walk() stops at the hop limit and on cycles", () => {
  const cyclic = graph({ a: ["b"], b: ["c"], c: ["a", "d"], d: ["e"] });
  assert.deepEqual([...walk(["a"], 2, cyclic).keys()], ["a", "b", "c"]);
  assert.deepEqual([...walk(["a"], 10, cyclic).keys()], ["a", "b", "c", "d", "e"]);
  assert.deepEqual([...walk(["a"], 0, cyclic).keys()], ["a"]);
});

Deno.test("walk() stops expanding once every target is reached", () => {
  const asked: string[][] = [];
  const reached = walk(
    ["a"],
    10,
    graph({ a: ["b"], b: ["c"], c: ["d"], d: ["e"] }, asked),
    new Set(["c"]),
  );
  assert.equal(reached.get("c")?.distance, 2);
  assert.deepEqual(asked, [["a"], ["b"]]);
  assert.equal(reached.has("d"), false);
});

Deno.test("walk() from several starts takes the nearest one", () => {
  const reached = walk(["x", "a"], 5, graph({ a: ["b"], b: ["c"], x: ["c"] }));
  assert.deepEqual(pathTo(reached, "c"), ["x", "c"]);
});
