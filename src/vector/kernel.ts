/**
 * The scan kernel: a small hand-written WebAssembly SIMD module that scores a
 * block of packed vectors against one query, and the plain-TypeScript
 * reference it must agree with.
 *
 * Record layout (both kinds), 16-byte aligned: the payload, padded with zeros
 * to a whole loop step (64 bytes), then a 16-byte trailer whose first f32 is
 * the record's scale. A record's score is `dot(query, payload) × scale`:
 *
 * - `i8`: payload is int8 (a symmetric per-vector quantisation of a unit
 *   vector); the query is int8 widened to int16 in memory, so one
 *   `i32x4.dot_i16x8_s` covers 8 lanes; the dot is exact in int32. (Relaxed
 *   SIMD's int8 dot would need the query split into two 7-bit halves and
 *   saves little; this stays within fixed-width SIMD, exact everywhere.)
 * - `f32`: payload is float32 (a unit vector); the scale is 1. Products and
 *   sums are f32 in four lanes, so the reference reproduces them exactly.
 *
 * A dead record has scale NaN: its score is NaN, which no comparison admits.
 */
import { assemble, type FuncDef, I32, op, V128 } from "./wasm_asm.ts";

/** How a vector's components are stored. */
export type Quant = "i8" | "f32";

/** Bytes of a record's trailer (scale, id, key; see packed.ts). */
export const TRAILER = 16;

/** Largest supported dimension count (the query area's size). */
export const MAX_DIMS = 4096;

/** 16-byte blocks the kernel's inner loop takes per iteration. */
const UNROLL = 4;
const STEP = 16 * UNROLL;

/** Payload bytes of one record: the components, zero-padded to a whole loop step. */
export function payloadBytes(quant: Quant, dims: number): number {
  return Math.ceil((quant === "i8" ? dims : dims * 4) / STEP) * STEP;
}

/** Bytes of one record: payload plus trailer. */
export function recordStride(quant: Quant, dims: number): number {
  return payloadBytes(quant, dims) + TRAILER;
}

/** Bytes the query takes in memory (int8 queries are widened to int16). */
export function queryBytes(quant: Quant, dims: number): number {
  return quant === "i8" ? payloadBytes("i8", dims) * 2 : payloadBytes("f32", dims);
}

type Code = readonly number[];
// Parameters (q, rec, n, stride, out), then locals: END, P (record cursor),
// QP (query cursor), STOP (payload end), UNROLL accumulators, then D.
const Q = 0, REC = 1, N = 2, STRIDE = 3, OUT = 4;
const END = 5, P = 6, QP = 7, STOP = 8, ACC = 9, D = ACC + UNROLL;
const PARAMS = [I32, I32, I32, I32, I32] as const;
const LOCALS = [I32, I32, I32, I32, ...new Array(UNROLL + 1).fill(V128)] as const;

/**
 * The shared outer loop: for each of `n` records from `rec`, zero the
 * accumulators, run `inner` until P reaches the payload's end (P walks the
 * record, QP the query), `reduce` the accumulators to one f32, multiply by
 * the trailer's scale and store the score at `out`.
 */
function scanLoop(inner: Code[], reduce: Code[]): Code[] {
  const zero: Code[] = [];
  for (let a = 0; a < UNROLL; a++) zero.push(op.v128Const0, op.localSet(ACC + a));
  // deno-fmt-ignore
  return [
    // end = out + n * 4
    op.localGet(OUT), op.localGet(N), op.i32Const(4), op.i32Mul, op.i32Add, op.localSet(END),
    op.block,
      op.localGet(OUT), op.localGet(END), op.i32GeU, op.brIf(0),
      op.loop,
        ...zero,
        op.localGet(REC), op.localSet(P),
        op.localGet(Q), op.localSet(QP),
        // stop = rec + stride - TRAILER
        op.localGet(REC), op.localGet(STRIDE), op.i32Add, op.i32Const(TRAILER), op.i32Sub,
        op.localSet(STOP),
        op.loop,
          ...inner,
          op.localGet(P), op.localGet(STOP), op.i32LtU, op.brIf(0),
        op.end,
        // out[i] = reduce(accumulators) × scale; the scale sits at `stop`.
        op.localGet(OUT),
        ...reduce,
        op.localGet(STOP), op.f32Load(0),
        op.f32Mul,
        op.f32Store(0),
        op.localGet(REC), op.localGet(STRIDE), op.i32Add, op.localSet(REC),
        op.localGet(OUT), op.i32Const(4), op.i32Add, op.localTee(OUT),
        op.localGet(END), op.i32LtU, op.brIf(0),
      op.end,
    op.end,
  ];
}

