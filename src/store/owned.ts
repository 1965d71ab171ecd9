import { InternalError } from "../errors/mod.ts";
import type { Journal } from "./journal.ts";
import type { ChunkRecord, NodeRecord, OwnedRows, PathRecord, PathRow } from "./types.ts";
import { addPathVocab, flushVocab, removePathVocab, VocabDelta } from "./vocab_counts.ts";

/**
 * A commit lost the race: the path's generation moved (or the path appeared or
 * vanished) after its reconcile began. The caller requeues the path.
 */
export class StaleCommitError extends InternalError {
  /** The commit of `path` expected generation `expected` and found `found` (null: no row). */
  constructor(
    readonly path: string,
    readonly expected: number | null,
    readonly found: number | null,
  ) {
    super(
      `Stale commit for "${path}": expected generation ${expected ?? "none"}, found ${
        found ?? "none"
      }; the path was requeued`,
    );
    this.name = "StaleCommitError";
  }
}

/** Every column a commit writes to `paths`, in one order for both INSERT and UPDATE. */
const PATH_COLUMNS = [
  "root_id",
  "path",
  "rel",
  "state",
  "reason",
  "hash",
  "size",
  "mtime_ms",
  "ctime_ms",
  "language",
  "summary",
  "requested_depth",
  "target_depth",
  "effective_depth",
  "depth_reason",
  "racy",
  "derivation",
] as const satisfies readonly (keyof PathRecord)[];

/**
 * The derivation of a path whose rows are being written in parts: no build
 * derives rows by it, so a path left so (by a crash between two parts) is
 * derived again, whole, by the next audit.
 */
export const UNFINISHED = "unfinished";

/**
 * Rows a path's commit writes or deletes between two points where its
 * transaction may commit. One large file's rows (a 3,000-symbol header:
 * 10,000 rows) would hold the journal's write lock for several hundred ms
 * in one transaction; in parts of this size, no step holds it for more than
 * ~20 ms, and the bulk writer commits between two of them once its budget is
 * spent.
 */
export const PART_ROWS = 500;

/** The rows one chunk writes: its own, its full-text row and that row's size. */
const CHUNK_ROWS = 3;
/** The rows one vector writes or deletes: its own and, deleted, its line in `vectors_gone`. */
const VECTOR_ROWS = 2;

/**
 * Where a path's commit may pause: counts the rows it writes and, when a
 * part is full, says so. The first pause marks the path's row
 * {@link UNFINISHED} (inside the transaction that commits at that pause),
 * so that a journal left between two parts, by a crash or a reader looking
 * in, has the path re-derived whole by the next audit; {@link finish} gives
 * the row its derivation back in the last part.
 */
class Parts {
  #rows = 0;
  #marked = false;

  constructor(readonly j: Journal, readonly pathId: number, readonly label: string) {}

  /** Counts `n` rows; true when they fill a part (the path is then marked unfinished). */
  full(n = 1): boolean {
    this.#rows += n;
    return this.#rows >= PART_ROWS && this.cut();
  }

  /** Ends the part here (a slice of rows that filled it); true. */
  cut(): true {
    this.#rows = 0;
    if (!this.#marked) {
      this.j.run("UPDATE paths SET derivation = ? WHERE id = ?", UNFINISHED, this.pathId);
      this.#marked = true;
    }
    return true;
  }

