import { type Config, type HomePaths, loadConfig } from "../config/mod.ts";
import type { Extractor } from "../extract/mod.ts";
import {
  corruptionDetail,
  deleteMeta,
  Journal,
  JournalCorruptError,
  journalFile,
  markDamaged,
  queueStats,
  setMeta,
} from "../store/mod.ts";
import { backoffMs, classifyFault, type FaultRecord, reserveFault, writeFault } from "./faults.ts";
import { IndexLockedError, markWaiting, WriterLock } from "./lock.ts";
import type { Logger } from "./log.ts";
import { PreparePool } from "./prepare_pool.ts";
import { grammarWarmup } from "./grammar_warmup.ts";
import type { Follower } from "./pass.ts";
import { Reconciler } from "./reconciler.ts";
import { Watcher, type WatchMessage } from "./watcher.ts";
import { type WatcherHandle, WatchSupervisor } from "./watch_supervisor.ts";
import type { WatchHealthOptions } from "./watch_health.ts";
import { basename, codeStamp, dirname, IGNORE_FILE_NAMES } from "../files/mod.ts";

/**
 * How long a burst of file events must have been quiet before the stat audit
 * that follows it: a checkout or an install is over by then, and the audit
 * runs once, after it, not in the middle.
 */
export const BURST_SETTLE_MS = 1000;

/**
 * The longest a stream of bursts may put that audit off: a build or a
 * logger writing inside a root without pause would otherwise postpone it,
 * and with it every event Deno dropped, for as long as it writes.
 */
export const BURST_MAX_WAIT_MS = 10_000;

/**
 * The least time between two stat audits asked for by events the watcher
 * could not read (a file whose name is not UTF-8): a program writing to such
 * a file without pause would otherwise ask for one every second.
 */
export const LOST_AUDIT_GAP_MS = 30_000;

/**
 * How long the daemon's loop may stay in one step (a pass, a background
 * step, a wait) before its log says which, and again each time as long.
 */
export const STUCK_AFTER_MS = 30_000;

/**
 * How often a running pass looks at `config.json` for a root removed: the
 * stat of one file.
 */
const REMOVAL_CHECK_MS = 500;

/**
 * How often the daemon looks whether its code was replaced on disk (an
 * upgrade): a few hundred stats under `deno run`, one in a binary. It hands
 * over once two looks in a row find the same new code.
 */
export const CODE_CHECK_MS = 5000;

/** Why a pass was stopped: a root was removed while it ran (not an error). */
class RootsRemovedSignal {}

/**
 * Meta key holding what keeps the watcher from watching everything live,
 * while it lasts: the OS watch limit, a watcher that keeps failing.
 */
export const WATCH_LIMIT_KEY = "watch_limit";

/** Knobs of a daemon run; tests shorten the timers. */
export interface DaemonOptions {
  /** The home whose journal, hints and config the daemon serves. */
  home: HomePaths;
  /** Turns a file's bytes into symbols and chunks. */
  extractor: Extractor;
  /** Where the daemon reports what it does. */
  log: Logger;
  /** How often the hints folder and config file are polled, as a backstop to the watch. */
  pollMs?: number;
  /** The longest bursts may put off the audit that follows them (default {@link BURST_MAX_WAIT_MS}). */
  burstMaxWaitMs?: number;
  /** Resolves when the daemon should stop (SIGINT/SIGTERM are wired by the CLI). */
  stop: Promise<void>;
  /**
   * Called once an audit has run with the roots' watches in place: a file
   * changed before they were is found by that audit, one changed after it
   * sends an event.
   */
  onReady?: () => void;
  /**
   * Makes the watcher, given where its reports go (default: the watcher
   * Worker). Tests wrap the real one to hold its reports back.
   */
  watcher?: (onMessage: (m: WatchMessage) => void) => WatcherHandle;
  /** Timers of the watcher's health checks (default: see `watch_health.ts`); tests shorten them. */
  watchHealth?: WatchHealthOptions;
  /**
   * What follows the index (memory re-anchoring, the embedding pass), made
   * once the journal is open and registered with the reconciler: each pass
   * that changed the index runs their `afterPass` (a throw is logged). The
   * daemon calls a follower's `step()` when no edit waits and loops without
   * sleeping while it returns true, so an edit waits at most one step.
   */
  followers?: (journal: Journal) => readonly Follower[];
  /**
   * Told once when the daemon starts while a one-shot writer (`index`,
   * `rebuild`) holds the lock, with what it waits for (default: the log only).
   */
  onLockWait?: (message: string) => void;
  /**
   * A stamp of the code the daemon runs (default: `codeStamp`, its files'
   * newest modification time); the daemon ends "code replaced" once it
   * differs from the one it started with.
   */
  codeStamp?: () => number;
  /** How often that stamp is looked at (default {@link CODE_CHECK_MS}). */
  codeCheckMs?: number;
}

