/**
 * Notes: reusable work recorded with `heimdall insert`. Memory, not index:
 * re-indexing never deletes a note; its chunk makes it searchable at once.
 */
import { UsageError } from "../errors/mod.ts";
import {
  contentHash,
  redactSecrets,
  screenRecord,
  sniffSecret,
  type StoredSecret,
} from "../files/mod.ts";
import { ID_PAGE, type Journal, pagesById } from "../store/mod.ts";
import { looseChunkSecrets, mergeFound, upsertLooseChunk } from "./chunks.ts";

/**
 * The most a note keeps, in characters once its secrets are redacted (and
 * paths): what `heimdall import` reads back from an export (memory's
 * MAX_TEXT for the body, MAX_FIELD for the rest, its most anchors for the
 * paths), so that every note exported imports again.
 */
const NOTE_LIMITS = { title: 4_096, body: 65_536, keywords: 4_096, path: 4_096, paths: 256 };

/** What to do about each field that is too long. */
const NOTE_REMEDIES = {
  title: "say it in one line and put the details in the body",
  body: "keep the note to what is worth finding again and attach the rest as a file (a path)",
  keywords: "give fewer, shorter keywords",
} as const;

/** What `heimdall insert` records. */
export interface NoteInput {
  /** The note's title, matched as its name. */
  title: string;
  /** The note's text. */
  body: string;
  /** Extra words to match. */
  keywords?: readonly string[];
  /** Absolute paths the note points at; each gets a verdict when the note is found. */
  paths?: readonly string[];
}

/**
 * A path a note points at, as it was when the note was written.
 *
 * @internal
 */
export interface NotePath {
  path: string;
  hash: string | null;
  size: number | null;
}

/**
 * Records a note and its chunk in one transaction and returns its id. Each
 * file is read now (size and content hash) so that a later search can find
 * it again if it moves; a path that is no file or cannot be read is kept
 * with no hash, and one given twice is kept once. Costs one read per file.
 * Secrets in the title, body and keywords are redacted
 * (`[REDACTED:<kind>]`). Throws UsageError, writing nothing, for a
 * note an import of its export would refuse: a title or keywords
 * (comma-joined) over 4,096 characters, a body over 65,536 (once redacted),
 * more than 256 paths, a path over 4,096, a path holding what looks like
 * a secret (kept as written, an import refuses it), or a NUL character in
 * the title, body or keywords (the journal would read them back cut there).
 */
export function insertNote(j: Journal, input: NoteInput, now = Date.now()): number {
  // A path given twice is attached once: its verdict would be given twice.
  const paths = [...new Set(input.paths ?? [])];
  checkPaths(paths); // before each is read
  const given: NoteRecord = {
    title: input.title,
    body: input.body,
    keywords: (input.keywords ?? []).map((k) => k.trim()).filter((k) => k !== "").join(","),
    created_ms: now,
    paths: paths.map(describePath),
  };
  for (const field of ["title", "body", "keywords"] as const) {
    const at = given[field].indexOf("\0");
    if (at < 0) continue;
    // SQLite keeps it, but reads the text back only up to it: what follows would be lost.
    throw new UsageError(
      `Note ${field} holds a NUL character (\\u0000) at character ${
        at + 1
      }, which the journal cannot keep (it reads text only up to it, losing the rest); remove it (tr -d '\\000' strips it from a file)`,
    );
  }
  const note = redactNote(given);
  checkNote(note, given);
  return j.tx(() => writeNote(j, note));
}

/**
 * Throws UsageError naming the field, its length, the limit and the remedy
 * when `note` (as stored: redacted) holds more than {@link NOTE_LIMITS};
 * `given` (the note before redaction) lets the message say when redaction
 * made a field longer.
 */
function checkNote(note: NoteRecord, given?: NoteRecord): void {
  for (const field of ["title", "body", "keywords"] as const) {
    const length = note[field].length, max = NOTE_LIMITS[field];
    if (length <= max) continue;
    const grew = given !== undefined && given[field] !== note[field];
    throw new UsageError(
      `Note ${field} too long: ${length} characters${
        grew ? " once secrets are redacted" : ""
      }, at most ${max} are kept (an import of its export would refuse it); ${
        NOTE_REMEDIES[field]
      }`,
    );
  }
  checkPaths(note.paths.map((p) => p.path));
}

