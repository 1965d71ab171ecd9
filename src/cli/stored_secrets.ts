/**
 * Secrets an older build stored before a rule of the screen existed, across
 * every table that keeps people's and agents' words: notes (search), memories
 * and personal candidates (memory), tasks, hand-offs and claims (team); and
 * the home's files that keep them too: hook sessions' state, the hook
 * events waiting in the spool and the logs.
 * Found for `heimdall doctor`, redacted by `heimdall redact` and, once per
 * change of the screen's rules, by every writer as it starts, which also
 * has the indexed files the screen now refuses retracted.
 */
import { SECRET_SCREEN_VERSION, type StoredSecret } from "../files/mod.ts";
import { redactStoredMemories } from "../memory/mod.ts";
import { redactStoredNotes } from "../search/mod.ts";
import { redactStoredTeamRows } from "../team/mod.ts";
import { eraseFreedSpace, getMeta, type Journal, purgeRewritten, setMeta } from "../store/mod.ts";
import { type HomePaths, redactStoredLogs } from "../config/mod.ts";
import { redactStoredSessions, sessionsDir } from "../harness/session.ts";
import { redactStoredSpool } from "../harness/hook_spool.ts";
import { rescreenIndexed } from "../reconcile/mod.ts";

/** The `meta` key holding the {@link SECRET_SCREEN_VERSION} the stored text was last screened by. */
const SCREEN_KEY = "secret_screen_version";

/**
 * Every stored record holding a secret-shaped value, in table order: where,
 * never the value. Read-only; one screen of each record's text fields.
 */
export function findStoredSecrets(j: Journal, home: HomePaths): StoredSecret[] {
  return [
    ...redactStoredNotes(j, false),
    ...redactStoredMemories(j, false),
    ...redactStoredTeamRows(j, false),
    ...redactStoredSessions(sessionsDir(home), false),
    ...redactStoredSpool(home.home, false),
    ...redactStoredLogs(home.logs, false),
  ];
}

/**
 * Redacts every secret {@link findStoredSecrets} finds: the journal's in one
 * write transaction (all or nothing), then each session file and log
 * (see `redactStoredSessions`, `redactStoredLogs`). Only the secret-shaped
 * spans of those fields change, as a write stores them now, and the search
 * rows of those notes and memories are made again. Freed space is
 * overwritten, and afterwards the full-text index merged and the WAL
 * checkpointed, so the old text is left in neither file of the journal
 * (`purged` false when a reader held the checkpoint back: the WAL keeps old
 * pages until the next one). Returns what was redacted. Does not record the
 * screen's version: the indexed files are screened again only by a writer
 * (see {@link rescreenOnScreenChange}).
 */
export function redactStoredSecrets(
  j: Journal,
  home: HomePaths,
): { redacted: StoredSecret[]; purged: boolean } {
  const journal = eraseFreedSpace(j, () => {
    const redacted = j.tx(() => {
      return [
        ...redactStoredNotes(j, true),
        ...redactStoredMemories(j, true),
        ...redactStoredTeamRows(j, true),
      ];
    });
    return { redacted, purged: redacted.length === 0 || purgeRewritten(j) };
  });
  // Files rewrite one at a time: each under its own lock (a session's) or atomically (a log).
  const files = [
    ...redactStoredSessions(sessionsDir(home), true),
    ...redactStoredSpool(home.home, true),
    ...redactStoredLogs(home.logs, true),
  ];
  return { redacted: [...journal.redacted, ...files], purged: journal.purged };
}

/**
 * What a writer does once per change of the screen's rules, when the
 * journal was last screened by another {@link SECRET_SCREEN_VERSION} (or
 * never, as by a build from before this screen of stored text):
 * {@link redactStoredSecrets}, and every indexed file read again, those the
 * screen now refuses queued to be retracted by the next pass
 * (`rescreenIndexed`). Only a writer (holding the writer lock) may call it.
 * Returns what was redacted and the files queued (nothing when the journal
 * is current).
 */
export function rescreenOnScreenChange(
  j: Journal,
  home: HomePaths,
): { redacted: StoredSecret[]; files: string[] } {
  if (screenedNow(j)) return { redacted: [], files: [] };
  const files = rescreenIndexed(j);
  const { redacted } = redactStoredSecrets(j, home);
  // Last: a writer stopped before this does it all again (each step converges).
  j.tx(() => setMeta(j, SCREEN_KEY, String(SECRET_SCREEN_VERSION)));
  return { redacted, files };
}

/** True when the journal was last screened by this build's {@link SECRET_SCREEN_VERSION}. */
export function screenedNow(j: Journal): boolean {
  return getMeta(j, SCREEN_KEY) === String(SECRET_SCREEN_VERSION);
}

/** `memories 1f3a… (text, search row: github_token)`: a record named without its value. */
export function describeStored(s: StoredSecret): string {
  return `${s.table} ${s.id} (${s.fields.join(", ")}: ${s.kinds.join(", ")})`;
}
