/**
 * A tiny WebAssembly assembler: just enough of the binary format to emit the
 * scan kernel from TypeScript (one shared memory import, functions, exports),
 * so no toolchain is needed to build or change it. Opcodes are the final
 * WebAssembly 2.0 / fixed-width SIMD encodings.
 */

/** Value types. */
export const I32 = 0x7f;
export const F32 = 0x7d;
export const V128 = 0x7b;
export type ValType = typeof I32 | typeof F32 | typeof V128;

/** Unsigned LEB128. */
export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 (for i32.const). */
export function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const simd = (code: number, ...imm: number[]) => [0xfd, ...uleb(code), ...imm];
/** memarg: alignment exponent, then offset. */
const memarg = (align: number, offset: number) => [...uleb(align), ...uleb(offset)];

/** Instructions, each as its bytes. Names follow the text format. */
export const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...uleb(depth)],
  brIf: (depth: number) => [0x0d, ...uleb(depth)],
  localGet: (i: number) => [0x20, ...uleb(i)],
  localSet: (i: number) => [0x21, ...uleb(i)],
  localTee: (i: number) => [0x22, ...uleb(i)],
  f32Load: (offset = 0) => [0x2a, ...memarg(2, offset)],
  f32Store: (offset = 0) => [0x38, ...memarg(2, offset)],
  i32Const: (n: number) => [0x41, ...sleb(n)],
  i32GeU: [0x4f],
  i32LtU: [0x49],
  i32Add: [0x6a],
  i32Sub: [0x6b],
  i32Mul: [0x6c],
  f32Mul: [0x94],
  f32ConvertI32S: [0xb2],
  v128Load: (offset = 0) => simd(0x00, ...memarg(4, offset)),
  v128Const0: simd(0x0c, ...new Array<number>(16).fill(0)),
  i32x4ExtractLane: (lane: number) => simd(0x1b, lane),
  f32x4ExtractLane: (lane: number) => simd(0x1f, lane),
  i16x8ExtendLowI8x16S: simd(0x87),
  i16x8ExtendHighI8x16S: simd(0x88),
  i32x4Add: simd(0xae),
  i32x4DotI16x8S: simd(0xba),
  f32x4Add: simd(0xe4),
  f32x4Mul: simd(0xe6),
  f32Add: [0x92],
} as const;

/** One function of a module. */
export interface FuncDef {
  name: string;
  params: readonly ValType[];
  results: readonly ValType[];
  locals: readonly ValType[];
  body: readonly (readonly number[] | number)[];
}

function section(id: number, payload: number[]): number[] {
  return [id, ...uleb(payload.length), ...payload];
}

function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function name(s: string): number[] {
  const b = [...new TextEncoder().encode(s)];
  return [...uleb(b.length), ...b];
}

/**
 * Assembles a module that imports one shared memory as `env.memory`
 * (limits `minPages`..`maxPages`) and exports each function by its name.
 */
export function assemble(
  funcs: readonly FuncDef[],
  memory: { minPages: number; maxPages: number },
): Uint8Array {
  const types = funcs.map((
    f,
  ) => [0x60, ...vec(f.params.map((t) => [t])), ...vec(f.results.map((t) => [t]))]);
  const imports = vec([[
    ...name("env"),
    ...name("memory"),
    0x02,
    0x03, // limits: shared, with a maximum
    ...uleb(memory.minPages),
    ...uleb(memory.maxPages),
  ]]);
  const funcIdx = vec(funcs.map((_, i) => uleb(i)));
  const exports = vec(funcs.map((f, i) => [...name(f.name), 0x00, ...uleb(i)]));
  const codes = vec(funcs.map((f) => {
    const locals = vec(f.locals.map((t) => [1, t]));
    const body = [
      ...locals,
      ...f.body.flatMap((x) => (typeof x === "number" ? [x] : [...x])),
      0x0b,
    ];
    return [...uleb(body.length), ...body];
  }));
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vec(types)),
    ...section(2, imports),
    ...section(3, funcIdx),
    ...section(7, exports),
    ...section(10, codes),
  ]);
}
