import { join } from "../files/mod.ts";
import { ensurePrivateDir, type HomePaths, writePrivateFile } from "../config/mod.ts";
import { redactDeep } from "../files/secrets.ts";
import { isCorruption } from "../store/mod.ts";

/** What went wrong in a pass, as the daemon's error boundary sees it. */
export type FaultKind =
  | "busy"
  | "locked"
  | "full"
  | "io"
  | "permission"
  | "corrupt"
  | "internal";

/** SQLite's primary result codes, when an error carries one (`errcode`). */
const SQLITE_KINDS: Record<number, FaultKind> = {
  3: "permission", // SQLITE_PERM
  5: "busy", // SQLITE_BUSY
  6: "locked", // SQLITE_LOCKED
  8: "permission", // SQLITE_READONLY
  10: "io", // SQLITE_IOERR
  13: "full", // SQLITE_FULL
  14: "permission", // SQLITE_CANTOPEN
};

/** An error sorted into what the writer does about it. */
export interface Fault {
  /** What sort of failure it is. */
  kind: FaultKind;
  /** True when waiting and retrying can cure it; false ends the daemon. */
  transient: boolean;
  /** The error's message (its first line). */
  message: string;
}

/**
 * Sorts an error thrown by a pass. Busy and locked databases, a full disk,
 * I/O and permission errors are transient: the world may change, so the
 * daemon backs off and retries. Corruption is not: retrying cannot repair a
 * damaged journal, so the daemon stops and the message names the remedy.
 * Anything else is a bug ("internal"): it is retried too, so one bad pass
 * never leaves the index silently stale, and `status` shows it.
 *
 * Corruption is what the store's `isCorruption` says it is. A SQLite result
 * code (`errcode`) decides where there is one; node:sqlite often gives only
 * `ERR_SQLITE_ERROR`, so SQLite's messages are matched too, and Deno's file
 * errors by class or OS error.
 *
 * @example
 * ```ts
 * import { classifyFault } from "./faults.ts";
 * console.assert(classifyFault(new Error("database is locked")).kind === "busy");
 * console.assert(!classifyFault(new Error("database disk image is malformed")).transient);
 * ```
 */
export function classifyFault(e: unknown): Fault {
  const err = e instanceof Error ? e : new Error(String(e));
  const message = err.message.split("\n")[0] ?? "";
  const m = message.toLowerCase();
  const code = (err as { code?: unknown }).code;
  const sqlite = SQLITE_KINDS[Number((err as { errcode?: unknown }).errcode) & 0xff];
  const kind: FaultKind = isCorruption(e) || err.name === "JournalCorruptError" ||
      /malformed|file is not a database|sqlite_corrupt|sqlite_notadb/.test(m)
    ? "corrupt"
    : sqlite !== undefined
    ? sqlite
    : /database table is locked|sqlite_locked/.test(m)
    ? "locked"
    : /database is locked|sqlite_busy/.test(m) || e instanceof Deno.errors.Busy
    ? "busy"
    : /database or disk is full|sqlite_full|no space left|enospc|quota exceeded|edquot/.test(m) ||
        code === "ENOSPC"
    ? "full"
    : /disk i\/o error|sqlite_ioerr|input\/output error|\beio\b/.test(m) || code === "EIO"
    ? "io"
    : e instanceof Deno.errors.PermissionDenied ||
        /readonly database|permission denied|unable to open database|sqlite_(readonly|perm|cantopen)|eacces|eperm/
          .test(m)
    ? "permission"
    : "internal";
  return { kind, transient: kind !== "corrupt", message };
}

/**
 * The back-off before retry `attempt` (1 for the first failure): doubles from
 * `baseMs`, capped at `capMs`. Pure.
 */
export function backoffMs(attempt: number, baseMs = 500, capMs = 30_000): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

