import assert, {
  deepStrictEqual as assertEquals,
  throws as assertThrows,
} from "node:assert/strict";
import { ExactIndex } from "./vector_index.ts";
import { decodeVector, encodeVector, normalize, quantizeI8 } from "./quantize.ts";
import { ScanPool } from "./scan_pool.ts";
import type { Quant } from "./kernel.ts";
import { seededRandom as rng } from "../../tests/seeded_random.ts";

const vec = (r: () => number, dims: number) => Float32Array.from({ length: dims }, () => r() - 0.5);

/**
 * The reference ranking: every stored vector decoded and dotted with the
 * query as the index encodes it, in doubles, sorted (ties to the lower id).
 */
function bruteForce(
  stored: Map<number, { v: Float32Array; key: number }>,
  query: Float32Array,
  quant: Quant,
  k: number,
  keys?: ReadonlySet<number>,
) {
  const q = quant === "i8" ? decodeVector({ ...encodeVector(query, "i8") }) : normalize(query);
  return [...stored.entries()]
    .filter(([, s]) => !keys || keys.has(s.key))
    .map(([id, s]) => {
      let dot = 0;
      for (let d = 0; d < q.length; d++) dot += q[d]! * s.v[d]!;
      return { id, key: s.key, score: dot };
    })
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, k);
}

function build(quant: Quant, dims: number, n: number, seed: number, options = {}) {
  const r = rng(seed);
  const index = new ExactIndex(quant, dims, options);
  const stored = new Map<number, { v: Float32Array; key: number }>();
  for (let i = 1; i <= n; i++) {
    const e = encodeVector(vec(r, dims), quant);
    const key = 1000 + (i % 97);
    index.add(i * 3, e, key);
    stored.set(i * 3, { v: decodeVector(e), key });
  }
  return { index, stored, r };
}

function sameRanking(
  got: { id: number; key: number; score: number }[],
  want: { id: number; key: number; score: number }[],
) {
  assertEquals(got.map((h) => [h.id, h.key]), want.map((h) => [h.id, h.key]));
  for (let i = 0; i < got.length; i++) {
    assert(Math.abs(got[i]!.score - want[i]!.score) < 1e-5, `${got[i]!.score} ${want[i]!.score}`);
  }
}

for (const quant of ["i8", "f32"] as const) {
  Deno.test(`ExactIndex returns the brute-force top k (${quant}), across shards`, async () => {
    const { index, stored, r } = build(quant, 64, 3000, 11, { shards: 3 });
    for (let t = 0; t < 10; t++) {
      const q = vec(r, 64);
      sameRanking(await index.search(q, 10), bruteForce(stored, q, quant, 10));
    }
    index.close();
  });
}

Deno.test("ExactIndex scores the cosine: a vector finds itself first with score ≈ 1", async () => {
  const { index, stored } = build("i8", 384, 500, 3);
  const [id, s] = [...stored.entries()][123]!;
  const hits = await index.search(s.v, 3);
  assertEquals(hits[0]!.id, id);
  assert(Math.abs(hits[0]!.score - 1) < 0.01, String(hits[0]!.score));
  // A scaled query is the same direction: the same answer.
  const scaled = s.v.map((x) => x * 17);
  assertEquals((await index.search(scaled, 3)).map((h) => h.id), hits.map((h) => h.id));
  index.close();
});

Deno.test("ExactIndex filters by key and never returns a removed vector, before and after compaction", async () => {
  const { index, stored, r } = build("i8", 32, 4000, 5, { shards: 2 });
  const q = vec(r, 32);
  const keys = new Set([1003, 1050]);
  sameRanking(await index.search(q, 5, { keys }), bruteForce(stored, q, "i8", 5, keys));
  // Remove the current winners, then more than a quarter of everything (compaction).
  for (const h of await index.search(q, 5)) {
    assert(index.remove(h.id));
    stored.delete(h.id);
  }
  assertEquals(index.remove(999_999), false);
  sameRanking(await index.search(q, 10), bruteForce(stored, q, "i8", 10));
  for (const id of [...stored.keys()].filter((id) => id % 2 === 0)) {
    index.remove(id);
    stored.delete(id);
  }
  assertEquals(index.size, stored.size);
  sameRanking(await index.search(q, 10), bruteForce(stored, q, "i8", 10));
  assertEquals([...index.ids()], [...stored.keys()].sort((a, b) => a - b));
  // Appends after a compaction still work.
  const e = encodeVector(q, "i8");
  index.add(1_000_000, e, 7);
  assertEquals((await index.search(q, 1))[0]!.id, 1_000_000);
  index.close();
});

Deno.test("ExactIndex refuses ids out of order and vectors of another shape", () => {
  const index = new ExactIndex("i8", 8);
  index.add(5, encodeVector(new Float32Array(8).fill(1), "i8"));
  assertThrows(() => index.add(5, encodeVector(new Float32Array(8).fill(1), "i8")), RangeError);
  assertThrows(() => index.add(6, encodeVector(new Float32Array(9).fill(1), "i8")), RangeError);
  assertThrows(() => index.add(7, encodeVector(new Float32Array(8).fill(1), "f32")), RangeError);
  index.close();
});

Deno.test("a scan on the Worker pool equals the same scan on the calling thread", async () => {
  const pool = new ScanPool(2);
  try {
    for (const quant of ["i8", "f32"] as const) {
      const seedA = build(quant, 256, 5000, 9, { pool, parallelMin: 0 });
      const seedB = build(quant, 256, 5000, 9, { shards: 2 });
      const q = vec(rng(99), 256);
      const keys = new Set([1001, 1002, 1003]);
      assertEquals(await seedA.index.search(q, 20), await seedB.index.search(q, 20));
      assertEquals(
        await seedA.index.search(q, 5, { keys }),
        await seedB.index.search(q, 5, { keys }),
      );
      // Concurrent searches are serialised: each gets its own query's answer.
      const q2 = vec(rng(100), 256);
      const [a, b] = await Promise.all([seedA.index.search(q, 5), seedA.index.search(q2, 5)]);
      assertEquals(a, await seedB.index.search(q, 5));
      assertEquals(b, await seedB.index.search(q2, 5));
      seedA.index.close();
      seedB.index.close();
    }
  } finally {
    pool.close();
  }
});

Deno.test("quantizeI8 is symmetric, within [-127, 127], and scales back to the unit vector", () => {
  const r = rng(2);
  const v = vec(r, 100);
  const { data, scale } = quantizeI8(v);
  const unit = normalize(v);
  let maxAbs = 0;
  for (let i = 0; i < 100; i++) {
    maxAbs = Math.max(maxAbs, Math.abs(data[i]!));
    assert(Math.abs(data[i]! * scale - unit[i]!) <= scale / 2 + 1e-7);
  }
  assertEquals(maxAbs, 127);
  assertEquals(quantizeI8(new Float32Array(4)).scale, 0);
});

Deno.test("when the scan Workers cannot start, a search scans on the calling thread instead", async () => {
  const broken = new ScanPool(
    2,
    30_000,
    new URL("data:application/javascript,throw new Error('no worker')"),
  );
  try {
    const { index, stored, r } = build("i8", 64, 2000, 17, { pool: broken, parallelMin: 0 });
    const q = vec(r, 64);
    sameRanking(await index.search(q, 10), bruteForce(stored, q, "i8", 10));
    sameRanking(await index.search(q, 10), bruteForce(stored, q, "i8", 10));
    index.close();
  } finally {
    broken.close();
  }
});
