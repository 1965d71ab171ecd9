/**
 * From a model's token vectors to one vector per text: CLS or mean pooling
 * over the real (unpadded) tokens, then L2 normalisation. Pure.
 */
import type { Pooling } from "./manifest.ts";

/**
 * Pools a `[batch, seq, dim]` tensor (row-major in `hidden`) into `batch`
 * vectors. `lengths[b]` is how many leading tokens of row b are real (the
 * rest is right padding): `cls` takes token 0, `mean` averages the real ones.
 */
export function pool(
  hidden: Float32Array,
  dims: readonly number[],
  lengths: readonly number[],
  pooling: Pooling,
): Float32Array[] {
  const [batch, seq, dim] = dims as [number, number, number];
  if (dims.length !== 3 || batch !== lengths.length || hidden.length !== batch * seq * dim) {
    throw new RangeError(
      `pool: tensor [${dims.join(", ")}] does not match ${lengths.length} rows of token vectors`,
    );
  }
  const out: Float32Array[] = [];
  for (let b = 0; b < batch; b++) {
    const row = b * seq * dim;
    if (pooling === "cls") {
      out.push(hidden.slice(row, row + dim));
      continue;
    }
    const n = Math.max(1, Math.min(seq, lengths[b]!));
    const v = new Float32Array(dim);
    for (let t = 0; t < n; t++) {
      const at = row + t * dim;
      for (let k = 0; k < dim; k++) v[k]! += hidden[at + k]!;
    }
    for (let k = 0; k < dim; k++) v[k]! /= n;
    out.push(v);
  }
  return out;
}

/** Splits a `[batch, dim]` tensor (a graph that pools itself) into rows. */
export function rows(data: Float32Array, dims: readonly number[]): Float32Array[] {
  const [batch, dim] = dims as [number, number];
  if (dims.length !== 2 || data.length !== batch * dim) {
    throw new RangeError(`rows: tensor [${dims.join(", ")}] is not [batch, dim]`);
  }
  return Array.from({ length: batch }, (_, b) => data.slice(b * dim, (b + 1) * dim));
}

/** Scales `v` to unit length in place (a zero vector stays zero); returns it. */
export function normalizeL2(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  if (sum === 0) return v;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i]! *= inv;
  return v;
}

/** Cosine similarity of two vectors of the same length. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
