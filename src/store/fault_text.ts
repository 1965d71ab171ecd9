/**
 * What kind of failure an error is and its message for the person or agent
 * who reads it (pure): Heimdall's own errors by their class, anything else
 * by its code or class, never by the text of its message. Shared by the
 * command line (which maps the kind to an exit code) and the MCP server
 * (which writes it into an isError result).
 */
import { type ErrorKind, HeimdallError } from "../errors/mod.ts";
import { corruptionDetail, isCorruption, JournalCorruptError } from "./corruption.ts";

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

/**
 * The kind of `e` and its message: a HeimdallError's own; a bad page met
 * by a raw SQLite query names `journal` and the remedy (environment); a
 * SQLite result code for busy, read-only, I/O, full or cannot-open, a
 * `Deno.errors` class or an errno such as ENOSPC is environment, its first
 * line with the remedy; anything else is internal (a bug), with its message.
 */
export function describeFault(e: unknown, journal: string): { kind: ErrorKind; message: string } {
  const env = (message: string) => ({ kind: "environment" as const, message });
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

/** The first line of `e`'s message. */
export function firstLine(e: Error): string {
  return e.message.split("\n")[0]!;
}

/** A file-system or OS error: a `Deno.errors` class, or an errno code such as ENOSPC. */
function isIoError(e: Error): boolean {
  if (Object.values(Deno.errors).some((k) => e instanceof k)) return true;
  const code = (e as { code?: unknown }).code;
  return typeof code === "string" && /^E[A-Z0-9]+$/.test(code);
}
