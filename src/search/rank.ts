/**
 * Ranking without the disk: the lexical, semantic and graph legs fused by
 * reciprocal rank fusion and folded to one candidate per file, note or
 * memory. Reads the journal only.
 */
import type { Journal } from "../store/mod.ts";
import { foldByKey, type LegRanking, reciprocalRankFusion } from "./fuse.ts";
import { type GraphOptions, graphRanking } from "./graph_leg.ts";
import { NO_MODEL_REASON, type SemanticLeg, semanticLegFor } from "./legs.ts";
import {
  type ChunkFilter,
  chunksHolding,
  commonTerms,
  type FieldWeights,
  filterSql,
  ftsExpression,
  isFiltered,
  lexicalRanking,
  passesFilter,
  phraseExpression,
  plannedCounts,
  plannedExpression,
  queryTerms,
  type TermCount,
  termCounts,
} from "./lexical.ts";
import { boundedQuery, type ParsedQuery, parseQuery, proseWholes } from "./query.ts";
import { resolveFilter } from "./filter.ts";
import type { LegsReport, SearchRequest } from "./types.ts";
import { COVERAGE_THRESHOLD } from "./verdict.ts";
import { DEFAULT_UNIT_WEIGHTS, type ScoredTerm, type UnitWeights } from "./unit_score.ts";
import { splitWords, stem, wholeForm } from "../derive/words.ts";
import { namesRanking, pathsRanking, typedNames, typedPath } from "./names_leg.ts";
import { asIndexSpells } from "./spelling.ts";
import { framesRanking, type StackFrame, stackFrames } from "./frames.ts";

/** Every knob of the ranking; the defaults are tuned by `scripts/bench_search.ts`. */
export interface Tuning {
  /** BM25 weight per full-text column. */
  weights: FieldWeights;
  /** Chunks the lexical leg returns. */
  lexicalLimit: number;
  /**
   * Chunks BM25 may score per query (see `plannedExpression`); Infinity
   * scores every chunk holding any term (slow on a large index).
   */
  candidateBudget: number;
  /**
   * A term in more than this share of the chunks is left out of the lexical
   * leg's BM25 expression (`bm25()` reads its whole posting list on every
   * query); the leg's chunks that hold it get what BM25 gives a term that
   * fills a chunk's body (`commonBoost`). 1 keeps every term in.
   */
  commonShare: number;
  /** Chunks the semantic leg is asked for. */
  semanticLimit: number;
  /** The k of reciprocal rank fusion. */
  rrfK: number;
  /** Each leg's weight in the fusion. */
  legWeights: { lexical: number; names: number; phrase: number; graph: number; semantic: number };
  /** Best lexical chunks that seed the graph walk. */
  graphSeeds: number;
  /** The graph leg's walk: fan-out, restart probability, rounds. */
  graph: GraphOptions;
  /** Weight of a file's other matching chunks when it is folded to one result. */
  foldShare: number;
  /** Candidates read from disk and reordered by their best unit (`focus.ts`). */
  focusDepth: number;
  /**
   * The least share of the score of a declaration holding no code (a
   * struct, an `impl` block, a constant) at which a function of the same
   * file is named before it
   * (`focus.ts`, `functionFirst`).
   */
  typeShare: number;
  /** Weight of the share of the query's words anywhere in the file's text. */
  coverWeight: number;
  /** BM25F weights of a unit's fields (`unit_score.ts`). */
  unit: UnitWeights;
  /** `unit.name` for a section of prose: a query word in its heading. */
  headingWeight: number;
  /** Weight of the fused legs' score (divided by the best one's) in a file's score. */
  priorWeight: number;
  /** Weight of a unit's learned prose→code associations with the query (`vocab.ts`). */
  learnedWeight: number;
  /** Subtracted from a changelog's or release notes' score. */
  changelogPenalty: number;
  /** Jaccard similarity of two files' unit hashes at which they are copies of one another. */
  copyJaccard: number;
  /** Share of the query's words a hit's own text must hold to be STRONG. */
  coverageThreshold: number;
  /** Hits whose content hash is checked (the first ones shown). */
  hashTop: number;
}

