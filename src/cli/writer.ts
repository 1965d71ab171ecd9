import { Journal } from "../store/mod.ts";
import {
  IndexLockedError,
  type Logger,
  PreparePool,
  Reconciler,
  stderrLogger,
  writerHolderInfo,
  WriterLock,
} from "../reconcile/mod.ts";
import { writeHintFile } from "../hints/mod.ts";
import { ReanchorFollower, refreshLooseText } from "../memory/mod.ts";
import { activeModel, EmbedPass } from "../vector/mod.ts";
import type { Context } from "./context.ts";
import { describeStored, rescreenOnScreenChange } from "./stored_secrets.ts";

/** What follows the index in a writer process, made and registered in one place. */
export interface WriterFollowers {
  /** Memory re-anchoring: after every pass that changed the index. */
  memory: ReanchorFollower;
  /** The embedding pass: told of every commit; the daemon's background work, `index`'s last step. */
  embed: EmbedPass;
}

/**
 * The followers every writer registers (the one-shot commands through
 * {@link withWriter}, the daemon through its options), in the order they run
 * after a pass: memory first, then the embedding pass. Notes' and memories'
 * search rows an older build derived are made again first (once: see
 * `refreshLooseText`), as the audit derives the code index again; and
 * secrets an older build stored before a rule of the screen existed are
 * redacted, and indexed files the screen now refuses queued to be
 * retracted (once per change of the rules: see `rescreenOnScreenChange`),
 * each record and file named on stderr (never a value).
 */
export function writerFollowers(ctx: Context, journal: Journal, log?: Logger): WriterFollowers {
  const refreshed = refreshLooseText(journal);
  if (refreshed > 0) log?.info(`made the search rows of ${refreshed} notes and memories again`);
  const { redacted, files } = rescreenOnScreenChange(journal, ctx.home);
  const warn = (m: string) => (log ?? stderrLogger()).warn(m);
  if (redacted.length > 0) {
    warn(
      `redacted secrets an older Heimdall stored in ${redacted.length} record(s): ${
        redacted.slice(0, 20).map(describeStored).join("; ")
      }${redacted.length > 20 ? `; and ${redacted.length - 20} more` : ""}`,
    );
  }
  if (files.length > 0) {
    warn(
      `the secret screen now refuses ${files.length} indexed file(s), which are retracted at the next pass: ${
        files.slice(0, 20).join(", ")
      }${files.length > 20 ? `, and ${files.length - 20} more` : ""}`,
    );
  }
  return {
    memory: new ReanchorFollower(journal),
    embed: new EmbedPass(journal, activeModel(ctx.home).source, log ? { log } : {}),
  };
}

/**
 * Runs `fn` as the single writer: takes the lock, opens the journal, mirrors
 * the configured roots (a removed root's files retracted in short
 * transactions first), registers the {@link writerFollowers}, and releases
 * everything afterwards, however `fn` ends. `fn` runs its pass with
 * `Reconciler.pass`, which runs the followers after it. `beforeOpen` runs
 * holding the lock, before the journal is opened (rebuild replaces a damaged
 * journal there). Throws IndexLockedError when another process writes.
 */
export async function withWriter<T>(
  ctx: Context,
  fn: (r: Reconciler, followers: WriterFollowers) => Promise<T>,
  options: { beforeOpen?: () => void | Promise<void> } = {},
): Promise<T> {
  const lock = await WriterLock.acquire(ctx.home);
  let journal: Journal | undefined;
  // A one-shot command: its Workers yield the CPU to its writer (see PreparePool).
  const pool = new PreparePool(undefined, undefined, true);
  try {
    await options.beforeOpen?.();
    journal = Journal.open(ctx.home.journal);
    const reconciler = new Reconciler(
      journal,
      ctx.home,
      ctx.config(),
      await ctx.extractor(),
      stderrLogger(),
      pool,
    );
    await reconciler.retractRemovedRoots();
    reconciler.syncRoots();
    const followers = writerFollowers(ctx, journal);
    reconciler.follow(followers.memory);
    reconciler.follow(followers.embed);
    return await fn(reconciler, followers);
  } finally {
    pool.close();
    journal?.close();
    lock.release();
  }
}

/**
 * How long a one-shot pass waits for the paths it had to put back (changing
 * while read, claimed by a nested root meanwhile) before it returns.
 */
export const SETTLE_MS = 10_000;

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
