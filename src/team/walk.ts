/** Breadth-first walks over the call graph, with shortest paths (pure but for `expand`). */
import { methodHalves } from "../search/mod.ts";
import type { Journal } from "../store/mod.ts";

/** Which way a walk follows `calls` edges. */
export type Direction = "callees" | "callers";

/** Where a walk reached a node: its distance, and the node one hop closer to a start. */
export interface Reached {
  distance: number;
  parent: string | null;
}

/**
 * Walks from `starts` up to `hops` levels, one `expand` call per level (it
 * gets the whole frontier and returns `[from, to]` pairs). Each node is
 * reached at its shortest distance, through the first parent found at that
 * level, so a path is a shortest one. With `targets`, the walk stops as soon
 * as every target has been reached. Starts are at distance 0.
 */
export function walk(
  starts: readonly string[],
  hops: number,
  expand: (frontier: string[]) => Iterable<readonly [string, string]>,
  targets?: ReadonlySet<string>,
): Map<string, Reached> {
  const reached = new Map<string, Reached>();
  for (const s of starts) reached.set(s, { distance: 0, parent: null });
  let missing = targets ? [...targets].filter((t) => !reached.has(t)).length : Infinity;
  let frontier = [...reached.keys()];
  for (let d = 1; d <= hops && frontier.length > 0 && missing > 0; d++) {
    const next: string[] = [];
    for (const [from, to] of expand(frontier)) {
      if (reached.has(to)) continue;
      reached.set(to, { distance: d, parent: from });
      next.push(to);
      if (targets?.has(to)) missing--;
    }
    frontier = next;
  }
  return reached;
}

/** The node ids from a start to `id`, following parents (start first). */
export function pathTo(reached: ReadonlyMap<string, Reached>, id: string): string[] {
  const path: string[] = [];
  for (let at: string | null = id; at !== null; at = reached.get(at)?.parent ?? null) {
    path.push(at);
  }
  return path.reverse();
}

/**
 * One level of a walk over the journal's `calls` edges, as {@link walk}'s
 * `expand`: callees follow src → dst, callers dst → src. A C or C++ method
 * declared in its class and defined out of it is one method in two nodes
 * (calls land on the declaration, a claim names the definition): reaching
 * one half reaches the other at the same distance (see `sameMethod`). Two
 * indexed queries per level; pairs in frontier order, then by id, each
 * followed by its other halves, so paths are deterministic.
 */
export function callExpander(
  j: Journal,
  direction: Direction,
): (frontier: string[]) => [string, string][] {
  const [from, to] = direction === "callees" ? ["src", "dst"] : ["dst", "src"];
  const sql = `SELECT ${from} AS a, ${to} AS b FROM edges
    WHERE kind = 'calls' AND ${from} IN (SELECT value FROM json_each(?)) AND ${to} != ${from}`;
  return (frontier) => {
    const order = new Map(frontier.map((id, i) => [id, i]));
    const rows = j.all<{ a: string; b: string }>(sql, JSON.stringify(frontier));
    rows.sort((x, y) => order.get(x.a)! - order.get(y.a)! || (x.b < y.b ? -1 : x.b > y.b ? 1 : 0));
    const halves = methodHalves(j, [...new Set(rows.map((r) => r.b))]);
    return rows.flatMap((r): [string, string][] => [
      [r.a, r.b],
      ...(halves.get(r.b) ?? []).filter((h) => h !== r.a).map((h): [string, string] => [r.a, h]),
    ]);
  };
}

/** `ids` and the other half of each that is half of a C or C++ method (see {@link callExpander}). */
export function withMethodHalves(j: Journal, ids: readonly string[]): string[] {
  const halves = methodHalves(j, ids);
  return [...new Set(ids.flatMap((id) => [id, ...(halves.get(id) ?? [])]))];
}
