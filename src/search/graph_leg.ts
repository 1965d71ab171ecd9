/**
 * The graph leg: expands the lexical leg's best hits along the code graph
 * (callers, callees, contains, imports, inherits) and reranks with a
 * personalised PageRank seeded by them. A fixed, small amount of work.
 */
import type { Journal } from "../store/mod.ts";

/** An undirected, weighted edge between two node ids. */
export type WeightedEdge = readonly [string, string, number];

/** How strongly each kind of edge ties two symbols together. */
export const EDGE_WEIGHTS: Readonly<Record<string, number>> = {
  calls: 1,
  inherits: 1,
  implements: 1,
  imports: 0.5,
  contains: 0.5,
};

/**
 * Personalised PageRank (pure): `iterations` rounds of
 * `r = alpha·s + (1 − alpha)·Wᵀr` over an undirected weighted graph, where
 * `s` is the normalised seed vector and `W` is row-normalised. Mass that
 * reaches a node without edges returns to the seeds. Returns every node's
 * score; the scores sum to 1.
 *
 * @example
 * ```ts
 * import { personalizedPageRank } from "./graph_leg.ts";
 * import assert from "node:assert/strict";
 * const r = personalizedPageRank(new Map([["a", 1]]), [["a", "b", 1], ["b", "c", 1]], 0.3, 10);
 * assert.ok(r.get("a")! > r.get("b")! && r.get("b")! > r.get("c")!);
 * ```
 */
export function personalizedPageRank(
  seeds: ReadonlyMap<string, number>,
  edges: readonly WeightedEdge[],
  alpha: number,
  iterations: number,
): Map<string, number> {
  const index = new Map<string, number>();
  const names: string[] = [];
  const id = (n: string) => {
    let i = index.get(n);
    if (i === undefined) {
      i = names.length;
      index.set(n, i);
      names.push(n);
    }
    return i;
  };
  for (const s of seeds.keys()) id(s);
  const adj: [number, number][][] = [];
  for (const [a, b, w] of edges) {
    if (a === b || w <= 0) continue;
    const ia = id(a);
    const ib = id(b);
    (adj[ia] ??= []).push([ib, w]);
    (adj[ib] ??= []).push([ia, w]);
  }
  const n = names.length;
  const s = new Float64Array(n);
  let total = 0;
  for (const w of seeds.values()) total += Math.max(0, w);
  for (const [name, w] of seeds) s[index.get(name)!] = total > 0 ? Math.max(0, w) / total : 0;
  const out = new Map<string, number>();
  if (total <= 0) return out;
  const deg = new Float64Array(n);
  for (let i = 0; i < n; i++) for (const [, w] of adj[i] ?? []) deg[i] = deg[i]! + w;
  let r = Float64Array.from(s);
  for (let it = 0; it < iterations; it++) {
    const next = new Float64Array(n);
    let dangling = 0;
    for (let i = 0; i < n; i++) {
      const ri = r[i]!;
      if (ri === 0) continue;
      const list = adj[i];
      if (!list || deg[i] === 0) {
        dangling += ri;
        continue;
      }
      const d = deg[i]!;
      for (const [j, w] of list) next[j] = next[j]! + (1 - alpha) * ri * (w / d);
    }
    for (let i = 0; i < n; i++) next[i] = next[i]! + (alpha + (1 - alpha) * dangling) * s[i]!;
    r = next;
  }
  for (let i = 0; i < n; i++) out.set(names[i]!, r[i]!);
  return out;
}

/**
 * Knobs of the graph leg.
 *
 * @internal
 */
export interface GraphOptions {
  /** Edges followed per seed and direction, at most. */
  fanout: number;
  alpha: number;
  iterations: number;
}

/**
 * Ranks chunks by a personalised PageRank from `seeds` (node id → weight)
 * over the seeds' one-hop neighbourhood: its edges, and what contains it and
 * what it contains (`nodes.parent_id`), each way at most `fanout`, children
 * before edges as the journal wrote them. Costs two indexed queries per seed,
 * a walk over at most `2 × fanout` edges per seed and one chunk look-up.
 * Returns chunk ids, best first (the seeds' own chunks included).
 */
export function graphRanking(
  j: Journal,
  seeds: ReadonlyMap<string, number>,
  opts: GraphOptions,
): number[] {
  if (seeds.size === 0) return [];
  const out = j.stmt(
    // A node's children are in its file: found through the path index (migration 18).
    `SELECT * FROM (SELECT id AS other, 'contains' AS kind FROM nodes
       WHERE path_id = (SELECT path_id FROM nodes WHERE id = ?1) AND parent_id = ?1)
     UNION ALL SELECT * FROM (SELECT dst, kind FROM edges WHERE src = ?1) LIMIT ?2`,
  );
  const inn = j.stmt(
    `SELECT parent_id AS other, 'contains' AS kind FROM nodes WHERE id = ?1 AND parent_id IS NOT NULL
     UNION ALL SELECT * FROM (SELECT src, kind FROM edges WHERE dst = ?1) LIMIT ?2`,
  );
  const edges: WeightedEdge[] = [];
  for (const node of seeds.keys()) {
    for (const st of [out, inn]) {
      for (const e of st.all(node, opts.fanout) as { other: string; kind: string }[]) {
        const w = EDGE_WEIGHTS[e.kind];
        if (w !== undefined) edges.push([node, e.other, w]);
      }
    }
  }
  const scores = personalizedPageRank(seeds, edges, opts.alpha, opts.iterations);
  // Each node's chunk among its file's chunks (chunks are not indexed by node).
  const chunks = j.all<{ id: number; node_id: string }>(
    `SELECT c.id, c.node_id FROM nodes n JOIN chunks c ON c.path_id = n.path_id AND c.node_id = n.id
     WHERE n.id IN (SELECT value FROM json_each(?))`,
    JSON.stringify([...scores.keys()]),
  );
  return chunks
    .map((c) => ({ id: c.id, score: scores.get(c.node_id) ?? 0 }))
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .map((c) => c.id);
}
