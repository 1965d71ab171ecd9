/**
 * Which code words a question's prose words stand for in this journal's own
 * code, read from the learned vocabulary's counts (src/search/vocab.ts says
 * what is counted). Read-only; no model, no download.
 */
import type { Journal } from "../store/mod.ts";
import { isStopWord } from "./query.ts";
import { splitWords, stem } from "./words.ts";

/** Thresholds of {@link learnedAssociations}. */
export interface AssociationOptions {
  /** A prose word documented by fewer symbols teaches nothing (default 3). */
  minDocumented?: number;
  /** A pair seen in fewer symbols is chance (default 3). */
  minPairs?: number;
  /** How much likelier the code word must be with the prose word than without (default 3). */
  minLift?: number;
  /** At most this many code words per prose word, strongest first (default 20). */
  perWord?: number;
}

const DEFAULTS: Required<AssociationOptions> = {
  minDocumented: 3,
  minPairs: 3,
  minLift: 3,
  perWord: 20,
};

/**
 * The code stems the documented symbols of this journal associate with the
 * query's words, each weighted by the strength of the association, summed
 * over the query's words. For a query word's stem p documented by df(p)
 * symbols out of N, a code stem c found with it in n(p, c) symbols and in
 * df(c) symbols overall has lift = (n / df(p)) / (df(c) / N) and weight
 * P(c | p) × ln(lift) = n / df(p) × ln(lift), kept when n ≥ `minPairs` and
 * lift ≥ `minLift`; the `perWord` strongest per query word count. The query's
 * own stems are never returned (they match without help).
 *
 * Empty when the journal has learned nothing yet (no documented symbol, or a
 * journal indexed before the vocabulary existed) or no query word is
 * documented often enough. Costs one indexed range read of the pairs per query
 * word, and one word look-up per pair read. The counts are as of the last
 * commit: a reader sees the vocabulary of the index it searches.
 *
 * @example
 * ```ts
 * import { Journal } from "../store/mod.ts";
 * import { learnedAssociations } from "./vocab_lookup.ts";
 * import assert from "node:assert/strict";
 * const j = Journal.open(Deno.makeTempFileSync({ suffix: ".db" }));
 * assert.equal(learnedAssociations(j, ["password"]).size, 0);
 * j.close();
 * ```
 */
export function learnedAssociations(
  j: Journal,
  queryWords: readonly string[],
  opts: AssociationOptions = {},
): Map<string, number> {
  const o = { ...DEFAULTS, ...opts };
  const out = new Map<string, number>();
  const own = new Set<string>();
  for (const q of queryWords) {
    for (const w of splitWords(q)) if (!isStopWord(w)) own.add(stem(w));
  }
  if (own.size === 0) return out;
  const total = j.get<{ n: number }>(
    "SELECT n FROM vocab_words WHERE side = 'symbols' AND word = ''",
  )?.n ?? 0;
  if (total === 0) return out;
  const dfOf = j.stmt("SELECT n FROM vocab_words WHERE side = 'prose' AND word = ?");
  const pairsOf = j.stmt(
    `SELECT p.code AS code, p.n AS n, w.n AS df FROM vocab_pairs p
     JOIN vocab_words w ON w.side = 'code' AND w.word = p.code
     WHERE p.prose = ? AND p.n >= ?`,
  );
  for (const p of own) {
    const dfP = (dfOf.get(p) as { n: number } | undefined)?.n ?? 0;
    if (dfP < o.minDocumented) continue;
    const scored: [string, number][] = [];
    for (const r of pairsOf.all(p, o.minPairs) as { code: string; n: number; df: number }[]) {
      if (own.has(r.code)) continue;
      const lift = (r.n / dfP) / (r.df / total);
      if (lift < o.minLift) continue;
      scored.push([r.code, (r.n / dfP) * Math.log(lift)]);
    }
    scored.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    for (const [c, w] of scored.slice(0, o.perWord)) out.set(c, (out.get(c) ?? 0) + w);
  }
  return out;
}
