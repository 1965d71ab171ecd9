import type { Node } from "./grammars.ts";

const DOC_MAX = 2000;

/**
 * The comment block that documents a definition: the comments directly above
 * `first` (the first node of the definition's range, decorators included),
 * contiguous, with no blank line or code between them, each accepted by
 * `accept`. A comment that trails code on its line is not documentation.
 * Markers (`//`, `///`, `#`, `/** *\/`, leading `*`) are stripped and the block
 * dedented. Undefined when there is none.
 */
export function precedingDoc(first: Node, accept?: RegExp): string | undefined {
  // A comment above the first statement of a block can land outside the block
  // (tree-sitter-python puts it before `body:`), so climb while we start the parent.
  let anchor: Node = first;
  while (
    !anchor.previousSibling && anchor.parent && anchor.parent.startIndex === anchor.startIndex
  ) {
    anchor = anchor.parent;
  }
  const comments: Node[] = [];
  let row = first.startPosition.row;
  for (let n = anchor.previousSibling; n; n = n.previousSibling) {
    if (!n.type.includes("comment")) break;
    // A line comment may end at column 0 of the next line (its newline).
    const endRow = n.endPosition.row -
      (n.endPosition.column === 0 && n.endPosition.row > n.startPosition.row ? 1 : 0);
    if (endRow < row - 1) break;
    const prev = n.previousSibling;
    if (prev && !prev.type.includes("comment") && prev.endPosition.row === n.startPosition.row) {
      break;
    }
    if (accept && !accept.test(n.text)) break;
    if (n.text.startsWith("#!")) break;
    comments.unshift(n);
    row = n.startPosition.row;
  }
  if (comments.length === 0) return undefined;
  // C# XML docs: the <summary> wrapper says nothing.
  return clean(
    comments.map((c) => stripCommentMarkers(c.text)).join("\n").replace(/<\/?summary>/g, ""),
  );
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
