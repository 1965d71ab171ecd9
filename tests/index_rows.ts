/**
 * Shared helpers for tests that write a file's index rows straight into a
 * journal, below the reconciler: a fresh journal with one root, and the owned
 * rows of one indexed file under it.
 */
import { Journal, type OwnedRows } from "../src/store/mod.ts";
import { join } from "node:path";
import { tempDir } from "./helpers.ts";

/** A new journal in a temporary file, with one root `/r` (id 1). */
export function journalWithRoot(): Journal {
  const j = Journal.open(join(tempDir(), "journal.db"));
  j.run("INSERT INTO roots (path) VALUES ('/r')");
  return j;
}

/**
 * The owned rows of `path` (a file under `/r`), indexed at depth 1 with no
 * nodes, edges or pending edges; `over.path` replaces path columns, the rest
 * of `over` replaces or adds rows (chunks, vocabulary).
 */
export function indexedRows(
  path: string,
  over: { path?: Partial<OwnedRows["path"]> } & Partial<Omit<OwnedRows, "path">> = {},
): OwnedRows {
  const { path: columns, ...rows } = over;
  return {
    path: {
      root_id: 1,
      path,
      rel: path.slice(3),
      state: "indexed",
      reason: null,
      hash: path,
      size: 1,
      mtime_ms: 1,
      language: null,
      summary: null,
      requested_depth: 3,
      target_depth: 1,
      effective_depth: 1,
      depth_reason: null,
      racy: 0,
      ...columns,
    },
    nodes: [],
    edges: [],
    pending: [],
    ...rows,
  };
}
