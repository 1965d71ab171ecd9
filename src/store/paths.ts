import type { Journal } from "./journal.ts";
import type { PathRow, PathStat } from "./types.ts";

/** A root as the path queries need it. */
export interface RootKey {
  id: number;
  path: string;
}

/**
 * The `path` range of everything below `relPrefix` of a root: paths sort so
 * that a folder's contents lie between "dir/" and "dir0" ('0' follows '/'),
 * which lets one UNIQUE(path) index serve both lookups and folder scans.
 */
function range(root: RootKey, relPrefix: string): { exact: string; lo: string; hi: string } {
  const base = root.path.endsWith("/") ? root.path : root.path + "/";
  const exact = relPrefix === "" ? base.slice(0, -1) : base + relPrefix.replace(/\/$/, "");
  const lo = relPrefix === "" ? base : exact + "/";
  return { exact, lo, hi: lo.slice(0, -1) + "0" };
}

const RANGE = "root_id = ? AND (path = ? OR (path >= ? AND path < ?)) ORDER BY path";

/** The row of one absolute path, if indexed. */
export function getPath(j: Journal, path: string): PathRow | undefined {
  return j.get<PathRow>("SELECT * FROM paths WHERE path = ?", path);
}

/** Every path row of a root (optionally only below `relPrefix`), in path order, streamed. */
export function* iteratePaths(j: Journal, root: RootKey, relPrefix = ""): Generator<PathRow> {
  const r = range(root, relPrefix);
  yield* j.stmt(`SELECT * FROM paths WHERE ${RANGE}`).iterate(
    root.id,
    r.exact,
    r.lo,
    r.hi,
  ) as Iterable<
    PathRow
  >;
}

const STAT_COLUMNS =
  "id, root_id, path, rel, state, reason, hash, size, mtime_ms, language, target_depth, effective_depth, depth_reason, generation, racy, derivation";

/** The {@link PathStat} of every path of a root (what an audit holds in memory), streamed. */
export function* iteratePathStats(j: Journal, root: RootKey, relPrefix = ""): Generator<PathStat> {
  const r = range(root, relPrefix);
  yield* j.stmt(`SELECT ${STAT_COLUMNS} FROM paths WHERE ${RANGE}`).iterate(
    root.id,
    r.exact,
    r.lo,
    r.hi,
  ) as Iterable<PathStat>;
}

/** True when any indexed path lies below the folder `relPrefix` of a root (a cheap range probe). */
export function hasPathsUnder(j: Journal, root: RootKey, relPrefix: string): boolean {
  const r = range(root, relPrefix);
  return j.get(
    "SELECT 1 FROM paths WHERE root_id = ? AND path >= ? AND path < ? LIMIT 1",
    root.id,
    r.lo,
    r.hi,
  ) !==
    undefined;
}

/** Counts for `status`: paths by state, nodes, edges, pending edges. */
export function journalCounts(j: Journal): {
  paths: Record<string, number>;
  nodes: number;
  symbols: number;
  edges: number;
  pending: number;
} {
  const paths: Record<string, number> = {};
  for (
    const r of j.all<{ state: string; n: number }>(
      "SELECT state, count(*) AS n FROM paths GROUP BY state",
    )
  ) paths[r.state] = r.n;
  const one = (sql: string) => j.get<{ n: number }>(sql)!.n;
  return {
    paths,
    nodes: one("SELECT count(*) AS n FROM nodes"),
    symbols: one("SELECT count(*) AS n FROM nodes WHERE kind != 'file'"),
    edges: one("SELECT count(*) AS n FROM edges"),
    pending: one("SELECT count(*) AS n FROM pending_edges"),
  };
}
