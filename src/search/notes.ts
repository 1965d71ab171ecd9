/**
 * Notes: reusable work recorded with `heimdall insert`. Memory, not index:
 * re-indexing never deletes a note; its chunk makes it searchable at once.
 */
import { contentHash, redactSecrets } from "../files/mod.ts";
import type { Journal } from "../store/mod.ts";
import { upsertLooseChunk } from "./chunks.ts";

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
 * path is read now (size and content hash) so that a later search can find
 * it again if it moves; a path that cannot be read is kept with no hash.
 * Costs one read per path. Secrets in the title, body and keywords are
 * redacted (`[REDACTED:<kind>]`).
 */
export function insertNote(j: Journal, input: NoteInput, now = Date.now()): number {
  const note = redactNote({
    title: input.title,
    body: input.body,
    keywords: (input.keywords ?? []).map((k) => k.trim()).filter((k) => k !== "").join(","),
    created_ms: now,
    paths: (input.paths ?? []).map(describePath),
  });
  return j.tx(() => writeNote(j, note));
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
 * Returns whether it was added and whether a secret was redacted.
 */
export function importNote(j: Journal, rec: NoteRecord): { added: boolean; redacted: boolean } {
  const note = redactNote(rec);
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

function describePath(path: string): NotePath {
  try {
    const bytes = Deno.readFileSync(path);
    return { path, hash: contentHash(bytes), size: bytes.length };
  } catch {
    return { path, hash: null, size: null };
  }
}

/**
 * Makes every note's search chunk again, as `heimdall insert` made it (a
 * salvaged journal has the notes but not their chunks). Runs inside the
 * caller's transaction when there is one; one query per note.
 */
export function reindexNotes(j: Journal): void {
  const notes = j.all<{ id: number; title: string; body: string; keywords: string }>(
    "SELECT id, title, body, keywords FROM notes",
  );
  for (const n of notes) {
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
}
