/**
 * The second stage: the first candidates are reordered by how many of the
 * query's words their whole text holds, read from disk now (the signal an
 * agent's `rg` per word gives, on a shortlist instead of every file). The
 * bytes read are kept for verification, so no file is read twice.
 */
import type { Candidate } from "./rank.ts";

/** Files larger than this are read only this far for the shortlist. */
const READ_MAX_BYTES = 1024 * 1024;

/**
 * Share of `words` found in `lowerText` as substrings (case already folded),
 * as `rg -i -F WORD` would find them: `request` is in `parseHTTPRequest`
 * (pure). An empty query is fully covered.
 *
 * @example
 * ```ts
 * import { substringCoverage } from "./rerank.ts";
 * import assert from "node:assert/strict";
 * assert.equal(substringCoverage(["http", "request", "retry"], "function parsehttprequest()"), 2 / 3);
 * ```
 */
export function substringCoverage(words: readonly string[], lowerText: string): number {
  if (words.length === 0) return 1;
  let n = 0;
  for (const w of words) if (lowerText.includes(w)) n++;
  return n / words.length;
}

/**
 * Reorders items by `score + weight × coverage / (k + 1)`: coverage counts
 * like a fusion leg that ranks an item first in proportion to how much of
 * the query it holds (pure, stable for equal scores).
 */
export function rerankByCoverage<T extends { score: number }>(
  items: readonly T[],
  coverage: readonly number[],
  weight: number,
  k: number,
): T[] {
  return items
    .map((item, i) => ({ item, i, s: item.score + (weight * (coverage[i] ?? 0)) / (k + 1) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.item);
}

/** What the shortlist read: each file's bytes (undefined when unreadable), by path. */
export type ReadCache = Map<string, Uint8Array | undefined>;

/**
 * Reads the first `depth` candidates' files (notes and memories: their own
 * text), measures their coverage of `words`, and returns every candidate
 * reordered (the rest keep their order after the shortlist). Costs one read
 * per shortlisted file (its first MiB is searched); a gone file counts as
 * covering nothing (verification then decides what it is).
 */
export function rerankShortlist(
  candidates: readonly Candidate[],
  words: readonly string[],
  depth: number,
  weight: number,
  k: number,
  cache: ReadCache,
): Candidate[] {
  if (depth <= 0 || weight <= 0 || words.length === 0) return [...candidates];
  const head = candidates.slice(0, depth);
  const dec = new TextDecoder();
  const coverage = head.map((c) => {
    const m = c.best;
    if (m.path === null || m.path_id === null) {
      return substringCoverage(words, `${m.title}\n${m.text ?? ""}`.toLowerCase());
    }
    let bytes = cache.get(m.path);
    if (!cache.has(m.path)) {
      bytes = read(m.path);
      // Only whole files are kept for verification (its hash needs every byte).
      if (bytes === undefined || bytes.length <= READ_MAX_BYTES) cache.set(m.path, bytes);
    }
    if (!bytes) return 0;
    const head = bytes.length > READ_MAX_BYTES ? bytes.subarray(0, READ_MAX_BYTES) : bytes;
    return substringCoverage(words, dec.decode(head).toLowerCase());
  });
  return [...rerankByCoverage(head, coverage, weight, k), ...candidates.slice(depth)];
}

function read(path: string): Uint8Array | undefined {
  try {
    return Deno.readFileSync(path);
  } catch {
    return undefined;
  }
}
