/**
 * A journal an older Heimdall wrote, migrated before a command that only
 * reads it runs: after an upgrade, the first `heimdall search` answers
 * instead of refusing until some writing command has run. A migration is a
 * write, so it is made as the single writer, holding the writer lock.
 */
import { Journal, JournalError } from "../store/mod.ts";
import { IndexLockedError, WriterLock } from "../reconcile/lock.ts";
import type { Context } from "./context.ts";

/**
 * Migrates the journal from schema version `behind.have` to `behind.want`
 * as the writer, and says so on stderr. Throws {@link JournalError} when
 * another process holds the writer lock, naming it and what to do: a
 * daemon that holds it runs an older build (this one would have migrated
 * the journal as it started), so it is to be started again.
 */
export async function migrateAsWriter(
  ctx: Context,
  command: string,
  behind: { have: number; want: number },
): Promise<void> {
  const file = ctx.home.journal;
  let lock: WriterLock;
  try {
    lock = await WriterLock.acquire(ctx.home);
  } catch (e) {
    if (!(e instanceof IndexLockedError)) throw e;
    const held = e.role === "daemon"
      ? `the daemon (pid ${
        e.pid ?? "unknown"
      }) holds the writer lock and runs an older build: stop it (SIGTERM) and start it again with this one (\`heimdall daemon\`, or \`heimdall service install\`), which migrates the journal as it starts`
      : `migrating it takes the writer lock: ${e.message}`;
    throw new JournalError(
      `Journal "${file}" is at schema version ${behind.have} and this build reads ${behind.want}; ${held}`,
      file,
    );
  }
  try {
    // Another process of this build may have migrated it meanwhile: then this opens it as it is.
    Journal.open(file).close();
  } finally {
    lock.release();
  }
  ctx.err(
    `heimdall ${command}: migrated the journal from schema version ${behind.have} to ${behind.want} (the first run of this build)`,
  );
}
