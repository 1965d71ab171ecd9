import { basename, canonicalPath, dirname, join, relative } from "../files/mod.ts";
import { type Config, type Depth, type HomePaths, loadConfig } from "../config/mod.ts";
import {
  DERIVATION,
  derivationOf,
  type DerivationVersions,
  derivedBy,
  type Extractor,
} from "../extract/mod.ts";
import {
  completeQueued,
  deferQueued,
  deleteRoot,
  dueQueue,
  enqueuePaths,
  filesPerRoot,
  flushVocab,
  getMeta,
  getPath,
  hasPathsUnder,
  iteratePaths,
  iteratePathStats,
  type Journal,
  listRoots,
  type NodeRecord,
  pathNodes,
  type PathStat,
  type PendingRecord,
  queuedFor,
  recordAudit,
  replaceOwnedRowsInParts,
  retractPathInParts,
  retractRootPaths,
  rootFor,
  type RootRow,
  setMeta,
  StaleCommitError,
  touchPath,
  upsertRoot,
  VocabDelta,
} from "../store/mod.ts";
import { readHintFiles } from "../hints/hints.ts";
import { classifyPath, IgnoreCache } from "../files/ignore.ts";
import { type Logger, silentLogger } from "./log.ts";
import { type Observed, rowSettled } from "./plan.ts";
import { type Follower, Followers, type PassOptions, type PassReport, runPass } from "./pass.ts";
import { homeDirs, inHome, walkExclusions } from "./owners.ts";
import { type Prepared, preparePath, type PrepareRequest } from "./prepare.ts";
import type { PreparePool } from "./prepare_pool.ts";
import { arityOf } from "../extract/arity.ts";
import { Resolver } from "./resolve.ts";
import { isJsModule } from "./call_rules.ts";
import { languageFamily } from "../extract/language.ts";
import { resolveRoot } from "./resolve_root.ts";
import { isSecretName } from "../files/secrets.ts";
import { readTsconfigAliases } from "./tsconfig.ts";
import { addStats, emptyStats, type PassStats } from "./stats.ts";
import { timeMissesToRetry } from "./retry.ts";
import { walkRoot } from "../files/walk.ts";

/** The files at a root's top whose import aliases the resolver reads (see `readTsconfigAliases`). */
const ALIAS_FILES = ["tsconfig.json", "jsconfig.json"];

/** Progress of a pass, for a progress bar. */
export interface Progress {
  /** Files looked at so far. */
  done: number;
  /** Files found so far by the walk (grows while it runs). */
  found: number;
  /** True once the walk has found every file, so `found` is final. */
  walkDone: boolean;
}

/**
 * The stat screen of one indexed file: size, mtime, ctime (null when not
 * recorded), and 1 when its depth and raciness are settled.
 */
type Screen = [number, number, number | null, 0 | 1];

/** One unit of work: a path, and its queue `seq` when it came from the queue. */
interface Work {
  path: string;
  seq?: number;
  /** The row as last read; null when known to have none; undefined when not looked up. */
  indexed?: PathStat | null;
  /** True when the walk already applied the ignore rules and secret names. */
  classified?: boolean;
  /** The walk's stat of the path. */
  observed?: Observed;
  /** Listed by a first walk: a regular file with no row, to be read straight away. */
  fresh?: boolean;
  /** Failed reads so far (the queue's count), so an unreadable file ends in a terminal row. */
  attempts?: number;
}

const RETRY_BASE_MS = 50;
/** Batches of at most this many paths are prepared on the main thread. */
const IN_PROCESS_MAX = 4;
/**
 * Batches being prepared while an older one commits: enough to keep the
 * Workers busy while the writer commits, few enough that the rows waiting
 * in memory keep a 20,000-file index under 1 GB (4 cost it 110 MB more).
 */
const PIPELINE_DEPTH = 2;
const RETRY_MAX_MS = 30_000;
/**
 * A bulk write transaction commits once it has held the journal's write lock
 * this long (at the next consistent point), so that `remember`, `insert` and
 * hook records in other processes wait at most about this long.
 */
const TX_BUDGET_MS = 100;
/**
 * The default {@link Reconciler.bulkChanges}: where the changes resolved
 * file by file have cost about what resolving the root whole costs, so a
 * call never pays much more than twice the cheaper way. On the search
 * benchmark's 31,105 files (one root), 300 random source files each given a
 * new function took 105 s file by file (0.35 s a file, 2026-12-03) and 67 s
 * resolved whole.
 */
const BULK_CHANGES = 200;
/**
 * What a changed file that keeps its surface (its definitions, their order
 * and its imports: what other files resolve through) counts toward
 * {@link Reconciler.bulkChanges}. Its own resolution retries its own
 * references only: on the search benchmark's 31,105 files, 3,000 files with
 * a comment appended took 20 s file by file against 71 s resolved whole,
 * and 1,965 headers and package indexes 12 s against 63 s (6–7 ms a
 * file), where a file given a new function takes 0.35 s.
 */
const SAME_SURFACE_SHARE = 1 / 25;

/**
 * The queue's reason for the folder of a root added, or removed from inside
 * another root (see `syncRoots`): drained like any queued path, unless an
 * audit of the root that owns it walks it first.
 */
const ROOTS_CHANGED = "roots changed";

/**
 * The single writer. Every row of the index is written here, and only while
 * the caller holds the {@link WriterLock}. Level-triggered: whatever asked for
 * a path (a watcher event, a hint, an audit), the reconciler stats and reads it
 * and converges its rows to the bytes on disk.
 */
