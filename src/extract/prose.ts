/** Prose at L2: each prose language's chunker behind one {@link Extractor}. */
import type { Depth } from "../config/mod.ts";
import type { Capability, Chunk, Extraction, Extractor, SymbolDef } from "./types.ts";
import { chunkMarkdown } from "./markdown.ts";
import { chunkRst } from "./prose_rst.ts";
import { chunkAsciidoc } from "./prose_asciidoc.ts";
import { chunkOrg } from "./prose_org.ts";
import { chunkMan } from "./prose_man.ts";
import { chunkText } from "./prose_text.ts";

/** One chunker per id of `PROSE_LANGUAGES` (language.ts). */
const CHUNKERS: Record<string, (text: string) => { chunks: Chunk[]; symbols: SymbolDef[] }> = {
  markdown: chunkMarkdown,
  rst: chunkRst,
  asciidoc: chunkAsciidoc,
  org: chunkOrg,
  man: chunkMan,
  text: chunkText,
};

/**
 * Sections and heading symbols of a prose file in `language` (`markdown`,
 * `rst`, `asciidoc`, `org`, `man`, `text`), or undefined for any other
 * language. Pure and linear in the text.
 */
export function chunkProse(
  language: string,
  text: string,
): { chunks: Chunk[]; symbols: SymbolDef[] } | undefined {
  return Object.hasOwn(CHUNKERS, language) ? CHUNKERS[language]!(text) : undefined;
}

/**
 * Prose at L2: chunks by section and `heading` symbols for every prose
 * language {@link chunkProse} reads; prose has no graph (L3). Any other
 * language stays at L1 with a reason.
 */
export class ProseExtractor implements Extractor {
  /** L2 for every prose language it reads; anything else stays at L1 with the reason. */
  capability(language: string | undefined): Capability {
    return language !== undefined && Object.hasOwn(CHUNKERS, language)
      ? { depth: 2 }
      : { depth: 1, reason: `the prose extractor does not read ${language ?? "unknown files"}` };
  }

  /**
   * The sections as chunks and `heading` symbols, at most L2; L1 when the language is not one it
   * reads.
   */
  extract(input: { language: string; text: string; depth: Depth }): Promise<Extraction> {
    const depth = Math.min(input.depth, 2) as Depth;
    const prose = depth < 2 ? undefined : chunkProse(input.language, input.text);
    if (prose === undefined) {
      return Promise.resolve({
        depth: Math.min(depth, 1) as Depth,
        symbols: [],
        refs: [],
        chunks: [],
      });
    }
    return Promise.resolve({ depth, symbols: prose.symbols, refs: [], chunks: prose.chunks });
  }
}
