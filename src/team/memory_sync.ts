/**
 * Copying the team's shared memory into this machine's journal, so that
 * `why`, `history`, search, who-knows and hand-offs read it like their own:
 * every change after the journal's cursor (the store's revision feed), in
 * batches, each batch one SQLite transaction that also moves the cursor.
 * Rows are keyed by their id, so a copy is never duplicated; a row already
 * here takes the store's columns and keeps its anchors (re-anchored here as
 * this machine's code moves). Anchors of new rows are placed on this
 * machine's code; those it has not got wait as placeholders and are placed
 * again when the index grows.
 */
import { isAbsolute } from "../files/mod.ts";
import {
  type AnchorRow,
  mirrorMemories,
  missingIds,
  reanchorIfStale,
  syncSearch,
  updateAnchor,
} from "../memory/mod.ts";
import { getMeta, type Journal, setMeta } from "../store/mod.ts";
import { AnchorPlacer } from "./anchor_place.ts";
import { parsePlaceholder } from "./memory_anchor.ts";
import { type FeedCursor, storeChanges } from "./pg_memory.ts";
import type { PgTeamStore } from "./pg_store.ts";

/** Rows per round trip and per local transaction. */
const BATCH = 500;

/** What one {@link pullMemories} did. */
export interface PullReport {
  /** Rows new here. */
  added: number;
  /** Rows already here whose columns changed (superseded, repeated, resolved, forgotten). */
  updated: number;
  /** Placeholder anchors placed on code this machine now has. */
  placed: number;
}

const cursorKey = (store: string) => `team_memory_cursor:${store}`;
const PLACES_KEY = "team_memory_places";

/** The journal's position in the feed of store `store` (the start when it never pulled). */
export function readCursor(j: Journal, store: string): FeedCursor {
  const raw = getMeta(j, cursorKey(store));
  return raw === undefined ? { rev: 0, id: "" } : JSON.parse(raw) as FeedCursor;
}

/**
 * Brings this journal's copy of the store's shared memory up to date (see
 * the module comment). Cost when nothing changed: one round trip and two
 * small SQLite reads (the cursor, the index's fingerprint); otherwise one round trip per {@link BATCH} rows, a
 * placement (a few indexed queries and stats) per new row's anchor, and
 * their search entries. Throws TeamStoreError when the store is lost.
 */
export async function pullMemories(j: Journal, store: PgTeamStore): Promise<PullReport> {
  const storeId = await store.storeId();
  const report: PullReport = { added: 0, updated: 0, placed: 0 };
  const placer = new AnchorPlacer(j);
  const recheck = new Set<string>();
  let cursor = readCursor(j, storeId);
  for (;;) {
    const { changes, wentBack } = await storeChanges(store, cursor, BATCH);
    if (wentBack) {
      // The store was restored from an older backup: its revisions count
      // again from there, and what was written since under revisions this
      // journal's cursor has passed would be skipped. Pull it all again
      // (copies are keyed by id: nothing doubles).
      cursor = { rev: 0, id: "" };
      j.tx(() => setMeta(j, cursorKey(storeId), JSON.stringify(cursor)));
      continue;
    }
    if (changes.length === 0) break;
    const now = Date.now();
    const fresh = missingIds(j, changes.map((c) => c.row.id));
    // Placing reads the index and the disk: done before the write transaction.
    const placed = new Map<string, AnchorRow[]>();
    for (const c of changes) {
      if (!fresh.has(c.row.id)) continue;
      const anchors = c.anchors.map((p, i) => placer.place(p, i, now));
      for (const a of anchors) if (a.root !== null && a.node_id === null) recheck.add(a.path);
      placed.set(c.row.id, anchors);
    }
    const last = changes[changes.length - 1]!;
    cursor = { rev: last.rev, id: last.row.id };
    const done = j.tx(() => {
      const r = mirrorMemories(j, storeId, changes, (id) => placed.get(id) ?? []);
      // Only forward: a pull running at once may have gone further already.
      const have = readCursor(j, storeId);
      if (cursor.rev > have.rev || (cursor.rev === have.rev && cursor.id > have.id)) {
        setMeta(j, cursorKey(storeId), JSON.stringify(cursor));
      }
      return r;
    });
    report.added += done.added.length;
    report.updated += done.updated.length;
    if (changes.length < BATCH) break;
  }
  // Placed on a file without the symbol (yet): re-anchoring follows it or marks it orphaned.
  for (const path of recheck) reanchorIfStale(j, Date.now(), path);
  report.placed = placePlaceholders(j, placer);
  return report;
}

/**
 * Places the anchors of copies that wait for code this machine had not got,
 * when the index has grown or changed roots since the last look (a cheap
 * fingerprint: the highest path id and the roots). Returns how many found
 * their code.
 */
function placePlaceholders(j: Journal, placer: AnchorPlacer): number {
  const f = j.get<{ p: number | null; r: string | null }>(
    "SELECT (SELECT max(id) FROM paths) AS p, (SELECT group_concat(id) FROM roots) AS r",
  )!;
  const fingerprint = `${f.p ?? 0}:${f.r ?? ""}`;
  if (getMeta(j, PLACES_KEY) === fingerprint) return 0;
  const waiting = j.all<AnchorRow & { memory_id: string }>(
    `SELECT a.* FROM memory_anchors a JOIN memory_shared s ON s.memory_id = a.memory_id
     WHERE a.root IS NULL`,
  ).filter((a) => !isAbsolute(a.path));
  const now = Date.now();
  const found: { memoryId: string; anchor: AnchorRow }[] = [];
  for (const a of waiting) {
    const anchor = placer.place(parsePlaceholder(a), a.ord, now);
    if (isAbsolute(anchor.path)) found.push({ memoryId: a.memory_id, anchor });
  }
  j.tx(() => {
    for (const { memoryId, anchor } of found) {
      const { ord: _ord, original: _original, ...patch } = anchor;
      updateAnchor(j, memoryId, anchor.ord, patch);
    }
    syncSearch(j, [...new Set(found.map((x) => x.memoryId))]);
    setMeta(j, PLACES_KEY, fingerprint);
  });
  for (
    const path of new Set(found.filter((x) => x.anchor.node_id === null).map((x) => x.anchor.path))
  ) {
    reanchorIfStale(j, now, path);
  }
  return found.length;
}
