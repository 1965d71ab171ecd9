/**
 * Keeps the daemon's watcher watching: starts it, starts it again after a
 * back-off when a watch breaks or the watcher stalls (found by a probe file
 * it must report), watches a root again once it was removed and made again
 * (or another folder took its place), and says what is wrong for `status`.
 * Each restart is followed by a stat audit (the daemon's, on "watching"),
 * which finds whatever changed while nothing watched.
 */
import { type HomePaths, writePrivateFile } from "../config/mod.ts";
import { join } from "../files/mod.ts";
import type { Logger } from "./log.ts";
import { homeDirs } from "./owners.ts";
import { type FolderIdentity, WatchHealth, type WatchHealthOptions } from "./watch_health.ts";
import type { WatchMessage, WatchRequest } from "./watcher.ts";

/** What the supervisor starts and stops (the watcher Worker, or a test's wrapper of it). */
export interface WatcherHandle {
  /** Starts watching what `request` names. */
  start(request: WatchRequest): void;
  /** Stops watching; no report follows. */
  stop(): void;
}

/** How often the roots' device and inode are compared with those the watcher was started on. */
export const ROOT_CHECK_MS = 1000;

/** How long the supervisor lets reports already sent come in before it decides a stall (see `checkAlive`). */
export const SETTLED_MS = 100;

/** The probe file, in the hints folder (watched by the same Worker, and read only for `*.hint`). */
export const PROBE_NAME = ".watch-probe";

/** The supervisor's view of the daemon. */
export interface WatchSupervisorOptions {
  home: HomePaths;
  log: Logger;
  /** The roots to watch, as the reconciler has them now. */
  roots: () => readonly string[];
  /** The daemon's audit interval, for the messages that say what covers an unwatched folder. */
  auditSeconds: () => number;
  /** Makes the watcher, given where its reports go. */
  watcher: (onMessage: (m: WatchMessage) => void) => WatcherHandle;
  /** Every report of the watcher, after the supervisor has seen it. */
  onMessage: (m: WatchMessage) => void;
  /** Timers of the health checks (tests shorten them). */
  health?: WatchHealthOptions;
}

/** The daemon's watcher, kept alive (see the module comment). */
export class WatchSupervisor {
  readonly #o: WatchSupervisorOptions;
  readonly #watcher: WatcherHandle;
  readonly #health: WatchHealth;
  readonly probe: string;
  /** The OS-limit message while the limit is in force (since the last start). */
  #limit: string | null = null;
  /** When the roots' identities are next compared; 0 to compare at the next tick. */
  #rootCheckAt = 0;
  /** Whether the hints folder (where the probe goes) is watched by the running watcher. */
  #probeWatched = false;
  /** Roots reported missing, so that each is logged once until it comes back. */
  readonly #gone = new Set<string>();

  constructor(options: WatchSupervisorOptions) {
    this.#o = options;
    this.#health = new WatchHealth(options.health);
    this.probe = join(options.home.hints, PROBE_NAME);
    this.#watcher = options.watcher((m) => this.#heard(m));
  }

