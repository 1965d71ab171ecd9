/**
 * Search: turns a question into ranked places across every root.
 *
 * Owns query parsing (pure) and ranking. Reads the journal only (never takes
 * the writer lock) and checks each hit against the filesystem at query time.
 */
export { contentWords, splitWords } from "./query.ts";
export { type SimpleHit, simpleSearch } from "./simple.ts";
export { findSymbol, outline, symbolCandidates, SymbolLookupError } from "./symbols.ts";
export type { SymbolRef } from "./symbols.ts";
export { blastRadius, callees, callers } from "./graph_query.ts";
export type { Neighbour, Unresolved } from "./graph_query.ts";
