import { type HomePaths, loadConfig } from "../config/mod.ts";
import type { Extractor } from "../extract/mod.ts";
import { deleteMeta, Journal, queueStats, setMeta } from "../store/mod.ts";
import { WriterLock } from "./lock.ts";
import type { Logger } from "./log.ts";
import { PreparePool } from "./prepare_pool.ts";
import { Reconciler } from "./reconciler.ts";
import { Watcher, type WatchMessage } from "./watcher.ts";

/** Knobs of a daemon run; tests shorten the timers. */
/** Meta key holding the watcher's OS-limit message while the limit is in force. */
export const WATCH_LIMIT_KEY = "watch_limit";

export interface DaemonOptions {
  home: HomePaths;
  extractor: Extractor;
  log: Logger;
  /** How often the hints folder and config file are polled, as a backstop to the watch. */
  pollMs?: number;
  /** Resolves when the daemon should stop (SIGINT/SIGTERM are wired by the CLI). */
  stop: Promise<void>;
  /** Called once the startup audit is done and the watcher runs. */
  onReady?: () => void;
  /**
   * Called after a pass that changed the index, outside its transactions
   * (memory re-anchors what it is attached to here). A throw is logged.
   */
  afterPass?: (journal: Journal) => void;
  /**
   * Background work that follows the index (the embedding pass), made once
   * the reconciler exists (it may hook `onCommitted`). The daemon calls its
   * `step()` when no edit waits and loops without sleeping while it returns
   * true, so an edit waits at most one step.
   */
  background?: (reconciler: Reconciler) => BackgroundWork | undefined;
}

/** Bounded work the daemon runs between passes (see {@link DaemonOptions.background}). */
export interface BackgroundWork {
  /** Does one bounded step; true while more remains. A throw is logged and ends the turn. */
  step(): Promise<boolean>;
  close(): void;
}

/**
 * The long-running single writer: takes the lock (or throws
 * IndexLockedError), mirrors the roots, audits them (a full index when the
 * journal is empty), then converges on every watcher event and hint, with a
 * stat audit on a timer and whenever the watcher reports lost events.
 */
