import type { Depth } from "../config/mod.ts";
import type { PathStat } from "../store/mod.ts";

/** What a stat of the path found (the only I/O a plan depends on). */
export type Observed =
  | { kind: "missing" }
  | { kind: "dir" }
  | { kind: "other" }
  | { kind: "file"; size: number; mtimeMs: number };

/** What the path's policy says before any bytes are read. */
export interface PathContext {
  /** Why the path must not be indexed (ignored, secret name, outside every root, symlink). */
  excluded?: string;
  maxFileBytes: number;
  /** The depth this file should reach now: min(requested, capability). */
  wantDepth: Depth;
  /** Re-hash even when the stat screen says unchanged (`verify --deep`, racy files). */
  deep: boolean;
}

/** The first step for one path. */
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
  if (observed.size > ctx.maxFileBytes) {
    return indexed && indexed.reason === "too large" && sameStat(observed, indexed)
      ? { do: "nothing", why: "unchanged" }
      : { do: "too-large" };
  }
  if (
    indexed && !ctx.deep && !indexed.racy && sameStat(observed, indexed) &&
    depthSettled(indexed, ctx)
  ) {
    return { do: "nothing", why: "unchanged" };
  }
  return { do: "read" };
}

function sameStat(o: { size: number; mtimeMs: number }, row: PathStat): boolean {
  return o.size === row.size && o.mtimeMs === row.mtime_ms;
}

/**
 * A row is settled when it reached the wanted depth, or was already tried at
 * that depth and degraded (a parse failure is not retried until the bytes or
 * this build's capability change).
 */
function depthSettled(row: PathStat, ctx: PathContext): boolean {
  return row.effective_depth >= ctx.wantDepth || row.target_depth === ctx.wantDepth;
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

/** After the bytes were read and hashed: what to commit. */
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
  fresh: { hash: string; size: number; mtimeMs: number; racy: number; wantDepth: Depth },
): CommitPlan {
  if (!indexed || indexed.hash !== fresh.hash || indexed.state === "error") {
    return { do: "replace" };
  }
  if (indexed.target_depth !== fresh.wantDepth) return { do: "replace" };
  if (
    indexed.size === fresh.size && indexed.mtime_ms === fresh.mtimeMs && indexed.racy === fresh.racy
  ) {
    return { do: "nothing" };
  }
  return { do: "touch", racy: fresh.racy };
}
