/**
 * Loose chunks: notes and memories made searchable. No path owns them, so
 * re-indexing never touches them; their writers call these functions in
 * plain SQLite transactions (no writer lock: the single-writer rule is about
 * the code index).
 */
import type { Journal } from "../store/mod.ts";
import { pathText, textHash } from "../derive/chunk_rows.ts";
import { indexText, nameText } from "../derive/words.ts";

/** A note or memory to make searchable. */
export interface LooseChunk {
  /** Which table `refId` points into: `notes` or `memories`. */
  source: "notes" | "memory";
  /** The note's or memory's id in its own table. */
  refId: number | string;
  /** The title shown for a hit and matched as its name. */
  title: string;
  /** The text matched as its body. */
  text: string;
  /** Extra words to match (keywords, tags). */
  keywords?: string;
  /** The file it points at (absolute), if any: its verdict follows that file. */
  path?: string;
  /** The first line of `path` it is about, 1-based. */
  startLine?: number;
  /** The last line of `path` it is about, inclusive. */
  endLine?: number;
}

/**
 * Adds or replaces the chunk of one note or memory (keyed by source and
 * refId) and its full-text row, in one transaction unless the caller already
 * holds one. Returns the chunk's id (stable across replacements). Searchable
 * by the next query.
 */
export function upsertLooseChunk(j: Journal, c: LooseChunk): number {
  return inTx(j, () => {
    const existing = j.get<{ id: number }>(
      "SELECT id FROM chunks WHERE source = ? AND ref_id = ? AND path_id IS NULL",
      c.source,
      c.refId,
    );
    const values = [
      c.title,
      c.startLine ?? null,
      c.endLine ?? null,
      textHash(`${c.title}\n${c.text}`),
      c.path ?? null,
      c.text,
    ] as const;
    let id: number;
    if (existing) {
      id = existing.id;
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
      nameText(c.title),
      "",
      indexText(c.keywords ?? ""),
      "",
      indexText(c.text),
      c.path ? pathText(c.path.replace(/^\/+/, "")) : "",
    );
    return id;
  });
}

/** Removes the chunk of one note or memory; returns true when there was one. */
export function deleteLooseChunk(
  j: Journal,
  source: "notes" | "memory",
  refId: number | string,
): boolean {
  return inTx(j, () => {
    const row = j.get<{ id: number }>(
      "SELECT id FROM chunks WHERE source = ? AND ref_id = ? AND path_id IS NULL",
      source,
      refId,
    );
    if (!row) return false;
    j.run("DELETE FROM chunks_fts WHERE rowid = ?", row.id);
    j.run("DELETE FROM chunks WHERE id = ?", row.id);
    return true;
  });
}

function inTx<T>(j: Journal, fn: () => T): T {
  return j.db.isTransaction ? fn() : j.tx(fn);
}
