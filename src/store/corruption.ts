/**
 * A damaged journal: how it is recognised (a cheap look at the file's header
 * on every open, SQLite's own verdict on the first query that trips on a bad
 * page), the one error every layer reports it with, and the marker that keeps
 * it known as damaged until `heimdall rebuild` replaces it.
 */
import type { DatabaseSync } from "node:sqlite";
import { JournalError } from "./journal_error.ts";

/** SQLite's primary result codes that mean "the file itself is bad". */
const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;

/** The bytes every SQLite 3 database file starts with. */
const MAGIC = "SQLite format 3\0";

/**
 * The journal file is damaged (garbage pages, truncated, bad header). Its
 * message is one line that names the file, what is wrong, and the remedy.
 */
export class JournalCorruptError extends JournalError {
  /** A damaged journal `file`; `detail` says what is wrong with it. */
  constructor(file: string, readonly detail: string) {
    super(
      `Journal "${file}" is damaged (${detail}); run \`heimdall rebuild\` to salvage every readable memory and note into a fresh journal (the damaged file is kept aside)`,
      file,
    );
    this.name = "JournalCorruptError";
  }
}

/**
 * True when `e` says the database file is damaged: a {@link JournalCorruptError},
 * or a SQLite error whose primary code is SQLITE_CORRUPT (11, any extended
 * variant such as CORRUPT_INDEX) or SQLITE_NOTADB (26). Transient errors (busy,
 * locked, disk full, I/O, permission) are not corruption: retrying or fixing
 * the environment helps them, a rebuild does not.
 */
export function isCorruption(e: unknown): boolean {
  if (e instanceof JournalCorruptError) return true;
  if (typeof e !== "object" || e === null) return false;
  const code = (e as { errcode?: unknown }).errcode;
  if (typeof code === "number") {
    const primary = code & 0xff;
    return primary === SQLITE_CORRUPT || primary === SQLITE_NOTADB;
  }
  const message = (e as { message?: unknown }).message;
  if (
    typeof message === "string" &&
    /database disk image is malformed|file is not a database/.test(message)
  ) return true;
  // A wrapper (e.g. a worker's error) keeps SQLite's error as its cause.
  const cause = (e as { cause?: unknown }).cause;
  return cause !== undefined && cause !== e && isCorruption(cause);
}

/**
 * What is wrong with the header of the SQLite file at `file`, or undefined when
 * it looks sound or does not exist. Reads 100 bytes and stats the file and its
 * WAL: costs well under a millisecond whatever the journal's size, so it runs
 * on every open. Finds a bad magic string, an impossible page size and a file
 * shorter than the page count its header claims (truncation). Garbage inside
 * the file is left to SQLite, which reports it on the first query that reads
 * the bad page, and to {@link quickCheck}.
 *
 * Its own descriptor of the file drops, on close, every POSIX lock this
 * process holds there: a connection already open keeps no lock on the main
 * file. This SQLite asks the `-shm` file, which this never opens, whether a
 * closing connection is the last one (which then checkpoints and deletes
 * the WAL); an older one (the sqlite3 3.40 shell) asks the main file. So
 * `Journal.open` does not call it while this process holds the journal open.
 */
export function headerDamage(file: string): string | undefined {
  let size: number;
  try {
    size = Deno.statSync(file).size;
  } catch {
    return undefined;
  }
  // An empty file is a journal SQLite has not written yet.
  if (size === 0) return undefined;
  if (size < 100) return `${size} bytes long, shorter than a SQLite header`;
  const header = new Uint8Array(100);
  const f = Deno.openSync(file, { read: true });
  try {
    let got = 0;
    while (got < 100) {
      const n = f.readSync(header.subarray(got));
      if (n === null) break;
      got += n;
    }
  } finally {
    f.close();
  }
  if (new TextDecoder("latin1").decode(header.subarray(0, 16)) !== MAGIC) {
    return "its header is not a SQLite header";
  }
  const view = new DataView(header.buffer);
  const raw = view.getUint16(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) {
    return `its header names an impossible page size ${raw}`;
  }
  // The header's page count is valid only when the change counter matches
  // "version valid for" (SQLite's own rule). With a WAL that is not empty the
  // file may legitimately lag behind the header until the next checkpoint.
  const pages = view.getUint32(28);
  const valid = pages > 0 && view.getUint32(24) === view.getUint32(92);
  if (valid && size < pages * pageSize && walBytes(file) === 0) {
    return `truncated: ${size} bytes, its header says ${pages} pages of ${pageSize} bytes (${
      pages * pageSize
    })`;
  }
  return undefined;
}

