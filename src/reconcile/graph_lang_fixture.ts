import type { Extraction, Extractor, Reference, SymbolDef } from "../extract/mod.ts";

/**
 * A tiny line-based extractor for a made-up language (`.gr` files) so that
 * graph resolution is tested apart from tree-sitter: `def NAME` (a
 * function; `def CLASS.NAME`, a method), `call NAME [MODULE]`,
 * `import NAME from MODULE`.
 */
export class GraphLangExtractor implements Extractor {
  capability(language: string | undefined) {
    return language === "typescript"
      ? { depth: 3 as const }
      : { depth: 1 as const, reason: "test" };
  }
  extract({ text }: { text: string }): Promise<Extraction> {
    const symbols: SymbolDef[] = [];
    const refs: Reference[] = [];
    let current = "";
    text.split("\n").forEach((line, i) => {
      const [verb, a, b, c] = line.trim().split(/\s+/);
      if (verb === "def" && a) {
        current = a;
        const name = a.split(".").at(-1)!;
        const kind = name === a ? "function" : "method";
        symbols.push({ kind, name, qualname: a, startLine: i + 1, endLine: i + 1 });
      } else if (verb === "call" && a) {
        refs.push({
          kind: "calls",
          from: current,
          name: a,
          line: i + 1,
          ...(b ? { module: b } : {}),
        });
      } else if (verb === "import" && a && b === "from" && c) {
        refs.push({ kind: "imports", from: "", name: a, module: c, line: i + 1 });
      }
    });
    return Promise.resolve({ depth: 3, symbols, refs, chunks: [] });
  }
}
