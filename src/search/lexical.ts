/**
 * The lexical leg: SQLite FTS5 with BM25 over the chunks' fields, with a
 * weight per field (tuned by `scripts/bench_search.ts`).
 */
import { indexText } from "../derive/words.ts";
import { type Journal, journalVersion } from "../store/mod.ts";
import type { ParsedQuery } from "./query.ts";

/**
 * BM25 weight of each full-text column, in the table's column order.
 *
 * @internal
 */
export interface FieldWeights {
  name: number;
  qual: number;
  sig: number;
  doc: number;
  body: number;
  path: number;
}

/**
 * Which chunks a search may return: every given condition holds.
 *
 * @internal
 */
export interface ChunkFilter {
  source?: string;
  /** A source the chunk must not have (the phrase leg's prose only: not `code`). */
  notSource?: string;
  language?: string;
  /**
   * Lists of absolute path prefixes (a folder or a file): a chunk must lie
   * under one prefix of every list. A note or memory is judged by the path
   * it points at.
   */
  prefixes?: readonly (readonly string[])[];
}

/**
 * The FTS5 expression for a query (pure): every word, whole identifier and
 * phrase OR-ed, the excluded words NOT-ed. Undefined when nothing is left to
 * match.
 *
 * @example
 * ```ts
 * import { ftsExpression } from "./lexical.ts";
 * import { parseQuery } from "./query.ts";
 * import assert from "node:assert/strict";
 * assert.equal(ftsExpression(parseQuery("fooBar -baz")), '("foo" OR "bar" OR "foobar") NOT ("baz")');
 * ```
 */
export function ftsExpression(q: ParsedQuery): string | undefined {
  const terms = queryTerms(q).map(quote);
  if (terms.length === 0) return undefined;
  const any = `(${terms.join(" OR ")})`;
  return q.excluded.length === 0 ? any : `${any} NOT (${q.excluded.map(quote).join(" OR ")})`;
}

/** A question of fewer content words than this is no sentence to look for as one. */
const PHRASE_MIN_WORDS = 4;
/** Nor one of more tokens than this (a prompt, a pasted log): each word is a posting list read. */
const PHRASE_MAX_TOKENS = 32;
/**
 * Tokens a document may hold among the question's beyond the question's own:
 * the markup a rendered sentence leaves out (a link's target, a role such as
 * reStructuredText's `:ref:`, a code span's marks).
 */
const PHRASE_SLACK = 12;

/**
 * The FTS5 expression of the phrase leg (pure): the question's content
 * words all within a span of its own length in tokens plus
 * {@link PHRASE_SLACK}, so a chunk matches when it holds the question as a
 * sentence, whatever markup the document puts inside it: a sentence pasted
 * from rendered docs, a note or memory remembered. The leg ranks prose only
 * (`rank.ts`). Undefined for a question of fewer than four content words or
 * more than 32 tokens (as the index tokenises text), and for one that quotes
 * a phrase or excludes a word (the lexical leg follows what it asks).
 *
 * @example
 * ```ts
 * import { phraseExpression } from "./lexical.ts";
 * import { parseQuery } from "./query.ts";
 * import assert from "node:assert/strict";
 * assert.equal(
 *   phraseExpression(parseQuery("See the package source for more details.")),
 *   'NEAR("see" "package" "source" "more" "details", 19)',
 * );
 * assert.equal(phraseExpression(parseQuery("parse cookie header")), undefined);
 * ```
 */
export function phraseExpression(q: ParsedQuery): string | undefined {
  if (q.words.length < PHRASE_MIN_WORDS || q.phrases.length > 0 || q.excluded.length > 0) {
    return undefined;
  }
  const tokens = indexText(q.text).split(" ").filter((t) => t !== "").length;
  if (tokens > PHRASE_MAX_TOKENS) return undefined;
  return `NEAR(${q.words.map(quote).join(" ")}, ${tokens + PHRASE_SLACK})`;
}

/** A query term with its document frequency, counted up to a cap. */
export interface TermCount {
  term: string;
  /** Chunks holding the term, or `cap + 1` when more hold it. */
  df: number;
  /**
   * For a term past the cap: the share of chunk ids that its counted rows
   * (the first ones by id) span, its density there. A term common in the
   * first project only reads as common (`absl`); {@link commonTerms} reads
   * the other end too.
   */
  density?: number;
}

