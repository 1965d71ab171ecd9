import type { Node } from "./grammars.ts";
import { lastEndingBefore, type Span } from "./source_marks.ts";

const DOC_MAX = 2000;

/**
 * The comment block that documents a definition: the comments directly above
 * `first` (the start of the definition's range, decorators included),
 * contiguous, with no blank line or code between them, each accepted by
 * `accept`. A comment that trails code on its line is not documentation, nor
 * is a `#!` line. Markers (`//`, `///`, `#`, `/** *\/`, leading `*`) are
 * stripped and the block dedented. Undefined when there is none.
 *
 * Reads only the text and the file's comment spans (sorted, from the query's
 * `@mark.comment` captures): no tree walk, so its cost does not grow with the
 * number of siblings before the definition. `parsed` is the text as the
 * parser read it (C's with its macros blanked, same offsets): what lies
 * between a comment and the definition is read there, so a linkage macro
 * before a declaration (`CURL_EXTERN CURLcode curl_easy_setopt(…);`)
 * parts it from no comment; the comment's own text is `source`'s.
 */
export function precedingDoc(
  source: string,
  comments: readonly Span[],
  first: number,
  accept?: RegExp,
  parsed: string = source,
): string | undefined {
  let i = lastEndingBefore(comments, first);
  let next = first;
  const block: string[] = [];
  for (; i >= 0; i--) {
    const c = comments[i]!;
    // Only blanks between the comment and what follows, on the same or the next line.
    const ownNewline = source.charCodeAt(c.end - 1) === NL ? 1 : 0;
    if (!blank(parsed, c.end, next, 1 - ownNewline)) break;
    const lineStart = source.lastIndexOf("\n", c.start - 1) + 1;
    const before = comments[i - 1];
    const trails = !blank(parsed, lineStart, c.start, 0) &&
      !(before && before.end > lineStart && blank(parsed, before.end, c.start, 0));
    if (trails) break;
    const text = source.slice(c.start, c.end);
    if (accept && !accept.test(text)) break;
    if (text.startsWith("#!")) break;
    block.push(text);
    next = c.start;
  }
  if (block.length === 0) return undefined;
  block.reverse();
  // C# XML docs: the <summary> wrapper says nothing.
  return clean(block.map(stripCommentMarkers).join("\n").replace(/<\/?summary>/g, ""));
}

const NL = 10;

/** True when `source[from, to)` is spaces and at most `newlines` line breaks. */
function blank(source: string, from: number, to: number, newlines: number): boolean {
  let seen = 0;
  for (let i = from; i < to; i++) {
    const c = source.charCodeAt(i);
    if (c === NL) {
      if (++seen > newlines) return false;
    } else if (c !== 32 && c !== 9 && c !== 13 && c !== 12 && c !== 11) return false;
  }
  return true;
}

/** A Python docstring: the body's first statement when it is a lone string. */
export function docstringNode(def: Node): Node | undefined {
  const body = def.childForFieldName("body");
  const first = body?.firstNamedChild;
  if (!first || first.type !== "expression_statement") return undefined;
  const str = first.firstNamedChild;
  if (!str || first.namedChildCount !== 1) return undefined;
  return str.type === "string" || str.type === "concatenated_string" ? first : undefined;
}

/** The text of a docstring statement without prefix and quotes, dedented. */
export function docstringText(stmt: Node): string | undefined {
  const m = /^[rRuUbBfF]{0,2}("""|'''|"|')([\s\S]*?)\1$/.exec(stmt.text.trim());
  return m ? clean(m[2]!) : undefined;
}

/** Removes comment delimiters from one comment's text, line by line. */
export function stripCommentMarkers(text: string): string {
  let t = text.trim();
  if (t.startsWith("/*")) {
    t = t.replace(/^\/\*[*!]?/, "").replace(/\*\/$/, "");
    return t.split("\n").map((l) => l.replace(/^\s*\*(?!\/) ?/, "")).join("\n");
  }
  return t.split("\n").map((l) => l.trim().replace(/^(\/\/[/!]?|#+|--|;+) ?/, "")).join("\n");
}

/** Trims trailing spaces, drops blank edges, removes the common indent, caps the length. */
function clean(text: string): string | undefined {
  const lines = text.split("\n").map((l) => l.trimEnd());
  // Like Python's inspect.cleandoc: the first line's indent does not count.
  const rest = lines.slice(1).filter((l) => l.trim() !== "");
  const indent = rest.length === 0
    ? 0
    : Math.min(...rest.map((l) => l.length - l.trimStart().length));
  const out = [lines[0]!.trim(), ...lines.slice(1).map((l) => l.slice(indent))];
  while (out.length > 0 && out[0] === "") out.shift();
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  const doc = out.join("\n");
  if (doc === "") return undefined;
  return doc.length <= DOC_MAX ? doc : doc.slice(0, DOC_MAX - 1) + "…";
}