/** The daemon's last pass error, as `status` shows it. */
export interface FaultRecord {
  /** What sort of failure it was. */
  kind: FaultKind;
  /** The error's message, redacted. */
  message: string;
  /** When it last happened (ms since the epoch). */
  at_ms: number;
  /** Consecutive failed passes up to `at_ms`. */
  failures: number;
  /** When the next retry was due, when the record was written. */
  retry_at_ms: number;
  /** When a pass next succeeded; null while still failing. */
  recovered_ms: number | null;
  /** The daemon that recorded it. */
  pid: number;
}

/**
 * Where the last error lives: a small file in the logs folder, not the
 * journal, because the journal is often the very thing that is busy, locked
 * or full when it must be written.
 */
export function faultFile(home: HomePaths): string {
  return join(home.logs, "last_error.json");
}

/**
 * The size of the fault file, always: a record is padded with spaces to it
 * (JSON allows them), so the file keeps blocks a full disk cannot give, and
 * a record can be written into them.
 */
export const FAULT_FILE_BYTES = 4096;

/** The record as the file holds it: its JSON, redacted, padded to {@link FAULT_FILE_BYTES}. */
function faultBytes(record: FaultRecord | null): Uint8Array {
  const enc = new TextEncoder();
  // An error message may quote what it failed on (a path, a line of a file): redacted like every log.
  const r = record === null ? null : redactDeep(record);
  let json = enc.encode(JSON.stringify(r));
  // A message too long for the file keeps its start.
  for (let cut = 200; json.length >= FAULT_FILE_BYTES && r !== null; cut += 200) {
    json = enc.encode(JSON.stringify({ ...r, message: r.message.slice(0, -cut) + "…" }));
  }
  const out = new Uint8Array(FAULT_FILE_BYTES).fill(0x20);
  out.set(json);
  out[FAULT_FILE_BYTES - 1] = 0x0a;
  return out;
}

/**
 * Makes the fault file, holding no record, when there is none, so that a
 * disk that fills up later still has room for the record of why passes
 * fail (see {@link writeFault}). Called when the daemon starts. Never throws.
 */
export function reserveFault(home: HomePaths): void {
  try {
    ensurePrivateDir(home.logs);
    writePrivateFileExclusive(faultFile(home), faultBytes(null));
  } catch { /* there already, or no room even for it */ }
}

/**
 * Writes the record (write to a temporary file, then rename, so a reader
 * never sees half of it). When that fails (a full disk gives the temporary
 * file no blocks), writes it over the file in place, into the blocks the
 * last record (or {@link reserveFault}) left: `status` must say the disk is
 * full while it is. Never throws.
 */
export function writeFault(home: HomePaths, record: FaultRecord): void {
  const file = faultFile(home);
  const tmp = `${file}.${Deno.pid}.tmp`;
  const bytes = faultBytes(record);
  try {
    ensurePrivateDir(home.logs);
    writePrivateFile(tmp, bytes);
    Deno.renameSync(tmp, file);
  } catch {
    try {
      Deno.removeSync(tmp);
    } catch { /* never written */ }
    try {
      const f = Deno.openSync(file, { write: true });
      try {
        for (let off = 0; off < bytes.length;) off += f.writeSync(bytes.subarray(off));
      } finally {
        f.close();
      }
    } catch { /* no file to write into: the log line and the in-memory state are all there is */ }
  }
}

/** Creates `path` (0600) with `bytes`; throws AlreadyExists when it is there. */
function writePrivateFileExclusive(path: string, bytes: Uint8Array): void {
  const f = Deno.openSync(path, { write: true, createNew: true, mode: 0o600 });
  try {
    for (let off = 0; off < bytes.length;) off += f.writeSync(bytes.subarray(off));
  } finally {
    f.close();
  }
}

/** The last recorded pass error, or null when there is none (or it cannot be read). */
export function readFault(home: HomePaths): FaultRecord | null {
  try {
    const r = JSON.parse(Deno.readTextFileSync(faultFile(home)));
    return typeof r?.message === "string" && typeof r?.at_ms === "number" ? r as FaultRecord : null;
  } catch {
    return null;
  }
}
