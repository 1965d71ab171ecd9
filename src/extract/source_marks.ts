import type { Language } from "./grammars.ts";

/**
 * Where a file's comments and literals (strings, characters, regexes,
 * heredocs), wrappers and decorators lie, captured by patterns generated for
 * each grammar: what the structural hash leaves out or keeps verbatim, where
 * doc comments are looked for, and what a definition widens through.
 */

/** A range of a file's text, by UTF-16 index, `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

/** Capture names of the patterns {@link markPatterns} adds to a language's query. */
export const MARK_COMMENT = "mark.comment";
export const MARK_LITERAL = "mark.literal";
export const MARK_WRAPPER = "mark.wrapper";
export const MARK_DECORATOR = "mark.decorator";

/** Named node types kept verbatim by the structural hash, whatever the grammar. */
const LITERAL_TYPES = new Set([
  "string",
  "raw_string",
  "string_literal",
  "raw_string_literal",
  "interpreted_string_literal",
  "verbatim_string_literal",
  "interpolated_string_expression",
  "encapsed_string",
  "template_string",
  "char_literal",
  "character_literal",
  "rune_literal",
  "character",
  "regex",
  "heredoc",
  "heredoc_body",
  "nowdoc",
  "ansi_c_string",
  "translated_string",
]);

/**
 * Query patterns that capture every comment (`@mark.comment`: each named
 * node type whose name holds "comment"), every literal (`@mark.literal`),
 * and the language's wrapper and decorator nodes (`@mark.wrapper`,
 * `@mark.decorator`, the types named in its LanguageSpec that the grammar
 * has). They are appended to the language's query, so they come from the
 * same single pass over the tree as definitions and references: a second
 * walk would cost a sixth of a parse, and asking a node for its parent or
 * previous sibling costs a walk down from the root each time.
 */
export function markPatterns(
  language: Language,
  spec: { wrappers?: readonly string[]; decorators?: readonly string[] },
): string {
  const comments = new Set<string>();
  const literals = new Set<string>();
  const named = new Set<string>();
  for (let id = 0; id < language.nodeTypeCount; id++) {
    const name = language.nodeTypeForId(id);
    if (!name || !language.nodeTypeIsNamed(id)) continue;
    named.add(name);
    if (name.includes("comment")) comments.add(name);
    else if (LITERAL_TYPES.has(name)) literals.add(name);
  }
  const alt = (types: Iterable<string>, capture: string) => {
    const list = [...types].filter((t) => named.has(t));
    return list.length === 0 ? "" : `[${list.map((t) => `(${t})`).join(" ")}] @${capture}\n`;
  };
  return "\n; ---- generated: comments, literals, wrappers, decorators ----\n" +
    alt(comments, MARK_COMMENT) + alt(literals, MARK_LITERAL) +
    alt(spec.wrappers ?? [], MARK_WRAPPER) + alt(spec.decorators ?? [], MARK_DECORATOR);
}

/** Sorts marks by start and keeps the outermost of nested ones. */
export function outermost<T extends Span>(spans: T[]): T[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: T[] = [];
  let coveredTo = -1;
  for (const s of spans) {
    if (s.start < coveredTo || s.end <= s.start) continue;
    out.push(s);
    coveredTo = s.end;
  }
  return out;
}

/**
 * Index of the last span that ends at or before `index`, or -1; `spans` sorted
 * by start, nested or disjoint. A binary search on the starts, then a walk back
 * over the spans that start before `index` but reach past it (none when the
 * spans are disjoint, so one step).
 */
export function lastEndingBefore(spans: readonly Span[], index: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid]!.start < index) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo - 1; i >= 0; i--) if (spans[i]!.end <= index) return i;
  return -1;
}
