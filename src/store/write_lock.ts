/**
 * Sharing the journal's one write lock fairly between the bulk writer (the
 * reconciler during an index) and short writers in other processes
 * (`remember`, `insert`, MCP writes, hook records).
 *
 * SQLite gives the lock to whoever asks while it is free, and a waiting
 * process only looks again every 50–100 ms (its busy handler sleeps). A bulk
 * writer that commits and begins again at once therefore starves it even
 * when each transaction is short. So a writer that is about to wait says so:
 * it holds a shared `flock` on `<journal>-wait` while it asks for the lock,
 * and the bulk writer, between two of its transactions, probes that file
 * and steps aside until nobody is waiting. The kernel drops a dead waiter's
 * lock, so nothing stale is ever left behind.
 */

/** How long the journal's write lock was held, as measured by one open journal. */
export interface WriteHolds {
  /** Write transactions committed or rolled back. */
  count: number;
  /** The longest one, BEGIN to COMMIT, in ms. */
  maxMs: number;
  /** What the longest one did: its steps and the last of them ("" for a plain transaction). */
  maxWhat: string;
  /** All of them together, in ms. */
  totalMs: number;
  /** Those that held the lock for more than 250 ms. */
  over250: number;
  /** Times the bulk writer stepped aside for a waiting writer, and for how long in all. */
  yields: number;
  /** Chunked transactions committed before their budget was spent, because another writer waited. */
  early: number;
  /** How long those steps aside lasted in all, in ms. */
  yieldMs: number;
  /** The slowest single step of a chunked transaction (it cannot be split), and what it was. */
  maxStepMs: number;
  /** What that slowest step was. */
  maxStep: string;
  /** The longest COMMIT statement alone (writing the transaction's pages to the WAL), in ms. */
  maxCommitMs: number;
  /** WAL checkpoints run between chunks (outside any transaction), and their time in all. */
  checkpoints: number;
  /** How long those checkpoints took in all, in ms. */
  checkpointMs: number;
}

/** A fresh, zeroed {@link WriteHolds}. */
export function emptyHolds(): WriteHolds {
  return {
    count: 0,
    maxMs: 0,
    maxWhat: "",
    totalMs: 0,
    over250: 0,
    yields: 0,
    early: 0,
    yieldMs: 0,
    maxStepMs: 0,
    maxStep: "",
    maxCommitMs: 0,
    checkpoints: 0,
    checkpointMs: 0,
  };
}

/** Adds one hold of `ms` to `h`. */
export function recordHold(h: WriteHolds, ms: number, what = ""): void {
  h.count++;
  h.totalMs += ms;
  if (ms > h.maxMs) {
    h.maxMs = ms;
    h.maxWhat = what;
  }
  if (ms > 250) h.over250++;
}

/** The `<journal>-wait` file through which writers say that they wait for the lock. */
export class WriteIntent {
  #file: Deno.FsFile | null | undefined;

  constructor(readonly path: string) {}

  /**
   * Runs `fn` (which asks SQLite for the write lock) while holding the shared
   * lock that tells a bulk writer someone waits. When the file cannot be
   * opened (a read-only home) `fn` just runs: fairness is lost, not the write.
   */
  announce<T>(fn: () => T): T {
    const f = this.#open();
    if (!f) return fn();
    try {
      f.lockSync(false);
    } catch {
      return fn();
    }
    try {
      return fn();
    } finally {
      try {
        f.unlockSync();
      } catch { /* closed under us */ }
    }
  }

  /** True when another writer is waiting for the lock right now. Never blocks. */
  waiting(): boolean {
    const f = this.#open();
    if (!f) return false;
    try {
      if (!f.tryLockSync(true)) return true;
      f.unlockSync();
    } catch { /* cannot tell: do not wait */ }
    return false;
  }

  /**
   * Steps aside while another writer waits: sleeps in short steps until it
   * has taken the lock (its shared lock goes) or `maxMs` passed. Returns the
   * time spent. Call it with no transaction open.
   */
  async yieldToWaiters(maxMs = 250): Promise<number> {
    if (!this.waiting()) return 0;
    const t = performance.now();
    while (this.waiting() && performance.now() - t < maxMs) {
      await new Promise((r) => setTimeout(r, 2));
    }
    return performance.now() - t;
  }

  close(): void {
    try {
      this.#file?.close();
    } catch { /* already closed */ }
    this.#file = null;
  }

  #open(): Deno.FsFile | null {
    if (this.#file === undefined) {
      try {
        this.#file = Deno.openSync(this.path, {
          read: true,
          write: true,
          create: true,
          mode: 0o600,
        });
      } catch {
        this.#file = null;
      }
    }
    return this.#file;
  }
}
