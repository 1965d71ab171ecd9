/**
 * A journal an older Heimdall wrote, migrated by the first process of this
 * build that reads it: a command, an agent's MCP server, the hooks' warm
 * server. A migration is a write, so it is made as the single writer,
 * holding the writer lock for that alone.
 */
import type { HomePaths } from "../config/mod.ts";
import { Journal, schemaBehind } from "../store/mod.ts";
import { WriterLock } from "./lock.ts";

/**
 * Migrates the journal of `paths` to this build's schema when it is behind,
 * as the writer; returns the versions it went from and to, or undefined
 * when it was current (or missing, or newer: opening it says why). Throws
 * `IndexLockedError` when another process holds the writer lock after
 * `waitMs`: a daemon that holds it runs an older build, since this one
 * migrates the journal as it starts.
 */
export async function migrateBehindJournal(
  paths: HomePaths,
  waitMs = 300,
): Promise<{ have: number; want: number } | undefined> {
  const behind = schemaBehind(paths.journal);
  if (behind === undefined) return undefined;
  const lock = await WriterLock.acquire(paths, waitMs);
  try {
    // Another process of this build may have migrated it meanwhile: then this opens it as it is.
    Journal.open(paths.journal).close();
  } finally {
    lock.release();
  }
  return behind;
}
