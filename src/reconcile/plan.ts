import type { Depth } from "../config/mod.ts";
import type { PathStat } from "../store/mod.ts";
import { derivedBy } from "../extract/derivation.ts";

/**
 * What a stat of the path found (the only I/O a plan depends on).
 *
 * @internal
 */
export type Observed =
  | { kind: "missing" }
  | { kind: "dir" }
  | { kind: "other" }
  | { kind: "file"; size: number; mtimeMs: number; ctimeMs?: number };

/**
 * What the path's policy says before any bytes are read.
 *
 * @internal
 */
export interface PathContext {
  /** Why the path must not be indexed (ignored, secret name, outside every root, symlink). */
  excluded?: string;
  maxFileBytes: number;
  /** The depth this file should reach now: min(requested, capability). */
  wantDepth: Depth;
  /** Re-hash even when the stat screen says unchanged (`verify --deep`, racy files). */
  deep: boolean;
  /**
   * The root that owns the path now (the innermost one). A row recorded
   * under another root (a root was nested inside its old one) is re-read and
   * handed over; absent: whatever root the row has.
   */
  rootId?: number;
  /**
   * The derivation this build gives the path (`derivationOf`): a row derived
   * by another version is re-read even when its stat is unchanged. Absent:
   * not checked.
   */
  derivation?: string;
}

/**
 * The first step for one path.
 *
 * @internal
 */
export type Step =
  | { do: "nothing"; why: string }
  | { do: "retract"; why: string }
  | { do: "expand" }
  | { do: "too-large" }
  | { do: "read" };

/**
 * Decides the first step for a path from a stat and its index row (pure, no I/O).
 * A stat that matches the row (size, mtime) at the wanted depth costs nothing
 * more; a racy row (modified too close to when it was read) is always re-read.
 */
export function planPath(
  observed: Observed,
  indexed: PathStat | undefined,
  ctx: PathContext,
): Step {
  if (observed.kind === "dir") return { do: "expand" };
  if (observed.kind === "missing") {
    return indexed ? { do: "retract", why: "gone from disk" } : { do: "nothing", why: "absent" };
  }
  if (observed.kind === "other") {
    return indexed
      ? { do: "retract", why: "no longer a regular file" }
      : { do: "nothing", why: "not a regular file" };
  }
  if (ctx.excluded !== undefined) {
    return indexed ? { do: "retract", why: ctx.excluded } : { do: "nothing", why: ctx.excluded };
  }
  const owned = !indexed || ctx.rootId === undefined || indexed.root_id === ctx.rootId;
  if (observed.size > ctx.maxFileBytes) {
    return owned && indexed && indexed.reason === "too large" && sameStat(observed, indexed)
      ? { do: "nothing", why: "unchanged" }
      : { do: "too-large" };
  }
  if (
    indexed && owned && !ctx.deep && !indexed.racy && sameStat(observed, indexed) &&
    rowSettled(indexed, ctx.wantDepth) &&
    (ctx.derivation === undefined || derivedBy(indexed.derivation, ctx.derivation))
  ) {
    return { do: "nothing", why: "unchanged" };
  }
  return { do: "read" };
}

/**
 * Size, mtime and ctime as recorded. The ctime catches a rewrite that sets
 * size and mtime back (an archive's fixed mtimes, `cp -p`); a row without one
 * (written before it was recorded) is read again once. Not compared when the
 * caller did not stat it, or for a row built without the column.
 */
export function sameStat(
  o: { size: number; mtimeMs: number; ctimeMs?: number },
  row: Pick<PathStat, "size" | "mtime_ms" | "ctime_ms">,
): boolean {
  return o.size === row.size && o.mtimeMs === row.mtime_ms &&
    (o.ctimeMs === undefined || row.ctime_ms === undefined || o.ctimeMs === row.ctime_ms);
}

/**
 * True when a row with an unchanged stat needs no re-read (pure). A row is
 * settled when it reached the wanted depth, or was already tried at that
 * depth and degraded for a reason more time cannot fix (a syntax error, a
 * missing grammar: not retried until the bytes or this build's capability
 * change). Not settled: a row deeper than wanted (its root now asks for
 * less: `index --depth L2` on an L3 root), a row that missed the parse
 * *time* budget with tries left ({@link parseTry}), and a file that could
 * not be read (one failed open per audit, so it is picked up once its
 * permissions are fixed).
 */