/** The tuned defaults (`docs/performance.md`, Search, says how they were chosen). */
export const DEFAULT_TUNING: Tuning = {
  weights: { name: 16, qual: 1, sig: 0, doc: 4, body: 2, path: 2 },
  lexicalLimit: 100,
  candidateBudget: 2500,
  commonShare: 0.2,
  semanticLimit: 100,
  rrfK: 60,
  legWeights: { lexical: 1, names: 1, phrase: 1, graph: 0, semantic: 1 },
  graphSeeds: 20,
  graph: { fanout: 32, alpha: 0.3, iterations: 8 },
  foldShare: 0,
  focusDepth: 15,
  typeShare: 0.3,
  coverWeight: 0.2,
  unit: DEFAULT_UNIT_WEIGHTS,
  headingWeight: 1,
  priorWeight: 1,
  learnedWeight: 0,
  changelogPenalty: 0.05,
  copyJaccard: 0.8,
  coverageThreshold: COVERAGE_THRESHOLD,
  hashTop: 3,
};

/**
 * {@link DEFAULT_TUNING} with the configured weight of the learned vocabulary
 * (`vocabularyWeight`; 0, the default, leaves it out).
 */
export function configuredTuning(config: { vocabularyWeight: number }): Tuning {
  return config.vocabularyWeight === DEFAULT_TUNING.learnedWeight
    ? DEFAULT_TUNING
    : { ...DEFAULT_TUNING, learnedWeight: config.vocabularyWeight };
}

/** What the journal says about one chunk, with its file and node. */
export interface ChunkMeta {
  /** The chunk's id. */
  id: number;
  /** The file that owns it; null for a note or memory. */
  path_id: number | null;
  /** The symbol, heading or file node it describes; null when none. */
  node_id: string | null;
  /** What it is: code, prose (`docs`), a note or a memory. */
  source: "code" | "docs" | "notes" | "memory";
  /** For a note or memory, its id in its own table; else null. */
  ref_id: number | string | null;
  /** Qualified name or heading path (a file's rel path for its own chunk, a note's title). */
  title: string;
  /** First line, 1-based; null when it has no lines. */
  start_line: number | null;
  /** Last line, inclusive; null when it has no lines. */
  end_line: number | null;
  /** For a note or memory, the file it points at; else null. */
  anchor: string | null;
  /** For a note or memory, its text; else null (a file chunk's text is read from disk). */
  text: string | null;
  /** The owning file's absolute path; null for a note or memory. */
  path: string | null;
  /** The owning file's path relative to its root. */
  rel: string | null;
  /** The owning file's root. */
  root_id: number | null;
  /** The owning file's language. */
  language: string | null;
  /** The owning file's size in bytes when indexed. */
  size: number | null;
  /** The owning file's modification time (ms) when indexed. */
  mtime_ms: number | null;
  /** The owning file's content hash when indexed. */
  hash: string | null;
  /** The owning file's one-line summary. */
  summary: string | null;
  /** The node's kind (`function`, `heading`…). */
  kind: string | null;
  /** The node's name. */
  name: string | null;
  /** The node's signature. */
  signature: string | null;
  /** The node's doc comment. */
  doc: string | null;
  /** The node's structural hash. */
  struct_hash: string | null;
  /** The hash of its lines' text as indexed: chunks of one hash hold the same lines. */
  text_hash: string;
}

/**
 * A chunk with its fused score.
 *
 * @internal
 */
export interface ScoredChunk extends ChunkMeta {
  /** The fused score (reciprocal rank fusion). */
  score: number;
  /** The legs that ranked it. */
  legs: string[];
}

/** One candidate answer: a file (best chunk first), a note or a memory. */
export interface Candidate {
  /** What it folds by: `p` + the file's path id, or `notes:ID` / `memory:ID`. */
  key: string;
  /** The folded score of its chunks. */
  score: number;
  /** Its best chunk. */
  best: ScoredChunk;
  /** Its other chunks that ranked, best first. */
  others: ScoredChunk[];
}

/** The ranking of one request, before verification. */
export interface Ranking {
  /** The request's query, parsed. */
  query: ParsedQuery;
  /** The query's words and whole identifiers with their idf over the index's chunks. */
  terms: ScoredTerm[];
  /** The candidates, best first. */
  candidates: Candidate[];
  /** Which legs ran, how many chunks each gave, and why any was off. */
  legs: LegsReport;
  /** The request's filters, resolved: every candidate passed them where it was indexed. */
  filter: ChunkFilter;
  /** The file name or path end the query is (`typedPath`), when it is one. */
  path?: string;
  /** The name the query is, as typed (`typedNames`), when it is one. */
  name?: string;
  /** The frames of a stack trace the request holds (`frames.ts`), innermost first. */
  frames: StackFrame[];
}

