import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  bindKernel,
  kernelBytes,
  type Quant,
  recordStride,
  referenceScore,
  TRAILER,
} from "./kernel.ts";
import { RECORDS_AT, Shard, writeQuery } from "./packed.ts";
import { encodeVector, normalize, quantizeI8 } from "./quantize.ts";
import { seededRandom as rng } from "../../tests/seeded_random.ts";

function randomVector(r: () => number, dims: number): Float32Array {
  return Float32Array.from({ length: dims }, () => r() * 2 - 1);
}

/** Fills a shard with `n` random vectors; returns it with its query written. */
function filled(quant: Quant, dims: number, n: number, seed: number, extreme = false): Shard {
  const r = rng(seed);
  const shard = new Shard(quant, dims, n);
  for (let i = 0; i < n; i++) {
    const v = extreme
      ? Float32Array.from({ length: dims }, (_, d) => ((d + i) % 2 ? 1 : -1))
      : randomVector(r, dims);
    shard.append(i + 1, encodeVector(v, quant), i);
  }
  const q = randomVector(r, dims);
  writeQuery(shard.memory, quant, quant === "i8" ? quantizeI8(q).data : normalize(q));
  return shard;
}

/** Scores every record with the kernel and with the reference, as raw f32 bits. */
function bothScores(shard: Shard): { kernel: Uint32Array; reference: Uint32Array } {
  const n = shard.count;
  const out = RECORDS_AT + n * shard.stride;
  const need = out + n * 4;
  const have = shard.memory.buffer.byteLength;
  if (need > have) shard.memory.grow(Math.ceil((need - have) / 65536));
  bindKernel(shard.memory).score(shard.quant, 0, RECORDS_AT, n, shard.stride, out);
  const kernel = new Uint32Array(shard.memory.buffer, out, n).slice();
  referenceScore(shard.memory.buffer, shard.quant, shard.dims, 0, RECORDS_AT, n, shard.stride, out);
  const reference = new Uint32Array(shard.memory.buffer, out, n).slice();
  return { kernel, reference };
}

Deno.test("the kernel module validates and uses only 128-bit SIMD and a shared memory", () => {
  assert(WebAssembly.validate(kernelBytes() as BufferSource));
  const mod = new WebAssembly.Module(kernelBytes() as BufferSource);
  assertEquals(WebAssembly.Module.imports(mod), [
    { module: "env", name: "memory", kind: "memory" },
  ]);
  assertEquals(WebAssembly.Module.exports(mod).map((e) => e.name).sort(), [
    "score_f32",
    "score_i8",
  ]);
});

for (const quant of ["i8", "f32"] as const) {
  for (const dims of [1, 7, 16, 33, 100, 384, 1024]) {
    Deno.test(`kernel scores equal the reference bit for bit: ${quant} × ${dims}`, () => {
      const shard = filled(quant, dims, 300, dims * 7 + (quant === "i8" ? 1 : 2));
      const { kernel, reference } = bothScores(shard);
      assertEquals(kernel, reference);
    });
  }
  Deno.test(`kernel scores equal the reference at the extremes of the range: ${quant}`, () => {
    const shard = filled(quant, 1024, 64, 5, true);
    const { kernel, reference } = bothScores(shard);
    assertEquals(kernel, reference);
  });
}

Deno.test("a record's score is its scaled dot product: int8 close to the float cosine", () => {
  const r = rng(42);
  const dims = 384;
  for (let t = 0; t < 50; t++) {
    const a = randomVector(r, dims), b = randomVector(r, dims);
    // Correlate them so the cosine is far from zero.
    for (let d = 0; d < dims; d++) b[d] = a[d]! * 0.7 + b[d]! * 0.3;
    const ua = normalize(a), ub = normalize(b);
    let cos = 0;
    for (let d = 0; d < dims; d++) cos += ua[d]! * ub[d]!;
    const shard = new Shard("i8", dims, 1);
    shard.append(1, encodeVector(a, "i8"), 0);
    const q = quantizeI8(b);
    writeQuery(shard.memory, "i8", q.data);
    const out = RECORDS_AT + shard.stride;
    bindKernel(shard.memory).score("i8", 0, RECORDS_AT, 1, shard.stride, out);
    const score = new Float32Array(shard.memory.buffer, out, 1)[0]! * q.scale;
    assert(Math.abs(score - cos) < 0.01, `int8 cosine ${score} vs float ${cos}`);
  }
});

Deno.test("record layout: payload padded to the loop step, then a 16-byte trailer", () => {
  assertEquals(recordStride("i8", 1024), 1024 + TRAILER);
  assertEquals(recordStride("f32", 1024), 4096 + TRAILER);
  assertEquals(recordStride("i8", 1), 64 + TRAILER);
  assertEquals(recordStride("f32", 384), 1536 + TRAILER);
  assertEquals(recordStride("i8", 1000) % 16, 0);
});
