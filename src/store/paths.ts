import type { Journal } from "./journal.ts";
import type { PathRow, PathStat } from "./types.ts";

/** The row of one absolute path, if indexed. */
export function getPath(j: Journal, path: string): PathRow | undefined {
  return j.get<PathRow>("SELECT * FROM paths WHERE path = ?", path);
}

/** Every path row of a root (optionally only below `relPrefix`), in rel order, streamed. */
export function* iteratePaths(j: Journal, rootId: number, relPrefix = ""): Generator<PathRow> {
  if (relPrefix === "") {
    yield* j.stmt("SELECT * FROM paths WHERE root_id = ? ORDER BY rel").iterate(rootId) as Iterable<
      PathRow
    >;
    return;
  }
  const dir = relPrefix.endsWith("/") ? relPrefix : relPrefix + "/";
  yield* j.stmt(
    "SELECT * FROM paths WHERE root_id = ? AND (rel = ? OR (rel >= ? AND rel < ?)) ORDER BY rel",
  ).iterate(rootId, relPrefix, dir, dir.slice(0, -1) + "0") as Iterable<PathRow>;
}

/** Counts for `status`: paths by state, nodes, edges, pending edges. */
export function journalCounts(j: Journal): {
  paths: Record<string, number>;
  nodes: number;
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
    edges: one("SELECT count(*) AS n FROM edges"),
    pending: one("SELECT count(*) AS n FROM pending_edges"),
  };
}

/** True when any indexed path lies below the folder `relPrefix` of a root (a cheap range probe). */
export function hasPathsUnder(j: Journal, rootId: number, relPrefix: string): boolean {
  const dir = relPrefix === "" ? "" : relPrefix.replace(/\/?$/, "/");
  return j.get(
    "SELECT 1 FROM paths WHERE root_id = ? AND rel >= ? AND rel < ? LIMIT 1",
    rootId,
    dir,
    dir.slice(0, -1) + "0",
  ) !== undefined;
}

const STAT_COLUMNS =
  "id, path, rel, state, reason, hash, size, mtime_ms, language, target_depth, effective_depth, generation, racy";

/** The {@link PathStat} of every path of a root, streamed (what an audit holds in memory). */
export function* iteratePathStats(j: Journal, rootId: number, relPrefix = ""): Generator<PathStat> {
  if (relPrefix === "") {
    yield* j.stmt(`SELECT ${STAT_COLUMNS} FROM paths WHERE root_id = ?`).iterate(
      rootId,
    ) as Iterable<
      PathStat
    >;
    return;
  }
  const dir = relPrefix.endsWith("/") ? relPrefix : relPrefix + "/";
  yield* j.stmt(
    `SELECT ${STAT_COLUMNS} FROM paths WHERE root_id = ? AND (rel = ? OR (rel >= ? AND rel < ?))`,
  ).iterate(rootId, relPrefix, dir, dir.slice(0, -1) + "0") as Iterable<PathStat>;
}
