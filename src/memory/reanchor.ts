/**
 * Keeping anchors attached to code that moves: the sweep that re-indexing
 * never does to memory rows. The full sweep runs after each writer pass that
 * changed the index (the CLI's `withWriter` and the daemon call it), at the
 * end of `heimdall rebuild` and after an import; before memory is read or
 * written, a cheap probe runs it only when some anchor has lost its code.
 *
 * An anchor is judged only when its path lies under an indexed root: code the
 * index does not cover (a root removed, a journal imported from another
 * machine) leaves it untouched.
 */
import { basename, join, relative } from "../files/mod.ts";
import { Journal, listRoots, rootFor } from "../store/mod.ts";
import { type DefinitionQuery, definitions } from "../search/mod.ts";
import { anchorLabel, factsOf, type NodeFacts, symbolPlace } from "./anchors.ts";
import { ANCHOR_COLUMNS, updateAnchor } from "./records.ts";
import { syncSearch } from "./searchable.ts";
import { fileShapes } from "./shape.ts";
import type { AnchorRow } from "./types.ts";

/** What one sweep changed. */
export interface ReanchorReport {
  /** Anchors in the journal (each is probed; only those whose code changed are read). */
  checked: number;
  /** Anchors that followed their code to a new place. */
  moved: number;
  /** Anchors whose code is gone. */
  orphaned: number;
  /** Orphaned anchors whose code came back where they were. */
  restored: number;
  /** Anchors whose code changed in place (hash or lines). */
  refreshed: number;
  /**
   * Anchors under no root here moved onto the one root of the same folder
   * name (an export imported before its repository was indexed here).
   */
  rebased: number;
  /** Memories whose anchors changed place or state (their search entries need updating). */
  memories: string[];
}

type Patch = Partial<Omit<AnchorRow, "ord">>;

type SymbolAnchor = AnchorRow & {
  memory_id: string;
  live_id: string | null;
  live_hash: string | null;
  live_start: number | null;
  live_end: number | null;
  live_file_hash: string | null;
};

/**
 * Checks every anchor against the index and moves, orphans, restores or
 * refreshes it; writes only when something changed, in one transaction.
 * Symbol anchors whose node is gone are followed, in this order, to: the same
 * qualified name in the same file; the same structural hash and name anywhere
 * (moved to another file); the same name in the same file (moved into or out
 * of a class); the same structural hash in the same file; the same shape (body
 * with the name blanked) and kind in the same file (renamed). Each step counts
 * only when exactly one node matches. File anchors follow a file with the same
 * content hash; folder anchors are orphaned when the folder is gone.
 *
 * Cost: one indexed look-up per anchor, a few more per broken anchor, and a
 * read of the file for a shape (rename search, and refreshing the shape of a
 * symbol whose structural hash changed).
 */
