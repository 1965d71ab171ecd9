/**
 * Vector encodings (pure): L2 normalisation, symmetric int8 quantisation with
 * one scale per vector, and the bytes stored in `vectors.data`.
 *
 * Cosine similarity is the dot product of unit vectors, so every vector is
 * normalised before it is stored or searched; an int8 vector `q` with scale
 * `s` stands for the unit vector `q × s` (|q| ≤ 127, `s = max|x| / 127`).
 */
import type { Quant } from "./kernel.ts";

/** A vector as stored: its bytes (int8 or little-endian float32) and scale. */
export interface EncodedVector {
  /** The encoding: `i8` or `f32`. */
  quant: Quant;
  /** The number of components. */
  dims: number;
  /** For `i8`, the factor each component is multiplied by; 1 for `f32`. */
  scale: number;
  /** The components' bytes. */
  data: Uint8Array;
}

/** A unit-length copy of `v`; a zero vector stays zero. */
export function normalize(v: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const out = new Float32Array(v.length);
  if (sum === 0) return out;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! * inv;
  return out;
}

/**
 * Symmetric int8 quantisation of `v` (normalised first): components in
 * [-127, 127], `scale = max|x| / 127`, rounded to f32 (what the kernel reads).
 */
export function quantizeI8(v: ArrayLike<number>): { data: Int8Array; scale: number } {
  const unit = normalize(v);
  let max = 0;
  for (let i = 0; i < unit.length; i++) max = Math.max(max, Math.abs(unit[i]!));
  const data = new Int8Array(unit.length);
  if (max === 0) return { data, scale: 0 };
  const scale = Math.fround(max / 127);
  const inv = 127 / max;
  for (let i = 0; i < unit.length; i++) data[i] = Math.round(unit[i]! * inv);
  return { data, scale };
}

/** Encodes `v` for storage: normalised, then int8-quantised or kept as float32. */
export function encodeVector(v: ArrayLike<number>, quant: Quant): EncodedVector {
  if (quant === "i8") {
    const { data, scale } = quantizeI8(v);
    return { quant, dims: v.length, scale, data: new Uint8Array(data.buffer) };
  }
  const unit = normalize(v);
  const data = new Uint8Array(unit.length * 4);
  const dv = new DataView(data.buffer);
  for (let i = 0; i < unit.length; i++) dv.setFloat32(i * 4, unit[i]!, true);
  return { quant, dims: v.length, scale: 1, data };
}

/** The float components a stored vector stands for (for tests and re-encoding). */
export function decodeVector(e: EncodedVector): Float32Array {
  const out = new Float32Array(e.dims);
  if (e.quant === "i8") {
    for (let i = 0; i < e.dims; i++) out[i] = ((e.data[i]! << 24) >> 24) * e.scale;
  } else {
    const dv = new DataView(e.data.buffer, e.data.byteOffset, e.data.byteLength);
    for (let i = 0; i < e.dims; i++) out[i] = dv.getFloat32(i * 4, true);
  }
  return out;
}
