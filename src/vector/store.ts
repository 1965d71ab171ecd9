/**
 * The `vectors` table (schema migration "embeddings" in src/store/schema.ts):
 * one vector per (chunk, embedding model), with the model's name and
 * dimension on every row. Owned like its chunk: a commit of a path deletes
 * its vectors (`deleteOwned`), deleting a note's or memory's chunk cascades.
 * Every deletion is logged in `vectors_gone` (a trigger) so that a scan cache
 * follows it without re-reading the table.
 *
 * Queries go through the Journal (src/store owns node:sqlite); writes run
 * inside the caller's transaction.
 */
import { deleteMeta, deleteMetaPrefixed, getMeta, type Journal, setMeta } from "../store/mod.ts";
import type { Quant } from "./kernel.ts";
import type { EncodedVector } from "./quantize.ts";

/** One vector to store for a chunk. */
export interface NewVector {
  chunkId: number;
  /** The owning path (null for notes and memories). */
  pathId: number | null;
  /** The chunk's text_hash when its text was read: the vector is for that text. */
  textHash: string;
  vector: EncodedVector;
}

/** A stored vector as a scan cache loads it. */
export interface StoredVector {
  id: number;
  chunk_id: number;
  dims: number;
  quant: Quant;
  scale: number;
  data: Uint8Array;
}

/** Vectors held per embedding model. */
export interface ModelCount {
  /** The model's name. */
  model: string;
  /** Its vectors. */
  count: number;
  /** The dimension(s) and encoding(s) its rows use: one of each unless something is wrong. */
  dims: number[];
  /** The encodings its rows use. */
  quants: Quant[];
}

/**
 * Stores vectors for `model`, one per chunk, inside the caller's
 * transaction. A chunk's earlier vector (of any model: switching models
 * replaces them one by one) is deleted first. A vector whose chunk is gone,
 * or whose chunk's text changed since it was read (`textHash`), is not
 * stored: another writer (a note edit, a commit) got there first. Returns
 * the number stored.
 */