/** Bounded work the daemon runs between passes (a follower with a `step`). */
export interface BackgroundWork {
  /** Does one bounded step; true while more remains. A throw is logged and ends the turn. */
  step(): Promise<boolean>;
  /** Stops the work and frees what it holds; called once, when the daemon stops. */
  close?(): void;
}

/**
 * The writer lock, once a one-shot writer that holds it (`heimdall index`,
 * `rebuild`) has finished: a daemon started meanwhile (a service at login, a
 * restart after a crash) waits for it instead of exiting, which a service
 * manager would count as a failed start and, after a few, give up on.
 * Throws IndexLockedError when another daemon, or a holder that does not
 * say what it is, holds it. Undefined when stopped while waiting.
 */
async function takeLock(opts: DaemonOptions): Promise<WriterLock | undefined> {
  let stopped = false;
  void opts.stop.then(() => (stopped = true));
  let told = false;
  // What status shows meanwhile: a daemon waiting, not none.
  let waiting: Deno.FsFile | undefined;
  try {
    for (;;) {
      try {
        return await WriterLock.acquire(opts.home, undefined, "daemon");
      } catch (e) {
        if (!(e instanceof IndexLockedError) || e.role === undefined || e.role === "daemon") {
          throw e;
        }
        if (!told) {
          // Only status reads it: a home it cannot be made in waits all the same.
          waiting = await markWaiting(opts.home).catch(() => undefined);
          const message = `waiting for the one-shot \`heimdall ${e.role}\` (pid ${
            e.pid ?? "unknown"
          }) to finish: it holds the writer lock "${e.lockFile}"; the daemon starts once it is done`;
          opts.log.info(message);
          opts.onLockWait?.(message);
          told = true;
        }
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        opts.stop,
        new Promise((r) => (timer = setTimeout(r, 1000))),
      ]);
      clearTimeout(timer);
      if (stopped) return undefined;
    }
  } finally {
    waiting?.close();
  }
}

/**
 * The long-running single writer: takes the lock (waiting while a one-shot
 * writer holds it, see {@link takeLock}; throws IndexLockedError when
 * another daemon does), mirrors the roots, audits them (a full index when the
 * journal is empty), then converges on every watcher event and hint, with a
 * stat audit on a timer and whenever the watcher reports lost events. Its
 * watcher is kept watching (see `WatchSupervisor`): started again when it
 * fails or stalls, and on a root made again. Resolves once `stop` has
 * resolved and the pass it was in has stopped at its next safe point
 * (see `Reconciler.signal`), about a second at most: "stopped". Resolves
 * "journal replaced" when the journal's path names another file, or none,
 * after the pass it was in (deleted by hand, a backup moved into place): it
 * would otherwise go on writing to a file nobody else reads; the caller
 * runs it again, on the file there now. "home removed" when the home
 * folder itself is gone. "code replaced" when the code it runs changed on
 * disk (an upgrade, a `git pull`), between passes: an older build would go on
 * holding the writer lock, and a newer one's commands and hooks could not
 * migrate the journal they need; the caller hands over to the new code.
 */