export async function runDaemon(opts: DaemonOptions): Promise<void> {
  const lock = await WriterLock.acquire(opts.home);
  const journal = Journal.open(opts.home.journal);
  const log = opts.log;
  let config = loadConfig(opts.home.config);
  const pool = new PreparePool();
  const reconciler = new Reconciler(journal, opts.home, config, opts.extractor, log, pool);
  const background = opts.background?.(reconciler);
  const pending = new Set<string>();
  let wake: (() => void) | undefined;
  let stopping = false;
  let auditWanted = true;
  let limitReported = false;
  // The watch-limit message waits here for the loop to store it: the watcher's
  // callback may run while a commit's transaction is open.
  let watchState: string | null | undefined;
  let nextAudit = 0;
  const poke = () => {
    wake?.();
    wake = undefined;
  };

  const onWatch = (m: WatchMessage) => {
    if (m.type === "event") {
      if (m.rescan) {
        log.warn("the watcher lost events (rescan); a full stat audit follows");
        auditWanted = true;
      }
      for (const p of m.paths) pending.add(p);
      poke();
    } else if (m.type === "error") {
      if (m.limit) {
        const message = `OS file watch limit reached while watching ${
          m.paths.join(", ")
        }: those folders are covered by the stat audit every ${config.auditIntervalSeconds}s instead; raise fs.inotify.max_user_watches to watch them live`;
        if (!limitReported) log.warn(message);
        limitReported = true;
        watchState = message;
      } else log.warn(`watcher: ${m.message}`);
    }
  };
  const watcher = new Watcher(onWatch);
  const startWatcher = () => {
    Deno.mkdirSync(opts.home.hints, { recursive: true });
    limitReported = false;
    watchState = null;
    watcher.start({ roots: reconciler.roots.map((r) => r.path), extra: [opts.home.hints] });
  };

  opts.stop.then(() => {
    stopping = true;
    poke();
  });

  let configStamp = stamp(opts.home.config);
  try {
    reconciler.syncRoots(config);
    setMeta(journal, "daemon_started_ms", String(Date.now()));
    startWatcher();
    log.info(`daemon pid ${Deno.pid} watching ${reconciler.roots.length} root(s)`);
    let ready = false;
    // True at start: the first pass also runs afterPass for whatever a previous writer left.
    let indexChanged = true;
    while (!stopping) {
      const now = Date.now();
      const s = stamp(opts.home.config);
      if (s !== configStamp) {
        configStamp = s;
        try {
          config = loadConfig(opts.home.config);
          const { added, removed } = reconciler.syncRoots(config);
          if (added.length + removed.length > 0) {
            log.info(`roots changed: +${added.length} -${removed.length}`);
            startWatcher();
            auditWanted = true;
          }
        } catch (e) {
          log.warn(`${(e as Error).message}; keeping the previous configuration`);
        }
      }
      if (auditWanted || now >= nextAudit) {
        auditWanted = false;
        const t = performance.now();
        const stats = await reconciler.audit();
        indexChanged ||= stats.changed + stats.retracted > 0;
        nextAudit = Date.now() + config.auditIntervalSeconds * 1000;
        setMeta(journal, "last_audit_ms", String(Date.now()));
        collectGarbage();
        log.info(
          `audit: ${stats.seen} seen, ${stats.changed} changed, ${stats.retracted} retracted in ${
            Math.round(performance.now() - t)
          } ms`,
        );
      }
      if (pending.size > 0) {
        // A burst of writes costs one pass: wait a beat for the rest of it.
        await sleep(config.debounceMs);
        const paths = [...pending].filter((p) => !p.startsWith(opts.home.hints + "/"));
        pending.clear();
        if (paths.length > 0) reconciler.enqueue(paths, "watch");
      }
      if (watchState !== undefined) {
        if (watchState === null) deleteMeta(journal, WATCH_LIMIT_KEY);
        else setMeta(journal, WATCH_LIMIT_KEY, watchState);
        watchState = undefined;
      }
      reconciler.ingestHints();
      if (reconciler.rootsChanged) {
        reconciler.rootsChanged = false;
        configStamp = stamp(opts.home.config);
        startWatcher();
      }
      const drained = await reconciler.drainQueue();
      if (drained.seen > 1000) collectGarbage();
      indexChanged ||= drained.changed + drained.retracted > 0;
      if (indexChanged && opts.afterPass) {
        indexChanged = false;
        try {
          opts.afterPass(journal);
        } catch (e) {
          log.warn(`after the pass: ${(e as Error).message}`);
        }
      }
      if (drained.seen > 0) {
        log.info(
          `drained ${drained.seen}: ${drained.changed} changed, ${drained.retracted} retracted, ${drained.requeued} requeued`,
        );
      }
      if (!ready) {
        ready = true;
        opts.onReady?.();
      }
      if (pending.size > 0 || stopping) continue;
      if (background && (await stepBackground(background, log))) continue;
      const q = queueStats(journal);
      const untilDue = q.length > 0 && q.nextDue !== null
        ? Math.max(5, q.nextDue - Date.now())
        : Infinity;
      const untilAudit = Math.max(0, nextAudit - Date.now());
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, Math.min(opts.pollMs ?? 1000, untilDue, untilAudit));
      });
      clearTimeout(timer);
      wake = undefined;
    }
  } finally {
    watcher.stop();
    background?.close();
    pool.close();
    journal.close();
    lock.release();
    log.info(`daemon pid ${Deno.pid} stopped`);
  }
}

/** One background step; a failure is logged and counts as "nothing more now". */
async function stepBackground(work: BackgroundWork, log: Logger): Promise<boolean> {
  try {
    return await work.step();
  } catch (e) {
    log.warn(`background work: ${(e as Error).message}`);
    return false;
  }
}

function stamp(file: string): string {
  try {
    const st = Deno.statSync(file);
    return `${st.mtime?.getTime()}:${st.size}`;
  } catch {
    return "none";
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Gives a large pass's garbage back at once when the runtime allows it
 * (`--v8-flags=--expose-gc`, set by the heimdall task and the compiled
 * binary): an idle daemon would otherwise keep it resident indefinitely.
 */
function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc === "function") gc();
}
