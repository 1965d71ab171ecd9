/**
 * Loose chunks: the search rows of notes and memories. No path owns them,
 * so re-indexing never touches them; their writers (`heimdall insert`,
 * `remember`, a rebuild's salvage) call these in plain SQLite transactions,
 * without the writer lock: the single-writer rule is about the code index.
 * What the full-text row says is derived by the caller (search's words).
 */
import type { Journal } from "./journal.ts";

/** A note's or memory's chunk as stored, with its full-text columns already derived. */
export interface LooseChunkRow {
  /** Which table `refId` points into: `notes` or `memories`. */
  source: "notes" | "memory";
  /** The note's or memory's id in its own table. */
  refId: number | string;
  /** The title shown for a hit. */
  title: string;
  /** The first line of `anchor` it is about, 1-based. */
  startLine: number | null;
  /** The last line of `anchor` it is about, inclusive. */
  endLine: number | null;
  /** The hash of its title and text (the embedding pass re-embeds when it changes). */
  textHash: string;
  /** The file it points at (absolute), if any. */
  anchor: string | null;
  /** Its text. */
  text: string;
  /** The full-text row's columns, as the lexical leg matches them. */
  fts: { name: string; doc: string; body: string; path: string };
}

/**
 * Adds or replaces the chunk of one note or memory (keyed by source and
 * refId) and its full-text row, in one transaction unless the caller already
 * holds one. Returns the chunk's id (stable across replacements).
 */
export function putLooseChunk(j: Journal, c: LooseChunkRow): number {
  return inTx(j, () => {
    const existing = looseChunkId(j, c.source, c.refId);
    const values = [c.title, c.startLine, c.endLine, c.textHash, c.anchor, c.text] as const;
    let id: number;
    if (existing !== undefined) {
      id = existing;
      j.run("DELETE FROM chunks_fts WHERE rowid = ?", id);
      j.run(
        `UPDATE chunks SET title = ?, start_line = ?, end_line = ?, text_hash = ?, anchor = ?, text = ?
         WHERE id = ?`,
        ...values,
        id,
      );
    } else {
      id = Number(
        j.stmt(
          `INSERT INTO chunks (source, ref_id, title, start_line, end_line, text_hash, anchor, text)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(c.source, c.refId, ...values).lastInsertRowid,
      );
    }
    j.run(
      "INSERT INTO chunks_fts (rowid, name, qual, sig, doc, body, path) VALUES (?, ?, ?, ?, ?, ?, ?)",
      id,
      c.fts.name,
      "",
      c.fts.doc,
      "",
      c.fts.body,
      c.fts.path,
    );
    return id;
  });
}

/** Removes the chunk of one note or memory; returns true when there was one. */
export function dropLooseChunk(
  j: Journal,
  source: "notes" | "memory",
  refId: number | string,
): boolean {
  return inTx(j, () => {
    const id = looseChunkId(j, source, refId);
    if (id === undefined) return false;
    j.run("DELETE FROM chunks_fts WHERE rowid = ?", id);
    j.run("DELETE FROM chunks WHERE id = ?", id);
    return true;
  });
}

function looseChunkId(
  j: Journal,
  source: "notes" | "memory",
  refId: number | string,
): number | undefined {
  return j.get<{ id: number }>(
    "SELECT id FROM chunks WHERE source = ? AND ref_id = ? AND path_id IS NULL",
    source,
    refId,
  )?.id;
}

function inTx<T>(j: Journal, fn: () => T): T {
  return j.db.isTransaction ? fn() : j.tx(fn);
}
