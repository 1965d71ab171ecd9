/**
 * One pass of the single writer, the same for `index`, `reconcile`,
 * `rebuild` and the daemon: optionally drop the whole index first, converge
 * given paths, audit the roots, queue the hints, drain the queue (waiting
 * out paths that back off, when asked), merge the full-text index after a
 * large pass, then let what follows the index (memory re-anchoring, the
 * embedding pass) catch up.
 */
import {
  clearIndex,
  fullTextMergeDue,
  mergeFullTextSteps,
  queueStats,
  type RootRow,
} from "../store/mod.ts";
import type { Progress, Reconciler } from "./reconciler.ts";
import { addStats, emptyStats, type PassStats } from "./stats.ts";

/** What a pass does; by default it only queues the hints and drains the queue. */
export interface PassOptions {
  /** Drop every row a path owns and every root first, then index the roots again (`rebuild`). */
  fresh?: boolean;
  /** Paths (files or folders) to converge now, before anything queued. */
  paths?: readonly string[];
  /** A stat audit: of every root (`true`), or of these roots. */
  audit?: boolean | readonly RootRow[];
  /** Re-hash every file the paths and the audit look at. */
  deep?: boolean;
  /**
   * Drain again, for up to this long, while paths that were changing as they
   * were read wait out their back-off; 0 (the default) drains once. A path
   * backing off past the deadline stays queued (see {@link PassReport.queued}).
   */
  settleMs?: number;
  /** Progress of the audit, for a progress bar. */
  onProgress?: (p: Progress) => void;
  /**
   * Called once the hints are queued, before the drain (the daemon restarts
   * its watcher there when a hint added a root).
   */
  afterHints?: () => void;
  /**
   * Called with a follower's error instead of throwing it (the daemon logs
   * it and goes on). Without it, the first error is thrown once every
   * follower has run; the pass's own writes are committed by then.
   */
  onFollowerError?: (name: string, error: unknown) => void;
}

/** What one pass did. */
export interface PassReport {
  /** Everything it did, summed over its steps. */
  stats: PassStats;
  /** What the audit did; null when the pass ran none. */
  audit: PassStats | null;
  /** How long the audit took, in ms (0 without one). */
  auditMs: number;
  /** What draining the queue did. */
  drained: PassStats;
  /** Paths dropped first by a fresh pass. */
  dropped: number;
  /** Paths still queued when it ended (backing off). */
  queued: number;
  /** True when the followers ran after it. */
  followed: boolean;
}

/**
 * What follows the index: told of every commit, and run after a pass that
 * changed the index (and after a writer's first pass, for whatever a
 * previous writer left). Registered once per writer with
 * `Reconciler.follow`. A follower with `step` is also background work the
 * daemon runs between passes.
 */
export interface Follower {
  /** Its name, for the log when it fails. */
  readonly name: string;
  /**
   * After each batch's transaction commits, with the ids of the paths whose
   * rows it replaced. Runs outside the transaction; must not throw.
   */
  committed?(pathIds: readonly number[]): void;
  /** After a pass that changed the index (see the interface's comment). */
  afterPass?(report: PassReport): void;
  /** One bounded step of background work; true while more remains (the daemon's loop). */
  step?(): Promise<boolean>;
  /** Frees what it holds; called once, when the daemon stops. */
  close?(): void;
}

/** A writer's followers, and whether they have caught up with the index. */
export class Followers {
  readonly #list: Follower[] = [];
  /** True until the first pass, and after a pass that changed the index until they run. */
  #due = true;

  /** Registers a follower (in order: they are told and run in this order). */
  add(f: Follower): void {
    this.#list.push(f);
  }

  /** The registered followers, in order. */
  get list(): readonly Follower[] {
    return this.#list;
  }

  /**
   * Tells every follower of a committed batch, and makes them due when it
   * replaced a path's rows: a file turned binary, too large or unreadable
   * lost its symbols and chunks as surely as an edited one, though the
   * pass counts it as skipped or failed, not changed.
   */
  get onCommitted(): (pathIds: readonly number[]) => void {
    return (ids) => {
      if (ids.length > 0) this.#due = true;
      for (const f of this.#list) f.committed?.(ids);
    };
  }

  /** Records that a step of a pass changed (or did not change) the index. */
  note(stats: PassStats): void {
    if (stats.changed + stats.retracted > 0) this.#due = true;
  }

  /** Runs every follower's `afterPass` if due; returns true when they ran. */
  run(report: PassReport, onError?: (name: string, error: unknown) => void): boolean {
    if (!this.#due) return false;
    // Cleared first: a follower that fails waits for the next change, as it
    // would make no progress on an unchanged index either.
    this.#due = false;
    let first: { error: unknown } | undefined;
    for (const f of this.#list) {
      try {
        f.afterPass?.({ ...report, followed: true });
      } catch (e) {
        if (onError) onError(f.name, e);
        else first ??= { error: e };
      }
    }
    if (first) throw first.error;
    return true;
  }
}

/**
 * Runs one pass on `r` (see the module comment) and returns its report.
 * Throws what the writer meets (the daemon's error boundary classifies it);
 * what was committed before stays committed, and the next audit converges
 * the rest.
 */
export async function runPass(
  r: Reconciler,
  followers: Followers,
  options: PassOptions = {},
): Promise<PassReport> {
  const deep = options.deep ?? false;
  const stats = emptyStats();
  // The files of roots dropped from the configuration went with them (syncRoots).
  const byRoots = { ...emptyStats(), retracted: r.takeRootsRetracted() };
  if (byRoots.retracted > 0) {
    followers.note(byRoots);
    addStats(stats, byRoots);
  }
  let dropped = 0;
  if (options.fresh) {
    // Every row a path owns goes through the deletion a commit uses; the
    // roots go too, so the resolver's caches and ids start again.
    dropped = clearIndex(r.journal);
    r.recover();
    r.syncRoots();
    followers.note({ ...emptyStats(), retracted: dropped });
  }
  if (options.paths && options.paths.length > 0) {
    const done = await r.reconcilePaths(options.paths, deep);
    followers.note(done);
    addStats(stats, done);
  }
  let audit: PassStats | null = null;
  let auditMs = 0;
  if (options.audit) {
    const t0 = performance.now();
    audit = await r.audit({
      deep,
      ...(options.audit === true ? {} : { roots: options.audit }),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    auditMs = performance.now() - t0;
    followers.note(audit);
    addStats(stats, audit);
  }
  await r.ingestHints();
  options.afterHints?.();
  const drained = emptyStats();
  const settleMs = options.settleMs ?? 0;
  const deadline = Date.now() + settleMs;
  let queued: number;
  for (;;) {
    const done = await r.drainQueue();
    followers.note(done);
    addStats(drained, done);
    const q = queueStats(r.journal);
    queued = q.length;
    if (settleMs <= 0 || q.length === 0 || Date.now() > deadline) break;
    // Never sleep past the deadline: a path backing off for 30 s stays queued instead.
    const wait = Math.min(deadline - Date.now(), (q.nextDue ?? 0) - Date.now());
    await new Promise((res) => setTimeout(res, Math.max(10, wait)));
  }
  addStats(stats, drained);
  if (fullTextMergeDue(r.journal, stats.changed)) {
    await r.journal.txChunked(mergeFullTextSteps(r.journal));
  }
  const report: PassReport = { stats, audit, auditMs, drained, dropped, queued, followed: false };
  report.followed = followers.run(report, options.onFollowerError);
  return report;
}