/**
 * The FTS5 expression for a query within a budget of chunks to score (pure).
 * BM25 costs about as much per matching chunk as the rest of a search, and
 * a common word (`get`, `string`) matches a fifth of a code index, so
 * matching is restricted to chunks holding one of the rarest terms (taken
 * rarest first while their counts fit in `budget`; when even the rarest does
 * not fit, chunks holding both of the first two, which, since counts stop
 * past the budget, are the first in alphabetical order: in
 * docs/performance.md that did as well as the truly rarest two and as no
 * restriction at all). The other terms still score wherever those chunks
 * hold them: the expression is
 * `(rare…) AND (every term…)`, so a common term never widens the match but
 * counts in BM25 (at half the weight of a rare one, which appears in both
 * halves). Terms no chunk holds are dropped. Terms in `scoreOnly` score but
 * never restrict the match (the joined form of a word prose writes with a
 * hyphen or dots, `classlevel` for "class-level", `eg` for "e.g.": rare
 * because code seldom spells them so, the few chunks holding one say little
 * about the question). Undefined when none is left.
 *
 * @example
 * ```ts
 * import { plannedExpression } from "./lexical.ts";
 * import assert from "node:assert/strict";
 * const terms = [{ term: "get", df: 5001 }, { term: "prime", df: 238 }];
 * assert.equal(plannedExpression(terms, [], 5000), '("prime") AND ("get" OR "prime")');
 * assert.equal(plannedExpression([{ term: "prime", df: 238 }], [], 5000), '("prime")');
 * const hyphen = [{ term: "get", df: 5001 }, { term: "nonzero", df: 3 }];
 * assert.equal(
 *   plannedExpression(hyphen, [], 5000, new Set(["nonzero"])),
 *   '("get" OR "nonzero")',
 * );
 * ```
 */
export function plannedExpression(
  counts: readonly TermCount[],
  excluded: readonly string[],
  budget: number,
  scoreOnly: ReadonlySet<string> = new Set(),
): string | undefined {
  const present = counts.filter((c) => c.df > 0);
  if (present.length === 0) return undefined;
  const byDf = present
    .filter((c) => !scoreOnly.has(c.term))
    .sort((a, b) => a.df - b.df || (a.term < b.term ? -1 : 1));
  const rare: string[] = [];
  let sum = 0;
  for (const c of byDf) {
    if (sum + c.df > budget) break;
    rare.push(c.term);
    sum += c.df;
  }
  const all = `(${present.map((c) => quote(c.term)).join(" OR ")})`;
  let expr: string;
  if (rare.length === byDf.length) expr = all;
  else if (rare.length > 0) expr = `(${rare.map(quote).join(" OR ")}) AND ${all}`;
  else if (byDf.length > 1) {
    expr = `(${quote(byDf[0]!.term)} AND ${quote(byDf[1]!.term)}) AND ${all}`;
  } else expr = all;
  return excluded.length === 0 ? expr : `${expr} NOT (${excluded.map(quote).join(" OR ")})`;
}

/** Every distinct term of a query the lexical leg matches: words, whole identifiers, phrases. */
export function queryTerms(q: ParsedQuery): string[] {
  return [...new Set([...q.words, ...q.wholes, ...q.phrases])];
}

/**
 * Counts the chunks holding each term, stopping at `cap + 1`: a common
 * term costs `cap` rows of its posting list, never all of it. A count is
 * made once while the journal is unchanged (`journalVersion`): a process
 * that answers many searches (the warm server, the MCP server) counts
 * `return` or `string` once, not in every question that says it.
 */
export function termCounts(j: Journal, terms: readonly string[], cap: number): TermCount[] {
  const version = journalVersion(j);
  let known = counted.get(j);
  if (known?.version !== version || known.counts.size + known.backs.size >= COUNTS_KEPT) {
    counted.set(j, known = { version, counts: new Map(), backs: new Map() });
  }
  return terms.map((term) => {
    const key = `${cap} ${term}`;
    let count = known.counts.get(key);
    if (count === undefined) {
      // The row past the cap, then the first: far cheaper than counting the rows between.
      const last = rowAt(j, term, cap, "ASC");
      count = last === undefined
        ? { term, df: (j.stmt(COUNT).get(quote(term), cap + 1) as { n: number }).n }
        : { term, df: cap + 1, density: (cap + 1) / (last - rowAt(j, term, 0, "ASC")! + 1) };
      known.counts.set(key, count);
    }
    return count;
  });
}

/**
 * The terms of `counts` that are in more than `share` of the chunks (a
 * share of 1 or more: none), each with its estimated share. A term's rows
 * are read from both ends of its posting list, `rows` of them at each
 * (the first end is its capped count's), and the lower density is taken:
 * `absl` holds 98.6% of the ids its first rows span and 0.4% of its last
 * rows' (2.5% in truth). So a term dense in one project only is not called
 * common; one common across the index is, without its whole posting list
 * read. Made once while the journal is unchanged, as the counts are.
 */