export function rowSettled(
  row: Pick<PathStat, "state" | "reason" | "effective_depth" | "target_depth" | "depth_reason">,
  wantDepth: Depth,
): boolean {
  if (row.state === "error") return !(row.reason ?? "").startsWith(UNREADABLE);
  // Every file keeps its row: L0 is read as L1.
  if (row.effective_depth > Math.max(1, wantDepth)) return false;
  if (row.effective_depth >= wantDepth) return true;
  if (row.target_depth !== wantDepth) return false;
  const t = parseTry(row.depth_reason);
  return t === undefined || t >= PARSE_TRIES;
}

/** How many reads in a row may fail before a file gets the terminal `unreadable` state. */
export const READ_ATTEMPTS = 3;

/** The prefix of the reason of a row whose file could not be read. */
export const UNREADABLE = "unreadable";

/**
 * How many times a file that misses the parse time budget is parsed, each
 * time with twice the budget before (1×, 2×, 4×): a miss on a busy machine
 * (a cold index on every core) is retried when the machine is quieter, at the
 * end of the pass or at the next audit.
 */
export const PARSE_TRIES = 3;

/**
 * The try of a time-budget miss recorded in `depth_reason` (1-based), or
 * undefined when the reason is not a time-budget miss (pure).
 */
export function parseTry(depthReason: string | null | undefined): number | undefined {
  if (!depthReason || !TIME_MISS.test(depthReason)) return undefined;
  const m = /\(try (\d+) of \d+/.exec(depthReason);
  return m ? Number(m[1]) : 1;
}

/** An extractor's reason for a parse or query cut short by the time budget. */
export function isTimeBudgetMiss(error: string | undefined): boolean {
  return error !== undefined && TIME_MISS.test(error);
}

const TIME_MISS = /^parse budget exceeded: \w+ took longer than/;

/** The budget multiplier of a try (pure): 1, 2, 4… */
export function budgetScale(tryNumber: number): number {
  return 2 ** Math.max(0, tryNumber - 1);
}

/**
 * The `depth_reason` recorded after try `tryNumber` missed the time budget:
 * the extractor's reason, the try, and what happens next.
 */
export function timeMissReason(error: string, tryNumber: number): string {
  return tryNumber < PARSE_TRIES
    ? `${error} (try ${tryNumber} of ${PARSE_TRIES}; retried with twice the time when the machine is quieter)`
    : `${error} (try ${tryNumber} of ${PARSE_TRIES}; not retried until the file changes)`;
}

/**
 * Milliseconds within which a file's mtime is too close to the moment it was
 * read to trust a later stat screen: a same-size rewrite inside one timestamp
 * tick would look unchanged (git's "racily clean" problem).
 */
export const RACY_WINDOW_MS = 2000;

/** True when a file modified at `mtimeMs` and read at `readAtMs` must be re-hashed next time. */
export function isRacy(mtimeMs: number, readAtMs: number): boolean {
  return mtimeMs >= readAtMs - RACY_WINDOW_MS;
}

/**
 * After the bytes were read and hashed: what to commit.
 *
 * @internal
 */
export type CommitPlan =
  | { do: "nothing" }
  | { do: "touch"; racy: number }
  | { do: "replace" };

/**
 * Compares fresh bytes with the row (pure). Same hash at the same depth → only
 * the stat columns may need a touch; anything else → replace every owned row.
 */
export function planCommit(
  indexed: PathStat | undefined,
  fresh: {
    hash: string;
    size: number;
    mtimeMs: number;
    ctimeMs?: number;
    racy: number;
    wantDepth: Depth;
    /** The root that owns the path now; a row under another root is replaced (handed over). */
    rootId?: number;
    /** This build's derivation for the file; a row derived by another version is replaced. */
    derivation?: string;
  },
): CommitPlan {
  if (!indexed || indexed.hash !== fresh.hash || indexed.state === "error") {
    return { do: "replace" };
  }
  if (fresh.rootId !== undefined && indexed.root_id !== fresh.rootId) return { do: "replace" };
  if (indexed.target_depth !== fresh.wantDepth) return { do: "replace" };
  if (fresh.derivation !== undefined && !derivedBy(indexed.derivation, fresh.derivation)) {
    return { do: "replace" };
  }
  // A time-budget miss with tries left: same bytes, but parse them again.
  if (!rowSettled(indexed, fresh.wantDepth)) return { do: "replace" };
  if (sameStat(fresh, indexed) && indexed.racy === fresh.racy) return { do: "nothing" };
  return { do: "touch", racy: fresh.racy };
}
