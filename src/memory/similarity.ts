/**
 * How alike two attempt descriptions are, for consolidating a repeated
 * failure without an LLM. Pure and deterministic.
 *
 * Measured on a labelled set of 60 pairs (`tests/fixtures/memory/attempt_pairs.json`,
 * figures from `scripts/bench_memory.ts`): character-trigram Jaccard over the
 * normalised words separates "the same failure said again" from "another
 * failure on the same code" better than word Jaccard, and at
 * {@link SAME_FAILURE_THRESHOLD} it merges no different failures.
 */

/** Words that carry no meaning about what was tried. */
const STOP = new Set([
  "a",
  "an",
  "the",
  "of",
  "to",
  "in",
  "on",
  "onto",
  "at",
  "for",
  "with",
  "and",
  "or",
  "is",
  "it",
  "its",
  "was",
  "be",
  "by",
  "this",
  "that",
  "still",
  "i",
  "we",
]);

/**
 * The words of `text` that matter: lower-cased, split at anything that is not
 * a letter, a combining mark (a Hindi vowel sign is part of its word) or a
 * digit (so `lazy-loading` is `lazy loading`), stop words dropped. Numbers
 * stay as written: `401` and `500` are different failures.
 */
export function normalizedWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((w) => w !== "" && !STOP.has(w));
}

function jaccard<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * The similarity of two texts neither of which has a word that matters (an
 * emoji, punctuation, stop words only): 1 when they are written alike, else
 * 0, since two empty sets say nothing about it ("💥" is not "❌");
 * undefined when either has a word.
 */
function wordless(a: string, b: string): number | undefined {
  if (normalizedWords(a).length > 0 || normalizedWords(b).length > 0) return undefined;
  return a.trim().toLowerCase() === b.trim().toLowerCase() ? 1 : 0;
}

/** Jaccard index of the two texts' sets of normalised words, in [0, 1]. */
export function wordSimilarity(a: string, b: string): number {
  return wordless(a, b) ?? jaccard(new Set(normalizedWords(a)), new Set(normalizedWords(b)));
}

function trigrams(text: string): Set<string> {
  const s = ` ${normalizedWords(text).join(" ")} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= s.length; i++) out.add(s.slice(i, i + 3));
  return out;
}

/**
 * Jaccard index of the character trigrams of the two texts' normalised words
 * (joined by spaces, padded), in [0, 1]. Tolerates typos, plurals and
 * spelling variants (`normalizing`/`normalising`) that word sets do not.
 */
export function trigramSimilarity(a: string, b: string): number {
  return wordless(a, b) ?? jaccard(trigrams(a), trigrams(b));
}

/**
 * Two failure descriptions on the same code at or above this trigram
 * similarity are the same failure said again. Chosen on the labelled set as
 * a round value with no false merge and the highest recall, clear of the
 * closest different pair (0.71): precision 1.00, recall 0.97 there.
 */
export const SAME_FAILURE_THRESHOLD = 0.75;

/** True when `a` and `b` describe the same failure (trigram similarity ≥ the threshold). */
export function sameFailureWording(a: string, b: string): boolean {
  return trigramSimilarity(a, b) >= SAME_FAILURE_THRESHOLD;
}

/**
 * Precision and recall of a measure at a threshold on labelled pairs.
 *
 * @internal
 */
export interface ThresholdScore {
  threshold: number;
  precision: number;
  recall: number;
  falseMerges: number;
  missed: number;
}

/** Scores `measure` at `threshold` on `pairs` (same = should merge). */
export function scoreThreshold(
  pairs: readonly { a: string; b: string; same: boolean }[],
  measure: (a: string, b: string) => number,
  threshold: number,
): ThresholdScore {
  let tp = 0, fp = 0, fn = 0;
  for (const p of pairs) {
    const merged = measure(p.a, p.b) >= threshold;
    if (merged && p.same) tp++;
    else if (merged) fp++;
    else if (p.same) fn++;
  }
  return {
    threshold,
    precision: tp + fp === 0 ? 1 : tp / (tp + fp),
    recall: tp + fn === 0 ? 1 : tp / (tp + fn),
    falseMerges: fp,
    missed: fn,
  };
}