function walBytes(file: string): number {
  try {
    return Deno.statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

/** The marker file that records a journal as known to be damaged. */
export function damageMarker(file: string): string {
  return `${file}.damaged`;
}

/**
 * Records that the journal at `file` is damaged, with what was found, so that
 * every later command says so (until `heimdall rebuild` or a clean
 * `heimdall status` clears it). Never throws: a marker that cannot be written
 * only costs the warning.
 */
export function markDamaged(file: string, detail: string): void {
  try {
    Deno.writeTextFileSync(
      damageMarker(file),
      JSON.stringify({ detail, at: new Date().toISOString(), file: identity(file) }) + "\n",
      { mode: 0o600 },
    );
  } catch { /* read-only home: the error itself still says it */ }
}

/**
 * What the damage marker of `file` says, or undefined when there is none.
 * A marker is about the file it found damaged: when another file has taken
 * its place since (a backup copied over it, a journal moved in), the marker
 * is dropped and undefined returned, so a restored journal opens.
 */
export function knownDamage(file: string): string | undefined {
  let text: string;
  try {
    text = Deno.readTextFileSync(damageMarker(file));
  } catch {
    return undefined;
  }
  let marker: { detail?: unknown; file?: unknown };
  try {
    marker = JSON.parse(text);
  } catch {
    return "damage found earlier";
  }
  if (typeof marker.file === "string" && marker.file !== identity(file)) {
    clearDamage(file);
    return undefined;
  }
  return typeof marker.detail === "string" ? marker.detail : "damage found earlier";
}

/** Which file is at `path` now, as far as a marker needs: inode, size and mtime ("" when none). */
function identity(path: string): string {
  try {
    const st = Deno.statSync(path);
    return `${st.ino ?? ""}:${st.size}:${st.mtime?.getTime() ?? ""}`;
  } catch {
    return "";
  }
}

/** Forgets that `file` was damaged (it was replaced, or checked clean). */
export function clearDamage(file: string): void {
  try {
    Deno.removeSync(damageMarker(file));
  } catch { /* none */ }
}

/** The one-line detail of a SQLite corruption error, for a person. */
export function corruptionDetail(e: unknown): string {
  if (e instanceof JournalCorruptError) return e.detail;
  const m = e as { errstr?: unknown; message?: unknown };
  const text = typeof m.errstr === "string"
    ? m.errstr
    : typeof m.message === "string"
    ? m.message
    : String(e);
  return text.split("\n")[0]!;
}

/**
 * SQLite's `PRAGMA quick_check` over `db`: undefined when sound, else its first
 * complaint. Reads every page of the file (1.6–6 s per GB on a warm cache;
 * see scripts/faults/corruption.ts), so it runs where a full read is
 * affordable (`heimdall status`, `heimdall rebuild`), not on every open.
 */
export function quickCheck(db: DatabaseSync): string | undefined {
  try {
    const rows = db.prepare("PRAGMA quick_check(3)").all() as { quick_check: string }[];
    const problems = rows.flatMap((r) => r.quick_check.split("\n"))
      .filter((t) => t !== "ok" && !t.startsWith("*** in database"));
    return problems.length === 0 ? undefined : `quick_check: ${problems.join("; ")}`;
  } catch (e) {
    if (isCorruption(e)) return corruptionDetail(e);
    throw e;
  }
}
