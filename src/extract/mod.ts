/**
 * Extraction: turns one file's bytes into what the journal stores about it.
 *
 * Owns: language detection, the L1 description (binary or not, summary line),
 * and the {@link Extractor} plug through which L2/L3 (tree-sitter) and prose
 * chunking (markdown, reStructuredText, AsciiDoc, Org, man pages, plain text)
 * deliver symbols, references and chunks. Pure with respect to the
 * journal: it never opens SQLite and never decides what to write.
 *
 * Start with {@link createExtractor}: it routes prose to its chunker (L2),
 * languages with a shipped tree-sitter grammar to {@link TreeSitterExtractor}
 * (L3) and everything else to {@link L1Extractor}. Grammars and query files
 * are read from `grammars/`, `wasm/` and `src/extract/queries/` beside the
 * code (include them in `deno compile`), never from the network.
 */
export type { Capability, Chunk, Extraction, Extractor, Reference, SymbolDef } from "./types.ts";
export { detectLanguage, PROSE_LANGUAGES } from "./language.ts";
export { describeFile, isBinary, summarize } from "./file_info.ts";
export type { FileInfo } from "./file_info.ts";
export { L1Extractor } from "./l1.ts";
export { createExtractor } from "./routing.ts";
export type { ExtractorOptions } from "./routing.ts";
export { DEFAULT_BUDGET, TreeSitterExtractor } from "./tree_sitter.ts";
export type { ParseBudget } from "./tree_sitter.ts";
export { defaultGrammarPaths, GrammarLoadError, GrammarStore } from "./grammars.ts";
export type { GrammarPaths } from "./grammars.ts";
export { chunkMarkdown, MarkdownExtractor } from "./markdown.ts";
export { chunkProse, ProseExtractor } from "./prose.ts";
export { LANGUAGES, languageSpec } from "./languages.ts";
export { compareStructHashes, STRUCT_HASH_VERSION, structHashVersion } from "./struct_hash.ts";
export {
  DERIVATION,
  derivationOf,
  type DerivationVersions,
  derivedBy,
  LEGACY_DERIVATION,
} from "./derivation.ts";
export type { LanguageSpec } from "./languages.ts";
