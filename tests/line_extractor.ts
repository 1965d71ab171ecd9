import type { Extraction, Extractor } from "../src/extract/mod.ts";

/**
 * A test extractor with no tree-sitter in the way: TypeScript files at L2
 * with one function per `function NAME` line (line i + 1 for the i-th),
 * every other language at L1. While `gate` is set, each extraction waits for
 * it (to hold a pass mid-flight).
 */
export class LineExtractor implements Extractor {
  gate: Promise<void> | undefined;
  capability(language: string | undefined) {
    return language === "typescript"
      ? { depth: 2 as const }
      : { depth: 1 as const, reason: "test" };
  }
  async extract({ text }: { text: string }): Promise<Extraction> {
    await this.gate;
    const symbols = [...text.matchAll(/function (\w+)/g)].map((m, i) => ({
      kind: "function",
      name: m[1]!,
      qualname: m[1]!,
      startLine: i + 1,
      endLine: i + 1,
    }));
    return { depth: 2, symbols, refs: [], chunks: [] };
  }
}
