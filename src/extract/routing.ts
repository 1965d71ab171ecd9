import type { Depth } from "../config/mod.ts";
import type { Capability, Extraction, Extractor } from "./types.ts";
import { L1Extractor } from "./l1.ts";
import { ProseExtractor } from "./prose.ts";
import { PROSE_LANGUAGES } from "./language.ts";
import { type ParseBudget, TreeSitterExtractor } from "./tree_sitter.ts";
import type { GrammarStore } from "./grammars.ts";
import { languageSpec } from "./languages.ts";

/** Options for {@link createExtractor}; defaults suit the reconciler. */
export interface ExtractorOptions {
  /** Per-file parse limits; any not given keep {@link DEFAULT_BUDGET}'s. */
  budget?: Partial<ParseBudget>;
  /** Where grammars load from (default: the grammars shipped beside the code). */
  store?: GrammarStore;
  /**
   * Parse trees kept by path so that re-parsing an edited file is
   * incremental (default 4; 0 where each file is parsed once, as in bulk
   * indexing Workers, to hold no memory for it).
   */
  keepTrees?: number;
}

/**
 * The extractor the reconciler uses: prose (markdown, reStructuredText,
 * AsciiDoc, Org, man pages, plain text) → its chunker (L2), languages with
 * a tree-sitter grammar → {@link TreeSitterExtractor} (L3), anything else →
 * L1. One instance per process (or Worker) is enough: grammars load lazily
 * on first use and stay cached.
 */
export function createExtractor(options: ExtractorOptions = {}): Extractor {
  return new RoutingExtractor(options);
}

class RoutingExtractor implements Extractor {
  #prose = new ProseExtractor();
  #treeSitter: TreeSitterExtractor;
  #l1 = new L1Extractor();

  constructor(options: ExtractorOptions) {
    const tsOptions: { store?: GrammarStore; budget?: Partial<ParseBudget>; keepTrees?: number } =
      {};
    if (options.store) tsOptions.store = options.store;
    if (options.budget) tsOptions.budget = options.budget;
    if (options.keepTrees !== undefined) tsOptions.keepTrees = options.keepTrees;
    this.#treeSitter = new TreeSitterExtractor(tsOptions);
  }

  capability(language: string | undefined): Capability {
    return this.#route(language).capability(language);
  }

  extract(
    input: { path: string; language: string; text: string; depth: Depth; budgetScale?: number },
  ): Promise<Extraction> {
    return this.#route(input.language).extract(input);
  }

  warm(language: string): Promise<void> {
    return this.#route(language).warm?.(language) ?? Promise.resolve();
  }

  #route(language: string | undefined): Extractor {
    if (language !== undefined && PROSE_LANGUAGES.has(language)) return this.#prose;
    if (languageSpec(language)) return this.#treeSitter;
    return this.#l1;
  }
}
