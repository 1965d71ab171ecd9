/**
 * Extraction: turns one file's bytes into what the journal stores about it.
 *
 * Owns: language detection, the L1 description (binary or not, summary line),
 * and the {@link Extractor} plug through which L2/L3 (tree-sitter) and markdown
 * chunking deliver symbols, references and chunks. Pure with respect to the
 * journal: it never opens SQLite and never decides what to write.
 */
export type { Capability, Chunk, Extraction, Extractor, Reference, SymbolDef } from "./types.ts";
export { detectLanguage } from "./language.ts";
export { describeFile, isBinary, summarize } from "./file_info.ts";
export type { FileInfo } from "./file_info.ts";
export { L1Extractor } from "./l1.ts";
