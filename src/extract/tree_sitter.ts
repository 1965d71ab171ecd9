import type { Depth } from "../config/mod.ts";
import type { Capability, Extraction, Extractor } from "./types.ts";
import { GrammarLoadError, GrammarStore } from "./grammars.ts";
import { languageSpec } from "./languages.ts";
import { errorSpans, symbolsAndRefs } from "./captures.ts";
import { RecentTrees } from "./recent_trees.ts";
import { grammarLanguage } from "./header_dialect.ts";
import { blankMacros } from "./c_macros.ts";
import { keepTyped } from "./type_predicates.ts";
import { blankDirectives, firstBranches, hasDirectives } from "./directives.ts";
import type { Node } from "./grammars.ts";

/** Per-file limits; a file over any of them is recorded at L1 with the reason. */
export interface ParseBudget {
  /** Largest text parsed, in UTF-16 code units (≈ bytes for code). Default 1,000,000. */
  maxChars: number;
  /** Wall-clock limit for parse plus query of one file, in ms. Default 1,000. */
  maxMillis: number;
  /**
   * Longest average line, in chars, of a file of 4,096 chars or more: over it
   * the file is minified or generated (a bundle, a compiled validator, a
   * translation table), its symbols would be noise, and it is not parsed.
   * Default 300; hand-written code averages 25–60.
   */
  maxAverageLine: number;
}

/** The limits a file is parsed within unless told otherwise. */
export const DEFAULT_BUDGET: ParseBudget = {
  maxChars: 1_000_000,
  maxMillis: 1_000,
  maxAverageLine: 300,
};

/** Files shorter than this are parsed whatever their line lengths (they cost nothing). */
const MINIFIED_MIN_CHARS = 4096;

/**
 * L2/L3 extraction with tree-sitter: symbols (definitions with range,
 * signature, doc, structural hash) and references (calls, imports,
 * inherits, implements) for every language in ./languages.ts.
 *
 * Outcomes of `extract()`: depth 3 (or the depth asked for, if lower) with
 * symbols and refs; depth 3 with `error` set and symbols flagged `partial`
 * when the file has syntax errors; depth 1 with `error` when the grammar does
 * not load or the file exceeds the budget (size, time, or minified lines). Grammars load on first use
 * (the first call for a language pays 10–800 ms, most of it compiling the
 * queries: C++, TypeScript and Ruby the most; see `warm()`) and stay cached
 * for the process. Parsing and querying are synchronous (the only await is the
 * grammar load), so calls may overlap freely; to parse in parallel, run one
 * extractor per Worker. The last `keepTrees` parse trees (default 4, each of
 * at most 512 KiB of text) are kept by path, so the next parse of an edited
 * file is incremental.
 */
export class TreeSitterExtractor implements Extractor {
  #store: GrammarStore;
  #budget: ParseBudget;
  #recent: RecentTrees;

  /**
   * An extractor over `store`'s grammars (default: shipped beside the code), parsing within
   * `budget` and keeping the last `keepTrees` trees.
   */
  constructor(
    options: { store?: GrammarStore; budget?: Partial<ParseBudget>; keepTrees?: number } = {},
  ) {
    this.#store = options.store ?? new GrammarStore();
    this.#budget = { ...DEFAULT_BUDGET, ...options.budget };
    this.#recent = new RecentTrees(options.keepTrees ?? 4);
  }

