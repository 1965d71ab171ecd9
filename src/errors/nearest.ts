/** The name closest to a misspelt one, for a "did you mean" (pure). */

/**
 * The candidate closest to `word` by edit distance, case-insensitive (the
 * first of equals); `""` when there are none.
 *
 * @example
 * ```ts
 * import { nearest } from "./nearest.ts";
 * console.assert(nearest("teamurl", ["teamUrl", "model"]) === "teamUrl");
 * ```
 */
export function nearest(word: string, candidates: readonly string[]): string {
  let best = candidates[0] ?? "";
  let bestCost = Infinity;
  for (const c of candidates) {
    const cost = editDistance(word.toLowerCase(), c.toLowerCase());
    if (cost < bestCost) [best, bestCost] = [c, cost];
  }
  return best;
}

/**
 * What `word` was probably meant to be: the nearest candidate when it is a
 * slip (at most two edits, and fewer than half the word's letters), or one
 * that begins with it (three letters or more); undefined when none is close
 * enough to suggest.
 *
 * @example
 * ```ts
 * import { meant } from "./nearest.ts";
 * console.assert(meant("serach", ["search", "symbols"]) === "search");
 * console.assert(meant("kidn", ["kind", "about"]) === "kind");
 * console.assert(meant("blast", ["blast-radius", "search"]) === "blast-radius");
 * console.assert(meant("frobnicate", ["search", "symbols"]) === undefined);
 * ```
 */
export function meant(word: string, candidates: readonly string[]): string | undefined {
  if (word === "" || candidates.length === 0) return undefined;
  const best = nearest(word, candidates);
  const cost = editDistance(word.toLowerCase(), best.toLowerCase());
  if (cost <= 2 && cost * 2 < word.length) return best;
  if (word.length >= 3) {
    const longer = candidates.filter((c) => c.toLowerCase().startsWith(word.toLowerCase()));
    if (longer.length === 1) return longer[0];
  }
  return undefined;
}

/** Edits from `a` to `b`: a letter added, removed, replaced, or two neighbours swapped. */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let k = 1; k <= b.length; k++) {
      cur[k] = Math.min(
        prev[k]! + 1,
        cur[k - 1]! + 1,
        prev[k - 1]! + (a[i - 1] === b[k - 1] ? 0 : 1),
      );
      if (i > 1 && k > 1 && a[i - 1] === b[k - 2] && a[i - 2] === b[k - 1]) {
        cur[k] = Math.min(cur[k]!, before[k - 2]! + 1);
      }
    }
    before = prev;
    prev = cur;
  }
  return prev[b.length]!;
}
