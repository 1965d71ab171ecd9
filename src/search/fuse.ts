/**
 * Fusion (pure): reciprocal rank fusion of the legs' rankings, then one
 * result per file (or per note or memory), its best chunk named and the rest
 * counted.
 */

/** One leg's ranking: chunk ids, best first, and the leg's weight in the fusion. */
export interface LegRanking {
  name: string;
  weight: number;
  ids: readonly number[];
}

/** A chunk's fused score and the legs that ranked it. */
export interface Fused {
  id: number;
  score: number;
  legs: string[];
}

/**
 * Reciprocal rank fusion: each leg adds `weight / (k + rank)` (rank from 1)
 * to every chunk it ranks; a leg ranking a chunk twice counts its best rank.
 * Sorted by score, ties by id, so the output is deterministic.
 *
 * @example
 * ```ts
 * import { reciprocalRankFusion } from "./fuse.ts";
 * import assert from "node:assert/strict";
 * const fused = reciprocalRankFusion([
 *   { name: "lexical", weight: 1, ids: [1, 2] },
 *   { name: "graph", weight: 1, ids: [2, 3] },
 * ], 60);
 * assert.deepEqual(fused.map((f) => f.id), [2, 1, 3]);
 * ```
 */
export function reciprocalRankFusion(legs: readonly LegRanking[], k: number): Fused[] {
  const out = new Map<number, Fused>();
  for (const leg of legs) {
    if (leg.weight <= 0) continue;
    const seen = new Set<number>();
    leg.ids.forEach((id, i) => {
      if (seen.has(id)) return;
      seen.add(id);
      const f = out.get(id) ?? { id, score: 0, legs: [] };
      f.score += leg.weight / (k + i + 1);
      f.legs.push(leg.name);
      out.set(id, f);
    });
  }
  return [...out.values()].sort((a, b) => b.score - a.score || a.id - b.id);
}

/** A group of chunks that share one answer (a file, a note): the best is named, the rest counted. */
export interface Folded<T> {
  key: string;
  best: T;
  /** The best chunk's score plus `others` × `share` of the rest's. */
  score: number;
  /** The other chunks of the same key that ranked. */
  others: T[];
}

/**
 * Folds scored chunks into one entry per key (pure). The entry's score is
 * its best chunk's plus `share` times the sum of the others', so a file
 * with several matching symbols edges out one with a single equal match,
 * yet many weak matches never outweigh one strong one by much (`share` is
 * small). Sorted by score, ties by key.
 */
export function foldByKey<T extends { score: number }>(
  items: readonly T[],
  keyOf: (item: T) => string,
  share: number,
): Folded<T>[] {
  const groups = new Map<string, Folded<T>>();
  for (const item of items) {
    const key = keyOf(item);
    const g = groups.get(key);
    if (!g) groups.set(key, { key, best: item, score: item.score, others: [] });
    else if (item.score > g.best.score) {
      g.others.push(g.best);
      g.best = item;
    } else g.others.push(item);
  }
  const out = [...groups.values()];
  for (const g of out) {
    g.score = g.best.score + share * g.others.reduce((s, o) => s + o.score, 0);
    g.others.sort((a, b) => b.score - a.score);
  }
  return out.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