const META =
  `SELECT c.id, c.path_id, c.node_id, c.source, c.ref_id, c.title, c.start_line, c.end_line,
  c.anchor, c.text, p.path, p.rel, p.root_id, p.language, p.size, p.mtime_ms, p.hash, p.summary,
  n.kind, n.name, n.signature, n.doc, n.struct_hash, c.text_hash
  FROM chunks c LEFT JOIN paths p ON p.id = c.path_id LEFT JOIN nodes n ON n.id = c.node_id
  WHERE c.id IN (SELECT value FROM json_each(?))`;

/**
 * Ranks chunks for a request and folds them into candidates, best first.
 * Reads the journal only: what the candidates are is not checked against the
 * disk here. The semantic leg, when registered and on, is awaited; an error
 * from it turns it off for this search, with the error as the reason.
 * Throws {@link SearchFilterError} for a repo that matches no root.
 */
export async function rank(
  j: Journal,
  req: SearchRequest,
  tuning: Tuning = DEFAULT_TUNING,
): Promise<Ranking> {
  const { ignored, ...parsed } = boundedQuery(parseQuery(req.query));
  const cap = Math.min(tuning.candidateBudget, MAX_COUNT);
  // `serialise` is looked for as `serialize` where the index says it so.
  const query = { ...parsed, words: asIndexSpells(j, parsed.words, cap) };
  const filter = resolveFilter(j, req);
  const legs: LegsReport = {
    lexical: { on: true, chunks: 0, ...(ignored > 0 ? { words_ignored: ignored } : {}) },
    graph: { on: false, reason: "no code among the best lexical hits to start from" },
    semantic: { on: false, reason: NO_MODEL_REASON },
  };
  const terms = queryTerms(query);
  const counts = termCounts(j, terms, cap);
  const scoreOnly = proseWholes(query);
  const common = tuning.candidateBudget === Infinity
    ? new Map<string, number>()
    : commonTerms(j, counts, tuning.commonShare, cap + 1);
  const planned = plannedCounts(counts, common, tuning.candidateBudget, scoreOnly);
  const left = [...common].filter(([term]) => !planned.some((c) => c.term === term));
  const expression = tuning.candidateBudget === Infinity
    ? ftsExpression(query)
    : plannedExpression(planned, query.excluded, tuning.candidateBudget, scoreOnly);
  const lexical = expression === undefined ? [] : commonBoost(
    j,
    lexicalRanking(j, expression, tuning.weights, tuning.lexicalLimit, filter),
    left,
    tuning.weights,
  );
  legs.lexical.chunks = lexical.length;

  const semantic = await semanticRanking(
    j,
    req,
    query,
    filter,
    tuning.semanticLimit,
    (report) => (legs.semantic = report),
  );

  const lexicalRank = new Map(lexical.map((h, i) => [h.id, i]));
  const file = typedPath(query.text);
  const names = typedNames(query.text);
  // A pasted stack trace: the definitions its frames name, innermost first.
  const frames = stackFrames(req.trace ?? req.query);
  const named = tuning.legWeights.names <= 0 ? [] : [
    ...framesRanking(j, frames, tuning.lexicalLimit),
    ...(file === undefined ? [] : pathsRanking(j, file, lexicalRank, tuning.lexicalLimit)),
    ...namesRanking(j, names, lexicalRank, tuning.lexicalLimit),
  ];
  const phrase = tuning.legWeights.phrase > 0 ? phraseExpression(query) : undefined;
  // Never with an excluded word (`phraseExpression`), and filtered in SQL as the lexical leg is.
  // Prose only: code holding a question word for word is a string in data or a test (a
  // project's own task running that search), and the benchmark's code questions gained nothing.
  const phrased = phrase === undefined ? [] : lexicalRanking(
    j,
    phrase,
    tuning.weights,
    tuning.lexicalLimit,
    { ...filter, notSource: "code" },
  ).map((h) => h.id);
  // The lexical leg's expression already leaves out chunks holding an excluded word.
  const excluded = chunksHolding(j, [...semantic, ...named], query.excluded);
  const meta = new Map<number, ChunkMeta>();
  loadMeta(j, [...lexical.map((h) => h.id), ...semantic, ...named, ...phrased], meta);
  const passes = (id: number) => {
    const m = meta.get(id);
    return m !== undefined && !excluded.has(id) && passesFilter(filter, metaForFilter(m));
  };
  const seeds = new Map<string, number>();
  // The graph is code's (calls, imports, bases): prose is neither a seed nor an answer of it.
  for (const [i, h] of lexical.entries()) {
    if (seeds.size >= tuning.graphSeeds) break;
    const m = meta.get(h.id);
    if (m?.source !== "code" || !m.node_id || seeds.has(m.node_id)) continue;
    seeds.set(m.node_id, 1 / (i + 1));
  }
  let graph: number[] = [];
  if (tuning.legWeights.graph > 0 && seeds.size > 0) {
    graph = graphRanking(j, seeds, tuning.graph).slice(0, tuning.lexicalLimit);
    loadMeta(j, graph, meta);
    const held = chunksHolding(j, graph, query.excluded);
    graph = graph.filter((id) => {
      const m = meta.get(id);
      return m?.source === "code" && !held.has(id) && passesFilter(filter, metaForFilter(m));
    });
    legs.graph = { on: true, chunks: graph.length, seeds: seeds.size };
  } else if (tuning.legWeights.graph <= 0) {
    legs.graph = { on: false, reason: "weight 0" };
  }

  const rankings: LegRanking[] = [
    { name: "lexical", weight: tuning.legWeights.lexical, ids: lexical.map((h) => h.id) },
    { name: "names", weight: tuning.legWeights.names, ids: named.filter(passes) },
    { name: "phrase", weight: tuning.legWeights.phrase, ids: phrased },
    { name: "graph", weight: tuning.legWeights.graph, ids: graph },
    { name: "semantic", weight: tuning.legWeights.semantic, ids: semantic.filter(passes) },
  ];
  const fused = reciprocalRankFusion(rankings, tuning.rrfK);
  const scored: ScoredChunk[] = [];
  for (const f of fused) {
    const m = meta.get(f.id);
    if (m) scored.push({ ...m, score: f.score, legs: f.legs });
  }
  const folded = foldByKey(scored, keyOf, tuning.foldShare);
  return {
    query,
    terms: scoredTerms(j, query, counts, names.map((n) => n.typed)),
    legs,
    filter,
    frames,
    ...(file === undefined ? {} : { path: file }),
    ...(names.length === 0 ? {} : { name: names[0]!.typed }),
    candidates: folded.map((g) =>
      nameBestSymbol({
        key: g.key,
        score: g.score,
        best: g.best,
        others: g.others,
      })
    ),
  };
}

