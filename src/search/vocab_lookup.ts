/**
 * Which code words a question's prose words stand for in this journal's own
 * code, read from the learned vocabulary's counts (src/derive/vocab.ts says
 * what is counted). Read-only; no model, no download.
 */
import type { Journal } from "../store/mod.ts";
import { isStopWord } from "../derive/words.ts";
import { splitWords, stem } from "../derive/words.ts";

/** Thresholds of {@link learnedAssociations}. */
export interface AssociationOptions {
  /** A prose word documented by fewer symbols teaches nothing (default 3). */
  minDocumented?: number;
  /** A pair seen in fewer symbols (of those read) is chance (default 3). */
  minPairs?: number;
  /** How much likelier the code word must be with the prose word than without (default 3). */
  minLift?: number;
  /** At most this many code words per prose word, strongest first (default 20). */
  perWord?: number;
  /** Read the postings of about this many symbols per prose word, at most (default 160). */
  sampleSymbols?: number;
}

const DEFAULTS: Required<AssociationOptions> = {
  minDocumented: 3,
  minPairs: 3,
  minLift: 3,
  perWord: 20,
  sampleSymbols: 160,
};

/** Of a prose word's code words, at most this many of the most frequent are scored. */
const CANDIDATES = 64;
/**
 * At most this many symbols of one path count for a prose word, so one file
 * of near-identical doc comments (generated bindings, intrinsics) cannot
 * speak for the whole tree.
 */
const PER_PATH = 4;

/**
 * The code stems the documented symbols of this journal associate with the
 * query's words, each weighted by the strength of the association, summed
 * over the query's words. For a query word's stem p, of the s symbols read
 * whose doc comment's first sentence has it (at most 4 per path, so one file
 * of near-identical doc comments cannot speak for the whole tree), a code stem c found in k of them
 * and in df(c) of all N documented symbols has lift = (k / s) / (df(c) / N)
 * and weight P(c | p) × ln(lift) = k / s × ln(lift), kept when k ≥
 * `minPairs` and lift ≥ `minLift`; the `perWord` strongest per query word
 * count. The query's own stems are never returned (they match without help).
 *
 * A prose word documented by at most `sampleSymbols` symbols is read whole
 * (exact); a more common one through the postings of the first paths that
 * hold `sampleSymbols` symbols of it, in the order of a hash of each path, so
 * the sample spreads over the tree and is the same however it was indexed. Empty when the journal has learned
 * nothing yet (no documented symbol, or a journal indexed before the
 * vocabulary existed) or no query word is documented by `minDocumented`
 * symbols. Costs per query word one range read of at most `sampleSymbols`
 * rows and one read of the counts of its most frequent code words. Reflects the
 * last commit: a reader sees the vocabulary of the index it searches.
 *
 * @example
 * ```ts
 * import { Journal } from "../store/mod.ts";
 * import { learnedAssociations } from "./vocab_lookup.ts";
 * import assert from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * const j = Journal.open(`${dir}/journal.db`);
 * assert.equal(learnedAssociations(j, ["password"]).size, 0);
 * j.close();
 * Deno.removeSync(dir, { recursive: true });
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
  const postings = j.stmt("SELECT codes FROM vocab_postings WHERE prose = ? LIMIT ?");
  const codeDf = j.stmt(
    `SELECT word, n FROM vocab_words
     WHERE side = 'code' AND word IN (SELECT value FROM json_each(?))`,
  );
  for (const p of own) {
    const dfP = (dfOf.get(p) as { n: number } | undefined)?.n ?? 0;
    if (dfP < o.minDocumented) continue;
    // How many of the symbols read pair p with each code stem.
    const counts = new Map<string, number>();
    let read = 0;
    for (const r of postings.all(p, o.sampleSymbols) as { codes: string }[]) {
      let start = 0;
      for (let k = 0; k < PER_PATH && start < r.codes.length; k++) {
        const end = r.codes.indexOf("\n", start);
        const line = r.codes.slice(start, end < 0 ? r.codes.length : end);
        start = end < 0 ? r.codes.length : end + 1;
        read++;
        for (const c of line.split(" ")) counts.set(c, (counts.get(c) ?? 0) + 1);
      }
      if (read >= o.sampleSymbols) break;
    }
    const candidates = [...counts]
      .filter(([c, k]) => k >= o.minPairs && !own.has(c))
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, CANDIDATES);
    if (candidates.length === 0) continue;
    const df = new Map(
      (codeDf.all(JSON.stringify(candidates.map(([c]) => c))) as { word: string; n: number }[])
        .map((r) => [r.word, r.n]),
    );
    const scored: [string, number][] = [];
    for (const [c, k] of candidates) {
      const dfC = df.get(c);
      if (dfC === undefined) continue;
      const share = k / read;
      const lift = share / (dfC / total);
      if (lift >= o.minLift) scored.push([c, share * Math.log(lift)]);
    }
    scored.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    for (const [c, w] of scored.slice(0, o.perWord)) out.set(c, (out.get(c) ?? 0) + w);
  }
  return out;
}
