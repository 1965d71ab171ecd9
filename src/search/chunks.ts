/**
 * Loose chunks: notes and memories made searchable. No path owns them, so
 * re-indexing never touches them; their writers call these functions in
 * plain SQLite transactions (no writer lock: the single-writer rule is about
 * the code index). This file derives what their full-text rows say; the
 * store holds the rows' SQL.
 */
import { dropLooseChunk, type Journal, putLooseChunk } from "../store/mod.ts";
import { screenRecord, type StoredSecret } from "../files/mod.ts";
import { pathText, textHash } from "../derive/chunk_rows.ts";
import { indexText, nameText } from "../derive/words.ts";

/**
 * How notes' and memories' full-text rows are derived from their text: bump
 * it when `derive/words.ts` changes what a text indexes as (the code index
 * follows the extractor's derivation instead). A writer makes every loose
 * chunk again when the journal's is older (memory's `refreshLooseText`).
 * 2: scripts written without spaces as overlapping pairs of characters,
 * combining marks dropped inside a word instead of cutting it.
 * 3: a memory's title flags its valid time (`valid until 2021-01-01`).
 */
export const LOOSE_TEXT_VERSION = 3;

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
  return putLooseChunk(j, {
    source: c.source,
    refId: c.refId,
    title: c.title,
    startLine: c.startLine ?? null,
    endLine: c.endLine ?? null,
    textHash: textHash(`${c.title}\n${c.text}`),
    anchor: c.path ?? null,
    text: c.text,
    fts: {
      name: nameText(c.title),
      doc: indexText(c.keywords ?? ""),
      body: indexText(c.text),
      path: c.path ? pathText(c.path.replace(/^\/+/, "")) : "",
    },
  });
}

/** Removes the chunk of one note or memory; returns true when there was one. */
export function deleteLooseChunk(
  j: Journal,
  source: "notes" | "memory",
  refId: number | string,
): boolean {
  return dropLooseChunk(j, source, refId);
}

/**
 * The chunks of notes or memories (`source`) whose title or text holds a
 * secret-shaped value, as an older build derived them before a rule of the
 * screen existed, keyed by the note's or memory's id: where (`search row`),
 * never the value. One screen per chunk, 500 chunks at a time; read-only.
 */
export function looseChunkSecrets(
  j: Journal,
  source: "notes" | "memory",
): Map<string, StoredSecret> {
  const out = new Map<string, StoredSecret>();
  const table = source === "notes" ? "notes" : "memories";
  // Paged by id: the loose chunks' text is never held whole.
  for (let last = 0;;) {
    const rows = j.all<{ id: number; ref_id: string | number; title: string; text: string | null }>(
      `SELECT id, ref_id, title, text FROM chunks
       WHERE source = ? AND path_id IS NULL AND id > ? ORDER BY id LIMIT 500`,
      source,
      last,
    );
    for (const c of rows) {
      const hit = screenRecord(table, c.ref_id, {
        "search row": c.text === null ? [c.title] : [c.title, c.text],
      });
      if (hit) out.set(String(c.ref_id), hit.found);
    }
    if (rows.length < 500) break;
    last = rows[rows.length - 1]!.id;
  }
  return out;
}

/**
 * One record's findings from its row and from its search chunk, as one
 * (the row's fields, then `search row`; the kinds of both, each once);
 * undefined when neither found any.
 */
export function mergeFound(
  row: StoredSecret | undefined,
  chunk: StoredSecret | undefined,
): StoredSecret | undefined {
  if (row === undefined || chunk === undefined) return row ?? chunk;
  const kinds = [...row.kinds];
  for (const k of chunk.kinds) if (!kinds.includes(k)) kinds.push(k);
  return { ...row, fields: [...row.fields, ...chunk.fields], kinds };
}
