/**
 * Merging the full-text index into one segment after a large pass. FTS5
 * writes a segment at every commit and merges a few of a level at a time,
 * so a first index leaves its terms spread over segments of several
 * levels, and every query term is looked up, and BM25's document count
 * read, in each. On the search benchmark's 31,121-file journal (13
 * segments), merged whole, `search()` took 41.7 instead of 49.3 ms p50
 * (four interleaved runs each; docs/performance.md, Search); the merge took
 * 5.8 s of the writer's time in 83 bounded steps.
 */
import type { Journal } from "./journal.ts";

/** Pages of segments one merge step rewrites: tens of ms, at most 124 ms measured on a loaded machine. */
const MERGE_PAGES = 250;

/**
 * The steps of merging every segment of the full-text index into one, for
 * `Journal.txChunked`: each step is one FTS5 `merge` command of
 * {@link MERGE_PAGES} pages. Ends when a command does nothing (SQLite
 * counts fewer than two changed rows), at once when the index is one
 * segment already. What is indexed is unchanged; only its layout is.
 */
export function* mergeFullTextSteps(j: Journal): Generator<string> {
  const merge = j.stmt("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('merge', ?)");
  const changes = j.stmt("SELECT total_changes() AS n");
  const total = () => (changes.get() as { n: number }).n;
  for (;;) {
    const before = total();
    // Negative: across levels, towards a single segment (an incremental 'optimize').
    merge.run(-MERGE_PAGES);
    if (total() - before < 2) return;
    yield "merging the full-text index";
  }
}

/**
 * True after a pass that changed `changed` files when they are a quarter or
 * more of the indexed files (a first index, a rebuild, a large checkout),
 * at least {@link MERGE_MIN_CHANGED}: then {@link mergeFullTextSteps} pays.
 * After smaller passes FTS5's own merging is enough.
 */
export function fullTextMergeDue(j: Journal, changed: number): boolean {
  if (changed < MERGE_MIN_CHANGED) return false;
  const indexed = j.get<{ n: number }>("SELECT count(*) AS n FROM paths WHERE state = 'indexed'")!;
  return changed * 4 >= indexed.n;
}

/** Below this many changed files a full-text index is small enough that its layout costs a search nothing. */
const MERGE_MIN_CHANGED = 100;

/** How many segments the full-text index has now. */
export function fullTextSegments(j: Journal): number {
  return j.get<{ n: number }>("SELECT count(DISTINCT segid) AS n FROM chunks_fts_idx")!.n;
}