export function commonTerms(
  j: Journal,
  counts: readonly TermCount[],
  share: number,
  rows: number,
): Map<string, number> {
  const out = new Map<string, number>();
  if (share >= 1) return out;
  const known = counted.get(j);
  for (const c of counts) {
    if (c.density === undefined || c.density <= share) continue;
    const key = `${rows} ${c.term}`;
    let back = known?.backs.get(key);
    if (back === undefined) {
      const first = rowAt(j, c.term, rows - 1, "DESC");
      back = first === undefined ? 0 : rows / (rowAt(j, c.term, 0, "DESC")! - first + 1);
      known?.backs.set(key, back);
    }
    const estimate = Math.min(c.density, back);
    if (estimate > share) out.set(c.term, estimate);
  }
  return out;
}

/**
 * The counts a lexical match is planned with (pure): `counts` without the
 * `common` terms, unless what is left would not restrict the match (no
 * term within `budget` and fewer than two matching terms, `scoreOnly` ones
 * aside), which would make BM25 score a common term's every chunk.
 *
 * @example
 * ```ts
 * import { plannedCounts } from "./lexical.ts";
 * import assert from "node:assert/strict";
 * const counts = [{ term: "return", df: 2501 }, { term: "cookie", df: 40 }];
 * const common = new Map([["return", 0.3]]);
 * assert.deepEqual(plannedCounts(counts, common, 2500).map((c) => c.term), ["cookie"]);
 * const get = [{ term: "return", df: 2501 }, { term: "get", df: 2501 }];
 * assert.equal(plannedCounts(get, common, 2500).length, 2);
 * ```
 */
export function plannedCounts(
  counts: readonly TermCount[],
  common: ReadonlyMap<string, number>,
  budget: number,
  scoreOnly: ReadonlySet<string> = new Set(),
): readonly TermCount[] {
  if (common.size === 0) return counts;
  const kept = counts.filter((c) => !common.has(c.term));
  const restricting = kept.filter((c) => c.df > 0 && !scoreOnly.has(c.term));
  return restricting.some((c) => c.df <= budget) || restricting.length >= 2 ? kept : counts;
}

/** Chunks holding a term, counted up to a limit. */
const COUNT =
  "SELECT count(*) AS n FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)";

/** The id of the chunk `offset` rows into a term's posting list from either end, if any. */
function rowAt(
  j: Journal,
  term: string,
  offset: number,
  order: "ASC" | "DESC",
): number | undefined {
  const sql = order === "ASC"
    ? "SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid ASC LIMIT 1 OFFSET ?"
    : "SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?";
  return (j.stmt(sql).get(quote(term), offset) as { id: number } | undefined)?.id;
}

/** Each journal's counts (by cap and term) and back-end densities (by rows and term) as of its version. */
const counted = new WeakMap<
  Journal,
  { version: string; counts: Map<string, TermCount>; backs: Map<string, number> }
>();
/** Counts kept before they are all dropped: a few hundred questions' distinct words. */
const COUNTS_KEPT = 20_000;

/**
 * The chunks among `ids` that hold any of `words` as the index tokenises
 * them (the test `-word` applies to the lexical leg's matches, for chunks
 * found another way: by meaning, through the graph, or as the other units
 * of a matching file); none when either list is empty. FTS5 finds a range
 * of row ids by reading the words' posting lists from their start, and one
 * row id by skipping through them: so the ids are looked up a run of nearby
 * ones at a time (a file's chunks are one run) while the words' chunks are
 * few for the runs, else one id at a time, in one query. Runs alone had
 * `-test` cost 150 ms over the 15 files a search reads, and 1.5 s over 100
 * chunks spread over the index (`lexical_bench.ts`).
 */
export function chunksHolding(
  j: Journal,
  ids: Iterable<number>,
  words: readonly string[],
): Set<number> {
  const out = new Set<number>();
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  if (words.length === 0 || sorted.length === 0) return out;
  const runs: [number, number][] = [];
  for (let i = 0; i < sorted.length;) {
    let k = i;
    while (k + 1 < sorted.length && sorted[k + 1]! - sorted[k]! <= RUN_GAP) k++;
    runs.push([sorted[i]!, sorted[k]!]);
    i = k + 1;
  }
  const expression = words.map(quote).join(" OR ");
  const rows = Math.ceil((sorted.length * ID_ROWS) / runs.length);
  const count = j.stmt(COUNT).get(expression, rows + 1) as { n: number };
  const found = count.n <= rows
    ? runs.flatMap(([from, to]) =>
      j.stmt(
        "SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid BETWEEN ? AND ?",
      ).all(expression, from, to) as { id: number }[]
    )
    : j.all<{ id: number }>(
      `SELECT rowid AS id FROM chunks_fts
       WHERE chunks_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`,
      expression,
      JSON.stringify(sorted),
    );
  const wanted = new Set(sorted);
  for (const r of found) if (wanted.has(r.id)) out.add(r.id);
  return out;
}