export function putVectors(j: Journal, model: string, vectors: readonly NewVector[]): number {
  let stored = 0;
  for (const v of vectors) {
    const current = j.get<{ n: number }>(
      "SELECT count(*) AS n FROM chunks WHERE id = ? AND text_hash = ?",
      v.chunkId,
      v.textHash,
    )!.n;
    if (current === 0) continue;
    // Not INSERT OR REPLACE: its implicit delete would skip the vectors_gone trigger.
    j.run("DELETE FROM vectors WHERE chunk_id = ?", v.chunkId);
    j.run(
      `INSERT INTO vectors (chunk_id, path_id, embedding_model, dims, quant, scale, data, text_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      v.chunkId,
      v.pathId,
      model,
      v.vector.dims,
      v.vector.quant,
      v.vector.scale,
      v.vector.data,
      v.textHash,
    );
    stored++;
  }
  return stored;
}

/** Vector counts per embedding model, most first. */
export function vectorCounts(j: Journal): ModelCount[] {
  const rows = j.all<{ model: string; dims: number; quant: Quant; n: number }>(
    `SELECT embedding_model AS model, dims, quant, count(*) AS n FROM vectors
     GROUP BY embedding_model, dims, quant`,
  );
  const by = new Map<string, ModelCount>();
  for (const r of rows) {
    const m = by.get(r.model) ?? { model: r.model, count: 0, dims: [], quants: [] };
    m.count += r.n;
    if (!m.dims.includes(r.dims)) m.dims.push(r.dims);
    if (!m.quants.includes(r.quant)) m.quants.push(r.quant);
    by.set(r.model, m);
  }
  return [...by.values()].sort((a, b) => b.count - a.count || a.model.localeCompare(b.model));
}

/**
 * Every vector of `model` with id above `afterId`, in id order, streamed in
 * pages (a page's `all()` costs half as much per row as a row iterator).
 */
export function* iterateVectors(j: Journal, model: string, afterId = 0): Generator<StoredVector> {
  const page = j.stmt(
    `SELECT id, chunk_id, dims, quant, scale, data FROM vectors
     WHERE embedding_model = ? AND id > ? ORDER BY id LIMIT 4096`,
  );
  for (let last = afterId;;) {
    const rows = page.all(model, last) as unknown as StoredVector[];
    yield* rows;
    if (rows.length < 4096) return;
    last = rows[rows.length - 1]!.id;
  }
}

/** The number of vectors of `model` with id at most `maxId` (what a cache should still hold). */
export function countVectorsUpTo(j: Journal, model: string, maxId: number): number {
  return j.get<{ n: number }>(
    "SELECT count(*) AS n FROM vectors WHERE embedding_model = ? AND id <= ?",
    model,
    maxId,
  )!.n;
}

/**
 * Vector ids of `model` deleted after log position `seq`, and the newest
 * position. `complete` is false when the log was pruned past `seq`: the
 * caller must then reload instead.
 */
export function vectorsGoneSince(
  j: Journal,
  model: string,
  seq: number,
): { ids: number[]; last: number; complete: boolean } {
  const bounds = j.get<{ lo: number | null; hi: number | null }>(
    "SELECT min(seq) AS lo, max(seq) AS hi FROM vectors_gone",
  )!;
  const last = Math.max(seq, bounds.hi ?? 0);
  // Pruned entries up to `lo - 1`: complete only if none of them were after `seq`.
  const complete = bounds.lo === null ? lastPrunedSeq(j) <= seq : bounds.lo <= seq + 1;
  const ids = j.all<{ vector_id: number }>(
    "SELECT vector_id FROM vectors_gone WHERE seq > ? AND embedding_model = ? ORDER BY seq",
    seq,
    model,
  ).map((r) => r.vector_id);
  return { ids, last, complete };
}

/** The newest log position (0 when nothing was ever deleted). */
export function goneLogPosition(j: Journal): number {
  const hi = j.get<{ hi: number | null }>("SELECT max(seq) AS hi FROM vectors_gone")!.hi;
  return hi ?? lastPrunedSeq(j);
}

function lastPrunedSeq(j: Journal): number {
  // AUTOINCREMENT keeps the highest seq ever used in sqlite_sequence.
  return j.get<{ seq: number }>(
    "SELECT seq FROM sqlite_sequence WHERE name = 'vectors_gone'",
  )?.seq ?? 0;
}

/**
 * Drops deletion-log entries older than `beforeMs` (inside the caller's
 * transaction). A reader whose cache is older than that reloads in full.
 */
export function pruneGoneLog(j: Journal, beforeMs: number): number {
  return j.run("DELETE FROM vectors_gone WHERE gone_ms < ?", beforeMs);
}

/** Deletes every vector of `model` (inside the caller's transaction); returns how many. */
export function deleteModelVectors(j: Journal, model: string): number {
  return j.run("DELETE FROM vectors WHERE embedding_model = ?", model);
}

/** The `meta` key holding which install of `model` its vectors were made by. */
const installKey = (model: string) => `vectors_install:${model}`;

/** Which install of `model` (`TextEmbedder.fingerprint`) its stored vectors were made by; undefined when not recorded. */
export function vectorsInstall(j: Journal, model: string): string | undefined {
  return getMeta(j, installKey(model));
}

/**
 * Records that `model`'s vectors are made by install `fingerprint` (inside
 * the caller's transaction). When another install of the same name made the
 * stored ones, they are deleted (logged in `vectors_gone`, so scan caches
 * drop them too): they are not this model's. Returns how many were deleted.
 * A journal that never recorded an install keeps its vectors.
 */
export function adoptInstall(j: Journal, model: string, fingerprint: string): number {
  const was = vectorsInstall(j, model);
  if (was === fingerprint) return 0;
  setMeta(j, installKey(model), fingerprint);
  return was === undefined ? 0 : deleteModelVectors(j, model);
}

/** Forgets the install records of models other than `model` (their vectors are gone). */
export function forgetOtherInstalls(j: Journal, model: string): void {
  deleteMetaPrefixed(j, installKey(""), installKey(model));
}

/** The `meta` key holding why the writer could not load `model`. */
const failureKey = (model: string) => `vectors_load_failed:${model}`;

/** Why the writer last could not load `model` (the reason it gave), or undefined when it could. */
export function loadFailure(j: Journal, model: string): string | undefined {
  return getMeta(j, failureKey(model));
}

/**
 * Records (or, with null, clears) that the writer could not load `model`,
 * inside the caller's transaction: readers (`status`, `doctor`, the semantic
 * leg) then say so instead of waiting for vectors that will not come.
 */
export function setLoadFailure(j: Journal, model: string, reason: string | null): void {
  if (reason === null) deleteMeta(j, failureKey(model));
  else setMeta(j, failureKey(model), reason);
}