  /** Starts (or starts again) the watcher on every root and the hints folder. */
  start(): void {
    const { home } = this.#o;
    Deno.mkdirSync(home.hints, { recursive: true });
    const roots = this.#o.roots();
    this.#limit = null;
    this.#probeWatched = false;
    this.#rootCheckAt = Date.now() + ROOT_CHECK_MS;
    this.#health.started(Date.now(), new Map(roots.map((r) => [r, folderIdentity(r)])));
    this.#watcher.start({
      roots: [...roots],
      extra: [home.hints],
      // A home inside a root: its own log and journal writes must not wake the loop.
      exclude: homeDirs(home.home),
    });
  }

  /** Stops the watcher (the daemon is stopping). */
  stop(): void {
    this.#watcher.stop();
  }

  /**
   * Does what is due now: starts a failed watcher again once its back-off
   * is over, and watches the roots again when one was made again. Cheap
   * (one stat per root, at most every {@link ROOT_CHECK_MS}); the daemon
   * calls it on every turn of its loop.
   */
  tick(now = Date.now()): void {
    if (this.#health.restartDue(now)) {
      this.#o.log.info(
        `starting the watcher again (failure ${this.#health.failures(now)} in a row)`,
      );
      this.start();
      return;
    }
    if (now < this.#rootCheckAt) return;
    this.#rootCheckAt = now + ROOT_CHECK_MS;
    const { replaced, gone } = this.#health.compareRoots(
      new Map(this.#o.roots().map((r) => [r, folderIdentity(r)])),
    );
    for (const root of gone) {
      if (this.#gone.has(root)) continue;
      this.#gone.add(root);
      this.#o.log.warn(
        `root "${root}" is gone: its files leave the index as their removal is seen (or at the next audit), and the root is watched again once it is back`,
      );
    }
    if (replaced.length === 0) return;
    for (const root of replaced) this.#gone.delete(root);
    this.#o.log.info(
      `root(s) ${
        replaced.map((r) => `"${r}"`).join(", ")
      } made again (or replaced by another folder): watching again, then a stat audit`,
    );
    this.start();
  }

  /**
   * The liveness probe, for the daemon to call on every turn of its loop:
   * writes the probe when the watcher has been quiet a while, and when a
   * probe went unreported, counts the watcher as stalled and schedules its
   * restart. Before deciding a stall it waits {@link SETTLED_MS}, so that
   * reports already sent are read first (after a long synchronous step
   * they may still wait in the queue).
   */
  async checkAlive(now = Date.now()): Promise<void> {
    if (!this.#probeWatched) return;
    if (this.#health.stalled(now)) {
      await new Promise((r) => setTimeout(r, SETTLED_MS));
      if (!this.#health.stalled(Date.now())) return;
      const cause = stallCause();
      this.#failed(
        `it reported nothing, not even the probe written to "${this.probe}"${
          cause ? `: ${cause}` : ""
        }`,
        Date.now(),
      );
      return;
    }
    if (!this.#health.probeDue(now)) return;
    try {
      // Private, as all of the home is (0600): only a time, but the home holds nothing else.
      writePrivateFile(this.probe, `${now}\n`);
      this.#health.probed(now);
    } catch (e) {
      this.#o.log.warn(`cannot write the watcher's probe "${this.probe}": ${(e as Error).message}`);
    }
  }

  /** The ms until the supervisor next has something to do, at most `cap`. */
  untilNext(now: number, cap: number): number {
    return this.#health.untilNext(now, Math.min(cap, Math.max(0, this.#rootCheckAt - now)));
  }

  /**
   * What `status` shows about the watcher (the OS limit, failures in a row),
   * or null when it watches everything live.
   */
  status(now = Date.now()): string | null {
    const parts = [this.#limit, this.#health.message(now)].filter((m) => m !== null);
    return parts.length === 0 ? null : parts.join("; ");
  }

  #heard(m: WatchMessage): void {
    const now = Date.now();
    this.#health.heard(now);
    const hintsOnly = m.paths.length === 1 && m.paths[0] === this.#o.home.hints;
    if (m.type === "watching" && hintsOnly) this.#probeWatched = true;
    if (m.type === "event") {
      // A root's own removal (or its move) ends its watch: whatever folder
      // is there by the time of the check is a new one (a folder made at
      // once may even get the old inode number back).
      const roots = this.#o.roots();
      for (const root of m.paths.filter((p) => roots.includes(p))) {
        if (m.kind === "remove") this.#health.rootRemoved(root);
        this.#rootCheckAt = 0;
      }
      if (m.paths.includes(this.probe)) {
        const rest = m.paths.filter((p) => p !== this.probe);
        if (rest.length === 0) return;
        m = { ...m, paths: rest };
      }
    } else if (m.type === "error") {
      if (m.limit) {
        const message = `OS file watch limit reached while watching ${
          m.paths.join(", ")
        }: those folders are covered by the stat audit every ${this.#o.auditSeconds()}s instead; raise fs.inotify.max_user_watches to watch them live`;
        if (this.#limit === null) this.#o.log.warn(message);
        this.#limit = message;
      } else if (m.notFound && m.paths.some((p) => folderIdentity(p) === null)) {
        // A root that does not exist (yet): the root check watches it once it does.
        this.#rootCheckAt = 0;
      } else if (m.ended) {
        this.#failed(`the watch of ${m.paths.join(", ")} failed: ${m.message}`, now);
      } else this.#o.log.warn(`watcher: ${m.message}`);
    }
    this.#o.onMessage(m);
  }

  #failed(why: string, now: number): void {
    const wait = this.#health.failed(now, why);
    this.#o.log.warn(
      `live watching failed (${
        this.#health.failures(now)
      } in a row): ${why}; starting the watcher again in ${
        Math.round(wait / 100) / 10
      } s, then a stat audit`,
    );
  }
}

/**
 * A folder's device, inode and birth time (`dev:ino:ms`; the birth time is
 * left empty where the file system keeps none), then `:link` when the path
 * itself is a symlink to it, or null when it does not exist (or is no
 * folder). A folder removed and made again at once often gets the same
 * inode number back; its birth time tells them apart. A link put in the
 * folder's place, or the folder moved back over its link, leaves the inode
 * as it was but not the watch started through the other: the mark tells
 * them apart.
 */
export function folderIdentity(path: string): FolderIdentity {
  try {
    const st = Deno.statSync(path);
    if (!st.isDirectory) return null;
    const link = Deno.lstatSync(path).isSymlink ? ":link" : "";
    return `${st.dev}:${st.ino}:${st.birthtime?.getTime() ?? ""}${link}`;
  } catch {
    return null;
  }
}

/**
 * Why the watcher may have stalled, when the OS says (Linux): Deno's
 * watcher opens the path of every event it reports, and opening a FIFO
 * (named pipe) for reading waits for a writer, so a FIFO inside a root
 * stops every report of the Worker until something writes to it.
 */
function stallCause(): string | undefined {
  try {
    for (const t of Deno.readDirSync("/proc/self/task")) {
      const wchan = Deno.readTextFileSync(`/proc/self/task/${t.name}/wchan`).trim();
      if (wchan === "wait_for_partner") {
        return "a thread of it waits to open a FIFO (named pipe) inside a root, which Deno's watcher opens for every event it reports; remove the FIFO or move it out of the roots";
      }
    }
  } catch { /* not Linux, or /proc hidden */ }
  return undefined;
}