/** Ids this close apart are looked up in one bounded range. */
const RUN_GAP = 64;
/**
 * About how many rows of a posting list FTS5 reads on its way to a range
 * of row ids in the time it takes to look one row id up (170 ns a row, 7
 * µs an id, on the search bench's journal).
 */
const ID_ROWS = 50;

/**
 * One term as FTS5 syntax: a word quoted; a phrase as its words ANDed (every
 * word in the chunk, in any order), which also works on an index that keeps
 * no token positions.
 */
function quote(term: string): string {
  const words = term.split(" ").filter((w) => w !== "");
  const q = (w: string) => `"${w.replaceAll('"', '""')}"`;
  return words.length > 1 ? `(${words.map(q).join(" AND ")})` : q(term);
}

/**
 * The SQL condition (on `chunks c` left-joined to `paths p`) and its
 * parameters for a filter; `1` when it has no condition.
 */
export function filterSql(f: ChunkFilter): { sql: string; params: (string | number)[] } {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  if (f.source !== undefined) {
    parts.push("c.source = ?");
    params.push(f.source);
  }
  if (f.notSource !== undefined) {
    parts.push("c.source != ?");
    params.push(f.notSource);
  }
  if (f.language !== undefined) {
    parts.push("p.language = ?");
    params.push(f.language);
  }
  for (const list of f.prefixes ?? []) {
    if (list.length === 0) {
      parts.push("0");
      continue;
    }
    const any = list.map((prefix) => {
      const exact = prefix.replace(/\/+$/, "");
      params.push(exact, exact + "/", exact + "0");
      return "(coalesce(p.path, c.anchor) = ? OR (coalesce(p.path, c.anchor) >= ? AND coalesce(p.path, c.anchor) < ?))";
    });
    parts.push(`(${any.join(" OR ")})`);
  }
  return { sql: parts.length === 0 ? "1" : parts.join(" AND "), params };
}

/** The same test as {@link filterSql}, in code, for chunks another leg found (pure). */
export function passesFilter(
  f: ChunkFilter,
  c: { source: string; language: string | null; path: string | null },
): boolean {
  if (f.source !== undefined && c.source !== f.source) return false;
  if (f.notSource !== undefined && c.source === f.notSource) return false;
  if (f.language !== undefined && c.language !== f.language) return false;
  const prefixes = f.prefixes ?? [];
  return c.path === null ? prefixes.length === 0 : underPrefixes(prefixes, c.path);
}

/**
 * True when `path` lies under (or is) one prefix of every list of
 * `prefixes` (a {@link ChunkFilter}'s; pure).
 *
 * @example
 * ```ts
 * import { underPrefixes } from "./lexical.ts";
 * console.assert(underPrefixes([["/r/a", "/r/b"]], "/r/a/x.ts"));
 * console.assert(!underPrefixes([["/r/a"]], "/r/ab/x.ts"));
 * ```
 */
export function underPrefixes(prefixes: readonly (readonly string[])[], path: string): boolean {
  return prefixes.every((list) =>
    list.some((prefix) => {
      const exact = prefix.replace(/\/+$/, "");
      return path === exact || path.startsWith(exact + "/");
    })
  );
}

/** True when a filter restricts anything. */
export function isFiltered(f: ChunkFilter): boolean {
  return f.source !== undefined || f.notSource !== undefined || f.language !== undefined ||
    (f.prefixes?.length ?? 0) > 0;
}

/**
 * The best `limit` chunks for an FTS5 expression by weighted BM25, best
 * first (scores are positive: higher is better). Cost grows with the number
 * of chunks that hold any of the words: SQLite scores every match.
 */
export function lexicalRanking(
  j: Journal,
  expression: string,
  weights: FieldWeights,
  limit: number,
  filter: ChunkFilter = {},
): { id: number; score: number }[] {
  const w = [weights.name, weights.qual, weights.sig, weights.doc, weights.body, weights.path];
  if (!isFiltered(filter)) {
    return j.all<{ id: number; score: number }>(
      `SELECT rowid AS id, -bm25(chunks_fts, ?, ?, ?, ?, ?, ?) AS score FROM chunks_fts
       WHERE chunks_fts MATCH ? ORDER BY score DESC, id LIMIT ?`,
      ...w,
      expression,
      limit,
    );
  }
  const f = filterSql(filter);
  return j.all<{ id: number; score: number }>(
    `SELECT f.rowid AS id, -bm25(chunks_fts, ?, ?, ?, ?, ?, ?) AS score FROM chunks_fts f
     JOIN chunks c ON c.id = f.rowid LEFT JOIN paths p ON p.id = c.path_id
     WHERE chunks_fts MATCH ? AND ${f.sql} ORDER BY score DESC, id LIMIT ?`,
    ...w,
    expression,
    ...f.params,
    limit,
  );
}
