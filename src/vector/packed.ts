/**
 * Packed vectors in one shared WebAssembly memory (a shard), and the blockwise
 * scan over them. The memory is shared so that a Worker can scan the shard
 * in place while the main thread owns every write.
 *
 * Memory layout: the query area (`MAX_DIMS × 4` bytes), a block of scores,
 * then records back to back. A record (see kernel.ts) is the payload then a
 * 16-byte trailer: f32 scale (NaN once removed), u32 id, u32 key, u32 zero.
 */
import {
  bindKernel,
  type Kernel,
  MAX_DIMS,
  payloadBytes,
  type Quant,
  queryBytes,
  recordStride,
} from "./kernel.ts";
import type { EncodedVector } from "./quantize.ts";
import { TopK } from "./topk.ts";

/** Records scored per kernel call: big enough to amortise the call, small enough for L1/L2. */
export const BLOCK = 2048;
const QUERY_AT = 0;
const SCORES_AT = MAX_DIMS * 4;
/** Byte offset of the first record. */
export const RECORDS_AT = SCORES_AT + BLOCK * 4;
const PAGE = 65536;
/** The wasm32 limit: 4 GiB. */
export const MAX_PAGES = 65536;

/**
 * A filter a scan applies to candidates: only records whose key (what the
 * caller added them with, e.g. a chunk id) is in `keys`. Absent: everything.
 *
 * @internal
 */
export interface ScanFilter {
  keys?: ReadonlySet<number>;
}

/** A scan result: the record's id and key, and its raw score (`dot × scale`). */
export interface ScanHit {
  id: number;
  key: number;
  score: number;
}

/**
 * What a scan needs to know about a shard; small enough to post to a Worker.
 *
 * @internal
 */
export interface ShardView {
  memory: WebAssembly.Memory;
  quant: Quant;
  dims: number;
  /** Records in use (live and removed). */
  count: number;
}

/**
 * One shard: vectors of one kind and dimension, appended in increasing id
 * order (so an id is found by binary search, no map of a million entries),
 * removed by marking (scale NaN), compacted when a quarter is dead.
 *
 * @internal
 */
export class Shard {
  readonly memory: WebAssembly.Memory;
  readonly stride: number;
  #count = 0;
  #dead = 0;
  /** Slot → id, for lookups on the main thread (the trailer holds it for Workers). */
  #ids: Float64Array;
  readonly #payload: number;
  /** Views of the memory, renewed when it grows. */
  #u8!: Uint8Array;
  #dv!: DataView;

  constructor(readonly quant: Quant, readonly dims: number, initialRecords = 0) {
    if (dims <= 0 || dims > MAX_DIMS || !Number.isInteger(dims)) {
      throw new RangeError(`Cannot pack vectors of ${dims} dimensions: expected 1..${MAX_DIMS}`);
    }
    this.stride = recordStride(quant, dims);
    this.memory = new WebAssembly.Memory({
      initial: pagesFor(RECORDS_AT + Math.max(1, initialRecords) * this.stride),
      maximum: MAX_PAGES,
      shared: true,
    });
    this.#ids = new Float64Array(Math.max(16, initialRecords));
    this.#payload = payloadBytes(quant, dims);
    this.#views();
  }

