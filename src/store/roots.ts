import type { Journal } from "./journal.ts";
import { retractPathInParts } from "./owned.ts";
import type { RootRow } from "./types.ts";
import { removeRootVocab, type VocabDelta } from "./vocab_counts.ts";

/** Every root in the journal, by path. */
export function listRoots(j: Journal): RootRow[] {
  return j.all<RootRow>("SELECT * FROM roots ORDER BY path");
}

/** Adds a root or updates its depth; returns its id. */
export function upsertRoot(j: Journal, path: string, depth: string): number {
  j.run(
    `INSERT INTO roots (path, depth) VALUES (?, ?)
     ON CONFLICT(path) DO UPDATE SET depth = excluded.depth WHERE depth != excluded.depth`,
    path,
    depth,
  );
  return j.get<{ id: number }>("SELECT id FROM roots WHERE path = ?", path)!.id;
}

/**
 * Deletes a root, every row its paths own, set by set (edges never cross
 * roots, so nothing outside it points in), and what `meta` holds of it.
 * Runs inside the caller's transaction, which holds the journal's write
 * lock for as long as the root has rows: for a root with files, the writer
 * first empties it with {@link retractRootPaths}, in short transactions.
 */
export function deleteRoot(j: Journal, id: number): void {
  const owned = "SELECT id FROM paths WHERE root_id = ?";
  removeRootVocab(j, id);
  j.run(
    `DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE path_id IN (${owned}))`,
    id,
  );
  j.run(`DELETE FROM chunks WHERE path_id IN (${owned})`, id);
  j.run(`DELETE FROM nodes WHERE path_id IN (${owned})`, id);
  j.run(`DELETE FROM edges WHERE owner_id IN (${owned})`, id);
  j.run(`DELETE FROM pending_edges WHERE owner_id IN (${owned})`, id);
  j.run("DELETE FROM paths WHERE root_id = ?", id);
  j.run("DELETE FROM roots WHERE id = ?", id);
  // Its id may be given to the next root (a rebuild makes them all again):
  // nothing known of this one may pass to it, its last audit least of all.
  for (const key of ["last_audit_ms", "resolve_pending", "reresolve", "tsconfig_aliases"]) {
    j.run("DELETE FROM meta WHERE key = ?", `${key}:${id}`);
  }
}

/** Paths of a root read at a time by {@link retractRootPaths}. */
const ROOT_PATHS_READ = 256;

/**
 * Retracts every path of root `id` with the rows it owns, one path at a
 * time as a commit retracts a deleted file ({@link retractPathInParts}, its
 * vocabulary counts into `vocab`): each value yielded is a point where the
 * caller may commit (having written `vocab`), so no transaction holds the
 * journal's lock for a whole root of 26,000 files. The root's row stays for
 * {@link deleteRoot}. A journal left between two parts (a crash, a kill)
 * still holds the root and its remaining paths, each whole or marked
 * unfinished: the next writer, seeing the root still unconfigured, retracts
 * the rest the same way. Reads the paths a few hundred at a time.
 */
export function* retractRootPaths(j: Journal, id: number, vocab: VocabDelta): Generator<string> {
  for (;;) {
    const batch = j.all<{ path: string; generation: number }>(
      `SELECT path, generation FROM paths WHERE root_id = ? ORDER BY id LIMIT ${ROOT_PATHS_READ}`,
      id,
    );
    if (batch.length === 0) return;
    for (const p of batch) {
      yield* retractPathInParts(j, p.path, p.generation, vocab);
      yield `retracting the files of root ${id}`;
    }
  }
}

/**
 * Records what the last full walk of a root skipped (written only when the
 * counts changed, so an audit of an unchanged tree writes no index row) and
 * when it ran (in `meta`, outside the index).
 */
export function recordAudit(
  j: Journal,
  id: number,
  counts: { secrets: number; ignored: number },
  now = Date.now(),
): void {
  j.run(
    `UPDATE roots SET secrets_skipped = ?, ignored_skipped = ?
     WHERE id = ? AND (secrets_skipped != ? OR ignored_skipped != ?)`,
    counts.secrets,
    counts.ignored,
    id,
    counts.secrets,
    counts.ignored,
  );
  j.run(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    `last_audit_ms:${id}`,
    String(now),
  );
}

/** When a root was last walked in full, if ever. */
export function lastAudit(j: Journal, id: number): number | null {
  const v = j.get<{ value: string }>("SELECT value FROM meta WHERE key = ?", `last_audit_ms:${id}`);
  return v ? Number(v.value) : null;
}

/** The root that contains `abs` (the longest matching root path), if any. Pure. */
export function rootFor<R extends { path: string }>(
  roots: readonly R[],
  abs: string,
): R | undefined {
  let best: R | undefined;
  for (const r of roots) {
    if (abs === r.path || abs.startsWith(r.path.endsWith("/") ? r.path : r.path + "/")) {
      if (!best || r.path.length > best.path.length) best = r;
    }
  }
  return best;
}