/** BM25's k1 in FTS5's `bm25()`: a term's weight in a field saturates towards k1 + 1 times it. */
const FTS5_K1 = 1.2;

/**
 * The lexical leg's chunks with the common terms the expression left out
 * (`Tuning.commonShare`) counted back in, best first: a chunk holding one
 * gains the most BM25 gives a term in a body, `idf × body weight × (k1 + 1)`,
 * its idf FTS5's own formula over its estimated share (which chunks hold it:
 * one pass over its posting list, `chunksHolding`). "Returns the string
 * representation" keeps `return rowMap().toString()` above the `toString`
 * bodies that say neither word. Ties keep the lower id first, as the query
 * orders them.
 */
function commonBoost(
  j: Journal,
  ranked: { id: number; score: number }[],
  left: readonly (readonly [term: string, share: number])[],
  weights: FieldWeights,
): { id: number; score: number }[] {
  if (left.length === 0 || ranked.length === 0) return ranked;
  for (const [term, share] of left) {
    const idf = Math.max(1e-6, Math.log((1 - share + EPSILON) / (share + EPSILON)));
    const holding = chunksHolding(j, ranked.map((h) => h.id), [term]);
    for (const h of ranked) if (holding.has(h.id)) h.score += idf * weights.body * (FTS5_K1 + 1);
  }
  return ranked.sort((a, b) => b.score - a.score || a.id - b.id);
}

/** Keeps a share of 0 or 1 from dividing by zero in an idf. */
const EPSILON = 1e-9;

/** Document frequencies are counted up to this many chunks (a common word's count costs its scan). */
const MAX_COUNT = 5000;

/**
 * The query's words and whole identifiers as stems with their idf,
 * `ln(1 + (N − df + 0.5) / (df + 0.5))` over the N chunks of the index (df
 * capped at the counting budget, so a common word weighs at most as little
 * as that count allows). `typed`: what a query that is one name asks for
 * (`typedNames`), which every term spells.
 */
