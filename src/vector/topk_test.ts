import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { mergeTopK, TopK } from "./topk.ts";
import { seededRandom as rng } from "../../tests/seeded_random.ts";

/** The reference: sort everything, best first, ties to the lower id. */
function bySort(items: { id: number; score: number }[], k: number) {
  return items.filter((i) => !Number.isNaN(i.score)).sort((a, b) =>
    b.score - a.score || a.id - b.id
  ).slice(0, k);
}

Deno.test("TopK keeps exactly the k best of a stream, in any arrival order", () => {
  const r = rng(1);
  for (const k of [1, 2, 5, 10, 100]) {
    for (const n of [0, 1, 9, 10, 11, 1000]) {
      // Few distinct scores: many ties, which must go to the lower id.
      const items = Array.from({ length: n }, (_, i) => ({ id: i, score: Math.floor(r() * 20) }));
      const shuffled = [...items].sort(() => r() - 0.5);
      const top = new TopK(k);
      for (const it of shuffled) top.push(it.score, it.id);
      assertEquals(top.sorted(), bySort(items, k), `k=${k} n=${n}`);
    }
  }
});

Deno.test("TopK refuses NaN and keeps -Infinity only when nothing better came", () => {
  const top = new TopK(3);
  top.push(NaN, 1);
  top.push(-Infinity, 2);
  top.push(0.5, 3);
  assertEquals(top.sorted(), [{ id: 3, score: 0.5 }, { id: 2, score: -Infinity }]);
  assertEquals(top.threshold, -Infinity);
  top.push(0.7, 4);
  top.push(0.6, 5);
  assertEquals(top.threshold, 0.5);
  assertEquals(top.sorted().map((s) => s.id), [4, 5, 3]);
});

Deno.test("TopK with k = 0 keeps nothing", () => {
  const top = new TopK(0);
  top.push(1, 1);
  assertEquals(top.sorted(), []);
});

Deno.test("mergeTopK of per-shard winners equals the top k of everything", () => {
  const r = rng(7);
  const all = Array.from({ length: 500 }, (_, i) => ({ id: i, score: Math.floor(r() * 50) }));
  const shards = [all.filter((a) => a.id % 3 === 0), all.filter((a) => a.id % 3 !== 0)];
  const perShard = shards.map((s) => bySort(s, 10));
  assertEquals(mergeTopK(perShard, 10), bySort(all, 10));
});
