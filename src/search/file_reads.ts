/**
 * What a search reads from disk: the read cache the second stage and the
 * verdicts share (no file is read twice in a search), and a whole file's
 * share of the query as an agent's `rg -i -F WORD` per word would find it.
 */

/**
 * Share of `words` found in `lowerText` as substrings (case already folded),
 * as `rg -i -F WORD` would find them: `request` is in `parseHTTPRequest`
 * (pure). An empty query is fully covered.
 *
 * @example
 * ```ts
 * import { substringCoverage } from "./file_reads.ts";
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

/** What a search read: each file's bytes (undefined when unreadable), by path. */
export type ReadCache = Map<string, Uint8Array | undefined>;

/**
 * Files larger than this are not read back by a search (the index never
 * holds their text): a file indexed small that grew to gigabytes since
 * (a log) cost a search a minute and 6 GB of memory.
 */
export const READ_LIMIT_BYTES = 4 * 1024 * 1024;

/**
 * A file's bytes, read once per search: kept in `cache` when the whole file
 * was read (at most `keepMax` bytes; verification hashes every byte), so the
 * verdicts reuse them. Undefined when it cannot be read, when it is not a
 * regular file now (a named pipe waits for a writer forever, a link to
 * `/dev/zero` never ends; neither is ever indexed) or when it is larger than
 * {@link READ_LIMIT_BYTES}. A stat and, for a regular file, one read.
 */
export function readCached(
  path: string,
  cache: ReadCache,
  keepMax: number,
): Uint8Array | undefined {
  if (cache.has(path)) return cache.get(path);
  let bytes: Uint8Array | undefined;
  try {
    const st = Deno.lstatSync(path);
    bytes = st.isFile && st.size <= READ_LIMIT_BYTES ? Deno.readFileSync(path) : undefined;
  } catch {
    bytes = undefined;
  }
  if (bytes === undefined || bytes.length <= keepMax) cache.set(path, bytes);
  return bytes;
}
