/**
 * Whether the daemon's watcher still watches, decided in pure code (the
 * daemon does the stats, the probe writes and the restarts): a watch that
 * failed is restarted after a back-off that doubles while it keeps failing;
 * a watcher that stopped delivering is found by a probe it does not report;
 * a root removed and made again, or replaced by another folder, is found by
 * its device and inode.
 */

/** The first wait before a failed watcher is started again; it doubles with each failure in a row. */
export const WATCH_RETRY_BASE_MS = 1000;
/** The longest wait between two restarts of a watcher that keeps failing. */
export const WATCH_RETRY_MAX_MS = 300_000;
/**
 * How long a restarted watcher must run without failing before its failures
 * are forgotten (the back-off starts again from {@link WATCH_RETRY_BASE_MS},
 * and `status` stops showing them).
 */
export const WATCH_HEALTHY_MS = 60_000;
/** How long the watcher may report nothing before the daemon writes a probe it must report. */
export const WATCH_PROBE_EVERY_MS = 30_000;
/** How long after a probe the watcher may still report nothing before it counts as stalled. */
export const WATCH_PROBE_TIMEOUT_MS = 5_000;

/**
 * The wait before the `failures`-th restart in a row (1-based): 1 s, 2 s,
 * 4 s… up to {@link WATCH_RETRY_MAX_MS}.
 *
 * @example
 * ```ts
 * import { watchRetryMs } from "./watch_health.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual([1, 2, 3, 40].map(watchRetryMs), [1000, 2000, 4000, 300_000]);
 * ```
 */
export function watchRetryMs(failures: number): number {
  return Math.min(WATCH_RETRY_MAX_MS, WATCH_RETRY_BASE_MS * 2 ** Math.max(0, failures - 1));
}

/** A folder's identity for {@link WatchHealth.compareRoots} (its device, inode and birth time), or null when it does not exist. */
export type FolderIdentity = string | null;

/** The identity of a root the watcher reported removed: equal to none. */
const REMOVED = "\0removed";

/** Knobs of {@link WatchHealth}; tests shorten them. */
export interface WatchHealthOptions {
  /** Silence (ms) after which the watcher is probed. */
  probeEveryMs?: number;
  /** How long (ms) a probe may go unreported before the watcher counts as stalled. */
  probeTimeoutMs?: number;
  /** Uptime (ms) after which past failures are forgotten. */
  healthyMs?: number;
}

/**
 * The watcher's health over time. Every method takes the time (ms) it is
 * called at, so that tests can drive it; none reads the clock or the disk.
 *
 * @example
 * ```ts
 * import { WatchHealth } from "./watch_health.ts";
 * import assert from "node:assert/strict";
 * const h = new WatchHealth();
 * h.started(0, new Map([["/r", "1:2"]]));
 * h.heard(10);
 * // Quiet for 30 s: a probe is due; unreported 5 s later, the watcher has stalled.
 * assert.equal(h.probeDue(30_010), true);
 * h.probed(30_010);
 * assert.equal(h.stalled(35_010), true);
 * assert.equal(h.failed(35_010, "stalled"), 1000);
 * assert.equal(h.restartDue(36_010), true);
 * // The root removed and cloned again: another inode.
 * h.started(36_010, new Map([["/r", "1:2"]]));
 * assert.deepEqual(h.compareRoots(new Map([["/r", "1:9"]])), { replaced: ["/r"], gone: [] });
 * ```
 */
export class WatchHealth {
  readonly #probeEveryMs: number;
  readonly #probeTimeoutMs: number;
  readonly #healthyMs: number;
  /** When the running watcher was started; undefined before the first start. */
  #startedAt: number | undefined;
  /** The identity of each root when the running watcher was started. */
  #roots = new Map<string, FolderIdentity>();
  /** When the watcher last reported anything. */
  #heardAt = 0;
  /** When the probe waiting to be reported was written. */
  #probeAt: number | undefined;
  /** Failures in a row (a failure counts once per start). */
  #failures = 0;
  /** Whether the running watcher has failed (it is counted once). */
  #failedSinceStart = false;
  /** When to start the watcher again after a failure. */
  #restartAt: number | undefined;
  /** The last failure: when, and why. */
  #last: { at: number; why: string } | undefined;

  constructor(options: WatchHealthOptions = {}) {
    this.#probeEveryMs = options.probeEveryMs ?? WATCH_PROBE_EVERY_MS;
    this.#probeTimeoutMs = options.probeTimeoutMs ?? WATCH_PROBE_TIMEOUT_MS;
    this.#healthyMs = options.healthyMs ?? WATCH_HEALTHY_MS;
  }