export function reanchorMemories(j: Journal, now = Date.now()): ReanchorReport {
  const roots = listRoots(j);
  const covered = (path: string) => rootFor(roots, path) !== undefined;
  const report: ReanchorReport = {
    checked: 0,
    moved: 0,
    orphaned: 0,
    restored: 0,
    refreshed: 0,
    rebased: 0,
    memories: [],
  };
  const rebased = rebaseForeign(j, roots);
  report.rebased = rebased.length;
  const patches: { memoryId: string; ord: number; patch: Patch; placeChanged: boolean }[] = [];
  const push = (memoryId: string, ord: number, patch: Patch, placeChanged: boolean) =>
    patches.push({ memoryId, ord, patch, placeChanged });

  const symbols = j.all<SymbolAnchor>(
    `SELECT a.*, n.id AS live_id, n.struct_hash AS live_hash, n.start_line AS live_start,
       n.end_line AS live_end, p.hash AS live_file_hash
     FROM memory_anchors a LEFT JOIN nodes n ON n.id = a.node_id
     LEFT JOIN paths p ON p.id = n.path_id
     WHERE a.target = 'symbol' AND (n.id IS NULL OR a.state = 'orphaned'
       OR n.struct_hash IS NOT a.struct_hash OR n.start_line IS NOT a.start_line
       OR n.end_line IS NOT a.end_line)`,
  );
  report.checked += j.get<{ n: number }>("SELECT count(*) AS n FROM memory_anchors")!.n;
  for (const a of symbols) {
    if (a.live_id !== null) {
      const patch: Patch = {};
      if (a.state === "orphaned") {
        patch.state = a.moved_from ? "moved" : "active";
        patch.state_at = now;
        patch.checked = null;
        report.restored++;
      }
      if (a.live_hash !== a.struct_hash) {
        patch.struct_hash = a.live_hash;
        patch.shape = fileShapes(a.path, a.live_file_hash, [{
          name: a.name,
          start_line: a.live_start,
          end_line: a.live_end,
        }])[0] ?? null;
      }
      if (a.live_start !== a.start_line || a.live_end !== a.end_line) {
        patch.start_line = a.live_start;
        patch.end_line = a.live_end;
      }
      if (Object.keys(patch).length > 0) {
        if (patch.state === undefined) report.refreshed++;
        push(
          a.memory_id,
          a.ord,
          patch,
          patch.state !== undefined || patch.start_line !== undefined,
        );
      }
      continue;
    }
    if (!covered(a.path)) continue;
    const fileHash = j.get<{ hash: string | null }>("SELECT hash FROM paths WHERE path = ?", a.path)
      ?.hash ?? "";
    const found = followSymbol(j, a, fileHash !== "" && fileHash !== a.checked);
    if (found) {
      const n = found;
      const samePlace = n.path === a.path && n.qualname === a.symbol;
      const place = symbolPlace(n, rootFor(roots, n.path)?.path ?? a.root);
      if (samePlace && a.state !== "orphaned") {
        // Found where it was under a new node id (an import leaves ids to be found
        // here; a changed kind makes a new one): it did not move, so its state and
        // the time it moved or was recorded stay.
        push(a.memory_id, a.ord, { ...place, checked: null }, true);
        report.refreshed++;
        continue;
      }
      const movedFrom = samePlace ? a.moved_from : anchorLabel(a);
      push(a.memory_id, a.ord, {
        ...place,
        state: movedFrom ? "moved" : "active",
        moved_from: movedFrom,
        state_at: now,
        checked: null,
      }, true);
      if (a.state === "orphaned" && samePlace) report.restored++;
      else report.moved++;
    } else if (a.state !== "orphaned") {
      push(a.memory_id, a.ord, { state: "orphaned", state_at: now, checked: fileHash }, true);
      report.orphaned++;
    } else if (a.checked !== fileHash) {
      push(a.memory_id, a.ord, { checked: fileHash }, false);
    }
  }

  const files = j.all<AnchorRow & { memory_id: string; live_hash: string | null; live: number }>(
    `SELECT a.*, p.hash AS live_hash, p.id IS NOT NULL AS live FROM memory_anchors a
     LEFT JOIN paths p ON p.path = a.path
     WHERE a.target = 'file' AND (p.id IS NULL OR a.state = 'orphaned' OR p.hash IS NOT a.struct_hash)`,
  );
  for (const a of files) {
    if (a.live) {
      const patch: Patch = {};
      if (a.state === "orphaned") {
        Object.assign(patch, { state: a.moved_from ? "moved" : "active", state_at: now });
        report.restored++;
      }
      if (a.live_hash !== a.struct_hash) patch.struct_hash = a.live_hash;
      if (Object.keys(patch).length > 0) {
        if (patch.state === undefined) report.refreshed++;
        push(a.memory_id, a.ord, patch, patch.state !== undefined);
      }
      continue;
    }
    if (!covered(a.path)) continue;
    // The same bytes elsewhere (an indexed look-up), also for an anchor
    // orphaned already: a move whose old path was reconciled before its new
    // one (a hint for each, two daemon passes) is found once the new one is.
    const twins = a.struct_hash === null ? [] : j.all<{ path: string }>(
      "SELECT path FROM paths WHERE hash = ? LIMIT 2",
      a.struct_hash,
    );
    if (twins.length === 1) {
      const path = twins[0]!.path;
      push(a.memory_id, a.ord, {
        path,
        root: rootFor(roots, path)?.path ?? a.root,
        name: basename(path),
        state: "moved",
        moved_from: a.path,
        state_at: now,
      }, true);
      report.moved++;
    } else if (a.state !== "orphaned") {
      push(a.memory_id, a.ord, { state: "orphaned", state_at: now }, true);
      report.orphaned++;
    }
  }

  // A folder with an indexed file below it exists; the others are asked of the disk.
  const folders = j.all<AnchorRow & { memory_id: string }>(
    `SELECT a.* FROM memory_anchors a WHERE a.target = 'folder' AND (a.state = 'orphaned'
       OR NOT EXISTS (SELECT 1 FROM paths p WHERE p.path >= a.path || '/' AND p.path < a.path || '0'))`,
  );
  for (const a of folders) {
    if (!covered(a.path)) continue;
    const exists = isFolder(a.path);
    if (exists && a.state === "orphaned") {
      push(a.memory_id, a.ord, { state: "active", state_at: now }, true);
      report.restored++;
    } else if (!exists && a.state !== "orphaned") {
      push(a.memory_id, a.ord, { state: "orphaned", state_at: now }, true);
      report.orphaned++;
    }
  }

  report.memories = [
    ...new Set([...rebased, ...patches.filter((p) => p.placeChanged).map((p) => p.memoryId)]),
  ];
  if (patches.length > 0 || rebased.length > 0) {
    j.tx(() => {
      for (const p of patches) updateAnchor(j, p.memoryId, p.ord, p.patch);
      syncSearch(j, report.memories);
    });
  }
  return report;
}

