/**
 * A journal an older Heimdall wrote, migrated before a command that only
 * reads it runs (or an agent's MCP server serves): after an upgrade, the
 * first `heimdall search` answers instead of refusing until some writing
 * command has run (`src/reconcile/journal_upgrade.ts` migrates, as the
 * writer).
 */
import { JournalError, schemaBehind } from "../store/mod.ts";
import { IndexLockedError } from "../reconcile/lock.ts";
import { migrateBehindJournal } from "../reconcile/journal_upgrade.ts";
import type { Context } from "./context.ts";

/**
 * Migrates the journal when it is behind this build, and says so on stderr.
 * Throws {@link JournalError} when another process holds the writer lock,
 * naming it and what to do: a daemon that holds it runs an older build
 * (this one would have migrated the journal as it started), so it is to be
 * started again.
 */
export async function migrateAsWriter(ctx: Context, command: string): Promise<void> {
  let done: { have: number; want: number } | undefined;
  try {
    done = await migrateBehindJournal(ctx.home);
  } catch (e) {
    if (!(e instanceof IndexLockedError)) throw e;
    const held = e.role === "daemon"
      ? `the daemon (pid ${
        e.pid ?? "unknown"
      }) holds the writer lock and runs an older build: stop it (SIGTERM) and start it again with this one (\`heimdall daemon\`, or \`heimdall service install\`), which migrates the journal as it starts`
      : `migrating it takes the writer lock: ${e.message}`;
    const behind = schemaBehind(ctx.home.journal);
    const versions = behind === undefined
      ? "was written by an older Heimdall"
      : `is at schema version ${behind.have} and this build reads ${behind.want}`;
    throw new JournalError(`Journal "${ctx.home.journal}" ${versions}; ${held}`, ctx.home.journal);
  }
  if (done === undefined) return;
  ctx.err(
    `heimdall ${command}: migrated the journal from schema version ${done.have} to ${done.want} (the first run of this build)`,
  );
}
