import type { Capability, Extraction, Extractor } from "./types.ts";

/**
 * The extractor every build has: L1 for every file, nothing deeper. Markdown
 * chunking and tree-sitter (L2/L3) register in {@link ./mod.ts}.
 */
export class L1Extractor implements Extractor {
  /** L1 for every language, with the reason nothing deeper is available. */
  capability(language: string | undefined): Capability {
    return {
      depth: 1,
      reason: language ? `no L2 extractor for ${language} in this build` : "unknown language",
    };
  }

  /** An empty L1 extraction: no symbols, references or chunks. */
  extract(): Promise<Extraction> {
    return Promise.resolve({ depth: 1, symbols: [], refs: [], chunks: [] });
  }
}