/**
 * `a` moved onto the one root of `roots` with the folder name of its own
 * root, when its path lies under none of them: an anchor written on another
 * machine (`/home/a/shop/src/x.ts` onto `/Users/b/shop`, same relative
 * path), its node id cleared to be found here, where it moved from moved
 * with it. `a` itself when it lies under a root here, has no root, or no
 * single root here has that name (pure).
 */
export function rebaseAnchor(a: AnchorRow, roots: readonly { path: string }[]): AnchorRow {
  if (a.root === null || rootFor(roots, a.path)) return a;
  const here = roots.filter((r) => basename(r.path) === basename(a.root!));
  if (here.length !== 1) return a;
  const rel = relative(a.root, a.path);
  if (rel.startsWith("..")) return a;
  const root = here[0]!.path;
  // Where it moved from (`path` or `path:qualname`) was under the same root: it moves too.
  const from = a.moved_from;
  const movedFrom = from !== null && from.startsWith(`${a.root}/`)
    ? root + from.slice(a.root.length)
    : from;
  return {
    ...a,
    root,
    path: rel === "" ? root : join(root, rel),
    node_id: null,
    moved_from: movedFrom,
  };
}

/**
 * Moves onto a root here ({@link rebaseAnchor}) every anchor whose root is
 * none of this journal's and whose path lies under none: what an import did
 * not move because the root was not indexed yet (memories imported first,
 * the repository indexed after). Writes in one transaction when there is
 * any; returns the ids of the memories moved. Costs one scan of the anchors
 * outside every root.
 */
function rebaseForeign(j: Journal, roots: readonly { path: string }[]): string[] {
  if (roots.length === 0) return [];
  const foreign = j.all<AnchorRow & { memory_id: string }>(
    `SELECT memory_id, ${ANCHOR_COLUMNS.join(", ")} FROM memory_anchors
     WHERE root IS NOT NULL AND root NOT IN (SELECT value FROM json_each(?))`,
    JSON.stringify(roots.map((r) => r.path)),
  );
  const moves = foreign.flatMap((a) => {
    const moved = rebaseAnchor(a, roots);
    return moved === a ? [] : [{ a, moved }];
  });
  if (moves.length === 0) return [];
  j.tx(() => {
    for (const { a, moved } of moves) {
      updateAnchor(j, a.memory_id, a.ord, {
        root: moved.root,
        path: moved.path,
        node_id: moved.node_id,
        moved_from: moved.moved_from,
      });
    }
  });
  return [...new Set(moves.map((m) => m.a.memory_id))];
}

