import { BULK_WORKER, defaultWorkerCount } from "../config/mod.ts";
import type { Prepared, PrepareRequest } from "./prepare.ts";

interface Slot {
  worker: Worker;
  busy: number;
}

type Reply = { id: number; prepared: Prepared[] } | { id: number; error: string };

/**
 * Prepares paths on a pool of Workers (default: one per core). Never rejects:
 * a Worker that fails or dies turns its paths into `retry`, so one bad file
 * never aborts a pass. Workers start on first use and end after `idleMs`
 * without work, which gives their memory (grammars, parse trees) back.
 *
 * A `bulk` pool's Workers run at a lower priority (see `yieldToForeground`):
 * a one-shot index, where the writer's thread should have the CPU first. The
 * daemon's pool is not bulk: on a machine busy with other work a lowered
 * Worker gets a tenth of a core's share, and an edit would wait on it for
 * seconds (a lowered thread cannot raise itself again).
 */
export class PreparePool {
  #slots: Slot[] = [];
  readonly #waiting = new Map<
    number,
    { resolve: (p: Prepared[]) => void; paths: string[]; slot: Slot }
  >();
  #nextId = 1;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;

  /** A pool of `size` Workers, started on first use and ended after `idleMs` without work. */
  constructor(
    readonly size = defaultWorkerCount(),
    readonly idleMs = 5_000,
    readonly bulk = false,
  ) {}

  /**
   * Prepares a batch: split into one chunk per Worker, one message each (a
   * message per path would cost more than the work for small files).
   */
  async prepareMany(requests: PrepareRequest[]): Promise<Prepared[]> {
    if (requests.length === 0) return [];
    clearTimeout(this.#idleTimer);
    if (this.#slots.length === 0) this.#start();
    const per = Math.ceil(requests.length / this.#slots.length);
    const chunks: Promise<Prepared[]>[] = [];
    for (let i = 0; i < requests.length; i += per) {
      chunks.push(this.#send(requests.slice(i, i + per)));
    }
    return (await Promise.all(chunks)).flat();
  }

  #send(requests: PrepareRequest[]): Promise<Prepared[]> {
    const slot = this.#slots.reduce((a, b) => (b.busy < a.busy ? b : a));
    const id = this.#nextId++;
    slot.busy++;
    return new Promise<Prepared[]>((resolve) => {
      this.#waiting.set(id, { resolve, paths: requests.map((r) => r.path), slot });
      slot.worker.postMessage({ id, requests });
    });
  }

  /** Ends every Worker now; paths still in flight come back as `retry`. */
  close(): void {
    clearTimeout(this.#idleTimer);
    for (const s of this.#slots) s.worker.terminate();
    this.#slots = [];
    for (const [id, w] of this.#waiting) {
      this.#waiting.delete(id);
      w.resolve(w.paths.map((p) => retry(p, "the preparing worker was stopped")));
    }
  }

  #start(): void {
    for (let i = 0; i < this.size; i++) {
      const worker = new Worker(new URL("./prepare_worker.ts", import.meta.url), {
        type: "module",
        ...(this.bulk ? { name: BULK_WORKER } : {}),
      });
      const slot: Slot = { worker, busy: 0 };
      worker.onmessage = (e: MessageEvent<Reply>) => this.#settle(e.data.id, e.data);
      worker.onerror = (e) => {
        e.preventDefault();
        this.#fail(`preparing worker failed: ${e.message}`);
      };
      this.#slots.push(slot);
    }
  }

  #settle(id: number, reply: Reply): void {
    const w = this.#waiting.get(id);
    if (!w) return;
    this.#waiting.delete(id);
    w.slot.busy--;
    w.resolve("prepared" in reply ? reply.prepared : w.paths.map((p) => retry(p, reply.error)));
    if (this.#waiting.size === 0) {
      this.#idleTimer = setTimeout(() => this.close(), this.idleMs);
      Deno.unrefTimer(this.#idleTimer as unknown as number);
    }
  }

  /** A Worker died: every path in flight is retried, and the pool restarts on next use. */
  #fail(why: string): void {
    for (const s of this.#slots) s.worker.terminate();
    this.#slots = [];
    for (const [id, w] of this.#waiting) {
      this.#waiting.delete(id);
      w.resolve(w.paths.map((p) => retry(p, why)));
    }
  }
}

function retry(path: string, why: string): Prepared {
  return { path, expected: null, do: "retry", why };
}
