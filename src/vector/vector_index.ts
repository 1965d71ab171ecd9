/**
 * The vector index interface, and its exact implementation: every vector is
 * scored (cosine, via the SIMD kernel) on every search. An approximate index
 * (HNSW, IVF) can replace it behind the same interface when a million-vector
 * scan stops being fast enough.
 */
import type { Quant } from "./kernel.ts";
import { bindKernel, type Kernel } from "./kernel.ts";
import {
  type ScanFilter,
  type ScanHit,
  scanShard,
  Shard,
  type ShardView,
  writeQuery,
} from "./packed.ts";
import { type EncodedVector, normalize, quantizeI8 } from "./quantize.ts";
import type { ScanPool } from "./scan_pool.ts";
import { mergeTopK } from "./topk.ts";

/** One search result: the id and key a vector was added with, and its cosine similarity to the query. */
export interface VectorHit {
  /** The id the vector was added under. */
  id: number;
  /** The key it was added with (a chunk id). */
  key: number;
  /** Its cosine similarity to the query (−1 to 1). */
  score: number;
}

/** Add, remove, search: what every vector index offers. */
export interface VectorIndex {
  /** The encoding of every vector it holds. */
  readonly quant: Quant;
  /** The dimension of every vector it holds. */
  readonly dims: number;
  /** Live vectors. */
  readonly size: number;
  /**
   * Adds a vector under `id`, with a `key` that searches can filter on and
   * return (a chunk id). Ids must increase from one add to the next (the
   * journal's AUTOINCREMENT row ids do). Throws RangeError otherwise, or on a
   * vector of another kind or dimension.
   */
  add(id: number, v: EncodedVector, key?: number): void;
  /** Removes the vector of `id`; false when there is none. */
  remove(id: number): boolean;
  /** The `k` vectors most similar to `query` (any float vector of `dims`), best first. */
  search(query: ArrayLike<number>, k: number, filter?: ScanFilter): Promise<VectorHit[]>;
  /** Every live id, in increasing order. */
  ids(): Generator<number>;
  /** Bytes held. */
  readonly bytes: number;
  /** Frees the memory and lets go of the Workers' references. */
  close(): void;
}

/** Below this many live vectors a scan runs on the calling thread (measured by scripts/bench_vectors.ts). */
export const PARALLEL_MIN = 32_768;

let nextShardKey = 1;

/**
 * Exact cosine search over packed vectors, split into shards (one per scan
 * Worker, more past 4 GiB). Searches are serialised: the shards' query areas
 * are shared with the Workers.
 */
export class ExactIndex implements VectorIndex {
  readonly #shards: { shard: Shard; key: number; kernel?: Kernel }[] = [];
  readonly #pool: ScanPool | undefined;
  /** Live vectors from which a search runs on the Workers (when there is a pool). */
  parallelMin: number;
  #queue: Promise<unknown> = Promise.resolve();
  #lastId = -1;
  #poolFailed = false;

  /**
   * An empty index of `quant` vectors of `dims`; with a `pool`, searches over `parallelMin` live
   * vectors or more run on its Workers.
   */
  constructor(
    readonly quant: Quant,
    readonly dims: number,
    options: { pool?: ScanPool; shards?: number; parallelMin?: number; capacity?: number } = {},
  ) {
    this.#pool = options.pool;
    this.parallelMin = options.parallelMin ?? PARALLEL_MIN;
    const n = options.shards === 0 ? 0 : Math.max(1, options.shards ?? options.pool?.size ?? 1);
    const per = Math.ceil((options.capacity ?? 0) / n);
    for (let i = 0; i < n; i++) this.#addShard(per);
  }

  /**
   * An index over shards read back from a snapshot (each in increasing id
   * order); later adds must have ids above all of theirs.
   */
  static fromShards(
    shards: readonly Shard[],
    options: { pool?: ScanPool; parallelMin?: number } = {},
  ): ExactIndex {
    const first = shards[0];
    if (!first) throw new RangeError("An index needs at least one shard");
    const index = new ExactIndex(first.quant, first.dims, { ...options, shards: 0 });
    for (const shard of shards) {
      if (shard.quant !== first.quant || shard.dims !== first.dims) {
        throw new RangeError("Snapshot shards of different kinds");
      }
      index.#shards.push({ shard, key: nextShardKey++ });
      index.#lastId = Math.max(index.#lastId, shard.lastId);
    }
    return index;
  }

