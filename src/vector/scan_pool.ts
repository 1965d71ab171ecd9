/**
 * Scans shards on Worker threads, one Worker per core (default 2), each
 * scanning its share of the shards in place (their memories are shared), so
 * that a large scan uses every core. Small scans stay on the calling thread:
 * posting a message costs more than scanning a few thousand vectors.
 */
import { defaultWorkerCount } from "../config/mod.ts";
import { kernelModule, type Quant } from "./kernel.ts";
import type { ScanFilter, ScanHit } from "./packed.ts";

/** Messages to a scan Worker. */
export type ScanMessage =
  | { type: "add"; key: number; memory: WebAssembly.Memory; module?: WebAssembly.Module }
  | { type: "drop"; key: number }
  | {
    type: "scan";
    id: number;
    k: number;
    filter: ScanFilter;
    shards: { key: number; quant: Quant; dims: number; count: number }[];
  };

/** A Worker's answer to one scan. */
export type ScanReply = { id: number; hits: ScanHit[] } | { id: number; error: string };

/** One shard as the pool knows it. */
export interface PoolShard {
  key: number;
  memory: WebAssembly.Memory;
  quant: Quant;
  dims: number;
  count: number;
}

/**
 * A fixed set of scan Workers. Shards are registered once (their memory is
 * posted once) and scanned by key; each Worker always scans the same shards.
 * A Worker that fails makes that scan reject; the pool restarts on next use.
 */
export class ScanPool {
  #workers: Worker[] = [];
  /** Shards each Worker has been given (by key). */
  #known: Set<number>[] = [];
  readonly #waiting = new Map<
    number,
    { resolve: (h: ScanHit[]) => void; reject: (e: Error) => void }
  >();
  #nextId = 1;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * `idleMs` without a scan ends the Workers (a later scan starts them
   * again); `module` is the Worker's code (tests point it elsewhere).
   */
  constructor(
    readonly size = defaultWorkerCount(),
    readonly idleMs = 30_000,
    readonly module: URL = new URL("./scan_worker.ts", import.meta.url),
  ) {}

  /** The Worker that scans shard number `index` of an index. */
  workerFor(index: number): number {
    return index % this.size;
  }

  /**
   * Scans every shard (each on its Worker) with the query already written in
   * each shard's memory; resolves with each Worker's k best, merged by the caller.
   */
  async scan(shards: readonly PoolShard[], k: number, filter: ScanFilter): Promise<ScanHit[][]> {
    clearTimeout(this.#idleTimer);
    try {
      return await this.#scan(shards, k, filter);
    } finally {
      if (this.#waiting.size === 0 && this.#workers.length > 0) {
        this.#idleTimer = setTimeout(() => this.close(), this.idleMs);
        Deno.unrefTimer(this.#idleTimer as unknown as number);
      }
    }
  }

  #scan(shards: readonly PoolShard[], k: number, filter: ScanFilter): Promise<ScanHit[][]> {
    if (this.#workers.length === 0) this.#start();
    const per: PoolShard[][] = Array.from({ length: this.size }, () => []);
    shards.forEach((s, i) => per[this.workerFor(i)]!.push(s));
    return Promise.all(per.map((list, w) => {
      if (list.length === 0) return Promise.resolve([]);
      const worker = this.#workers[w]!;
      const known = this.#known[w]!;
      for (const s of list) {
        if (known.has(s.key)) continue;
        worker.postMessage({ type: "add", key: s.key, memory: s.memory, module: kernelModule() });
        known.add(s.key);
      }
      const id = this.#nextId++;
      return new Promise<ScanHit[]>((resolve, reject) => {
        this.#waiting.set(id, { resolve, reject });
        const msg: ScanMessage = {
          type: "scan",
          id,
          k,
          filter,
          shards: list.map((s) => ({ key: s.key, quant: s.quant, dims: s.dims, count: s.count })),
        };
        worker.postMessage(msg);
      });
    }));
  }

  /** Tells every Worker to let go of a shard's memory. */
  drop(key: number): void {
    this.#workers.forEach((w, i) => {
      if (this.#known[i]!.delete(key)) w.postMessage({ type: "drop", key });
    });
  }

  /** Ends every Worker; scans in flight reject. */
  close(): void {
    clearTimeout(this.#idleTimer);
    for (const w of this.#workers) w.terminate();
    this.#workers = [];
    this.#known = [];
    this.#rejectAll("the scan pool was closed");
  }

  #start(): void {
    for (let i = 0; i < this.size; i++) {
      const worker = new Worker(this.module, { type: "module" });
      worker.onmessage = (e: MessageEvent<ScanReply>) => {
        const w = this.#waiting.get(e.data.id);
        if (!w) return;
        this.#waiting.delete(e.data.id);
        if ("hits" in e.data) w.resolve(e.data.hits);
        else w.reject(new Error(`vector scan failed: ${e.data.error}`));
      };
      worker.onerror = (e) => {
        e.preventDefault();
        // The scans in flight learn why before close() ends the rest.
        this.#rejectAll(`vector scan worker failed: ${e.message}`);
        this.close();
      };
      this.#workers.push(worker);
      this.#known.push(new Set());
    }
  }

  #rejectAll(why: string): void {
    for (const [id, w] of this.#waiting) {
      this.#waiting.delete(id);
      w.reject(new Error(why));
    }
  }
}
