import { ConfigError } from "../config/mod.ts";
import { IndexLockedError } from "../reconcile/mod.ts";
import { corruptionDetail, isCorruption, JournalCorruptError, JournalError } from "../store/mod.ts";
import { EXIT, type ExitCode } from "./exit_codes.ts";

/** The command line was wrong; the message says what and how to fix it. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** SQLite primary result codes that the environment, not Heimdall, causes. */
const SQLITE_ENV: Record<number, string> = {
  3: "access permission denied",
  5: "the journal is busy (another process holds its write lock); retry in a moment",
  6: "a table of the journal is locked; retry in a moment",
  8: "the journal is read-only; check the permissions of the file and its folder",
  10: "disk I/O error; check the disk and free space",
  13: "the disk is full; free some space and retry",
  14: "the journal cannot be opened; check that its folder exists and is writable",
};

/** How an error is reported: its exit code, one message, and whether it is a bug. */
export interface Described {
  code: ExitCode;
  message: string;
  /** A bug in Heimdall (exit 70): the caller prints the stack only when debugging. */
  bug: boolean;
}

/**
 * Maps an error to its exit code and a one-line message for a person:
 * bad usage or config → 2; a held lock, a damaged or unopenable journal, a
 * file-system or SQLite environment failure (permission, missing file, disk
 * full, busy) → 3 with the value and the remedy; anything else is a bug in
 * Heimdall → 70 with a hint to rerun with `--debug` and report it. `journal`
 * names the journal in a corruption message that came straight from SQLite.
 * The stack is appended only when `debug` is set.
 */
export function describeError(
  e: unknown,
  options: { journal?: string; debug?: boolean } = {},
): Described {
  const env = (message: string): Described => ({ code: EXIT.env, message, bug: false });
  if (e instanceof UsageError) return { code: EXIT.usage, message: e.message, bug: false };
  if (e instanceof ConfigError) return { code: EXIT.usage, message: e.message, bug: false };
  if (e instanceof IndexLockedError) return env(e.message);
  if (isCorruption(e)) {
    return env(
      e instanceof JournalCorruptError
        ? e.message
        : new JournalCorruptError(options.journal ?? "journal.db", corruptionDetail(e)).message,
    );
  }
  if (e instanceof JournalError) return env(e.message);
  const err = e instanceof Error ? e : new Error(String(e));
  const first = err.message.split("\n")[0]!;
  const sqlite = (e as { errcode?: unknown }).errcode;
  if (typeof sqlite === "number" && SQLITE_ENV[sqlite & 0xff] !== undefined) {
    return env(`${first}: ${SQLITE_ENV[sqlite & 0xff]}`);
  }
  if (e instanceof Deno.errors.PermissionDenied) {
    return env(`Permission denied: ${first}; check the owner and mode of that path`);
  }
  if (isIoError(e)) return env(`${first}; check that path and the disk, then retry`);
  const stack = options.debug && err.stack ? `\n${err.stack}` : "";
  return {
    code: EXIT.software,
    message: `internal error: ${first}. This is a bug in heimdall: rerun with --debug ` +
      `(or HEIMDALL_DEBUG=1) for the stack, and report it with the command line that failed${stack}`,
    bug: true,
  };
}

/** A file-system or OS error (Deno.errors.*, or an errno such as ENOSPC). */
function isIoError(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  if (Object.values(Deno.errors).some((k) => e instanceof k)) return true;
  const code = (e as { code?: unknown }).code;
  return (typeof code === "string" && /^E[A-Z0-9]+$/.test(code)) ||
    /\(os error \d+\)/.test(e.message);
}