export class Reconciler {
  #roots: RootRow[] = [];
  readonly #ignoreCache = new IgnoreCache();
  readonly #log: Logger;
  #globalIgnore = "";
  /** `$HEIMDALL_HOME` as given and as its real path: never indexed, wherever it lies. */
  readonly #home: string[];
  readonly #resolver: Resolver;
  readonly #pool: PreparePool | undefined;
  /** Roots in a first index, whose cross-file resolution runs once at its end. */
  readonly #deferred = new Set<number>();
  /** Files changed per root in the running call (see {@link bulkChanges}). */
  readonly #changes = new Map<number, number>();
  /** Roots resolved again whole when the running call ends (see {@link bulkChanges}). */
  readonly #whole = new Set<number>();
  /** Paths that roots dropped by {@link syncRoots} took with them, not yet counted by a pass. */
  #rootsRetracted = 0;
  /**
   * How many files of one root a call (an audit, a drain, `reconcilePaths`)
   * resolves one by one. Past it, the root's later files skip that and the
   * whole root is resolved again once the call ends, as a first index
   * resolves it: a file's own resolution retries every importer of its name,
   * so a checkout, or a release that re-derives every file, costs minutes
   * file by file on a large tree (tests set it low). A file whose surface
   * stayed the same counts {@link SAME_SURFACE_SHARE} of one: its importers
   * are not retried.
   */
  bulkChanges: number = BULK_CHANGES;
  /**
   * How long one bulk write transaction may hold the journal's lock before it
   * commits at its next consistent point (tests set 0 to commit at every one).
   *
   * @internal
   */
  txBudgetMs = TX_BUDGET_MS;
  /**
   * A root's last resolution phase runs on resolving Workers when at least
   * this many files have references left (fewer are not worth starting them).
   */
  parallelResolveMin = 200;
  /** How many resolving Workers that phase uses: the pool's size (below 2: none). */
  resolveWorkers: number;
  /**
   * The code versions rows are derived by; a row recorded with another
   * derivation is re-derived by the next audit (tests inject a bump here).
   * Whether rows teach the learned vocabulary comes from the config (see
   * {@link #derivedBy}).
   */
  derivations: DerivationVersions = DERIVATION;
  /** {@link derivations} with the vocabulary on, made once per value of it. */
  #withVocabulary: { from: DerivationVersions; versions: DerivationVersions } | undefined;
  /** Set when a hint made the reconciler reload the roots; the daemon restarts its watcher. */
  rootsChanged = false;
  /**
   * Stops a running call early (the daemon's, on SIGTERM): once aborted, a
   * call stops at its next safe point (before the next file's commit, between
   * two steps of a root's resolution; never inside one file's commit) and
   * throws the signal's reason. What was committed stays, and the journal
   * is consistent: a file not reached is found by the next audit (or, when
   * queued, by the next drain), a root's resolution cut short resumes at
   * its next audit, as after a crash.
   */
  signal: AbortSignal | undefined;
  /** What follows the index (see {@link follow}). */
  readonly #followers = new Followers();
  /**
   * Called after each batch's transaction commits, with the ids of the paths
   * whose rows it replaced: tells every follower (the embedding pass embeds
   * their new chunks first) and makes them due after the pass. Runs outside
   * the transaction.
   */
  get onCommitted(): (pathIds: readonly number[]) => void {
    return this.#followers.onCommitted;
  }
  /** The resolution a commit started and left to run in steps of its own (see #afterChange). */
  #unresolved: { rest: Generator<string>; flag: string | undefined } | undefined;
  /** Paths replaced by the batch being committed, for {@link onCommitted}. */
  #committed: number[] = [];