/**
 * Runs {@link reanchorMemories} only when some anchor has lost its code: a
 * symbol anchor whose node is gone, a file anchor whose path is gone, a folder
 * anchor whose folder is gone, under an indexed root. With `at`, only the
 * anchors on that file or folder (and below it) are probed. Every writer pass
 * that changes the index ends with a full sweep, and the daemon sweeps once
 * at start, so this finds nothing unless a writer died between a commit and
 * its sweep (or a reader asks in the middle of a pass). On a read-only
 * `j`, the sweep writes through a connection of its own to the same file,
 * when one can be opened. Cost: one indexed probe per anchor probed (about
 * 2 µs each); returns the sweep's report, or undefined when nothing was
 * stale (or a read-only journal could not be swept).
 */
export function reanchorIfStale(
  j: Journal,
  now = Date.now(),
  at?: string,
): ReanchorReport | undefined {
  // With `at`, only anchors on that path or below it (indexed range on path).
  const where = at === undefined ? "" : "AND (a.path = ? OR (a.path >= ? AND a.path < ?))";
  const lo = at === undefined ? "" : at.endsWith("/") ? at : at + "/";
  const args = at === undefined ? [] : [at, lo, lo.slice(0, -1) + "0"];
  const broken = j.all<{ path: string; target: string }>(
    `SELECT a.path, a.target FROM memory_anchors a WHERE a.state != 'orphaned' ${where} AND (
       (a.target = 'symbol' AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = a.node_id))
       OR (a.target = 'file' AND NOT EXISTS (SELECT 1 FROM paths p WHERE p.path = a.path))
       OR (a.target = 'folder'
         AND NOT EXISTS (SELECT 1 FROM paths p WHERE p.path >= a.path || '/' AND p.path < a.path || '0')))`,
    ...args,
  );
  if (broken.length === 0) return undefined;
  const roots = listRoots(j);
  const stale = broken.some((b) =>
    rootFor(roots, b.path) !== undefined && (b.target !== "folder" || !isFolder(b.path))
  );
  if (!stale) return undefined;
  if (!j.readOnly) return reanchorMemories(j, now);
  // A reader's connection cannot write (hooks, MCP, the dashboard read through one): the sweep
  // goes through a connection of its own, and the reader sees its commit at its next read.
  // One that cannot be opened for writing (a read-only home, a damaged journal) leaves the
  // anchors as they are: the answer misses what moved, as it would have without the probe.
  let w: Journal;
  try {
    w = Journal.open(j.file);
  } catch {
    return undefined;
  }
  try {
    return reanchorMemories(w, now);
  } finally {
    w.close();
  }
}

function isFolder(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** The one node a lost symbol anchor now is, by the steps of {@link reanchorMemories}. */
function followSymbol(j: Journal, a: AnchorRow, searchFile: boolean): NodeFacts | undefined {
  const one = <T>(rows: T[]) => (rows.length === 1 ? rows[0] : undefined);
  const unique = (q: DefinitionQuery) => {
    const d = one(definitions(j, { ...q, limit: 2 }));
    return d === undefined ? undefined : factsOf(d);
  };
  const sameQualname = unique({ qualname: a.symbol ?? "", path: a.path });
  if (sameQualname) return sameQualname;
  if (a.struct_hash !== null) {
    const moved = unique({ name: a.name, structHash: a.struct_hash });
    if (moved) return moved;
  }
  const file = j.get<{ id: number; hash: string | null }>(
    "SELECT id, hash FROM paths WHERE path = ?",
    a.path,
  );
  if (!file) return undefined;
  const sameName = unique({ pathId: file.id, name: a.name, kind: "symbol" });
  if (sameName) return sameName;
  if (!searchFile) return undefined;
  const inFile = definitions(j, { pathId: file.id, kind: "symbol" }).map(factsOf);
  if (a.struct_hash !== null) {
    const sameHash = one(inFile.filter((n) => n.struct_hash === a.struct_hash));
    if (sameHash) return sameHash;
  }
  if (a.shape === null) return undefined;
  const sameKind = inFile.filter((n) => n.kind === a.symbol_kind);
  // A renamed body may still say the old name (a wrapper calling what it wraps).
  const shapes = fileShapes(a.path, file.hash, sameKind.map((n) => ({ ...n, also: a.name })));
  return one(sameKind.filter((_, i) => shapes[i] === a.shape));
}