  /** The last part: a path marked unfinished gets `derivation` back. */
  finish(derivation: string | null | undefined): void {
    if (!this.#marked) return;
    this.j.run("UPDATE paths SET derivation = ? WHERE id = ?", derivation ?? null, this.pathId);
  }
}

/**
 * Runs a commit's parts to the end in the caller's transaction and returns
 * its result. Its vocabulary counts go into `vocab` when given (the caller
 * writes them), else they are written here.
 */
function wholly<T>(
  j: Journal,
  vocab: VocabDelta | undefined,
  commit: (delta: VocabDelta) => Generator<string, T>,
): T {
  const delta = vocab ?? new VocabDelta();
  const parts = commit(delta);
  for (;;) {
    const step = parts.next();
    if (!step.done) continue;
    if (!vocab) flushVocab(j, delta);
    return step.value;
  }
}

/** The generation a reconcile must see at commit time; null when the path had no row. */
export type ExpectedGeneration = number | null;

function guard(j: Journal, path: string, expected: ExpectedGeneration): PathRow | undefined {
  const row = j.get<PathRow>("SELECT id, generation FROM paths WHERE path = ?", path);
  const found = row?.generation ?? null;
  if (found !== expected) throw new StaleCommitError(path, expected, found);
  return row;
}

/**
 * Deletes a path's rows before new ones are written, in parts; with
 * `stored`, its nodes and chunks stay, for {@link syncNodes} and
 * {@link syncChunks} to bring to the new rows by difference.
 */
function* deleteOwned(
  j: Journal,
  pathId: number,
  vocab: VocabDelta,
  parts: Parts,
  stored?: StoredRows,
): Generator<string> {
  removePathVocab(j, pathId, vocab);
  yield* deleteWhere(j, "vectors", "path_id", pathId, parts, VECTOR_ROWS);
  if (!stored) {
    yield* deleteChunks(j, pathId, parts);
    yield* deleteWhere(j, "nodes", "path_id", pathId, parts);
  }
  yield* deleteWhere(j, "edges", "owner_id", pathId, parts);
  yield* deleteWhere(j, "pending_edges", "owner_id", pathId, parts);
}

/**
 * Deletes the rows of `table` whose `column` is `id`, a part at a time
 * (`each`: the rows one of them writes in all).
 */
function* deleteWhere(
  j: Journal,
  table: string,
  column: string,
  id: number,
  parts: Parts,
  each = 1,
): Generator<string> {
  const limit = Math.floor(PART_ROWS / each);
  const del = j.stmt(
    `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${column} = ? LIMIT ${limit})`,
  );
  for (;;) {
    const n = Number(del.run(id).changes);
    if (n === limit ? parts.cut() : parts.full(n * each)) yield parts.label;
    if (n < limit) return;
  }
}

/** A path's nodes and chunks as stored, read before an edit replaces them. */
interface StoredRows {
  /** Node rows by id. */
  nodes: Map<string, NodeRecord>;
  /** Chunk ids by {@link chunkKeys}, in id order. */
  chunks: Map<string, StoredChunk[]>;
}

/** A stored chunk's id and lines. */
interface StoredChunk {
  id: number;
  start_line: number | null;
  end_line: number | null;
}

/**
 * The stored nodes and chunks of path `pathId`, when its rows were derived
 * by the same code as the new ones, under the same root-relative name and
 * language (`p`): only then does a chunk with the same key have the same
 * full-text row. Undefined otherwise.
 */
function storedRows(
  j: Journal,
  pathId: number,
  p: PathRecord,
  previous: readonly NodeRecord[],
): StoredRows | undefined {
  if (!p.derivation) return undefined;
  const row = j.get<{ derivation: string | null; rel: string; language: string | null }>(
    "SELECT derivation, rel, language FROM paths WHERE id = ?",
    pathId,
  );
  if (row?.derivation !== p.derivation || row.rel !== p.rel || row.language !== p.language) {
    return undefined;
  }
  const nodes = new Map(previous.map((n) => [n.id, n]));
  const keyOf = chunkKeys(previous);
  const chunks = new Map<string, StoredChunk[]>();
  for (
    const c of j.all<ChunkRecord & StoredChunk>(
      `SELECT id, node_id, source, title, start_line, end_line, text_hash FROM chunks
       WHERE path_id = ? ORDER BY id`,
      pathId,
    )
  ) {
    const key = keyOf(c);
    const list = chunks.get(key);
    if (list) list.push(c);
    else chunks.set(key, [c]);
  }
  return { nodes, chunks };
}

/**
 * A chunk's key: everything its full-text row is derived from besides its
 * lines' place in the file. Its node, source, title and text hash, and of
 * its node the name, signature and doc comment (which may stand above its
 * lines), and where its children lie within it (its own text leaves them
 * out). Two chunks with one key have the same full-text row.
 */
function chunkKeys(
  nodes: readonly NodeRecord[],
): (c: Pick<ChunkRecord, "node_id" | "source" | "title" | "text_hash">) => string {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const inside = new Map<string, number[][]>();
  for (const n of nodes) {
    if (n.parent_id === null) continue;
    const list = inside.get(n.parent_id) ?? [];
    list.push([n.start_line ?? -1, n.end_line ?? -1]);
    inside.set(n.parent_id, list);
  }
  return (c) => {
    const n = c.node_id === null ? undefined : byId.get(c.node_id);
    const at = n?.start_line ?? 0;
    const children = (inside.get(c.node_id ?? "") ?? []).map(([a, b]) => `${a! - at}-${b! - at}`)
      .sort().join(" ");
    return `${c.node_id}\0${c.source}\0${c.title}\0${c.text_hash}\0${n?.name}\0${n?.signature}\0${n?.doc}\0${children}`;
  };
}

/** The node rows of path `pathId`, as stored. */
export function pathNodes(j: Journal, pathId: number): NodeRecord[] {
  return j.all<NodeRecord>(
    `SELECT id, parent_id, kind, name, qualname, start_line, end_line, signature, doc,
       struct_hash, partial, scoped FROM nodes WHERE path_id = ?`,
    pathId,
  );
}

/** The node columns no index holds: an edit updates them in place. */
const NODE_DETAILS = [
  "kind",
  "start_line",
  "end_line",
  "signature",
  "doc",
  "struct_hash",
  "partial",
  "scoped",
] as const satisfies readonly (keyof NodeRecord)[];

/**
 * Brings a path's stored nodes to `nodes`: a node whose id stays keeps its
 * row (its lines and other unindexed columns updated when they moved), the
 * rest are inserted and deleted. An edit of one function in a large file
 * rewrites one node's index entries, not every node's.
 */
function* syncNodes(
  j: Journal,
  pathId: number,
  nodes: readonly NodeRecord[],
  stored: Map<string, NodeRecord>,
  parts: Parts,
): Generator<string> {
  const ins = insertNode(j);
  const moved = j.stmt(
    `UPDATE nodes SET ${NODE_DETAILS.map((c) => `${c} = ?`).join(", ")} WHERE id = ?`,
  );
  const del = j.stmt("DELETE FROM nodes WHERE id = ?");
  const gone = new Map(stored);
  for (const n of nodes) {
    const o = gone.get(n.id);
    gone.delete(n.id);
    if (o && o.parent_id === n.parent_id && o.name === n.name && o.qualname === n.qualname) {
      if (NODE_DETAILS.some((c) => o[c] !== n[c])) {
        moved.run(...NODE_DETAILS.map((c) => n[c]), n.id);
        if (parts.full()) yield parts.label;
      }
      continue;
    }
    if (o) del.run(n.id);
    ins(pathId, n);
    if (parts.full()) yield parts.label;
  }
  for (const id of gone.keys()) {
    del.run(id);
    if (parts.full()) yield parts.label;
  }
}

/**
 * Brings a path's stored chunks to `chunks`: a chunk with the same key
 * ({@link chunkKeys}) keeps its row and its full-text row, its lines
 * updated; the others are inserted, and what is left of the stored ones is
 * deleted. Returns the chunks' ids, in order.
 */
function* syncChunks(
  j: Journal,
  pathId: number,
  chunks: readonly ChunkRecord[],
  nodes: readonly NodeRecord[],
  stored: Map<string, StoredChunk[]>,
  parts: Parts,
): Generator<string, number[]> {
  const keyOf = chunkKeys(nodes);
  const moved = j.stmt("UPDATE chunks SET start_line = ?, end_line = ? WHERE id = ?");
  const fresh: ChunkRecord[] = [];
  const ids: number[] = [];
  for (const c of chunks) {
    const o = stored.get(keyOf(c))?.shift();
    if (!o) {
      fresh.push(c);
      ids.push(-1);
      continue;
    }
    ids.push(o.id);
    if (o.start_line !== c.start_line || o.end_line !== c.end_line) {
      moved.run(c.start_line, c.end_line, o.id);
      if (parts.full()) yield parts.label;
    }
  }
  const delFts = j.stmt("DELETE FROM chunks_fts WHERE rowid = ?");
  const del = j.stmt("DELETE FROM chunks WHERE id = ?");
  for (const list of stored.values()) {
    for (const o of list) {
      delFts.run(o.id);
      del.run(o.id);
      if (parts.full(CHUNK_ROWS)) yield parts.label;
    }
  }
  const added = yield* insertChunks(j, pathId, fresh, parts);
  let next = 0;
  return ids.map((id) => (id === -1 ? added[next++]! : id));
}

/**
 * Replaces every row `rows.path.path` owns with `rows`, guarded by generation.
 * Must run inside a transaction (the caller batches paths). The guard runs
 * before any write: {@link StaleCommitError} means nothing was written.
 * Returns the path's row id, its new generation, and the node rows it had
 * before (none for a new path), which the resolver compares with the new ones.
 *
 * An edit (a path already indexed, derived by the same code, same name and
 * language) replaces its nodes and chunks by difference: what it left as it
 * was keeps its row and its full-text row, only moved lines are updated
 * (see {@link syncNodes}, {@link syncChunks}). The rows afterwards are the
 * same as a full replacement gives, less the row ids; a 3,226-symbol file's
 * edit committed in 154–187 ms instead of 214–332 in a 28,900-file index.
 *
 * What the path's documented symbols teach the learned vocabulary is
 * replaced like its other rows; its word counts change by what they teach
 * now less what they taught before: into `vocab` when given (the caller
 * writes it with {@link flushVocab} before its transaction commits, once for
 * many paths), else written here.
 */
export function replaceOwnedRows(
  j: Journal,
  rows: OwnedRows,
  expected: ExpectedGeneration,
  vocab?: VocabDelta,
): Replaced {
  return wholly(j, vocab, (delta) => replaceOwnedRowsInParts(j, rows, expected, delta));
}

/** What {@link replaceOwnedRows} did. */
export interface Replaced {
  /** The path's row id. */
  pathId: number;
  /** Its new generation. */
  generation: number;
  /** Its node rows before (none for a new path). */
  previous: readonly NodeRecord[];
}

/**
 * {@link replaceOwnedRows} in parts of at most {@link PART_ROWS} rows: each
 * value it yields is a point where the caller may commit its transaction
 * (having written `vocab` with {@link flushVocab}) and begin another. A path
 * left between two parts is marked {@link UNFINISHED}, so the journal is
 * consistent at every such point: the next audit derives the path again,
 * whole. A path of fewer rows never yields.
 */
export function* replaceOwnedRowsInParts(
  j: Journal,
  rows: OwnedRows,
  expected: ExpectedGeneration,
  vocab: VocabDelta,
): Generator<string, Replaced> {
  const p = rows.path;
  // A new path needs no look-up: UNIQUE(path) is the guard.
  const current = expected === null ? undefined : guard(j, p.path, expected);
  let pathId: number;
  let generation: number;
  let kept: Map<string, KeptVector[]> | undefined;
  let stored: StoredRows | undefined;
  let previous: NodeRecord[] = [];
  const values = PATH_COLUMNS.map((c) => p[c] ?? null);
  if (current) {
    pathId = current.id;
    generation = current.generation + 1;
    kept = embeddedTexts(j, pathId);
    previous = pathNodes(j, pathId);
    stored = storedRows(j, pathId, p, previous);
    j.run(
      `UPDATE paths SET ${
        PATH_COLUMNS.map((c) => `${c} = ?`).join(", ")
      }, generation = ? WHERE id = ?`,
      ...values,
      generation,
      pathId,
    );
  } else {
    generation = 1;
    try {
      pathId = Number(
        j.stmt(
          `INSERT INTO paths (${PATH_COLUMNS.join(", ")}, generation)
           VALUES (${PATH_COLUMNS.map(() => "?").join(", ")}, ?)`,
        ).run(...values, generation).lastInsertRowid,
      );
    } catch (e) {
      if (!/UNIQUE constraint failed/.test(String((e as Error).message))) throw e;
      const found = j.get<{ generation: number }>(
        "SELECT generation FROM paths WHERE path = ?",
        p.path,
      );
      throw new StaleCommitError(p.path, null, found?.generation ?? null);
    }
  }
  const parts = new Parts(j, pathId, `committing "${p.path}" (a part)`);
  if (current) yield* deleteOwned(j, pathId, vocab, parts, stored);
  if (stored) yield* syncNodes(j, pathId, rows.nodes, stored.nodes, parts);
  else {
    const ins = insertNode(j);
    for (const n of rows.nodes) {
      ins(pathId, n);
      if (parts.full()) yield parts.label;
    }
  }
  const insEdge = j.stmt(
    "INSERT INTO edges (owner_id, src, dst, kind, line) VALUES (?, ?, ?, ?, ?)",
  );
  for (const e of rows.edges) {
    insEdge.run(pathId, e.src, e.dst, e.kind, e.line);
    if (parts.full()) yield parts.label;
  }
  const insPending = j.stmt(
    "INSERT INTO pending_edges (owner_id, src, kind, target, module, line, name, module_tail, args, imported) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  for (const e of rows.pending) {
    insPending.run(
      pathId,
      e.src,
      e.kind,
      e.target,
      e.module,
      e.line,
      e.name,
      e.module_tail,
      e.args ?? null,
      e.imported ?? null,
    );
    if (parts.full()) yield parts.label;
  }
  const chunks = rows.chunks ?? [];
  const ids = stored
    ? yield* syncChunks(j, pathId, chunks, rows.nodes, stored.chunks, parts)
    : yield* insertChunks(j, pathId, chunks, parts);
  if (kept && kept.size > 0) yield* keepVectors(j, pathId, rows.nodes, chunks, ids, kept, parts);
  addPathVocab(j, pathId, p.rel, rows.vocab, vocab);
  parts.finish(p.derivation);
  return { pathId, generation, previous };
}

/** A vector of a chunk a commit replaces, kept for a new chunk with the same text. */
interface KeptVector {
  embedding_model: string;
  dims: number;
  quant: string;
  scale: number;
  data: Uint8Array;
}

/**
 * What a vector embeds: the chunk's own lines and its symbol's doc comment,
 * which may stand above those lines.
 */
function embeddedKey(textHash: string, doc: string | null | undefined): string {
  return `${textHash}\0${doc ?? ""}`;
}

/** The path's vectors by the text they embed (one per model), before its rows are replaced. */
function embeddedTexts(j: Journal, pathId: number): Map<string, KeptVector[]> {
  const byText = new Map<string, KeptVector[]>();
  for (
    const v of j.all<KeptVector & { text_hash: string; doc: string | null }>(
      `SELECT v.text_hash, v.embedding_model, v.dims, v.quant, v.scale, v.data, n.doc
       FROM vectors v JOIN chunks c ON c.id = v.chunk_id LEFT JOIN nodes n ON n.id = c.node_id
       WHERE v.path_id = ? ORDER BY v.id`,
      pathId,
    )
  ) {
    const key = embeddedKey(v.text_hash, v.doc);
    const list = byText.get(key) ?? [];
    if (!list.some((k) => k.embedding_model === v.embedding_model)) list.push(v);
    byText.set(key, list);
  }
  return byText;
}

/**
 * An edit re-embeds only the chunks whose text it changed: a new chunk whose
 * text is the same as a replaced one's gets that vector again, in the same
 * transaction (new rows, so the vector caches see the old ones go).
 */
function* keepVectors(
  j: Journal,
  pathId: number,
  nodes: readonly NodeRecord[],
  chunks: readonly ChunkRecord[],
  ids: readonly number[],
  kept: Map<string, KeptVector[]>,
  parts: Parts,
): Generator<string> {
  const ins = j.stmt(
    `INSERT INTO vectors (chunk_id, path_id, embedding_model, dims, quant, scale, data, text_hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const docs = new Map(nodes.map((n) => [n.id, n.doc]));
  for (const [i, c] of chunks.entries()) {
    const doc = c.node_id === null ? null : docs.get(c.node_id);
    for (const v of kept.get(embeddedKey(c.text_hash, doc)) ?? []) {
      ins.run(ids[i]!, pathId, v.embedding_model, v.dims, v.quant, v.scale, v.data, c.text_hash);
      if (parts.full(VECTOR_ROWS)) yield parts.label;
    }
  }
}

/** Inserts one node row of path `pathId`. */
function insertNode(j: Journal): (pathId: number, n: NodeRecord) => void {
  const ins = j.stmt(
    `INSERT INTO nodes (id, path_id, parent_id, kind, name, qualname, start_line, end_line,
       signature, doc, struct_hash, partial, scoped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return (pathId, n) =>
    ins.run(
      n.id,
      pathId,
      n.parent_id,
      n.kind,
      n.name,
      n.qualname,
      n.start_line,
      n.end_line,
      n.signature,
      n.doc,
      n.struct_hash,
      n.partial,
      n.scoped,
    );
}

/**
 * Deletes a path's chunks and their full-text rows (the FTS table is
 * contentless: by rowid), a part at a time.
 */
function* deleteChunks(j: Journal, pathId: number, parts: Parts): Generator<string> {
  const limit = Math.floor(PART_ROWS / CHUNK_ROWS);
  const some = `SELECT id FROM chunks WHERE path_id = ? ORDER BY id LIMIT ${limit}`;
  const fts = j.stmt(`DELETE FROM chunks_fts WHERE rowid IN (${some})`);
  const del = j.stmt(`DELETE FROM chunks WHERE id IN (${some})`);
  for (;;) {
    fts.run(pathId);
    const n = Number(del.run(pathId).changes);
    if (n === limit ? parts.cut() : parts.full(CHUNK_ROWS * n)) yield parts.label;
    if (n < limit) return;
  }
}

/** Inserts a path's chunks and their full-text rows; returns their ids, in order. */
function* insertChunks(
  j: Journal,
  pathId: number,
  chunks: readonly ChunkRecord[],
  parts: Parts,
): Generator<string, number[]> {
  const ins = j.stmt(
    `INSERT INTO chunks (path_id, node_id, source, title, start_line, end_line, text_hash)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const fts = j.stmt(
    "INSERT INTO chunks_fts (rowid, name, qual, sig, doc, body, path) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const ids: number[] = [];
  for (const c of chunks) {
    const id = ins.run(
      pathId,
      c.node_id,
      c.source,
      c.title,
      c.start_line,
      c.end_line,
      c.text_hash,
    ).lastInsertRowid;
    const f = c.fts;
    fts.run(id, f.name, f.qual, f.sig, f.doc, f.body, f.path);
    ids.push(Number(id));
    if (parts.full(CHUNK_ROWS)) yield parts.label;
  }
  return ids;
}

/**
 * Updates only the stat columns of an unchanged file (same hash), guarded by
 * generation like a full commit. Returns the new generation.
 */
export function touchPath(
  j: Journal,
  path: string,
  expected: ExpectedGeneration,
  stat: { size: number; mtime_ms: number; ctime_ms: number; racy: number },
): number {
  const row = guard(j, path, expected);
  if (!row) throw new StaleCommitError(path, expected, null);
  j.run(
    "UPDATE paths SET size = ?, mtime_ms = ?, ctime_ms = ?, racy = ?, generation = ? WHERE id = ?",
    stat.size,
    stat.mtime_ms,
    stat.ctime_ms,
    stat.racy,
    row.generation + 1,
    row.id,
  );
  return row.generation + 1;
}

/**
 * Deletes a path and every row it owns, guarded by generation. A path with no
 * row and `expected` null is a no-op. Returns true when something was deleted.
 * Its symbols are uncounted from the learned vocabulary into `vocab` when
 * given (see {@link replaceOwnedRows}), else here.
 */
export function retractPath(
  j: Journal,
  path: string,
  expected: ExpectedGeneration,
  vocab?: VocabDelta,
): boolean {
  return wholly(j, vocab, (delta) => retractPathInParts(j, path, expected, delta));
}

/**
 * {@link retractPath} in parts, as {@link replaceOwnedRowsInParts} commits:
 * a path left between two parts is marked unfinished, and its row goes in
 * the last part.
 */
export function* retractPathInParts(
  j: Journal,
  path: string,
  expected: ExpectedGeneration,
  vocab: VocabDelta,
): Generator<string, boolean> {
  const row = guard(j, path, expected);
  if (!row) return false;
  yield* deleteOwned(j, row.id, vocab, new Parts(j, row.id, `retracting "${path}" (a part)`));
  j.run("DELETE FROM paths WHERE id = ?", row.id);
  return true;
}