/** P += by; QP += qby. */
function advance(by: number, qby: number): Code[] {
  // deno-fmt-ignore
  return [
    op.localGet(P), op.i32Const(by), op.i32Add, op.localSet(P),
    op.localGet(QP), op.i32Const(qby), op.i32Add, op.localSet(QP),
  ];
}

function scoreI8(): FuncDef {
  const inner: Code[] = [];
  for (let b = 0; b < UNROLL; b++) {
    // 16 int8 lanes, widened to two halves of 8 int16, each dotted with the
    // matching 8 int16 of the widened query; block b feeds accumulator b.
    // deno-fmt-ignore
    inner.push(
      op.localGet(P), op.v128Load(16 * b), op.localSet(D),
      op.localGet(ACC + b),
      op.localGet(D), op.i16x8ExtendLowI8x16S, op.localGet(QP), op.v128Load(32 * b),
      op.i32x4DotI16x8S, op.i32x4Add,
      op.localGet(D), op.i16x8ExtendHighI8x16S, op.localGet(QP), op.v128Load(32 * b + 16),
      op.i32x4DotI16x8S, op.i32x4Add,
      op.localSet(ACC + b),
    );
  }
  inner.push(...advance(STEP, 2 * STEP));
  // Integer sums: any order gives the same total.
  const reduce: Code[] = [op.localGet(ACC)];
  for (let a = 1; a < UNROLL; a++) reduce.push(op.localGet(ACC + a), op.i32x4Add);
  reduce.push(...laneSum(op.i32x4ExtractLane, op.i32Add), op.f32ConvertI32S);
  return {
    name: "score_i8",
    params: PARAMS,
    results: [],
    locals: LOCALS,
    body: scanLoop(inner, reduce),
  };
}

/**
 * Sums the four lanes of the vector on the stack, in lane order: kept in ACC,
 * each lane read with `extract` and added with `add`.
 */
function laneSum(extract: (lane: number) => Code, add: Code): Code[] {
  const out: Code[] = [op.localTee(ACC), extract(0)];
  for (let lane = 1; lane < 4; lane++) out.push(op.localGet(ACC), extract(lane), add);
  return out;
}

function scoreF32(): FuncDef {
  const inner: Code[] = [];
  for (let b = 0; b < UNROLL; b++) {
    // deno-fmt-ignore
    inner.push(
      op.localGet(ACC + b),
      op.localGet(P), op.v128Load(16 * b), op.localGet(QP), op.v128Load(16 * b), op.f32x4Mul,
      op.f32x4Add, op.localSet(ACC + b),
    );
  }
  inner.push(...advance(STEP, STEP));
  // Accumulators summed in order, then lanes in order: the reference does the same.
  const reduce: Code[] = [op.localGet(ACC)];
  for (let a = 1; a < UNROLL; a++) reduce.push(op.localGet(ACC + a), op.f32x4Add);
  reduce.push(...laneSum(op.f32x4ExtractLane, op.f32Add));
  return {
    name: "score_f32",
    params: PARAMS,
    results: [],
    locals: LOCALS,
    body: scanLoop(inner, reduce),
  };
}

/** The module's bytes (built once). */
let moduleBytes: Uint8Array | undefined;
let compiled: WebAssembly.Module | undefined;

