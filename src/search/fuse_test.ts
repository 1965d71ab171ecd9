import assert from "node:assert/strict";
import { foldByKey, reciprocalRankFusion } from "./fuse.ts";
import { personalizedPageRank } from "./graph_leg.ts";

Deno.test("reciprocalRankFusion() adds weight/(k+rank) per leg and sorts deterministically", () => {
  const cases: {
    legs: { name: string; weight: number; ids: number[] }[];
    k: number;
    order: number[];
  }[] = [
    { legs: [{ name: "a", weight: 1, ids: [1, 2, 3] }], k: 60, order: [1, 2, 3] },
    {
      legs: [{ name: "a", weight: 1, ids: [1, 2] }, { name: "b", weight: 1, ids: [2, 3] }],
      k: 60,
      order: [2, 1, 3],
    },
    {
      // A weight of 0 leaves a leg out.
      legs: [{ name: "a", weight: 1, ids: [1, 2] }, { name: "b", weight: 0, ids: [2, 3] }],
      k: 60,
      order: [1, 2],
    },
    {
      // Ties go to the lower id; a repeated id counts once, at its best rank.
      legs: [{ name: "a", weight: 1, ids: [5, 4] }, { name: "b", weight: 1, ids: [4, 5, 4] }],
      k: 1,
      order: [4, 5],
    },
  ];
  for (const c of cases) {
    assert.deepEqual(reciprocalRankFusion(c.legs, c.k).map((f) => f.id), c.order);
  }
  const [top] = reciprocalRankFusion([{ name: "a", weight: 2, ids: [7] }], 10);
  assert.equal(top!.score, 2 / 11);
  assert.deepEqual(top!.legs, ["a"]);
});

Deno.test("foldByKey() keeps one entry per key, names the best and counts the rest", () => {
  const items = [
    { id: 1, file: "a", score: 0.5 },
    { id: 2, file: "b", score: 0.4 },
    { id: 3, file: "a", score: 0.3 },
    { id: 4, file: "a", score: 0.2 },
    { id: 5, file: "c", score: 0.45 },
  ];
  const none = foldByKey(items, (i) => i.file, 0);
  assert.deepEqual(none.map((g) => [g.key, g.best.id, g.others.map((o) => o.id)]), [
    ["a", 1, [3, 4]],
    ["c", 5, []],
    ["b", 2, []],
  ]);
  // With a share, a file's other matches lift it: b with one strong match vs a file of many.
  const shared = foldByKey(items, (i) => i.file, 0.1);
  assert.equal(shared[0]!.score, 0.5 + 0.1 * (0.3 + 0.2));
  // The best chunk is found whatever the input order.
  const reversed = foldByKey([...items].reverse(), (i) => i.file, 0);
  assert.equal(reversed.find((g) => g.key === "a")!.best.id, 1);
});

Deno.test("personalizedPageRank() spreads from the seeds and sums to 1", () => {
  const r = personalizedPageRank(
    new Map([["a", 1]]),
    [["a", "b", 1], ["b", "c", 1], ["c", "d", 1], ["x", "y", 1]],
    0.3,
    20,
  );
  const total = [...r.values()].reduce((s, v) => s + v, 0);
  assert.ok(Math.abs(total - 1) < 1e-9, `sum ${total}`);
  assert.ok(r.get("a")! > r.get("b")!);
  assert.ok(r.get("b")! > r.get("d")!);
  assert.equal(r.get("x"), 0, "not reachable from a seed");
  // Two seeds: a node linked to both outranks one linked to either.
  const two = personalizedPageRank(
    new Map([["s1", 1], ["s2", 1]]),
    [["s1", "both", 1], ["s2", "both", 1], ["s1", "one", 1]],
    0.3,
    10,
  );
  assert.ok(two.get("both")! > two.get("one")!);
  assert.equal(personalizedPageRank(new Map(), [["a", "b", 1]], 0.3, 5).size, 0);
});
