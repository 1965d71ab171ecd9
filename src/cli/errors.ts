import { type ErrorKind, HeimdallError } from "../errors/mod.ts";
import { corruptionDetail, isCorruption, JournalCorruptError } from "../store/mod.ts";
import { EXIT_FOR_KIND, type ExitCode } from "./exit_codes.ts";

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
 * Maps an error to its exit code and a one-line message for a person. A
 * HeimdallError's code is its kind's, from `EXIT_FOR_KIND` (usage → 2,
 * environment → 3, drift → 1, internal → 70), with its own message. An error
 * from outside Heimdall is environment (3) only when its code or class says
 * so: a SQLite result code for busy, read-only, I/O, full or corrupt (`journal`
 * names the journal in that message), an errno such as ENOSPC, or a
 * `Deno.errors` class. Anything else is a bug in Heimdall → 70, with a hint to
 * rerun with `--debug` and report it; the stack is appended only when `debug`
 * is set. Never decided by the text of a message.
 */
export function describeError(
  e: unknown,
  options: { journal?: string; debug?: boolean } = {},
): Described {
  const { kind, message } = classify(e, options.journal ?? "journal.db");
  if (kind !== "internal") return { code: EXIT_FOR_KIND[kind], message, bug: false };
  const err = e instanceof Error ? e : new Error(String(e));
  const stack = options.debug && err.stack ? `\n${err.stack}` : "";
  return {
    code: EXIT_FOR_KIND.internal,
    message: `internal error: ${firstLine(err)}. This is a bug in heimdall: rerun with --debug ` +
      `(or HEIMDALL_DEBUG=1) for the stack, and report it with the command line that failed${stack}`,
    bug: true,
  };
}

/** The kind of `e` and its message for a person, from its class or its code. */
function classify(e: unknown, journal: string): { kind: ErrorKind; message: string } {
  const env = (message: string) => ({ kind: "environment" as const, message });
  // A bad page met by a raw SQLite query: the message names the journal and the remedy.
  if (isCorruption(e) && !(e instanceof JournalCorruptError)) {
    return env(new JournalCorruptError(journal, corruptionDetail(e)).message);
  }
  if (e instanceof HeimdallError) return { kind: e.kind, message: e.message };
  if (!(e instanceof Error)) return { kind: "internal", message: String(e) };
  const sqlite = (e as { errcode?: unknown }).errcode;
  if (typeof sqlite === "number" && SQLITE_ENV[sqlite & 0xff] !== undefined) {
    return env(`${firstLine(e)}: ${SQLITE_ENV[sqlite & 0xff]}`);
  }
  if (e instanceof Deno.errors.PermissionDenied) {
    return env(`Permission denied: ${firstLine(e)}; check the owner and mode of that path`);
  }
  if (isIoError(e)) return env(`${firstLine(e)}; check that path and the disk, then retry`);
  return { kind: "internal", message: e.message };
}

function firstLine(e: Error): string {
  return e.message.split("\n")[0]!;
}

/** A file-system or OS error: a `Deno.errors` class, or an errno code such as ENOSPC. */
function isIoError(e: Error): boolean {
  if (Object.values(Deno.errors).some((k) => e instanceof k)) return true;
  const code = (e as { code?: unknown }).code;
  return typeof code === "string" && /^E[A-Z0-9]+$/.test(code);
}
