import type { Node } from "./grammars.ts";

const SIGNATURE_MAX = 200;

/**
 * A definition's declaration text: from its first token that is not a
 * decorator, annotation or comment, up to where `body` starts; without a
 * body (constants, aliases, overload signatures), up to the end of the first
 * line whose parentheses balance. Whitespace collapsed, at most 200 chars.
 */
export function signatureOf(
  outer: Node,
  body: Node | undefined,
  source: string,
  skipTypes: ReadonlySet<string>,
): string | undefined {
  const start = firstSignificant(outer, skipTypes) ?? outer.startIndex;
  const end = body && body.startIndex > start
    ? body.startIndex
    : firstLinesEnd(source, start, outer.endIndex);
  let text = "";
  let at = start;
  // Walking children to find comments costs wasm calls; most headers have none.
  const mayHaveComment = /\/[/*]|#/.test(source.slice(start, end));
  for (const c of mayHaveComment ? commentsWithin(outer, start, end) : []) {
    text += source.slice(at, c.startIndex) + " ";
    at = c.endIndex;
  }
  text += source.slice(at, end);
  const sig = text.replace(/\s+/g, " ").trim()
    // Multi-line parameter lists: `( a, b, )` reads as `(a, b)`.
    .replace(/([([]) /g, "$1").replace(/,? ([)\]])/g, "$1")
    // A body-less cut can end on the opening brace (`type T interface {`).
    .replace(/ ?\{$/, "");
  if (sig === "") return undefined;
  return sig.length <= SIGNATURE_MAX ? sig : sig.slice(0, SIGNATURE_MAX - 1) + "…";
}

/** Start of the first child that is not skipped, looking inside a leading modifier list. */
function firstSignificant(node: Node, skipTypes: ReadonlySet<string>): number | undefined {
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)!;
    if (isSkipped(child, skipTypes)) continue;
    // Java's `modifiers`: annotations sit inside the first child.
    const inner = child.firstChild;
    if (inner && isSkipped(inner, skipTypes)) {
      const start = firstSignificant(child, skipTypes);
      if (start !== undefined) return start;
      continue;
    }
    return child.startIndex;
  }
  return undefined;
}

function isSkipped(node: Node, skipTypes: ReadonlySet<string>): boolean {
  return skipTypes.has(node.type) || node.type.includes("comment");
}

/** Comment nodes inside [start, end), in order; only the part before the body is walked. */
function commentsWithin(node: Node, start: number, end: number): Node[] {
  const out: Node[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)!;
    if (child.startIndex >= end) break;
    if (child.endIndex <= start) continue;
    if (child.type.includes("comment")) out.push(child);
    else if (child.childCount > 0) out.push(...commentsWithin(child, start, end));
  }
  return out;
}

/** End of the first line, from `start`, at which `(`/`)` are balanced (or `end`). */
function firstLinesEnd(source: string, start: number, end: number): number {
  let depth = 0;
  for (let i = start; i < end; i++) {
    const c = source[i];
    if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "\n" && depth <= 0) return i;
  }
  return end;
}