  /** A watcher was started with the roots as they were then. */
  started(now: number, roots: ReadonlyMap<string, FolderIdentity>): void {
    this.#startedAt = now;
    this.#roots = new Map(roots);
    this.#heardAt = now;
    this.#probeAt = undefined;
    this.#failedSinceStart = false;
    this.#restartAt = undefined;
  }

  /** The watcher reported something (an event, a burst, its watches): it is alive. */
  heard(now: number): void {
    this.#heardAt = now;
    if (this.#probeAt !== undefined && now >= this.#probeAt) this.#probeAt = undefined;
  }

  /** True when the watcher has been quiet long enough that a probe should be written. */
  probeDue(now: number): boolean {
    return this.#running() && this.#probeAt === undefined &&
      now - this.#heardAt >= this.#probeEveryMs;
  }

  /** A probe was written now; the watcher must report it (or anything) within the timeout. */
  probed(now: number): void {
    this.#probeAt = now;
  }

  /** True when a probe went unreported for the timeout: the watcher delivers nothing. */
  stalled(now: number): boolean {
    return this.#running() && this.#probeAt !== undefined &&
      now - this.#probeAt >= this.#probeTimeoutMs;
  }

  /**
   * The running watcher failed (its watch broke, would not start, or
   * stalled): returns the wait before it is started again. A second failure
   * of the same watcher is not counted again (the wait stays the same).
   */
  failed(now: number, why: string): number {
    this.#forgetIfHealthy(now);
    if (!this.#failedSinceStart) {
      this.#failedSinceStart = true;
      this.#failures++;
      this.#restartAt = now + watchRetryMs(this.#failures);
    }
    this.#last = { at: now, why };
    this.#probeAt = undefined;
    return (this.#restartAt ?? now) - now;
  }

  /** True when a failed watcher's back-off is over: start it again now. */
  restartDue(now: number): boolean {
    return this.#restartAt !== undefined && now >= this.#restartAt;
  }

  /** The ms until the next thing to check (a restart, a probe's timeout), at most `cap`. */
  untilNext(now: number, cap: number): number {
    let next = cap;
    if (this.#restartAt !== undefined) next = Math.min(next, this.#restartAt - now);
    if (this.#probeAt !== undefined) {
      next = Math.min(next, this.#probeAt + this.#probeTimeoutMs - now);
    }
    return Math.max(0, next);
  }

  /**
   * The roots whose folder is not the one the running watcher was started
   * on: `replaced` (made again, or another folder moved there: watch them
   * again) and `gone` (not there now). A gone root is remembered as gone,
   * so that it is reported once and counts as replaced when it comes back.
   */
  compareRoots(now: ReadonlyMap<string, FolderIdentity>): { replaced: string[]; gone: string[] } {
    const replaced: string[] = [];
    const gone: string[] = [];
    for (const [root, id] of now) {
      if (!this.#roots.has(root) || this.#roots.get(root) === id) continue;
      if (id === null) gone.push(root);
      else replaced.push(root);
      this.#roots.set(root, id);
    }
    return { replaced, gone };
  }

  /**
   * The watcher reported `root` itself removed (or moved away): its watch
   * is gone, and whatever folder {@link compareRoots} finds there next is
   * another one, whatever its identity.
   */
  rootRemoved(root: string): void {
    if (this.#roots.has(root)) this.#roots.set(root, REMOVED);
  }

  /** Failures in a row so far (0 once a restarted watcher has stayed up {@link WATCH_HEALTHY_MS}). */
  failures(now: number): number {
    this.#forgetIfHealthy(now);
    return this.#failures;
  }

  /**
   * What `status` shows while the watcher keeps failing (failures in a row
   * not yet forgotten), else null.
   */
  message(now: number): string | null {
    if (this.failures(now) === 0 || this.#last === undefined) return null;
    const when = new Date(this.#last.at).toISOString();
    const next = this.#restartAt === undefined
      ? "it was restarted, and a stat audit followed"
      : `it is restarted at ${new Date(this.#restartAt).toISOString()}, then a stat audit follows`;
    return `live watching failed ${this.#failures} time(s) in a row, last at ${when}: ${this.#last.why}; ${next}`;
  }

  #running(): boolean {
    return this.#startedAt !== undefined && this.#restartAt === undefined;
  }

  #forgetIfHealthy(now: number): void {
    if (
      this.#failures > 0 && !this.#failedSinceStart && this.#startedAt !== undefined &&
      now - this.#startedAt >= this.#healthyMs
    ) {
      this.#failures = 0;
      this.#last = undefined;
    }
  }
}