  #views(): void {
    const buf = this.memory.buffer;
    this.#u8 = new Uint8Array(buf);
    this.#dv = new DataView(buf);
  }

  /** Records in use, removed ones included. */
  get count(): number {
    return this.#count;
  }

  /** Live records. */
  get live(): number {
    return this.#count - this.#dead;
  }

  /** Removed records not yet compacted away. */
  get dead(): number {
    return this.#dead;
  }

  /** The largest id held, or -1. */
  get lastId(): number {
    return this.#count === 0 ? -1 : this.#ids[this.#count - 1]!;
  }

  /** How many more records fit before the 4 GiB limit. */
  get room(): number {
    return Math.floor((MAX_PAGES * PAGE - RECORDS_AT) / this.stride) - this.#count;
  }

  /** What a Worker needs to scan this shard. */
  view(): ShardView {
    return { memory: this.memory, quant: this.quant, dims: this.dims, count: this.#count };
  }

  /**
   * Appends one vector with its id (greater than every id held) and key (any
   * u32). Throws RangeError on a wrong kind, dimension or id order, or when full.
   */
  append(id: number, v: EncodedVector, key: number): void {
    if (v.quant !== this.quant || v.dims !== this.dims) {
      throw new RangeError(
        `Cannot add a ${v.quant}×${v.dims} vector to a ${this.quant}×${this.dims} shard`,
      );
    }
    if (!(id > this.lastId) || id > 0xffffffff || !Number.isInteger(id)) {
      throw new RangeError(`Vector id ${id} must be an integer above ${this.lastId}`);
    }
    if (!(key >= 0 && key <= 0xffffffff && Number.isInteger(key))) {
      throw new RangeError(`Vector key ${key} must be an integer in 0..2^32-1`);
    }
    if (this.room <= 0) throw new RangeError("Shard full: 4 GiB of vectors");
    const at = RECORDS_AT + this.#count * this.stride;
    if (at + this.stride > this.#u8.byteLength) {
      const have = this.#u8.byteLength / PAGE;
      const need = pagesFor(at + this.stride);
      // A shared memory grows in place (nothing is copied): an eighth more,
      // at least 16 MiB, keeps grow calls rare without reserving much.
      const want = Math.max(need, have + Math.max(256, Math.ceil(have / 8)));
      this.memory.grow(Math.min(MAX_PAGES, want) - have);
      this.#views();
    }
    const payload = this.#payload;
    this.#u8.set(v.data, at);
    if (v.data.length < payload) this.#u8.fill(0, at + v.data.length, at + payload);
    const dv = this.#dv;
    dv.setFloat32(at + payload, v.scale, true);
    dv.setUint32(at + payload + 4, id, true);
    dv.setUint32(at + payload + 8, key, true);
    dv.setUint32(at + payload + 12, 0, true);
    if (this.#count === this.#ids.length) {
      const grown = new Float64Array(this.#ids.length * 2);
      grown.set(this.#ids);
      this.#ids = grown;
    }
    this.#ids[this.#count++] = id;
  }

  /**
   * The records in use as one byte range (for a snapshot): compacts first,
   * so every record in it is live. A view of the shard's memory, valid until
   * the next append.
   */
  records(): Uint8Array {
    this.compact();
    return this.#u8.subarray(RECORDS_AT, RECORDS_AT + this.#count * this.stride);
  }

  /**
   * A shard holding `count` records read from `file` (as {@link records}
   * wrote them), straight into its memory. Throws RangeError when the file
   * ends early or its ids do not increase.
   */
  static async read(
    quant: Quant,
    dims: number,
    count: number,
    file: { read(p: Uint8Array): Promise<number | null> },
  ): Promise<Shard> {
    const shard = new Shard(quant, dims, count);
    const end = RECORDS_AT + count * shard.stride;
    for (let at = RECORDS_AT; at < end;) {
      const n = await file.read(shard.#u8.subarray(at, Math.min(end, at + (1 << 24))));
      if (n === null) throw new RangeError(`Vector snapshot ends after ${at - RECORDS_AT} bytes`);
      at += n;
    }
    const idAt = RECORDS_AT + shard.#payload + 4;
    for (let s = 0; s < count; s++) {
      const id = shard.#dv.getUint32(idAt + s * shard.stride, true);
      if (s > 0 && !(id > shard.#ids[s - 1]!)) throw new RangeError("Vector snapshot out of order");
      shard.#ids[s] = id;
      if (Number.isNaN(shard.#scaleAt(s))) shard.#dead++;
    }
    shard.#count = count;
    return shard;
  }

  /** Up to `n` live (id, key) pairs spread over the shard (to check a snapshot against the journal). */
  sample(n: number): { id: number; key: number }[] {
    const out: { id: number; key: number }[] = [];
    const step = Math.max(1, Math.floor(this.#count / Math.max(1, n)));
    for (let s = 0; s < this.#count && out.length < n; s += step) {
      if (!this.isLive(s)) continue;
      const at = RECORDS_AT + s * this.stride + this.#payload;
      out.push({ id: this.#ids[s]!, key: this.#dv.getUint32(at + 8, true) });
    }
    return out;
  }

  /** The slot of `id`, or -1 (binary search over the increasing ids). */
  slotOf(id: number): number {
    let lo = 0, hi = this.#count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.#ids[mid]!;
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** True when `slot` holds a live record. */
  isLive(slot: number): boolean {
    return slot >= 0 && slot < this.#count && !Number.isNaN(this.#scaleAt(slot));
  }

  /** Marks the record of `id` removed; returns false when it is not held. */
  remove(id: number): boolean {
    const slot = this.slotOf(id);
    if (!this.isLive(slot)) return false;
    this.#dv.setFloat32(RECORDS_AT + slot * this.stride + this.#payload, NaN, true);
    this.#dead++;
    return true;
  }

  /** Live ids in order (for reconciling with the journal). */
  *ids(): Generator<number> {
    for (let s = 0; s < this.#count; s++) if (this.isLive(s)) yield this.#ids[s]!;
  }

  /** Moves live records down over removed ones, in place, keeping their order. */
  compact(): void {
    if (this.#dead === 0) return;
    const u8 = this.#u8;
    let w = 0;
    for (let s = 0; s < this.#count; s++) {
      if (!this.isLive(s)) continue;
      if (w !== s) {
        const from = RECORDS_AT + s * this.stride;
        u8.copyWithin(RECORDS_AT + w * this.stride, from, from + this.stride);
        this.#ids[w] = this.#ids[s]!;
      }
      w++;
    }
    this.#count = w;
    this.#dead = 0;
  }

  /** Bytes of memory this shard holds. */
  get bytes(): number {
    return this.#u8.byteLength;
  }

  #scaleAt(slot: number): number {
    return this.#dv.getFloat32(RECORDS_AT + slot * this.stride + this.#payload, true);
  }
}

function pagesFor(bytes: number): number {
  return Math.min(MAX_PAGES, Math.ceil(bytes / PAGE));
}

/**
 * Writes the query into a shard's query area, in the shard's kind: an int8
 * query widened to int16, or float32. `q` is already encoded for the kind.
 */
export function writeQuery(memory: WebAssembly.Memory, quant: Quant, q: Int8Array | Float32Array) {
  const buf = memory.buffer;
  if (quant === "i8") {
    const dst = new Int16Array(buf, QUERY_AT, queryBytes("i8", q.length) / 2);
    dst.fill(0);
    dst.set(q);
  } else {
    const dst = new Float32Array(buf, QUERY_AT, queryBytes("f32", q.length) / 4);
    dst.fill(0);
    dst.set(q);
  }
}

/**
 * Scans the first `view.count` records of a shard against the query already
 * in its query area, block by block, and returns the `k` best with their raw
 * scores (`dot × scale`), best first (ties to the lower id). Removed records
 * (NaN) never pass; the filter is checked only for candidates that would
 * enter the heap, so a filter costs little unless it rejects most of them.
 */
export function scanShard(
  view: ShardView,
  k: number,
  filter: ScanFilter = {},
  kernel: Kernel = bindKernel(view.memory),
): ScanHit[] {
  const top = new TopK(k);
  const stride = recordStride(view.quant, view.dims);
  const payload = payloadBytes(view.quant, view.dims);
  const keys = filter.keys;
  const buf = view.memory.buffer;
  const scores = new Float32Array(buf, SCORES_AT, BLOCK);
  const dv = new DataView(buf);
  for (let start = 0; start < view.count; start += BLOCK) {
    const n = Math.min(BLOCK, view.count - start);
    const first = RECORDS_AT + start * stride;
    kernel.score(view.quant, QUERY_AT, first, n, stride, SCORES_AT);
    let threshold = top.threshold;
    for (let i = 0; i < n; i++) {
      const s = scores[i]!;
      if (!(s >= threshold)) continue;
      const trailer = first + i * stride + payload;
      if (keys && !keys.has(dv.getUint32(trailer + 8, true))) continue;
      if (top.push(s, dv.getUint32(trailer + 4, true))) threshold = top.threshold;
    }
  }
  // The keys of the k winners, looked up once each.
  return top.sorted().map((h) => ({ ...h, key: keyOf(view, h.id) }));
}

/** The key of record `id` in a shard's memory (binary search over the trailers' ids). */
function keyOf(view: ShardView, id: number): number {
  const stride = recordStride(view.quant, view.dims);
  const trailer = RECORDS_AT + payloadBytes(view.quant, view.dims);
  const dv = new DataView(view.memory.buffer);
  let lo = 0, hi = view.count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = dv.getUint32(trailer + mid * stride + 4, true);
    if (v === id) return dv.getUint32(trailer + mid * stride + 8, true);
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}
