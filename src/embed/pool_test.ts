import assert from "node:assert/strict";
import { cosine, normalizeL2, pool } from "./pool.ts";

// Two rows of three 2-wide token vectors; row 1 has one padding token.
const hidden = Float32Array.from([1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 99, 99]);

Deno.test("pool() takes token 0 for cls and averages only real tokens for mean", () => {
  assert.deepEqual(pool(hidden, [2, 3, 2], [3, 2], "cls").map((v) => [...v]), [[1, 2], [10, 20]]);
  assert.deepEqual(pool(hidden, [2, 3, 2], [3, 2], "mean").map((v) => [...v]), [[3, 4], [20, 30]]);
  assert.throws(() => pool(hidden, [2, 3, 2], [3], "mean"), RangeError);
});

Deno.test("normalizeL2() makes unit vectors and leaves zero vectors alone", () => {
  assert.deepEqual([...normalizeL2(Float32Array.from([3, 4]))], [
    0.6000000238418579,
    0.800000011920929,
  ]);
  assert.deepEqual([...normalizeL2(new Float32Array(3))], [0, 0, 0]);
  assert.equal(cosine(Float32Array.from([1, 0]), Float32Array.from([0, 2])), 0);
  assert.ok(Math.abs(cosine(Float32Array.from([1, 1]), Float32Array.from([2, 2])) - 1) < 1e-7);
});