/** The kernel's WebAssembly bytes. */
export function kernelBytes(): Uint8Array {
  return (moduleBytes ??= assemble([scoreI8(), scoreF32()], { minPages: 1, maxPages: 65536 }));
}

/** The compiled kernel module (compiled once per thread; a Module can be posted to a Worker). */
export function kernelModule(): WebAssembly.Module {
  return (compiled ??= new WebAssembly.Module(kernelBytes() as BufferSource));
}

/** The kernel bound to one shared memory. */
export interface Kernel {
  /**
   * Scores `n` records of kind `quant` starting at byte `rec` (each `stride`
   * bytes) against the query at byte `q`, writing n f32 scores at byte `out`.
   */
  score(quant: Quant, q: number, rec: number, n: number, stride: number, out: number): void;
}

/** Instantiates the kernel over `memory` (a shared WebAssembly.Memory). */
export function bindKernel(memory: WebAssembly.Memory, module = kernelModule()): Kernel {
  const inst = new WebAssembly.Instance(module, { env: { memory } });
  const e = inst.exports as Record<string, (...a: number[]) => void>;
  const i8 = e.score_i8!;
  const f32 = e.score_f32!;
  return {
    score(quant, q, rec, n, stride, out) {
      (quant === "i8" ? i8 : f32)(q, rec, n, stride, out);
    },
  };
}

/**
 * The plain-TypeScript reference of {@link Kernel.score}, over the same
 * memory, bit for bit: `i8` is an integer dot and one f32 multiply; `f32`
 * sums in the kernel's four lanes and order, rounding to f32 at each step.
 */
export function referenceScore(
  buffer: ArrayBufferLike,
  quant: Quant,
  dims: number,
  q: number,
  rec: number,
  n: number,
  stride: number,
  out: number,
): void {
  const view = new DataView(buffer);
  const payload = stride - TRAILER;
  for (let i = 0; i < n; i++) {
    const base = rec + i * stride;
    const scale = view.getFloat32(base + payload, true);
    let score: number;
    if (quant === "i8") {
      let dot = 0;
      for (let d = 0; d < dims; d++) {
        dot += view.getInt8(base + d) * view.getInt16(q + d * 2, true);
      }
      score = Math.fround(Math.fround(dot) * scale);
    } else {
      // Float d goes to accumulator (d / 4) % UNROLL, lane d % 4.
      const acc = Array.from({ length: UNROLL }, () => [0, 0, 0, 0]);
      for (let d = 0; d < payload / 4; d++) {
        const prod = Math.fround(
          view.getFloat32(base + d * 4, true) * view.getFloat32(q + d * 4, true),
        );
        const lanes = acc[(d >> 2) % UNROLL]!;
        lanes[d & 3] = Math.fround(lanes[d & 3]! + prod);
      }
      const total = acc[0]!;
      for (let a = 1; a < UNROLL; a++) {
        for (let l = 0; l < 4; l++) total[l] = Math.fround(total[l]! + acc[a]![l]!);
      }
      const sum = Math.fround(
        Math.fround(Math.fround(total[0]! + total[1]!) + total[2]!) + total[3]!,
      );
      score = Math.fround(sum * scale);
    }
    view.setFloat32(out + i * 4, score, true);
  }
}

/**
 * Writes an int8 query widened to int16 (zero-padded to the payload): the
 * kernel's low and high halves of each 16-lane block then line up with
 * consecutive int16 lanes.
 */
export function writeQueryI8(buffer: ArrayBufferLike, at: number, q: Int8Array): void {
  const dst = new Int16Array(buffer, at, payloadBytes("i8", q.length));
  dst.fill(0);
  dst.set(q);
}

/** Writes a float32 query (zero-padded to the payload). */
export function writeQueryF32(buffer: ArrayBufferLike, at: number, q: Float32Array): void {
  const dst = new Float32Array(buffer, at, payloadBytes("f32", q.length) / 4);
  dst.fill(0);
  dst.set(q);
}
