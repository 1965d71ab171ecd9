import { Journal } from "../store/mod.ts";
import {
  IndexLockedError,
  PreparePool,
  Reconciler,
  stderrLogger,
  writerHolderInfo,
  WriterLock,
} from "../reconcile/mod.ts";
import { writeHintFile } from "../hints/mod.ts";
import { reanchorMemories } from "../memory/mod.ts";
import type { Context } from "./context.ts";

/**
 * Runs `fn` as the single writer: takes the lock, opens the journal, mirrors
 * the configured roots, and releases everything afterwards, however `fn` ends.
 * `beforeOpen` runs holding the lock, before the journal is opened (rebuild
 * replaces a damaged journal there). Throws IndexLockedError when another
 * process writes.
 */
export async function withWriter<T>(
  ctx: Context,
  fn: (r: Reconciler) => Promise<T>,
  options: { beforeOpen?: () => void | Promise<void> } = {},
): Promise<T> {
  const lock = await WriterLock.acquire(ctx.home);
  let journal: Journal | undefined;
  const pool = new PreparePool();
  try {
    await options.beforeOpen?.();
    journal = Journal.open(ctx.home.journal);
    const reconciler = new Reconciler(
      journal,
      ctx.home,
      ctx.config(),
      ctx.extractor(),
      stderrLogger(),
      pool,
    );
    reconciler.syncRoots();
    const result = await fn(reconciler);
    // Memory follows the code it is attached to: never deleted by re-indexing.
    reanchorMemories(journal);
    return result;
  } finally {
    pool.close();
    journal?.close();
    lock.release();
  }
}

/**
 * When the daemon holds the lock, hands it paths as a hint instead of failing.
 * Returns the daemon's pid, or undefined when no daemon runs (the caller then
 * writes itself, and a one-shot command holding the lock, such as another
 * `heimdall index`, is named as such by the IndexLockedError it meets).
 */
export async function handToDaemon(ctx: Context, paths: string[]): Promise<number | undefined> {
  const holder = await writerHolderInfo(ctx.home);
  // A label without a role comes from an older build: most likely its daemon.
  if (holder === null || (holder.role !== undefined && holder.role !== "daemon")) return undefined;
  if (paths.length > 0) writeHintFile(ctx.home.hints, paths);
  return holder.pid ?? -1;
}

export { IndexLockedError };
