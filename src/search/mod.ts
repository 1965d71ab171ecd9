/**
 * Search: turns a question into ranked, verified places across every root.
 *
 * Owns query parsing and identifier splitting (pure), the search chunks a
 * file owns (pure, called by the reconciler), the lexical (FTS5/BM25) and
 * graph legs, the semantic leg's plug, fusion (pure), verdicts against the
 * live filesystem, and notes. Reads the journal without the writer lock;
 * writes only notes and loose chunks (plain transactions) and hint files.
 */
export { contentWords, MAX_QUERY_WORDS, type ParsedQuery, parseQuery } from "./query.ts";
export {
  hasUnspacedScript,
  indexText,
  isStopWord,
  nameText,
  splitWords,
  stem,
  wholeForm,
} from "../derive/words.ts";
export { search, searchUsage, summaryLine } from "./search.ts";
export { framedBy, type StackFrame, stackFrames } from "./frames.ts";
export { printable } from "../present/printable.ts";
export { configuredTuning, DEFAULT_TUNING, rank } from "./rank.ts";
export { resolveFilter, SearchFilterError } from "./filter.ts";
export { pathOption, repoOption } from "./scope_option.ts";
export { indexedFile } from "./indexed_file.ts";
export { type Drift, type DriftedFile, driftedFiles, driftNotes } from "./file_drift.ts";
export type { Candidate, ChunkMeta, Ranking, Tuning } from "./rank.ts";
export type {
  CodePlace,
  Freshness,
  HitSymbol,
  LegsReport,
  PrunedHit,
  SearchHit,
  SearchKind,
  SearchRequest,
  SearchResult,
} from "./types.ts";
export { legOff, NO_MODEL_REASON, semanticLegFor, setSemanticLeg } from "./legs.ts";
export type { LegFilter, LegHit, LegStatus, SemanticLeg, SemanticLegFactory } from "./legs.ts";
export {
  deleteLooseChunk,
  LOOSE_TEXT_VERSION,
  type LooseChunk,
  looseChunkSecrets,
  mergeFound,
  upsertLooseChunk,
} from "./chunks.ts";
export {
  importNote,
  insertNote,
  type NoteInput,
  type NotePath,
  notePaths,
  type NoteRecord,
  noteRecords,
  redactStoredNotes,
  reindexNotes,
} from "./notes.ts";
export {
  confidence,
  CONFIDENCE_MODEL,
  type ConfidenceFacts,
  type ConfidenceModel,
  fitConfidence,
  INJECT_CONFIDENCE,
  type JudgedFacts,
  namesSymbol,
} from "./confidence.ts";
export { coverage, COVERAGE_THRESHOLD, decideVerdict, type Verdict } from "./verdict.ts";
export {
  findSymbol,
  nearSymbols,
  outline,
  symbolCandidates,
  SymbolLookupError,
  symbolRef,
} from "./symbols.ts";
export { type Definition, type DefinitionQuery, definitions, pickColumns } from "./definitions.ts";
export type { SymbolRef } from "./symbols.ts";
export { blastRadius, callees, callers, callNeighbourIds, methodHalves } from "./graph_query.ts";
export type { Neighbour, Unresolved } from "./graph_query.ts";