  /**
   * A reconciler over `journal` for `home` and its `config`. With a `pool`,
   * large batches are prepared on its Workers; otherwise on this thread.
   */
  constructor(
    readonly journal: Journal,
    readonly home: HomePaths,
    public config: Config,
    readonly extractor: Extractor,
    log: Logger = silentLogger,
    pool?: PreparePool,
  ) {
    this.#log = log;
    this.#pool = pool;
    this.resolveWorkers = pool?.size ?? 1;
    this.#home = homeDirs(home.home);
    this.#loadGlobalIgnore();
    this.#roots = listRoots(journal);
    this.#resolver = new Resolver(journal, (rootId) => {
      const root = this.#roots.find((r) => r.id === rootId);
      return root ? readTsconfigAliases(root.path) : new Map();
    });
  }

  /** The roots as the journal has them after the last {@link syncRoots}. */
  get roots(): readonly RootRow[] {
    return this.#roots;
  }

  /**
   * Registers what follows the index (memory re-anchoring, the embedding
   * pass), once per writer, before its first pass: it is told of every
   * committed batch, and runs after each {@link pass} that changed the index
   * and after this writer's first pass (for whatever a previous writer left).
   */
  follow(follower: Follower): void {
    this.#followers.add(follower);
  }

  /**
   * One pass of the single writer, the same for `index`, `reconcile`,
   * `rebuild` and the daemon: drops the whole index first when `fresh`,
   * converges the given paths, audits the roots, queues the hints, drains
   * the queue (settling paths that back off, when asked), then runs the
   * followers if the index changed. Returns what it did. Throws what the
   * writer meets; what was committed before stays committed, and the next
   * audit converges the rest.
   */
  pass(options: PassOptions = {}): Promise<PassReport> {
    return runPass(this, this.#followers, options);
  }

  /**
   * Mirrors the configured roots into the journal: new roots get a row, roots
   * no longer configured are retracted with every row their paths own. The
   * folder of each root added, given another depth, or removed from inside
   * another root, is queued in the same transaction, so whichever writer
   * drains the queue next (a plain `heimdall reconcile` too) indexes the new
   * root, reads the root again at its depth, and hands a removed nested
   * root's files back to the root around it; a crash in between loses none.
   *
   * That transaction holds the journal's lock as long as it deletes: a
   * writer applying a configuration that may remove roots calls
   * {@link retractRemovedRoots} first, which empties them in short ones.
   */
  syncRoots(config: Config = this.config): { added: string[]; removed: string[] } {
    this.config = config;
    this.#loadGlobalIgnore();
    const want = new Map(config.roots.map((r) => [r.path, String(r.depth)]));
    const have = listRoots(this.journal);
    const added: string[] = [];
    const removed: string[] = [];
    this.journal.tx(() => {
      const gone = have.filter((r) => !want.has(r.path));
      // Files left to a removed root ({@link retractRemovedRoots} leaves none) go with it.
      const files = gone.length > 0 ? filesPerRoot(this.journal) : new Map<number, number>();
      for (const r of gone) {
        this.#rootsRetracted += files.get(r.id) ?? 0;
        deleteRoot(this.journal, r.id);
        removed.push(r.path);
      }
      const depthChanged: string[] = [];
      for (const [path, depth] of want) {
        const had = have.find((r) => r.path === path);
        if (!had) added.push(path);
        else if (had.depth !== depth) depthChanged.push(path);
        upsertRoot(this.journal, path, depth);
      }
      const now = listRoots(this.journal);
      const owed = [
        ...added,
        ...depthChanged,
        ...removed.filter((p) => rootFor(now, p) !== undefined),
      ];
      if (owed.length > 0) enqueuePaths(this.journal, owed, ROOTS_CHANGED);
    });
    this.#roots = listRoots(this.journal);
    // Root ids can be reused after a removal: nothing cached may outlive it.
    if (removed.length > 0) this.#resolver.forgetAll();
    return { added, removed };
  }

  /**
   * Retracts every file of the journal's roots that `config` no longer
   * lists, as a deleted file's rows go, for {@link syncRoots} to delete the
   * emptied roots: in transactions that hold the journal's lock for
   * {@link txBudgetMs} at most, so removing a root of thousands of files
   * never stalls another writer (a hook's, a memory's) past its busy
   * timeout. Stopped or killed in between, the root stays in the journal
   * with the files not yet retracted, each whole or marked unfinished, and
   * the next call retracts the rest. Counts them into
   * {@link takeRootsRetracted}. Throws when stopped ({@link signal}), after
   * committing what was retracted.
   */
  async retractRemovedRoots(config: Config = this.config): Promise<void> {
    const want = new Set(config.roots.map((r) => r.path));
    const gone = listRoots(this.journal).filter((r) => !want.has(r.path));
    if (gone.length === 0) return;
    const journal = this.journal;
    const files = filesPerRoot(journal);
    for (const r of gone) this.#rootsRetracted += files.get(r.id) ?? 0;
    const vocab = new VocabDelta();
    function* steps() {
      for (const r of gone) yield* retractRootPaths(journal, r.id, vocab);
    }
    await journal.txChunked(this.#untilStopped(steps()), {
      maxMs: this.txBudgetMs,
      beforeCommit: () => flushVocab(journal, vocab),
    });
    this.signal?.throwIfAborted();
  }

  /**
   * How many paths the roots dropped by {@link syncRoots} since the last call
   * took with them; the count starts again at 0. A pass counts them as
   * retracted, so its summary and what follows it (memory re-anchoring) see
   * them.
   */
  takeRootsRetracted(): number {
    const n = this.#rootsRetracted;
    this.#rootsRetracted = 0;
    return n;
  }

  /**
   * Forgets what a failed pass left in memory: the resolver's caches (they
   * may describe rows its rolled-back transaction never committed) and the
   * roots marked for deferred resolution (their flag in meta stays, so the
   * next audit still resolves them). Called by the daemon's error boundary.
   */
  recover(): void {
    this.#resolver.forgetAll();
    this.#deferred.clear();
    this.#changes.clear();
    this.#whole.clear();
  }

  /** Queues paths for the next drain (deduplicated by path). */
  enqueue(paths: Iterable<string>, reason: string): number {
    return this.journal.tx(() => enqueuePaths(this.journal, paths, reason));
  }

  /**
   * Moves hint files into the queue and deletes them, in that order, so a crash
   * in between costs a duplicate hint, never a lost one. Returns the number of
   * paths queued and warns about every dropped value.
   */
  async ingestHints(): Promise<number> {
    const files = readHintFiles(this.home.hints);
    if (files.length === 0) return 0;
    const paths = new Set<string>();
    let reloaded = false;
    for (const f of files) {
      for (const d of f.dropped) this.#log.warn(`dropped hint ${d.value}: ${d.reason}`);
      for (const p of f.paths) {
        if (!rootFor(this.#roots, p) && !reloaded) {
          // `heimdall index` writes the config, then the hint: catch up once.
          reloaded = true;
          const config = loadConfig(this.home.config);
          await this.retractRemovedRoots(config);
          const { added, removed } = this.syncRoots(config);
          if (added.length + removed.length > 0) this.rootsChanged = true;
        }
        if (rootFor(this.#roots, p)) paths.add(p);
        else this.#log.warn(`dropped hint "${p}": not under any root`);
      }
    }
    if (paths.size > 0) this.enqueue(paths, "hint");
    for (const f of files) {
      try {
        Deno.removeSync(f.file);
      } catch { /* removed by a concurrent ingester */ }
    }
    return paths.size;
  }

  /**
   * Reconciles every due queued path, in batches, until none is due. Paths
   * that must be retried stay queued with a back-off; their count is returned
   * in `requeued`.
   */
  async drainQueue(onProgress?: (p: Progress) => void): Promise<PassStats> {
    const stats = emptyStats();
    for (;;) {
      const due = dueQueue(this.journal, this.config.batchSize);
      if (due.length === 0) {
        await this.#resolveWhole();
        return stats;
      }
      await this.#processBatch(
        due.map((q) => ({ path: q.path, seq: q.seq, attempts: q.attempts })),
        false,
        stats,
      );
      onProgress?.({ done: stats.seen, found: stats.seen, walkDone: true });
    }
  }

  /**
   * Converges given paths now (files or folders), without going through the
   * queue. A folder is walked, and every indexed path under it is checked too,
   * so deletions inside it are found.
   */
  async reconcilePaths(paths: readonly string[], deep = false): Promise<PassStats> {
    const stats = emptyStats();
    const files: Work[] = [];
    for (const p of paths) files.push({ path: p });
    await this.#processBatch(files, deep, stats);
    await this.#resolveWhole();
    return stats;
  }

  /**
   * The stat audit: walks every root (or one folder below a root), compares
   * size and mtime with the journal, and reconciles what differs, what is new
   * and what is gone. `deep` re-hashes every file. Bounded memory: the index
   * rows of one root and one batch of prepared rows at a time.
   */
  async audit(
    options: { deep?: boolean; roots?: readonly RootRow[]; onProgress?: (p: Progress) => void } =
      {},
  ): Promise<PassStats> {
    const stats = emptyStats();
    const roots = options.roots ?? this.#roots;
    for (const root of roots) {
      await this.#reconcileTree(root, "", options.deep ?? false, stats, options.onProgress);
    }
    this.#dropWalked(roots);
    await this.#retryTimeMisses(stats);
    await this.#resolveWhole();
    return stats;
  }

  /**
   * Takes off the queue the folders of changed roots (see `syncRoots`) that
   * an audit of `walked` has just converged: `heimdall index DIR` adds a root
   * and audits it, and a second walk of it would find nothing to do.
   */
  #dropWalked(walked: readonly RootRow[]): void {
    const owed = queuedFor(this.journal, ROOTS_CHANGED);
    if (owed.length === 0) return;
    const ids = new Set(walked.map((root) => root.id));
    this.journal.tx(() => {
      for (const q of owed) {
        const owner = rootFor(this.#roots, q.path);
        if (owner !== undefined && ids.has(owner.id)) completeQueued(this.journal, q.path, q.seq);
      }
    });
  }

  /**
   * Parses again, one at a time on this thread (the Workers are idle by
   * now), the files whose parse missed the time budget with tries left: on
   * a busy machine a large file (lodash.js) misses it through no fault of
   * its own. Each try has twice the time of the one before; the last miss is
   * recorded as the file's terminal reason.
   */
  async #retryTimeMisses(stats: PassStats): Promise<void> {
    for (const path of timeMissesToRetry(this.journal)) {
      addStats(stats, await this.reconcilePaths([path]));
    }
  }

  async #reconcileTree(
    root: RootRow,
    relPrefix: string,
    deep: boolean,
    stats: PassStats,
    onProgress?: (p: Progress) => void,
  ): Promise<void> {
    const requested = this.#requested(root);
    // What the stat screen needs of every indexed file, kept small: a root of
    // 50,000 files costs a few MB here, never its whole rows.
    const known = new Map<string, Screen>();
    for (const row of iteratePathStats(this.journal, root, relPrefix)) {
      known.set(row.rel, [
        row.size,
        row.mtime_ms,
        row.ctime_ms ?? null,
        this.#settledDepth(row, requested) ? 1 : 0,
      ]);
    }
    let batch: Work[] = [];
    let found = 0;
    let secrets = 0;
    let ignored = 0;
    const contentSecretsBefore = stats.secrets;
    // A short pipeline: batches are prepared (on Workers) while the walk goes
    // on and older batches commit, so no core waits for another.
    const inflight: { work: Work[]; prepared: Promise<Prepared[]> }[] = [];
    const commitOldest = async () => {
      const b = inflight.shift()!;
      await this.#commitBatch(b.work, await b.prepared, deep, stats);
      onProgress?.({ done: stats.seen, found, walkDone: false });
    };
    const flush = async (final = false) => {
      if (batch.length > 0) {
        this.signal?.throwIfAborted();
        const prepared = this.#prepareBatch(batch, deep);
        // Handled here too: a call stopped (or failed) before awaiting it
        // must not leave an unhandled rejection behind.
        prepared.catch(() => {});
        inflight.push({ work: batch, prepared });
        batch = [];
      }
      while (inflight.length > (final ? 0 : PIPELINE_DEPTH)) await commitOldest();
    };
    // Nothing indexed here yet: the walk need not stat, the readers will.
    const cold = known.size === 0;
    // A first index of a whole root resolves cross-file edges once, at the
    // end, instead of after every commit. The flag in meta survives a crash:
    // the next audit of the root finishes the resolution.
    const deferred = cold && relPrefix === "";
    if (deferred) {
      this.journal.tx(() => setMeta(this.journal, `resolve_pending:${root.id}`, "1"));
      this.#deferred.add(root.id);
    }
    const walk = walkRoot({
      root: root.path,
      globalIgnore: this.#globalIgnore,
      // The home and nested roots: one owner per path, and never the journal itself.
      exclude: walkExclusions(root.path, this.#roots.map((r) => r.path), this.#home),
      stat: !cold,
      ...(relPrefix !== "" ? { under: relPrefix } : {}),
    });
    for (const ev of walk) {
      this.signal?.throwIfAborted();
      if (ev.type === "skip") {
        if (ev.reason === "secret") secrets++;
        else if (ev.reason === "ignored") ignored++;
        // A folder that cannot be listed, a name that is not UTF-8: `verify` names them.
        else if (ev.reason === "unreadable") stats.errors++;
        continue;
      }
      found++;
      const screen = known.get(ev.rel);
      known.delete(ev.rel);
      if (
        screen && !deep && screen[3] === 1 && screen[0] === ev.size && screen[1] === ev.mtimeMs &&
        screen[2] === ev.ctimeMs
      ) {
        stats.seen++;
        stats.unchanged++;
        continue;
      }
      batch.push({
        path: ev.path,
        ...(screen ? {} : { indexed: null }),
        classified: true,
        ...(cold ? { fresh: true } : {
          observed: { kind: "file", size: ev.size, mtimeMs: ev.mtimeMs, ctimeMs: ev.ctimeMs },
        }),
      });
      if (batch.length >= this.config.batchSize) await flush();
    }
    const base = root.path.endsWith("/") ? root.path : root.path + "/";
    for (const rel of known.keys()) {
      batch.push({ path: base + rel });
      if (batch.length >= this.config.batchSize) await flush();
    }
    await flush(true);
    this.#deferred.delete(root.id);
    if (relPrefix === "") await this.#finishResolution(root);
    const contentSecrets = stats.secrets - contentSecretsBefore;
    stats.secrets += secrets;
    if (relPrefix === "") {
      this.journal.tx(() =>
        recordAudit(this.journal, root.id, { secrets: secrets + contentSecrets, ignored })
      );
    }
    onProgress?.({ done: stats.seen, found, walkDone: true });
  }

  /**
   * Resolves the root again whole if it is flagged for that: after a crash
   * in the middle of an edit's resolution, or after more than
   * {@link bulkChanges} of its files changed in one call; and finishes a
   * first index's resolution that a crash cut short.
   */
  async #finishResolution(root: RootRow): Promise<void> {
    if (getMeta(this.journal, `reresolve:${root.id}`) !== undefined) {
      await this.#unresolveRoot(root);
    }
    if (getMeta(this.journal, `resolve_pending:${root.id}`) !== undefined) {
      await this.#resolveRoot(root);
    }
  }

  /** The end of a call that changed many files of a root: see {@link bulkChanges}. */
  async #resolveWhole(): Promise<void> {
    const roots = this.#roots.filter((r) => this.#whole.has(r.id));
    this.#changes.clear();
    this.#whole.clear();
    for (const root of roots) await this.#finishResolution(root);
  }

  /**
   * Whether a changed file of `rootId` skips its own resolution: its root is
   * resolved whole at the end of the call. The file that crosses
   * {@link bulkChanges} flags the root in meta, in the transaction of its
   * rows, so a crash before the end resolves it whole at the next audit.
   */
  #resolvedWhole(rootId: number, share = 1): boolean {
    if (this.#whole.has(rootId)) return true;
    const n = (this.#changes.get(rootId) ?? 0) + share;
    this.#changes.set(rootId, n);
    if (n <= this.bulkChanges) return false;
    setMeta(this.journal, `reresolve:${rootId}`, "1");
    this.#whole.add(rootId);
    this.#log.info(
      `more than ${this.bulkChanges} files changed under ${
        this.#roots.find((r) => r.id === rootId)?.path
      } (one that kept its definitions and imports counts ${SAME_SURFACE_SHARE}): its references are resolved again whole, once the files are in`,
    );
    return true;
  }

  /**
   * After a crash in the middle of an edit's resolution (see #afterChange):
   * every resolved reference of the root goes back to pending, one file a
   * step, and the root is flagged for {@link #resolveRoot}, which resolves
   * them all as a first index would. An edit's resolution may also have
   * bound other files' imports through the edited file; only resolving
   * everything again is sure to give the rows a fresh index gives.
   */
  async #unresolveRoot(root: RootRow): Promise<void> {
    const journal = this.journal;
    const resolver = this.#resolver;
    function* steps() {
      yield* resolver.unresolveSteps(root.id);
      setMeta(journal, `resolve_pending:${root.id}`, "1");
      journal.run("DELETE FROM meta WHERE key = ?", `reresolve:${root.id}`);
    }
    await journal.txChunked(this.#untilStopped(steps()), { maxMs: this.txBudgetMs });
    this.signal?.throwIfAborted();
  }

  /**
   * The steps of `steps` until the call is stopped (see {@link signal}):
   * every step is a consistent point, so the transaction that holds the
   * steps done so far commits, and the caller throws after it.
   */
  *#untilStopped<T>(steps: Iterable<T>): Generator<T> {
    for (const step of steps) {
      yield step;
      if (this.signal?.aborted) return;
    }
  }

  /**
   * Resolves a root's cross-file references after a first index committed
   * its files unresolved (see `Resolver.resolveSteps`). It takes minutes on
   * a large tree, so it runs in short transactions, and the flag in meta
   * goes with the last one: a crash in between resumes it on the next
   * audit. With a pool of two or more Workers, the last and largest phase
   * is read on as many resolving Workers (see ./resolve_root.ts).
   */
  async #resolveRoot(root: RootRow): Promise<void> {
    const journal = this.journal;
    await resolveRoot(journal, this.#resolver, root.id, {
      roots: this.#roots.map((r) => [r.id, r.path]),
      workers: this.resolveWorkers,
      parallelMin: this.parallelResolveMin,
      maxMs: this.txBudgetMs,
      steps: (steps) => this.#untilStopped(steps),
      ...(this.signal === undefined ? {} : { signal: this.signal }),
      finish: () => journal.run("DELETE FROM meta WHERE key = ?", `resolve_pending:${root.id}`),
      // Every file of the root is committed: the preparing Workers' memory goes to the resolving ones.
      beforeWorkers: () => this.#pool?.release(),
    });
  }

  /** True when a row needs no re-read for depth or raciness (planPath's test, less the stat). */
  #settledDepth(row: PathStat, requested: Depth): boolean {
    if (row.racy) return false;
    if (!derivedBy(row.derivation, derivationOf(row.language, this.#derivedBy()))) return false;
    return rowSettled(row, this.#wantDepth(requested, row.language));
  }

  #wantDepth(requested: Depth, language: string | null): Depth {
    return Math.min(requested, this.extractor.capability(language ?? undefined).depth) as Depth;
  }

  #requested(root: RootRow): Depth {
    return root.depth === "max" ? 3 : (Number(root.depth) as Depth);
  }

  /** Prepares a batch (extraction may run concurrently), then commits it in one transaction. */
  async #processBatch(work: Work[], deep: boolean, stats: PassStats): Promise<void> {
    if (work.length === 0) return;
    await this.#commitBatch(work, await this.#prepareBatch(work, deep), deep, stats);
  }

  /**
   * Starts preparing every path of a batch: on the pool's Workers (in
   * pieces, see `PreparePool`) when there is one, else here.
   */
  async #prepareBatch(work: Work[], deep: boolean): Promise<Prepared[]> {
    const out: (Prepared | undefined)[] = [];
    const requests: PrepareRequest[] = [];
    const slots: number[] = [];
    work.forEach((w, i) => {
      const r = this.#request(w, deep);
      if ("do" in r) out[i] = r;
      else {
        requests.push(r);
        slots.push(i);
      }
    });
    // A few paths (an edit, a hint) are prepared here, where the grammars and
    // compiled queries stay warm: starting Workers and compiling queries in
    // them would cost more than the work. Bulk work goes to the pool.
    const prepared = this.#pool && requests.length > IN_PROCESS_MAX
      ? await this.#pool.prepareMany(requests)
      : await Promise.all(requests.map((r) => preparePath({ ...r, extractor: this.extractor })));
    prepared.forEach((p, k) => (out[slots[k]!] = this.#afterPrepare(requests[k]!, p)));
    return out as Prepared[];
  }

  /** Commits a prepared batch in one transaction, then walks the folders it found. */
  async #commitBatch(
    work: Work[],
    prepared: Prepared[],
    deep: boolean,
    stats: PassStats,
  ): Promise<void> {
    const expand: Extract<Prepared, { do: "expand" }>[] = [];
    this.#committed = [];
    // What a rolled-back batch left unresolved went with its rows.
    this.#unresolved = undefined;
    // The learned vocabulary's counts change once per transaction, not per
    // path. One delta for the whole batch, emptied by each flush: a large
    // path's commit spans transactions, and its parts write to the delta
    // they were given.
    const vocab = new VocabDelta();
    const journal = this.journal;
    const commitOne = (w: Work, p: Prepared) => this.#commitOne(w, p, stats, vocab);
    const resolving = () => this.#resolving();
    // One path at a time, in transactions of at most ~100 ms: a path's rows,
    // its queue entry and its vocabulary counts commit together (a large
    // file's rows in parts, the path marked unfinished until the last), so
    // any prefix of the batch is a consistent journal.
    const signal = this.signal;
    function* paths() {
      for (let i = 0; i < work.length; i++) {
        // Stopped: the paths committed so far stay; the rest are not touched.
        if (signal?.aborted) return;
        const w = work[i]!;
        const p = prepared[i]!;
        if (p.do === "expand") {
          // A folder is not one of the paths a pass counts: its files are,
          // as its walk finds them (`reconcile DIR` said "3 paths: … 2 unchanged").
          expand.push(p);
          // A file replaced by a folder of its name: the file's rows go now, or
          // the folder's walk would find them indexed under it and expand it
          // again, without end.
          if (p.expected !== null) {
            stats.seen++;
            yield* commitOne(w, {
              path: p.path,
              expected: p.expected,
              do: "retract",
              why: "now a folder",
            });
          } else if (w.seq !== undefined) completeQueued(journal, w.path, w.seq);
        } else {
          stats.seen++;
          yield* commitOne(w, p);
        }
        yield `committing "${w.path}"`;
        yield* resolving();
      }
    }
    await this.journal.txChunked(paths(), {
      maxMs: this.txBudgetMs,
      beforeCommit: () => flushVocab(journal, vocab),
    });
    if (this.#committed.length > 0) this.onCommitted(this.#committed);
    signal?.throwIfAborted();
    for (const dir of expand) {
      const root = rootFor(this.#roots, dir.path);
      if (!root) continue;
      const rel = relative(root.path, dir.path);
      if (dir.excluded) {
        // An ignored folder: nothing under it is walked; what was indexed goes.
        const rows = [...iteratePaths(this.journal, root, rel)];
        await this.#processBatch(rows.map((r) => ({ path: r.path, indexed: r })), false, stats);
      } else {
        await this.#reconcileTree(root, rel, deep, stats);
      }
    }
    await this.#processBatch(this.#underFiles(work, prepared), false, stats);
  }

  /**
   * What is indexed under a path named alone (a hint, `reconcile PATH`) that
   * is not a folder now: a folder replaced by a file of its name (`rm -r x &&
   * touch x`) left its files' rows below it. A walk finds those by itself.
   * Costs one range probe per path named alone.
   */
  #underFiles(work: readonly Work[], prepared: readonly Prepared[]): Work[] {
    const under: Work[] = [];
    work.forEach((w, i) => {
      if (w.classified || prepared[i]!.do === "expand") return;
      const root = rootFor(this.#roots, w.path);
      if (!root || root.path === w.path) return;
      const rel = relative(root.path, w.path);
      if (!hasPathsUnder(this.journal, root, rel)) return;
      for (const row of iteratePaths(this.journal, root, rel)) {
        if (row.path !== w.path) under.push({ path: row.path, indexed: row });
      }
    });
    return under;
  }

  /**
   * Applies one prepared path inside the batch's transaction. The generation
   * guard runs before any write, so a stale commit leaves nothing to undo: the
   * path is requeued and the rest of the batch commits.
   */
  *#commitOne(w: Work, p: Prepared, stats: PassStats, vocab: VocabDelta): Generator<string> {
    const j = this.journal;
    try {
      switch (p.do) {
        case "nothing":
          stats.unchanged++;
          break;
        case "retract": {
          if (p.secret) stats.secrets++;
          const before = p.expected === null ? undefined : this.#nodesOf(p.path);
          if (yield* retractPathInParts(j, p.path, p.expected, vocab)) stats.retracted++;
          this.#aliasFileCommitted(p.path);
          const root = rootFor(this.#roots, p.path);
          if (before && before.nodes.length > 0 && !(root && this.#resolvedWhole(root.id))) {
            this.#afterChange(
              this.#change(p.path, before.id),
              new Set(before.nodes.map((n) => n.id)),
              reshapedNames(before.nodes, []),
            );
          }
          break;
        }
        case "touch":
          touchPath(j, p.path, p.expected, p.stat);
          stats.touched++;
          break;
        case "replace": {
          const importsBefore = p.expected === null ? [] : importsOf(j, p.path);
          const { pathId, previous } = yield* replaceOwnedRowsInParts(
            j,
            p.rows,
            p.expected,
            vocab,
          );
          this.#committed.push(pathId);
          this.#aliasFileCommitted(p.path);
          const rootId = p.rows.path.root_id;
          const deferred = p.expected === null && this.#deferred.has(rootId);
          if (
            !deferred && (previous.length > 0 || p.rows.nodes.length > 0) &&
            !this.#whole.has(rootId)
          ) {
            const imports = p.rows.pending.filter((e) => e.kind === "imports");
            // A JS/TS script that became a module (or back): its names are
            // globals no more (or again) for other scripts' bare calls.
            const flipped = languageFamily(p.rows.path.language) === "js" &&
              previous.length > 0 &&
              isJsModule(previous.map((n) => n.signature), importsBefore.length) !==
                isJsModule(p.rows.nodes.map((n) => n.signature), imports.length);
            const sameSurface = previous.length > 0 && !flipped &&
              surface(previous, importsBefore) === surface(p.rows.nodes, imports);
            if (!this.#resolvedWhole(rootId, sameSurface ? SAME_SURFACE_SHARE : 1)) {
              const reshaped = reshapedNames(previous, p.rows.nodes);
              if (flipped) {
                for (const n of [...previous, ...p.rows.nodes]) {
                  if (n.kind !== "file") reshaped.add(n.name);
                }
              }
              this.#afterChange(
                this.#change(p.path, pathId),
                new Set(previous.map((n) => n.id)),
                reshaped,
                sameSurface,
              );
            }
          }
          if (p.rows.path.state === "skipped") stats.skipped++;
          else if (p.rows.path.state === "error") stats.errors++;
          else stats.changed++;
          stats.symbols += Math.max(0, p.rows.nodes.length - 1);
          break;
        }
        case "retry":
          this.#retry(w, p.why);
          stats.requeued++;
          return;
      }
      if (w.seq !== undefined) completeQueued(j, w.path, w.seq);
    } catch (e) {
      if (!(e instanceof StaleCommitError)) throw e;
      this.#log.info(e.message);
      this.#retry(w, "stale commit");
      stats.requeued++;
    }
  }

  /**
   * Starts the resolver's work after a commit changed a path: what must
   * commit with the path's rows runs now, with the next few references; the
   * rest is left in {@link #unresolved} for {@link #resolving}, which the
   * commit's generator runs as steps of their own. A root whose resolution
   * spans steps is flagged `reresolve` in the same transaction as the rows,
   * and the flag goes with the last step: a crash in between resolves the
   * whole root again on its next audit ({@link #unresolveRoot}).
   */
  #afterChange(
    change: { path: string; pathId: number; rootId: number; rel: string },
    oldIds: ReadonlySet<string>,
    reshaped: ReadonlySet<string>,
    sameSurface = false,
  ): void {
    const rest = this.#resolver.afterChange(change, oldIds, reshaped, sameSurface);
    rest.next();
    if (rest.next().done) return;
    const flag = `reresolve:${change.rootId}`;
    // A flag a crash left is the next audit's to clear, not this edit's.
    const owned = getMeta(this.journal, flag) === undefined;
    if (owned) setMeta(this.journal, flag, "1");
    this.#unresolved = { rest, flag: owned ? flag : undefined };
  }

  /**
   * After a commit of `path`: when it is a root's `tsconfig.json` or
   * `jsconfig.json` and the `compilerOptions.paths` aliases read from it
   * differ from those the journal recorded (in meta, none recorded counting
   * as different), the root's references are resolved again whole at the
   * end of the call, as after a bulk change: an import through an alias
   * (`@/util/math`) may land in another folder now, or in none, though no
   * importing file changed. A first index records them and resolves at its
   * end anyway. Runs inside the commit's transaction; reads the file again
   * (the resolver reads it so too).
   */
  #aliasFileCommitted(path: string): void {
    const root = rootFor(this.#roots, path);
    if (!root || !ALIAS_FILES.some((name) => path === `${root.path}/${name}`)) return;
    const key = `tsconfig_aliases:${root.id}`;
    const now = JSON.stringify([...readTsconfigAliases(root.path)].sort());
    if (getMeta(this.journal, key) === now) return;
    setMeta(this.journal, key, now);
    this.#resolver.forgetAll();
    if (this.#deferred.has(root.id) || this.#whole.has(root.id)) return;
    setMeta(this.journal, `reresolve:${root.id}`, "1");
    this.#whole.add(root.id);
    this.#log.info(
      `the import aliases of ${path} changed: the references of ${root.path} are resolved again whole`,
    );
  }

  /** The steps of the resolution {@link #afterChange} left, then its flag cleared. */
  *#resolving(): Generator<string> {
    const left = this.#unresolved;
    if (left === undefined) return;
    this.#unresolved = undefined;
    yield* left.rest;
    if (left.flag !== undefined) this.journal.run("DELETE FROM meta WHERE key = ?", left.flag);
  }

  /** What the resolver needs to know about the path a commit changed. */
  #change(
    path: string,
    pathId: number,
  ): { path: string; pathId: number; rootId: number; rel: string } {
    const root = rootFor(this.#roots, path);
    const rel = root && path.length > root.path.length ? path.slice(root.path.length + 1) : "";
    return { path, pathId, rootId: root?.id ?? 0, rel };
  }

  /** A path's row id and node rows before a retraction removes them. */
  #nodesOf(path: string): { id: number; nodes: NodeRecord[] } | undefined {
    const row = this.journal.get<{ id: number }>("SELECT id FROM paths WHERE path = ?", path);
    return row && { id: row.id, nodes: pathNodes(this.journal, row.id) };
  }

  /** Puts a path (back) in the queue with exponential back-off. */
  #retry(w: Work, why: string): void {
    const attempts = this.journal.get<{ attempts: number }>(
      "SELECT attempts FROM queue WHERE path = ?",
      w.path,
    )?.attempts ?? 0;
    if (w.seq === undefined) enqueuePaths(this.journal, [w.path], why);
    const delay = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** attempts);
    deferQueued(this.journal, w.path, delay);
    this.#log.info(`requeued "${w.path}" in ${delay} ms: ${why}`);
  }

  /**
   * The request for one path (what a Worker needs), or its result at once
   * when no bytes need reading (outside every root).
   */
  #request(w: Work, deep: boolean): PrepareRequest | Prepared {
    const root = rootFor(this.#roots, w.path);
    const indexed = w.indexed === undefined
      ? getPath(this.journal, w.path)
      : w.indexed ?? undefined;
    if (!root) {
      return indexed
        ? { path: w.path, expected: indexed.generation, do: "retract", why: "outside every root" }
        : { path: w.path, expected: null, do: "nothing", why: "outside every root" };
    }
    const rel = w.path.length > root.path.length ? w.path.slice(root.path.length + 1) : "";
    // A walk never passes a link; a hint or a typed path may go through one.
    const real = w.classified || rel === "" ? undefined : throughLinkedFolder(root.path, w.path);
    if (real !== undefined) {
      // Links are never followed: the file is reconciled where it really is.
      if (rootFor(this.#roots, real)) this.enqueue([real], "hint");
      const why = "reached through a linked folder";
      return indexed
        ? { path: w.path, expected: indexed.generation, do: "retract", why }
        : { path: w.path, expected: null, do: "nothing", why };
    }
    let excluded: string | undefined = w.classified ? undefined : inHome(w.path, this.#home);
    let secret = false;
    if (rel !== "" && !w.classified && excluded === undefined) {
      const secretName = isSecretName(rel);
      if (secretName !== undefined) {
        excluded = `secret: ${secretName}`;
        secret = true;
      } else {
        const isDir = safeIsDir(w.path);
        const c = classifyPath(root.path, rel, isDir, this.#globalIgnore, this.#ignoreCache);
        if (c.ignored) excluded = `ignored: ${c.reason ?? "ignore rule"}`;
      }
    }
    return {
      path: w.path,
      rel,
      rootId: root.id,
      requested: this.#requested(root),
      indexed,
      excluded,
      secret,
      maxFileBytes: this.config.maxFileBytes,
      deep,
      ...(w.observed ? { observed: w.observed } : {}),
      ...(w.fresh ? { fresh: true } : {}),
      ...(w.attempts ? { attempts: w.attempts } : {}),
      ...(this.#derivedBy() !== DERIVATION ? { derivations: this.#derivedBy() } : {}),
    };
  }

  /** What this pass derives rows by: {@link derivations}, learning the vocabulary when its weight is above 0. */
  #derivedBy(): DerivationVersions {
    if (!(this.config.vocabularyWeight > 0)) return this.derivations;
    if (this.#withVocabulary?.from !== this.derivations) {
      this.#withVocabulary = {
        from: this.derivations,
        versions: { ...this.derivations, vocabulary: true },
      };
    }
    return this.#withVocabulary.versions;
  }

  /**
   * A vanished folder (its files' own events may be lost with it) is walked
   * as a tree, so that everything indexed under it is retracted.
   */
  #afterPrepare(request: PrepareRequest, prepared: Prepared): Prepared {
    if (prepared.do !== "nothing" || prepared.why !== "absent") return prepared;
    const root = this.#roots.find((r) => r.id === request.rootId);
    if (!root || !hasPathsUnder(this.journal, root, request.rel)) return prepared;
    return { path: request.path, expected: null, do: "expand", excluded: false };
  }

  #loadGlobalIgnore(): void {
    try {
      this.#globalIgnore = Deno.readTextFileSync(this.home.ignore);
    } catch {
      this.#globalIgnore = "";
    }
  }
}