function scoredTerms(
  j: Journal,
  q: ParsedQuery,
  counts: readonly TermCount[],
  typed: readonly string[],
): ScoredTerm[] {
  const n = j.get<{ n: number | null }>("SELECT max(id) AS n FROM chunks")?.n ?? 0;
  const df = new Map(counts.map((c) => [c.term, c.df]));
  const out: ScoredTerm[] = [];
  const seen = new Set<string>();
  const words = new Set(q.words);
  for (const term of [...q.words, ...q.wholes]) {
    const s = stem(term);
    if (seen.has(s)) continue;
    seen.add(s);
    const d = df.get(term) ?? 0;
    const spelled = q.spelled.filter((name) => wholeForm(name) === term);
    out.push({
      stem: s,
      idf: Math.log(1 + (Math.max(n, d) - d + 0.5) / (d + 0.5)),
      ...(spelled.length > 0 ? { spelled } : {}),
    });
  }
  // A query that is a name (`Screen`, `is_empty`) spells the unit it asks for in each of its
  // terms, and its first word is the name's, not a verb leading a sentence ("Returns…": `get…`).
  if (typed.length > 0) {
    for (const t of out) t.spelled = [...new Set([...(t.spelled ?? []), ...typed])];
    if (out[0]) out[0].typed = true;
  }
  // Consecutive words of the query (after stop words go) are looked for as pairs.
  for (let i = 0; i + 1 < out.length && i + 1 < words.size; i++) out[i]!.next = true;
  // The first word of a qualifier the query typed (`Store` of `Store.open`) names the
  // container, not the answer's verb ("ResetCoverage sets …" keeps its lead).
  const first = q.words[0];
  const inQualifier = (typed: string) =>
    typed.includes(".") && splitWords(typed.slice(0, typed.lastIndexOf("."))).includes(first!);
  if (out[0] && first && q.spelled.some(inQualifier)) out[0].typed = true;
  return out;
}

/** True for a file's own chunk (path words, summary, text outside its symbols). */
export function isFileChunk(c: ChunkMeta): boolean {
  return c.kind === "file" || (c.path_id !== null && c.title === c.rel);
}

/**
 * A file is answered by its best-ranked symbol or section: when the file's
 * own chunk ranked first, the best of its symbols that ranked at all is
 * named instead (the file keeps its score).
 */
function nameBestSymbol(c: Candidate): Candidate {
  if (!isFileChunk(c.best)) return c;
  const i = c.others.findIndex((o) => !isFileChunk(o) && o.legs.includes("lexical"));
  if (i < 0) return c;
  const others = [...c.others];
  const [symbol] = others.splice(i, 1);
  return { ...c, best: symbol!, others: [c.best, ...others] };
}

/** The answer a chunk belongs to: its file, or its note or memory. */
export function keyOf(c: ChunkMeta): string {
  return c.path_id !== null ? `p${c.path_id}` : `${c.source}:${c.ref_id}`;
}

function metaForFilter(
  m: ChunkMeta,
): { source: string; language: string | null; path: string | null } {
  return { source: m.source, language: m.language, path: m.path ?? m.anchor };
}

/** Adds what the journal says of each chunk in `ids` that `into` lacks. */
export function loadMeta(j: Journal, ids: readonly number[], into: Map<number, ChunkMeta>): void {
  const missing = [...new Set(ids)].filter((id) => !into.has(id));
  if (missing.length === 0) return;
  for (const row of j.rows<ChunkMeta>(META, JSON.stringify(missing))) into.set(row.id, row);
}

async function semanticRanking(
  j: Journal,
  req: SearchRequest,
  query: ParsedQuery,
  filter: ChunkFilter,
  limit: number,
  report: (r: LegsReport["semantic"]) => void,
): Promise<number[]> {
  const leg: SemanticLeg | undefined = req.semantic === null
    ? undefined
    : req.semantic ?? semanticLegFor(j);
  if (!leg) {
    report({ on: false, reason: req.semantic === null ? "turned off" : NO_MODEL_REASON });
    return [];
  }
  try {
    const status = leg.status();
    if (!status.on) {
      report({ on: false, reason: status.reason });
      return [];
    }
    let chunkIds: Set<number> | undefined;
    if (isFiltered(filter)) {
      const f = filterSql(filter);
      const rows = j.all<{ id: number }>(
        `SELECT c.id FROM chunks c LEFT JOIN paths p ON p.id = c.path_id WHERE ${f.sql} LIMIT 50001`,
        ...f.params,
      );
      if (rows.length <= 50_000) chunkIds = new Set(rows.map((r) => r.id));
    }
    const hits = await leg.search(query.text, limit, chunkIds ? { chunkIds } : {});
    const ids = [...hits].sort((a, b) => b.score - a.score).map((h) => h.chunkId);
    report({ on: true, model: status.model, chunks: ids.length });
    return ids;
  } catch (e) {
    report({ on: false, reason: `${leg.name} failed: ${(e as Error).message}` });
    return [];
  }
}
