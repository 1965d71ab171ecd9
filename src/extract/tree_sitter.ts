import type { Depth } from "../config/mod.ts";
import type { Capability, Extraction, Extractor } from "./types.ts";
import { GrammarLoadError, GrammarStore } from "./grammars.ts";
import { languageSpec } from "./languages.ts";
import { errorSpans, symbolsAndRefs } from "./captures.ts";

/** Per-file limits; a file over either is recorded at L1 with the reason. */
export interface ParseBudget {
  /** Largest text parsed, in UTF-16 code units (≈ bytes for code). Default 1,000,000. */
  maxChars: number;
  /** Wall-clock limit for parse plus query of one file, in ms. Default 1,000. */
  maxMillis: number;
}

export const DEFAULT_BUDGET: ParseBudget = { maxChars: 1_000_000, maxMillis: 1_000 };

/**
 * L2/L3 extraction with tree-sitter: symbols (definitions with range,
 * signature, doc, structural hash) and references (calls, imports,
 * inherits, implements) for every language in ./languages.ts.
 *
 * Outcomes of `extract()`: depth 3 (or the depth asked for, if lower) with
 * symbols and refs; depth 3 with `error` set and symbols flagged `partial`
 * when the file has syntax errors; depth 1 with `error` when the grammar does
 * not load or the file exceeds the budget. Grammars load on first use (the
 * first call for a language pays 5–200 ms, C++ the most) and stay cached for
 * the process. Parsing and querying are synchronous (the only await is the
 * grammar load), so calls may overlap freely; to parse in parallel, run one
 * extractor per Worker.
 */
export class TreeSitterExtractor implements Extractor {
  #store: GrammarStore;
  #budget: ParseBudget;

  constructor(options: { store?: GrammarStore; budget?: Partial<ParseBudget> } = {}) {
    this.#store = options.store ?? new GrammarStore();
    this.#budget = { ...DEFAULT_BUDGET, ...options.budget };
  }

  capability(language: string | undefined): Capability {
    const reason = this.#store.availability(language);
    return reason === undefined ? { depth: 3 } : { depth: 1, reason };
  }

  async extract(
    input: { path: string; language: string; text: string; depth: Depth },
  ): Promise<Extraction> {
    const { language, text } = input;
    const depth = Math.min(input.depth, 3) as Depth;
    if (depth < 2) return empty(depth);
    const spec = languageSpec(language);
    if (!spec) return { ...empty(1), error: `no tree-sitter grammar for ${language}` };
    if (text.length > this.#budget.maxChars) {
      return {
        ...empty(1),
        error: `parse budget exceeded: ${text.length} chars > ${this.#budget.maxChars} limit`,
      };
    }

    let grammar;
    try {
      grammar = await this.#store.load(language);
    } catch (e: unknown) {
      const reason = e instanceof GrammarLoadError ? e.reason : String(e);
      return { ...empty(1), error: `grammar failed to load: ${reason}` };
    }

    const { parser, query } = grammar;
    const deadline = performance.now() + this.#budget.maxMillis;
    const overdue = () => performance.now() > deadline;
    const tree = parser.parse(text, null, { progressCallback: overdue });
    if (!tree) {
      // A cancelled parse would otherwise resume on the next call.
      parser.reset();
      return { ...empty(1), error: budgetError(this.#budget, "parse") };
    }
    try {
      const matches = query.matches(tree.rootNode, { progressCallback: overdue });
      if (overdue()) return { ...empty(1), error: budgetError(this.#budget, "query") };
      const errors = errorSpans(tree.rootNode);
      const { symbols, refs } = symbolsAndRefs(
        tree.rootNode,
        matches,
        text,
        spec,
        errors,
        depth >= 3,
      );
      const out: Extraction = { depth, symbols, refs, chunks: [] };
      if (errors.length > 0) {
        const lines = [...new Set(errors.map((e) => e.line))];
        const shown = lines.slice(0, 5).join(", ") + (lines.length > 5 ? ", …" : "");
        out.error = `${errors.length} syntax error${errors.length === 1 ? "" : "s"} (line${
          lines.length === 1 ? "" : "s"
        } ${shown})`;
      }
      return out;
    } finally {
      tree.delete();
    }
  }
}

function empty(depth: Depth): Extraction {
  return { depth, symbols: [], refs: [], chunks: [] };
}

function budgetError(budget: ParseBudget, phase: string): string {
  return `parse budget exceeded: ${phase} took longer than ${budget.maxMillis} ms`;
}
