import { BULK_WORKER, defaultWorkerCount } from "../config/mod.ts";
import type { Prepared, PrepareRequest } from "./prepare.ts";

interface Slot {
  worker: Worker;
  /** Pieces sent to it and not yet answered. */
  busy: number;
}

/** A few paths of a batch, prepared by whichever Worker is free first. */
interface Piece {
  requests: PrepareRequest[];
  resolve: (p: Prepared[]) => void;
}

type Reply = { id: number; prepared: Prepared[] } | { id: number; error: string };

/**
 * Paths in one message to a Worker: few enough that the Workers finish a
 * batch together whatever its files weigh, many enough that the messages
 * cost little beside the work.
 */
const PIECE_PATHS = 8;
/**
 * Pieces a Worker holds at once: work for longer than one of the main
 * thread's write transactions (about 100 ms, see `Journal.txChunked`), during
 * which no reply is read and no piece sent.
 */
const PIECES_AHEAD = 6;

/**
 * Prepares paths on a pool of Workers (default: one per core). Never rejects:
 * a Worker that fails or dies turns its paths into `retry`, so one bad file
 * never aborts a pass. Workers start on first use and end after `idleMs`
 * without work, which gives their memory (grammars, parse trees) back.
 *
 * A batch is cut into pieces of {@link PIECE_PATHS} paths, queued in the
 * order the batches came, and each Worker takes the next piece when it has
 * fewer than {@link PIECES_AHEAD}: the oldest batch, which the main thread
 * commits first, is prepared first, by both Workers. (Split into one half
 * per Worker, a batch whose large files fell in one half kept the other
 * Worker idle for seconds, since the main thread commits in order and
 * sends no more than a few batches ahead.)
 *
 * A `bulk` pool's Workers run at a lower priority (see `yieldToForeground`):
 * a one-shot index, where the writer's thread should have the CPU first. The
 * daemon's pool is not bulk: on a machine busy with other work a lowered
 * Worker gets a tenth of a core's share, and an edit would wait on it for
 * seconds (a lowered thread cannot raise itself again).
 */
export class PreparePool {
  #slots: Slot[] = [];
  readonly #queue: Piece[] = [];
  readonly #waiting = new Map<number, Piece & { slot: Slot }>();
  #nextId = 1;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;

  /** A pool of `size` Workers, started on first use and ended after `idleMs` without work. */
  constructor(
    readonly size = defaultWorkerCount(),
    readonly idleMs = 5_000,
    readonly bulk = false,
  ) {}

  /** Prepares a batch, its paths' results in its order. */
  async prepareMany(requests: PrepareRequest[]): Promise<Prepared[]> {
    if (requests.length === 0) return [];
    clearTimeout(this.#idleTimer);
    if (this.#slots.length === 0) this.#start();
    const pieces: Promise<Prepared[]>[] = [];
    for (let i = 0; i < requests.length; i += PIECE_PATHS) {
      pieces.push(
        new Promise((resolve) =>
          this.#queue.push({ requests: requests.slice(i, i + PIECE_PATHS), resolve })
        ),
      );
    }
    this.#dispatch();
    return (await Promise.all(pieces)).flat();
  }

  /** Sends queued pieces, oldest first, to the Workers holding the fewest. */
  #dispatch(): void {
    while (this.#queue.length > 0 && this.#slots.length > 0) {
      const slot = this.#slots.reduce((a, b) => (b.busy < a.busy ? b : a));
      if (slot.busy >= PIECES_AHEAD) return;
      const piece = this.#queue.shift()!;
      const id = this.#nextId++;
      slot.busy++;
      this.#waiting.set(id, { ...piece, slot });
      slot.worker.postMessage({ id, requests: piece.requests });
    }
  }

  /** Workers running now (they start on first use). */
  get running(): number {
    return this.#slots.length;
  }

  /**
   * Ends the Workers now if no path is queued or in flight, as their idle
   * timer would later; they start again on next use. Before other work
   * that needs memory: a Worker keeps its grammars and the heap of the
   * largest file it parsed, and ended before a 5,000-file index resolved
   * its references on Workers of their own, the index's peak resident
   * memory fell from 673–703 to 595 MiB.
   */
  release(): void {
    if (this.#waiting.size > 0 || this.#queue.length > 0) return;
    clearTimeout(this.#idleTimer);
    this.#stop("the preparing worker was released");
  }

  /** Ends every Worker now; paths queued or in flight come back as `retry`. */
  close(): void {
    clearTimeout(this.#idleTimer);
    this.#stop("the preparing worker was stopped");
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
        this.#stop(`preparing worker failed: ${e.message}`);
      };
      this.#slots.push(slot);
    }
  }

  #settle(id: number, reply: Reply): void {
    const w = this.#waiting.get(id);
    if (!w) return;
    this.#waiting.delete(id);
    w.slot.busy--;
    w.resolve("prepared" in reply ? reply.prepared : failed(w.requests, reply.error));
    this.#dispatch();
    if (this.#waiting.size === 0) {
      this.#idleTimer = setTimeout(() => this.close(), this.idleMs);
      Deno.unrefTimer(this.#idleTimer as unknown as number);
    }
  }

  /**
   * Ends every Worker: each path queued or in flight is retried, and the
   * pool starts again on next use (a Worker that died, or {@link close}).
   */
  #stop(why: string): void {
    for (const s of this.#slots) s.worker.terminate();
    this.#slots = [];
    const pieces = [...this.#waiting.values(), ...this.#queue.splice(0)];
    this.#waiting.clear();
    for (const piece of pieces) piece.resolve(failed(piece.requests, why));
  }
}

function failed(requests: readonly PrepareRequest[], why: string): Prepared[] {
  return requests.map((r) => ({ path: r.path, expected: null, do: "retry", why }));
}