function checkPaths(paths: readonly string[]): void {
  if (paths.length > NOTE_LIMITS.paths) {
    throw new UsageError(
      `Too many paths: ${paths.length}, a note keeps at most ${NOTE_LIMITS.paths}; attach the folder that holds them instead`,
    );
  }
  const long = paths.find((p) => p.length > NOTE_LIMITS.path);
  if (long !== undefined) {
    throw new UsageError(
      `Path too long: "${
        long.slice(0, 60)
      }…" is ${long.length} characters, at most ${NOTE_LIMITS.path} are kept; attach a folder above it`,
    );
  }
  for (const p of paths) {
    const found = sniffSecret(p);
    if (found === undefined) continue;
    throw new UsageError(
      `Path "${redactSecrets(p).slice(0, 120)}" holds what looks like a secret (${
        found.replace(/^content: /, "")
      }), which a note would keep as written (an import of the export would refuse it); attach the folder above it, or rename it`,
    );
  }
}

/**
 * A note with secrets in its title, body and keywords redacted: notes are
 * written by `insert` (CLI, MCP `insert_note`) and by an import, both
 * through here, so secrets never reach the journal (pure).
 */
function redactNote(rec: NoteRecord): NoteRecord {
  return {
    ...rec,
    title: redactSecrets(rec.title),
    body: redactSecrets(rec.body),
    keywords: redactSecrets(rec.keywords),
  };
}

/** A note as it is kept and exported. */
export interface NoteRecord {
  /** Its title, matched as its name. */
  title: string;
  /** Its text. */
  body: string;
  /** Its extra words, comma-joined. */
  keywords: string;
  /** When it was written (ms since 1970): with title and body, what makes two notes one. */
  created_ms: number;
  /** The paths it points at, as they were when it was written. */
  paths: NotePath[];
}

/** Every note, oldest first (ties by id), as {@link NoteRecord}s. */
export function noteRecords(j: Journal): NoteRecord[] {
  return j.all<{ id: number; title: string; body: string; keywords: string; created_ms: number }>(
    "SELECT id, title, body, keywords, created_ms FROM notes ORDER BY created_ms, id",
  ).map(({ id, ...n }) => ({ ...n, paths: notePaths(j, id) }));
}

/**
 * Adds a note read from an export, inside the caller's transaction: title,
 * body and keywords redacted, its paths kept as recorded (not read again).
 * A note already here with the same time, title and body is left alone.
 * Returns whether it was added and whether a secret was redacted. Throws
 * UsageError as {@link insertNote} does for a note too long to keep, once
 * redacted (an import checks each line first and names it).
 */
export function importNote(j: Journal, rec: NoteRecord): { added: boolean; redacted: boolean } {
  const note = redactNote(rec);
  checkNote(note, rec);
  const redacted = note.title !== rec.title || note.body !== rec.body ||
    note.keywords !== rec.keywords;
  const here = j.get(
    "SELECT 1 AS x FROM notes WHERE created_ms = ? AND title = ? AND body = ?",
    note.created_ms,
    note.title,
    note.body,
  );
  if (here) return { added: false, redacted: false };
  writeNote(j, note);
  return { added: true, redacted };
}

/** Writes a note's rows and its search chunk; the caller holds the transaction. */
function writeNote(j: Journal, note: NoteRecord): number {
  const id = Number(
    j.stmt("INSERT INTO notes (title, body, keywords, created_ms) VALUES (?, ?, ?, ?)").run(
      note.title,
      note.body,
      note.keywords,
      note.created_ms,
    ).lastInsertRowid,
  );
  note.paths.forEach((p, i) =>
    j.run(
      "INSERT INTO note_paths (note_id, ord, path, hash, size) VALUES (?, ?, ?, ?, ?)",
      id,
      i,
      p.path,
      p.hash,
      p.size,
    )
  );
  upsertLooseChunk(j, {
    source: "notes",
    refId: id,
    title: note.title,
    text: note.body,
    keywords: note.keywords.split(",").filter((k) => k !== "").join(" "),
    ...(note.paths[0] ? { path: note.paths[0].path } : {}),
  });
  return id;
}