function safeIsDir(path: string): boolean {
  try {
    return Deno.lstatSync(path).isDirectory;
  } catch {
    return false;
  }
}

/**
 * What each definition of `nodes` is to the resolver's "unique by name"
 * look-up (its `NOT_MEMBER` and `NOT_FILE_LOCAL` tests): kind, qualified
 * name, partial or not, the kind of what holds it (always in the same file),
 * whether it is a `static` function (in a C or C++ source file, its file's
 * own), how many arguments it takes (which overload a call picks), and
 * which of that many alike it is (a second one makes the name ambiguous).
 * Shape → name.
 */
/** The kinds of definitions a call lands on. */
const CALLABLE = new Set(["function", "method", "constructor"]);

/**
 * Where `path` really is when a folder between its root and it is a symbolic
 * link (a typed path or a hint through `alias/` → `src/`), named under the
 * root as configured when it lies inside it; undefined when no such folder
 * is a link (the root's own path may hold one: a configured `/home/me/code`
 * with `/home` a link). Costs a stat of each folder up to the first that
 * exists, and the root's real path.
 */
function throughLinkedFolder(rootPath: string, path: string): string | undefined {
  const dir = dirname(path);
  const real = canonicalPath(dir);
  const rootReal = canonicalPath(rootPath);
  const inRoot = (p: string) => p === rootReal || p.startsWith(rootReal + "/");
  if (real === join(rootReal, relative(rootPath, dir))) return undefined;
  return join(inRoot(real) ? join(rootPath, relative(rootReal, real)) : real, basename(path));
}

