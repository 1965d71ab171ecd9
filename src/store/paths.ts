import type { Journal } from "./journal.ts";
import type { PathRow, PathStat } from "./types.ts";

/**
 * A root as the path queries need it.
 *
 * @internal
 */
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

const RANGE = "root_id = ? AND (path = ? OR (path >= ? AND path < ?))";

/** Rows read per query of a streamed scan. */
const PAGE = 2000;

/**
 * Rows of `columns` of a root's path range, in path order, read a page at a
 * time by key (`path > last`). Not `StatementSync.iterate()`: in Deno 2.9.6
 * it ends quietly at a damaged page, so an audit would take a half-read
 * root for a whole one; `all()` throws SQLite's corruption error instead.
 */
function* pagedRange<T extends { path: string }>(
  j: Journal,
  columns: string,
  root: RootKey,
  relPrefix: string,
): Generator<T> {
  const r = range(root, relPrefix);
  const sql =
    `SELECT ${columns} FROM paths WHERE ${RANGE} AND path > ? ORDER BY path LIMIT ${PAGE}`;
  for (let last = "";;) {
    const rows = j.all<T>(sql, root.id, r.exact, r.lo, r.hi, last);
    yield* rows;
    if (rows.length < PAGE) return;
    last = rows[rows.length - 1]!.path;
  }
}

/** The row of one absolute path, if indexed. */
export function getPath(j: Journal, path: string): PathRow | undefined {
  return j.get<PathRow>("SELECT * FROM paths WHERE path = ?", path);
}

/** Every path row of a root (optionally only below `relPrefix`), in path order, streamed. */
export function* iteratePaths(j: Journal, root: RootKey, relPrefix = ""): Generator<PathRow> {
  yield* pagedRange<PathRow>(j, "*", root, relPrefix);
}

const STAT_COLUMNS =
  "id, root_id, path, rel, state, reason, hash, size, mtime_ms, ctime_ms, language, target_depth, effective_depth, depth_reason, generation, racy, derivation";

/** The {@link PathStat} of every path of a root (what an audit holds in memory), streamed. */
export function* iteratePathStats(j: Journal, root: RootKey, relPrefix = ""): Generator<PathStat> {
  yield* pagedRange<PathStat>(j, STAT_COLUMNS, root, relPrefix);
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

/**
 * Rows in the journal, or in the given roots only: paths by state, nodes,
 * symbols (nodes other than files), edges and pending references (counted
 * with the path that owns them).
 */
export function journalCounts(j: Journal, rootIds?: readonly number[]): {
  paths: Record<string, number>;
  nodes: number;
  symbols: number;
  edges: number;
  pending: number;
} {
  const roots = rootIds === undefined ? undefined : JSON.stringify(rootIds);
  const owned = roots === undefined
    ? ""
    : "path_id IN (SELECT id FROM paths WHERE root_id IN (SELECT value FROM json_each(?)))";
  const params = roots === undefined ? [] : [roots];
  const paths: Record<string, number> = {};
  for (
    const r of j.all<{ state: string; n: number }>(
      `SELECT state, count(*) AS n FROM paths ${
        roots === undefined ? "" : "WHERE root_id IN (SELECT value FROM json_each(?))"
      } GROUP BY state`,
      ...params,
    )
  ) paths[r.state] = r.n;
  const one = (sql: string, where: string) =>
    j.get<{ n: number }>(
      where === "" ? sql : `${sql} ${sql.includes("WHERE") ? "AND" : "WHERE"} ${where}`,
      ...params,
    )!.n;
  const byOwner = owned.replace("path_id", "owner_id");
  return {
    paths,
    nodes: one("SELECT count(*) AS n FROM nodes", owned),
    symbols: one("SELECT count(*) AS n FROM nodes WHERE kind != 'file'", owned),
    edges: one("SELECT count(*) AS n FROM edges", byOwner),
    pending: one("SELECT count(*) AS n FROM pending_edges", byOwner),
  };
}

/** How many path rows each root has, by root id (roots with none are absent). */
export function filesPerRoot(j: Journal): Map<number, number> {
  return new Map(
    j.all<{ root_id: number; n: number }>(
      "SELECT root_id, count(*) AS n FROM paths GROUP BY root_id",
    ).map((r) => [r.root_id, r.n]),
  );
}

/**
 * Indexed files held below the depth their root asks for, counted by the
 * kind of reason (what it says before its first `: `: "minified or
 * generated", whatever each file's line length), most first.
 */
export function depthClamps(j: Journal, limit: number): { reason: string; n: number }[] {
  return j.all<{ reason: string; n: number }>(
    `SELECT CASE WHEN instr(depth_reason, ': ') > 0
                 THEN substr(depth_reason, 1, instr(depth_reason, ': ') - 1)
                 ELSE depth_reason END AS reason, count(*) AS n FROM paths
     WHERE state = 'indexed' AND effective_depth < requested_depth AND depth_reason IS NOT NULL
     GROUP BY 1 ORDER BY n DESC, reason LIMIT ${Math.max(0, Math.floor(limit))}`,
  );
}

/** The first `limit` files recorded as unreadable, in path order, each with its reason. */
export function unreadablePaths(j: Journal, limit: number): { path: string; reason: string }[] {
  return j.all<{ path: string; reason: string }>(
    `SELECT path, reason FROM paths WHERE state = 'error' ORDER BY path LIMIT ${
      Math.max(0, Math.floor(limit))
    }`,
  );
}

/**
 * Files counted by language, effective depth and the reason it is lower,
 * most first: every file, or those below the absolute folder `under`.
 */
export function depthCounts(
  j: Journal,
  under?: string,
): { language: string | null; effective_depth: number; depth_reason: string | null; n: number }[] {
  const base = under?.replace(/\/+$/, "");
  return j.all(
    `SELECT language, effective_depth, depth_reason, count(*) AS n FROM paths
     ${base === undefined ? "" : "WHERE path >= ? AND path < ?"}
     GROUP BY language, effective_depth, depth_reason ORDER BY n DESC`,
    ...(base === undefined ? [] : [`${base}/`, `${base}0`]),
  );
}

/**
 * The code files (indexed at L3) changed last, one a language, most recent
 * first: the newest file of each language among the last `files` files by
 * modification time, at most `most` of them. What a writer working on those
 * files will parse next. One scan of the path rows.
 */
export function recentCodeFiles(
  j: Journal,
  files: number,
  most: number,
): { language: string; path: string }[] {
  const rows = j.all<{ language: string; path: string }>(
    `SELECT language, path FROM paths WHERE effective_depth = 3 AND language IS NOT NULL
     ORDER BY mtime_ms DESC LIMIT ?`,
    files,
  );
  const newest = new Map<string, string>();
  for (const r of rows) if (!newest.has(r.language)) newest.set(r.language, r.path);
  return [...newest].slice(0, most).map(([language, path]) => ({ language, path }));
}

/** The content hash of every file below the absolute folder `base`, by absolute path. */
export function hashesUnder(j: Journal, base: string): Map<string, string | null> {
  return new Map(
    j.all<{ path: string; hash: string | null }>(
      "SELECT path, hash FROM paths WHERE path >= ? AND path < ?",
      `${base}/`,
      `${base}0`,
    ).map((r) => [r.path, r.hash]),
  );
}