export async function runDaemon(opts: DaemonOptions): Promise<DaemonEnd> {
  const stampCode = opts.codeStamp ?? codeStamp;
  const code = stampCode();
  const lock = await takeLock(opts);
  if (lock === undefined) return "stopped";
  // Room for the record of a failed pass, while there is room: a disk that fills up later must still be named in status.
  reserveFault(opts.home);
  const journal = Journal.open(opts.home.journal);
  const opened = journalFile(opts.home.journal);
  let end: DaemonEnd = "stopped";
  const log = opts.log;
  let config = loadConfig(opts.home.config);
  const pool = new PreparePool();
  const reconciler = new Reconciler(journal, opts.home, config, opts.extractor, log, pool);
  const followers = opts.followers?.(journal) ?? [];
  for (const f of followers) reconciler.follow(f);
  // The grammars an edit will need first, then the followers' work (embedding).
  const background: BackgroundWork[] = [
    grammarWarmup(journal, opts.extractor),
    ...followers.flatMap((f) =>
      f.step ? [{ step: () => f.step!(), close: () => f.close?.() }] : []
    ),
  ];
  const pending = new Set<string>();
  let wake: (() => void) | undefined;
  let stopping = false;
  // A stop ends a running pass at its next safe point (between two files'
  // commits): a first index of a large root would otherwise outlast the
  // service manager's stop timeout and be killed.
  const abort = new AbortController();
  // What the reconciler stops at: aborted by a stop (with the stop's
  // reason) or by a root removed while a pass runs (see the loop), and then
  // made again. One signal, not AbortSignal.any per pass: each of those
  // stays in the stop's signal's list until it aborts.
  let passAbort = new AbortController();
  reconciler.signal = passAbort.signal;
  let auditWanted = true;
  // What status shows about the watcher, as last stored: the loop stores it
  // (the watcher's callback may run while a commit's transaction is open).
  let watchStored: string | null | undefined;
  let nextAudit = 0;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  let wakeOnStop: (() => void) | undefined;
  /**
   * Sleeps up to `ms`; a stop ends it early, and so does a watcher event or
   * a hint unless `onlyStop` (a back-off is not cut short by more work).
   */
  const pause = async (ms: number, onlyStop = false) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      if (onlyStop) wakeOnStop = resolve;
      else wake = resolve;
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
    wake = undefined;
    wakeOnStop = undefined;
  };

  // Whether the watcher Worker has its roots' watches in place (or has said
  // why not). It starts them after the daemon's first audit has begun, and a
  // file changed before they are in place sends no event: the audit that
  // follows "watching" finds it, and the daemon is ready only after it.
  let rootsWatched = false;
  // When the stat audit that follows a burst of events is due, and when the
  // first burst since the last audit came (see onWatch).
  let burstAuditAt: number | undefined;
  let burstSince = 0;
  // When the stat audit asked for by an event the watcher could not read is
  // due, and when the last audit ended (see LOST_AUDIT_GAP_MS).
  let lostAuditAt: number | undefined;
  let lastAuditEnd = -Infinity;
  const onWatch = (m: WatchMessage) => {
    if (
      (m.type === "watching" || m.type === "error") &&
      !(m.paths.length === 1 && m.paths[0] === opts.home.hints)
    ) {
      rootsWatched = true;
      auditWanted = true;
      poke();
    }
    if (m.type === "burst") {
      // Deno may have dropped events of it. Its events still converge their
      // paths; the audit, once the burst has been quiet for a beat, finds
      // what was dropped.
      if (burstAuditAt === undefined) {
        burstSince = Date.now();
        log.info(
          `a burst of file events under ${
            m.paths.join(", ")
          }: the watcher may have dropped some, so a stat audit follows once it settles`,
        );
      }
      burstAuditAt = Math.min(
        Date.now() + BURST_SETTLE_MS,
        burstSince + (opts.burstMaxWaitMs ?? BURST_MAX_WAIT_MS),
      );
    } else if (m.type === "lost") {
      if (lostAuditAt === undefined) {
        log.info(
          `the watcher could not read an event under ${
            m.paths.join(", ")
          } (${m.message}): a stat audit follows`,
        );
        lostAuditAt = Math.max(Date.now() + BURST_SETTLE_MS, lastAuditEnd + LOST_AUDIT_GAP_MS);
      }
    } else if (m.type === "event") {
      if (m.rescan) {
        log.warn("the watcher lost events (rescan); a full stat audit follows");
        auditWanted = true;
      }
      for (const p of m.paths) {
        pending.add(p);
        // The ignore rules of a folder changed: what they cover may now be
        // in or out, though none of those files changed. The folder is
        // queued, and a queued folder is audited, its subtree walked. A
        // `.git` made or removed there (git init, rm -r .git) makes the
        // folder a repository of its own, or no longer one, which changes
        // whose rules apply in it.
        const name = basename(p);
        if (IGNORE_FILE_NAMES.includes(name) || name === ".git") pending.add(dirname(p));
      }
      poke();
    }
  };
  const supervisor = new WatchSupervisor({
    home: opts.home,
    log,
    roots: () => reconciler.roots.map((r) => r.path),
    auditSeconds: () => config.auditIntervalSeconds,
    watcher: opts.watcher ?? ((onMessage) => new Watcher(onMessage)),
    onMessage: onWatch,
    ...(opts.watchHealth ? { health: opts.watchHealth } : {}),
  });
  const startWatcher = () => {
    rootsWatched = false;
    supervisor.start();
  };
  // The global ignore file ($HEIMDALL_HOME/ignore) applies to every root.
  let ignoreStamp = fileVersion(opts.home.ignore);

  opts.stop.then(() => {
    stopping = true;
    abort.abort();
    passAbort.abort(abort.signal.reason);
    // Batches being prepared come back unread ("retry"), so the pass need
    // not wait for their parse: it stops before committing them.
    pool.close();
    poke();
    wakeOnStop?.();
  });

  // Where the loop is, and since when: a step that outlasts STUCK_AFTER_MS
  // is logged, so that a daemon that stopped converging says where it waits.
  let phase = { what: "starting", since: Date.now() };
  const enter = (what: string) => (phase = { what, since: Date.now() });
  const watchdog = setInterval(() => {
    const ms = Date.now() - phase.since;
    if (ms < STUCK_AFTER_MS) return;
    log.info(
      `still ${phase.what} after ${Math.round(ms / 1000)} s (${pending.size} path(s) waiting)`,
    );
    phase.since = Date.now();
  }, STUCK_AFTER_MS / 3);
  Deno.unrefTimer(watchdog);

  let configStamp = fileVersion(opts.home.config);
  // The error boundary's state: consecutive failed passes, and whether the
  // last error's record still says "failing".
  let failures = 0;
  let lastFault: FaultRecord | undefined;
  let started = false;
  let nextCodeCheck = Date.now() + (opts.codeCheckMs ?? CODE_CHECK_MS);
  // The stamp the last check saw: the code is taken as replaced once it differs
  // from the start's and has not changed since that check, so that a `git pull`
  // or a copy still being written is not started half done.
  let lastStamp = code;
  try {
    let ready = false;
    while (!stopping) {
      if (Date.now() >= nextCodeCheck) {
        nextCodeCheck = Date.now() + (opts.codeCheckMs ?? CODE_CHECK_MS);
        const stamp = stampCode();
        const settled = stamp === lastStamp;
        lastStamp = stamp;
        if (stamp !== code && settled) {
          end = "code replaced";
          log.warn(
            "the code this daemon runs changed on disk (an upgrade): it stops so that the new code takes over",
          );
          break;
        }
      }
      if (journalFile(opts.home.journal) !== opened) {
        // The whole home gone is an uninstall or a reset: the daemon stops
        // rather than make it again.
        end = homeExists(opts.home.home) ? "journal replaced" : "home removed";
        log.warn(
          end === "home removed"
            ? `the home "${opts.home.home}" was deleted while the daemon ran; the daemon stops`
            : `the journal "${opts.home.journal}" was deleted or replaced while the daemon ran; starting again on the file there now (a new index when there is none)`,
        );
        break;
      }
      try {
        if (!started) {
          // Inside the boundary: a journal busy at startup is waited out too.
          await reconciler.retractRemovedRoots(config);
          reconciler.syncRoots(config);
          setMeta(journal, "daemon_started_ms", String(Date.now()));
          startWatcher();
          log.info(`daemon pid ${Deno.pid} watching ${reconciler.roots.length} root(s)`);
          started = true;
        }
        // Is the watcher still watching? (A restart, a root made again, a probe.)
        supervisor.tick();
        await supervisor.checkAlive();
        const now = Date.now();
        const s = fileVersion(opts.home.config);
        if (s !== configStamp) {
          let next: Config | undefined;
          try {
            next = loadConfig(opts.home.config);
          } catch (e) {
            log.warn(`${(e as Error).message}; keeping the previous configuration`);
            configStamp = s;
          }
          if (next) {
            // The stamp moves only once the roots are synced: a busy journal
            // here means the change is applied on the retry.
            await reconciler.retractRemovedRoots(next);
            const { added, removed } = reconciler.syncRoots(next);
            config = next;
            configStamp = s;
            if (added.length + removed.length > 0) {
              log.info(`roots changed: +${added.length} -${removed.length}`);
              startWatcher();
              auditWanted = true;
            }
          }
        }
        const ignored = fileVersion(opts.home.ignore);
        if (ignored !== ignoreStamp) {
          // Reloads the global ignore file (the roots stay as they are).
          reconciler.syncRoots(config);
          ignoreStamp = ignored;
          log.info(`"${opts.home.ignore}" changed: a stat audit of every root follows`);
          auditWanted = true;
        }
        const audit = auditWanted || now >= nextAudit ||
          now >= Math.min(burstAuditAt ?? Infinity, lostAuditAt ?? Infinity);
        auditWanted = false;
        if (audit) {
          burstAuditAt = undefined;
          lostAuditAt = undefined;
        }
        if (pending.size > 0) {
          // A burst of writes costs one pass: wait a beat for the rest of it.
          enter("waiting out the debounce");
          await sleep(config.debounceMs);
          const paths = [...pending].filter((p) => !p.startsWith(opts.home.hints + "/"));
          // Queued first, forgotten after (no await between): a failed
          // enqueue keeps the paths for the retry.
          if (paths.length > 0) reconciler.enqueue(paths, "watch");
          pending.clear();
        }
        const watchState = supervisor.status();
        if (watchState !== watchStored) {
          if (watchState === null) deleteMeta(journal, WATCH_LIMIT_KEY);
          else setMeta(journal, WATCH_LIMIT_KEY, watchState);
          watchStored = watchState;
        }
        enter(audit ? "in a pass with an audit" : "in a pass");
        // A root removed while the pass runs (`roots remove` of a root whose
        // first index takes many minutes, added by mistake) stops the pass
        // at its next safe point, and the loop applies the removal at once:
        // it would otherwise go on reading that root to the end first.
        const removalWatch = setInterval(() => {
          if (fileVersion(opts.home.config) === configStamp) return;
          try {
            const want = new Set(loadConfig(opts.home.config).roots.map((r) => r.path));
            if (reconciler.roots.some((r) => !want.has(r.path))) {
              passAbort.abort(new RootsRemovedSignal());
            }
          } catch { /* a bad file: the loop says so after the pass */ }
        }, REMOVAL_CHECK_MS);
        let report: Awaited<ReturnType<Reconciler["pass"]>>;
        try {
          report = await reconciler.pass({
            audit,
            afterHints: () => {
              if (!reconciler.rootsChanged) return;
              reconciler.rootsChanged = false;
              configStamp = fileVersion(opts.home.config);
              startWatcher();
            },
            onFollowerError: (_name, e) => log.warn(`after the pass: ${(e as Error).message}`),
          });
        } finally {
          clearInterval(removalWatch);
        }
        if (report.audit) {
          const stats = report.audit;
          lastAuditEnd = Date.now();
          nextAudit = Date.now() + config.auditIntervalSeconds * 1000;
          setMeta(journal, "last_audit_ms", String(Date.now()));
          collectGarbage();
          log.info(
            `audit: ${stats.seen} seen, ${stats.changed} changed, ${stats.retracted} retracted in ${
              Math.round(report.auditMs)
            } ms; longest write transaction so far ${Math.round(journal.holds.maxMs)} ms`,
          );
        }
        const drained = report.drained;
        if (drained.seen > 1000) collectGarbage();
        if (drained.seen > 0) {
          log.info(
            `drained ${drained.seen}: ${drained.changed} changed, ${drained.retracted} retracted, ${drained.requeued} requeued`,
          );
        }
        if (failures > 0 && lastFault) {
          lastFault = { ...lastFault, recovered_ms: Date.now() };
          writeFault(opts.home, lastFault);
          log.info(`recovered after ${failures} failed pass(es)`);
        }
        failures = 0;
      } catch (e) {
        // Stopped at a safe point: what was committed stays, the next
        // audit (or drain, for queued paths) does the rest.
        if (abort.signal.aborted && e === abort.signal.reason) break;
        if (e instanceof RootsRemovedSignal) {
          // Stopped at a safe point: the removal is applied next, and what
          // the pass did not reach is the audit's after it.
          log.info("a root was removed during the pass: it stops to apply that first");
          passAbort = new AbortController();
          reconciler.signal = passAbort.signal;
          // A first index cut short keeps its root marked for deferred
          // resolution in memory; the flag in meta is what the audit reads.
          reconciler.recover();
          auditWanted = true;
          continue;
        }
        const fault = classifyFault(e);
        if (!fault.transient) {
          // Damage: retrying cannot help. Record it (status and every later
          // open see it) and stop with the one-line remedy.
          const damaged = e instanceof JournalCorruptError
            ? e
            : new JournalCorruptError(journal.file, corruptionDetail(e));
          if (!(e instanceof JournalCorruptError)) markDamaged(journal.file, damaged.detail);
          writeFault(opts.home, {
            kind: fault.kind,
            message: damaged.message,
            at_ms: Date.now(),
            failures: failures + 1,
            retry_at_ms: 0,
            recovered_ms: null,
            pid: Deno.pid,
          });
          log.warn(damaged.message);
          throw damaged;
        }
        failures++;
        const wait = backoffMs(failures);
        lastFault = {
          kind: fault.kind,
          message: fault.message,
          at_ms: Date.now(),
          failures,
          retry_at_ms: Date.now() + wait,
          recovered_ms: null,
          pid: Deno.pid,
        };
        writeFault(opts.home, lastFault);
        log.warn(
          `pass failed (${fault.kind}, ${failures} in a row): ${fault.message}; retrying in ${wait} ms${
            fault.kind === "internal" ? `\n${(e as Error).stack ?? ""}` : ""
          }`,
        );
        // What the failed pass held in memory may not match what rolled back;
        // a stat audit finds whatever it was about to do.
        reconciler.recover();
        auditWanted = true;
        enter("backing off after a failed pass");
        await pause(wait, true);
        continue;
      }
      if (!ready && rootsWatched && !auditWanted) {
        ready = true;
        opts.onReady?.();
      }
      if (pending.size > 0 || auditWanted || stopping) continue;
      enter("in a background step (grammars, embedding)");
      if (await stepBackground(background, log)) continue;
      let untilDue = Infinity;
      try {
        const q = queueStats(journal);
        if (q.length > 0 && q.nextDue !== null) untilDue = Math.max(5, q.nextDue - Date.now());
      } catch { /* a busy read: poll at the usual pace */ }
      const untilAudit = Math.max(
        0,
        Math.min(nextAudit, burstAuditAt ?? Infinity, lostAuditAt ?? Infinity) - Date.now(),
      );
      enter("idle");
      await pause(
        supervisor.untilNext(Date.now(), Math.min(opts.pollMs ?? 1000, untilDue, untilAudit)),
      );
    }
  } finally {
    clearInterval(watchdog);
    supervisor.stop();
    for (const work of background) work.close?.();
    pool.close();
    journal.close();
    lock.release();
    log.info(`daemon pid ${Deno.pid} stopped`);
  }
  return end;
}

/**
 * Why {@link runDaemon} returned: asked to stop, its journal file replaced,
 * its home deleted, its code replaced on disk.
 */
export type DaemonEnd = "stopped" | "journal replaced" | "home removed" | "code replaced";

function homeExists(home: string): boolean {
  try {
    return Deno.statSync(home).isDirectory;
  } catch {
    return false;
  }
}

/**
 * One step of each background work in turn; true when one did work (the
 * loop comes back without sleeping). A failure is logged and counts as
 * "nothing more now" for that work.
 */
async function stepBackground(works: readonly BackgroundWork[], log: Logger): Promise<boolean> {
  let worked = false;
  for (const work of works) {
    try {
      if (await work.step()) worked = true;
    } catch (e) {
      log.warn(`background work: ${(e as Error).message}`);
    }
  }
  return worked;
}

/** A file's version for change checks: its mtime and size, or "none" when it cannot be stat'ed. */
function fileVersion(file: string): string {
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