/** The paths a note points at, in the order given. */
export function notePaths(j: Journal, noteId: number): NotePath[] {
  return j.all<NotePath>(
    "SELECT path, hash, size FROM note_paths WHERE note_id = ? ORDER BY ord",
    noteId,
  );
}

/**
 * A path as a note keeps it: a regular file with its hash and size; anything
 * else (a folder, a named pipe, a device) with neither, unread: reading a
 * pipe waits for a writer forever and `/dev/zero` never ends, and either
 * held up the process (the MCP server, every agent's calls) for good.
 */
function describePath(path: string): NotePath {
  try {
    if (!Deno.statSync(path).isFile) return { path, hash: null, size: null };
    const bytes = Deno.readFileSync(path);
    return { path, hash: contentHash(bytes), size: bytes.length };
  } catch {
    return { path, hash: null, size: null };
  }
}

/**
 * Makes every note's search chunk again, as `heimdall insert` made it (a
 * salvaged journal has the notes but not their chunks). Runs inside the
 * caller's transaction when there is one; one query per note. Returns how
 * many notes there are.
 */
export function reindexNotes(j: Journal): number {
  const notes = j.all<StoredNote>("SELECT id, title, body, keywords FROM notes");
  for (const n of notes) reindexNote(j, n);
  return notes.length;
}

/** A note's row as {@link reindexNote} reads it. */
interface StoredNote {
  id: number;
  title: string;
  body: string;
  keywords: string;
}

/** Makes one note's search chunk again from its row, as `heimdall insert` made it. */
function reindexNote(j: Journal, n: StoredNote): void {
  const path = j.get<{ path: string }>(
    "SELECT path FROM note_paths WHERE note_id = ? ORDER BY ord LIMIT 1",
    n.id,
  )?.path;
  upsertLooseChunk(j, {
    source: "notes",
    refId: n.id,
    title: n.title,
    text: n.body,
    keywords: n.keywords.split(",").filter((k) => k !== "").join(" "),
    ...(path === undefined ? {} : { path }),
  });
}

/**
 * Notes that hold a secret-shaped value, as an older build stored them
 * before a rule of the screen existed: in their title, body or keywords,
 * or only in their search chunk (`search row`). With `apply`, each is
 * rewritten as `insert` would store it now (only the secret-shaped spans
 * change; id, time and paths stay) and its search chunk and full-text row
 * made again, inside the caller's transaction. Returns where they were,
 * never a value; one {@link screenRecord} per note.
 */
export function redactStoredNotes(j: Journal, apply: boolean): StoredSecret[] {
  const chunks = looseChunkSecrets(j, "notes");
  const out: StoredSecret[] = [];
  // Paged by id, the hits kept aside: a journal's notes are never held whole.
  const fixes: StoredNote[] = [];
  const pages = pagesById<StoredNote>(
    j,
    `SELECT id, title, body, keywords FROM notes WHERE id > ? ORDER BY id LIMIT ${ID_PAGE}`,
    0,
  );
  for (const rows of pages) {
    for (const n of rows) {
      const row = screenRecord("notes", n.id, {
        title: n.title,
        body: n.body,
        keywords: n.keywords,
      });
      const found = mergeFound(row?.found, chunks.get(String(n.id)));
      if (found === undefined) continue;
      out.push(found);
      fixes.push({ ...n, ...(row?.redacted as Partial<StoredNote> | undefined) });
    }
  }
  if (!apply) return out;
  for (const n of fixes) {
    j.run(
      "UPDATE notes SET title = ?, body = ?, keywords = ? WHERE id = ?",
      n.title,
      n.body,
      n.keywords,
      n.id,
    );
    reindexNote(j, n);
  }
  return out;
}