  /**
   * The shards, compacted (what a snapshot writes): call inside
   * {@link exclusive}, and do not add or remove while holding them.
   */
  shards(): readonly Shard[] {
    for (const s of this.#shards) s.shard.compact();
    return this.#shards.map((s) => s.shard);
  }

  /** Up to `n` live (id, key) pairs spread over every shard. */
  sample(n: number): { id: number; key: number }[] {
    const per = Math.ceil(n / Math.max(1, this.#shards.length));
    return this.#shards.flatMap((s) => s.shard.sample(per));
  }

  get size(): number {
    return this.#shards.reduce((a, s) => a + s.shard.live, 0);
  }

  get bytes(): number {
    return this.#shards.reduce((a, s) => a + s.shard.bytes, 0);
  }

  add(id: number, v: EncodedVector, key = 0): void {
    if (!(id > this.#lastId)) {
      throw new RangeError(`Vector id ${id} must be an integer above ${this.#lastId}`);
    }
    // The emptiest shard with room: shards stay balanced for the Workers.
    let target: Shard | undefined;
    for (const { shard } of this.#shards) {
      if (shard.room > 0 && (!target || shard.live < target.live)) target = shard;
    }
    target ??= this.#addShard(0);
    target.append(id, v, key);
    this.#lastId = id;
  }

  remove(id: number): boolean {
    for (const { shard } of this.#shards) if (shard.remove(id)) return true;
    return false;
  }

  *ids(): Generator<number> {
    // Merge the shards' increasing id lists.
    const its = this.#shards.map((s) => s.shard.ids());
    const heads = its.map((it) => it.next());
    for (;;) {
      let best = -1;
      heads.forEach((h, i) => {
        if (!h.done && (best < 0 || h.value < (heads[best]!.value as number))) best = i;
      });
      if (best < 0) return;
      yield heads[best]!.value as number;
      heads[best] = its[best]!.next();
    }
  }

  search(query: ArrayLike<number>, k: number, filter: ScanFilter = {}): Promise<VectorHit[]> {
    if (query.length !== this.dims) {
      return Promise.reject(
        new RangeError(`Query has ${query.length} dimensions; this index holds ${this.dims}`),
      );
    }
    const run = this.#queue.then(() => this.#search(query, k, filter));
    this.#queue = run.catch(() => {});
    return run;
  }

  /** The shards as scans see them (benchmarks read them for their baseline). */
  views(): ShardView[] {
    return this.#shards.map((s) => s.shard.view());
  }

  /** Runs `fn` when no search is running, and holds searches until it ends (snapshots compact). */
  exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    const run = this.#queue.then(fn);
    this.#queue = run.catch(() => {});
    return run;
  }

  close(): void {
    for (const s of this.#shards) this.#pool?.drop(s.key);
    this.#shards.length = 0;
  }

  async #search(query: ArrayLike<number>, k: number, filter: ScanFilter): Promise<VectorHit[]> {
    let queryScale = 1;
    let encoded: Int8Array | Float32Array;
    if (this.quant === "i8") {
      const q = quantizeI8(query);
      encoded = q.data;
      queryScale = q.scale;
    } else {
      encoded = normalize(query);
    }
    for (const s of this.#shards) {
      // Compaction moves records, so it happens here, where no scan runs.
      if (s.shard.dead > Math.max(1024, s.shard.count / 4)) s.shard.compact();
      writeQuery(s.shard.memory, this.quant, encoded);
    }
    let lists: ScanHit[][] | undefined;
    if (this.#pool && !this.#poolFailed && this.size >= this.parallelMin) {
      try {
        lists = await this.#pool.scan(
          this.#shards.map((s) => ({ key: s.key, ...s.shard.view() })),
          k,
          filter,
        );
      } catch {
        // Workers that cannot start (a binary built without the worker
        // module) or that died: scan here from now on; the answer is the same.
        this.#poolFailed = true;
      }
    }
    lists ??= this.#shards.map((s) =>
      scanShard(s.shard.view(), k, filter, s.kernel ??= bindKernel(s.shard.memory))
    );
    return mergeTopK(lists, k).map((h) => ({ id: h.id, key: h.key, score: h.score * queryScale }));
  }

  #addShard(capacity: number): Shard {
    const shard = new Shard(this.quant, this.dims, capacity);
    this.#shards.push({ shard, key: nextShardKey++ });
    return shard;
  }
}