function definitionShapes(nodes: readonly NodeRecord[]): Map<string, string> {
  const kindOf = new Map(nodes.map((n) => [n.id, n.kind]));
  // PHP's `namespace X;` statements: the definitions after one are X's,
  // which the resolver reads by line, so naming another changes their shape.
  const spaces = nodes.filter((n) =>
    n.kind === "module" && /^namespace\s[^{]*;\s*$/.test(n.signature ?? "")
  ).sort((a, b) => (a.start_line ?? 0) - (b.start_line ?? 0));
  // A Go file's package clause (its file node's signature): the resolver
  // looks a bare name up in the files of its folder that name its package.
  const pkg = nodes.find((n) => n.kind === "file")?.signature ?? "";
  const out = new Map<string, string>();
  for (const n of nodes) {
    if (n.kind === "file") continue;
    const holder = kindOf.get(n.parent_id ?? "") ?? "";
    const space = spaces.findLast((m) => (m.start_line ?? 0) <= (n.start_line ?? 0))?.name ?? pkg;
    // As the resolver's SQL reads it (`LIKE 'static %'`: ASCII case aside),
    // and a Ruby singleton method (`def self.sh`), no function a bare call
    // elsewhere lands on.
    const local = (n.kind === "function" && /^(?:inline )?static /i.test(n.signature ?? "")) ||
      /^def self\./.test(n.signature ?? "");
    const arity = CALLABLE.has(n.kind) ? arityOf(n.name, n.signature) : undefined;
    const takes = arity === undefined ? "" : `${arity.min}-${arity.max}`;
    // A C prototype (`int f(int);`) yields to a definition of its name; a
    // JS/TS module's `export default` is what its default imports bind; a
    // Python `__all__` (its list is its signature) what a star import passes on.
    const role = n.kind === "function" && /;\s*$/.test(n.signature ?? "")
      ? "prototype"
      : /^export default /.test(n.signature ?? "")
      ? "default"
      : n.kind === "constant" && n.name === "__all__"
      ? `all ${n.signature}`
      : "";
    const shape = `${n.kind}\0${n.qualname}\0${n.partial}\0${holder}\0${
      local ? "static" : ""
    }\0${takes}\0${role}\0${space}`;
    let k = 0;
    while (out.has(`${shape}\0${k}`)) k++;
    out.set(`${shape}\0${k}`, n.name);
  }
  return out;
}

/**
 * What other paths resolve through in a path, as one string (see
 * `Resolver.afterChange`'s `sameSurface`): its definitions' ids and shapes,
 * which of several definitions of one name comes last (the one a look-up
 * takes), and its imports (what it passes on).
 */
function surface(
  nodes: readonly NodeRecord[],
  imports: readonly Pick<PendingRecord, "src" | "target" | "module">[],
): string {
  const byName = new Map<string, NodeRecord[]>();
  for (const n of nodes) {
    if (n.kind === "file") continue;
    const same = byName.get(n.name);
    if (same) same.push(n);
    else byName.set(n.name, [n]);
  }
  const order = [...byName.values()].filter((l) => l.length > 1).map((l) =>
    l.toSorted((a, b) => (b.start_line ?? 0) - (a.start_line ?? 0)).map((n) => n.id).join(" ")
  );
  return JSON.stringify([
    nodes.map((n) => n.id).sort(),
    [...definitionShapes(nodes).keys()].sort(),
    order.sort(),
    imports.map((e) => `${e.src}\0${e.module}\0${e.target}`).sort(),
  ]);
}

/** A path's import references as stored (pending or resolved), before a commit replaces them. */
function importsOf(j: Journal, path: string): Pick<PendingRecord, "src" | "target" | "module">[] {
  return j.all<Pick<PendingRecord, "src" | "target" | "module">>(
    `SELECT src, target, module FROM pending_edges
     WHERE owner_id = (SELECT id FROM paths WHERE path = ?1) AND kind = 'imports'
     UNION ALL SELECT src, target, module FROM edges
     WHERE owner_id = (SELECT id FROM paths WHERE path = ?1) AND kind = 'imports'`,
    path,
  );
}

/** The names whose definitions a commit added, altered or removed, from the path's nodes before and after. */
function reshapedNames(before: readonly NodeRecord[], after: readonly NodeRecord[]): Set<string> {
  const was = definitionShapes(before);
  const is = definitionShapes(after);
  const out = new Set<string>();
  for (const [shape, name] of is) if (!was.has(shape)) out.add(name);
  for (const [shape, name] of was) if (!is.has(shape)) out.add(name);
  return out;
}