  /** Loads `language`'s grammar and compiles its queries, once per process; never rejects. */
  async warm(language: string): Promise<void> {
    if (!languageSpec(language) || this.#store.availability(language) !== undefined) return;
    await this.#store.load(language).catch(() => {});
  }

  /** L3 for a language whose grammar loads; L1 with the reason otherwise. */
  capability(language: string | undefined): Capability {
    const reason = this.#store.availability(language);
    return reason === undefined ? { depth: 3 } : { depth: 1, reason };
  }

  async extract(
    input: { path: string; language: string; text: string; depth: Depth; budgetScale?: number },
  ): Promise<Extraction> {
    const { text } = input;
    const depth = Math.min(input.depth, 3) as Depth;
    if (depth < 2) return empty(depth);
    if (!languageSpec(input.language)) {
      return { ...empty(1), error: `no tree-sitter grammar for ${input.language}` };
    }
    if (text.length > this.#budget.maxChars) {
      return {
        ...empty(1),
        error: `parse budget exceeded: ${text.length} chars > ${this.#budget.maxChars} limit`,
      };
    }
    if (text.length >= MINIFIED_MIN_CHARS) {
      const average = Math.round(text.length / lineCount(text));
      if (average > this.#budget.maxAverageLine) {
        return {
          ...empty(1),
          error:
            `minified or generated: lines average ${average} chars > ${this.#budget.maxAverageLine} limit`,
        };
      }
    }

    // A `.h` file written in C++ is read with the C++ grammar.
    const language = grammarLanguage(input.path, input.language, text);
    const spec = languageSpec(language)!;
    let grammar;
    try {
      grammar = await this.#store.load(language);
    } catch (e: unknown) {
      const reason = e instanceof GrammarLoadError ? e.reason : String(e);
      return { ...empty(1), error: `grammar failed to load: ${reason}` };
    }

    const { parser, query, typeTests } = grammar;
    const millis = this.#budget.maxMillis * Math.max(1, input.budgetScale ?? 1);
    const deadline = performance.now() + millis;
    const overdue = () => performance.now() > deadline;
    // What the parser reads: C and C++ without the macros a preprocessor
    // would expand away (same length and offsets, so the symbols are sliced
    // from `text` as written).
    let source = language === "cpp" || language === "c" ? blankMacros(text) : text;
    // The path's previous tree, when it is still here, makes the parse incremental.
    const old = this.#recent.take(input.path, language, source);
    let tree;
    try {
      tree = parser.parse(source, old ?? null, { progressCallback: overdue });
    } finally {
      old?.delete();
    }
    if (!tree) {
      // A cancelled parse would otherwise resume on the next call.
      parser.reset();
      return { ...empty(1), error: budgetError(millis, "parse") };
    }
    // A conditional directive inside a declaration's head breaks the
    // declaration (see directives.ts): read as if every branch held, when
    // less of the file is then in error (a second parse, only for such
    // files); when much is still in error, as if only each conditional's
    // first branch held (a third), where branches that each open a block
    // left the braces unbalanced. Another branch's code is then not read,
    // so not for a few errors: getpath.c's one cost 53 of its 305 calls.
    if (DIRECTIVE_LANGUAGES.has(language) && tree.rootNode.hasError && hasDirectives(text)) {
      const plain = source;
      let inError = errorBytes(tree.rootNode);
      // Each reading, tried while more than its share of the file is in error.
      const readings = [[blankDirectives, 0], [firstBranches, FIRST_BRANCHES_ERROR]] as const;
      for (const [read, share] of readings) {
        if (inError <= share * plain.length) break;
        const other = read(plain);
        const again = other === plain
          ? undefined
          : parser.parse(other, null, { progressCallback: overdue });
        if (again === null) {
          parser.reset();
          break;
        }
        const errors = again ? errorBytes(again.rootNode) : Infinity;
        if (again && errors < inError) {
          tree.delete();
          tree = again;
          source = other;
          inError = errors;
        } else again?.delete();
      }
    }
    try {
      // One pass for every pattern (definitions, references, comment and
      // literal marks). No match limit: on this corpus a limit of 64 already
      // drops calls of long method chains; the time budget bounds the cost.
      // The `#type?` tests, which web-tree-sitter leaves to its caller, drop
      // what the wildcards that stand for typed nodes matched besides them.
      const matches = keepTyped(
        query.matches(tree.rootNode, { progressCallback: overdue }),
        typeTests,
      );
      if (overdue()) {
        tree.delete();
        return { ...empty(1), error: budgetError(millis, "query") };
      }
      const root = tree.rootNode;
      const errors = errorSpans(root);
      const { symbols, refs } = symbolsAndRefs(matches, text, spec, errors, depth >= 3, source);
      const out: Extraction = { depth, symbols, refs, chunks: [] };
      if (errors.length > 0) {
        const lines = [...new Set(errors.map((e) => e.line))];
        const shown = lines.slice(0, 5).join(", ") + (lines.length > 5 ? ", …" : "");
        out.error = `${errors.length} syntax error${errors.length === 1 ? "" : "s"} (line${
          lines.length === 1 ? "" : "s"
        } ${shown})`;
      }
      this.#recent.keep(input.path, language, source, tree);
      return out;
    } catch (e) {
      tree.delete();
      throw e;
    }
  }
}

/** The languages whose `#if` lines the parser may read better without (see directives.ts). */
const DIRECTIVE_LANGUAGES: ReadonlySet<string> = new Set(["c", "cpp", "csharp"]);

/**
 * The share of a file's characters in error, every branch read, past which
 * it is read with only first branches too: 6% in CPython's getpath.c before
 * its directives were blanked (0% after); 83–100% in files whose branches
 * each open a block (curl's url.c, sqlite's lemon.c, CPython's fileio.c).
 */
const FIRST_BRANCHES_ERROR = 0.05;

/** How much of a tree is in error: the characters its error and missing nodes span. */
function errorBytes(root: Node): number {
  return errorSpans(root).reduce((sum, e) => sum + Math.max(1, e.end - e.start), 0);
}

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function empty(depth: Depth): Extraction {
  return { depth, symbols: [], refs: [], chunks: [] };
}

function budgetError(millis: number, phase: string): string {
  return `parse budget exceeded: ${phase} took longer than ${millis} ms`;
}
