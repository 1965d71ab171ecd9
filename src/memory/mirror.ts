/**
 * Copies of a team store's memories in this journal. When a shared
 * PostgreSQL is connected (`src/team`), memories of scope project and team
 * are decided and stored there; each machine pulls them into its own
 * `memories` rows (same ids) so that `why`, `history`, search and who-knows
 * read them like any other, and marks them in `memory_shared` with the store
 * they came from. Writes to such a row go to the store, never only here.
 * Private memories are never copies.
 */
import type { Journal } from "../store/mod.ts";
import {
  getMemoryRow,
  insertAnchors,
  insertMemory,
  MEMORY_COLUMNS,
  replaceMemory,
} from "./records.ts";
import { syncSearch } from "./searchable.ts";
import { keepMarks } from "./transfer.ts";
import type { AnchorRow, MemoryRow } from "./types.ts";

/** The ids among `ids` that are copies of rows of team store `store` (null: of any store). */
export function sharedIn(j: Journal, store: string | null, ids: readonly string[]): Set<string> {
  if (ids.length === 0) return new Set();
  return new Set(
    j.all<{ memory_id: string }>(
      `SELECT memory_id FROM memory_shared
       WHERE (? IS NULL OR store = ?) AND memory_id IN (SELECT value FROM json_each(?))`,
      store,
      store,
      JSON.stringify(ids),
    ).map((r) => r.memory_id),
  );
}

/** The ids among `ids` that have no row in this journal yet. */
export function missingIds(j: Journal, ids: readonly string[]): Set<string> {
  const have = new Set(
    j.all<{ id: string }>(
      "SELECT id FROM memories WHERE id IN (SELECT value FROM json_each(?))",
      JSON.stringify(ids),
    ).map((r) => r.id),
  );
  return new Set(ids.filter((id) => !have.has(id)));
}

/** What {@link mirrorMemories} did. */
export interface MirrorReport {
  /** Rows new here. */
  added: string[];
  /** Rows already here whose columns changed. */
  updated: string[];
}

/**
 * A row of a team store, at one of its revisions.
 *
 * @internal
 */
export interface StoreCopy {
  row: MemoryRow;
  rev: number;
}

/**
 * Writes the store's copy of each row here, and marks it as a copy of
 * `store` at its revision. A row new here gets the anchors `anchorsOf`
 * returns for it (placed on this machine's code by the caller); a row
 * already here takes the store's columns and keeps its anchors, which this
 * machine re-anchors as its own code moves, and the marks made here that the
 * store's lacks (forgotten, superseded, resolved while disconnected), unless
 * the store saw that failure again since; a copy already here at the same
 * or a later revision of that store is left as it is (two pulls running at
 * once never step a row back). Search entries follow. Never deletes. Runs in
 * the caller's transaction when there is one, else in its own.
 */
export function mirrorMemories(
  j: Journal,
  store: string,
  copies: readonly StoreCopy[],
  anchorsOf: (id: string) => readonly AnchorRow[],
): MirrorReport {
  const report: MirrorReport = { added: [], updated: [] };
  if (copies.length === 0) return report;
  const write = () => {
    for (const { row, rev } of copies) {
      const have = j.get<{ rev: number }>(
        "SELECT rev FROM memory_shared WHERE memory_id = ? AND store = ?",
        row.id,
        store,
      );
      if (have && have.rev >= rev) continue;
      const local = getMemoryRow(j, row.id);
      if (!local) {
        insertMemory(j, row);
        insertAnchors(j, row.id, anchorsOf(row.id));
        report.added.push(row.id);
      } else {
        const kept = storeCopyOver(local, row);
        if (MEMORY_COLUMNS.some((c) => local[c] !== kept[c])) {
          replaceMemory(j, kept);
          report.updated.push(row.id);
        }
      }
      j.run(
        `INSERT INTO memory_shared (memory_id, store, rev) VALUES (?, ?, ?)
         ON CONFLICT (memory_id) DO UPDATE SET store = excluded.store, rev = excluded.rev`,
        row.id,
        store,
        rev,
      );
    }
    syncSearch(j, [...report.added, ...report.updated]);
  };
  if (j.db.isTransaction) write();
  else j.tx(write);
  return report;
}

/**
 * The store's copy `row` of `local`, with the marks made here that it lacks
 * (a forget, a supersession, a resolution while disconnected: see
 * {@link keepMarks}), unless the store saw the failure again after the mark
 * (its `last_seen_at` is later): a failure that came back is news, as it
 * would have been, connected, as a new open failure (pure).
 */
function storeCopyOver(local: MemoryRow, row: MemoryRow): MemoryRow {
  const kept = keepMarks(local, row);
  const after = (mark: number | null) => mark !== null && row.last_seen_at > mark;
  if (row.forgotten_at === null && after(local.forgotten_at)) {
    kept.forgotten_at = null;
    kept.forgotten_by = null;
  }
  if (row.status === "open" && after(local.resolved_at)) {
    kept.status = "open";
    kept.resolved_at = null;
    kept.resolved_by = null;
  }
  return kept;
}
