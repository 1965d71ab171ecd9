import { equal } from "node:assert/strict";
import { precedingDoc } from "./doc_comment.ts";
import type { Span } from "./source_marks.ts";

/** Comment spans of a C-like text: every `//…` to its line end and every `/*…*\/`. */
function comments(text: string): Span[] {
  return [...text.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
  }));
}

function docOf(text: string, accept?: RegExp): string | undefined {
  return precedingDoc(text, comments(text), text.indexOf("fn f"), accept);
}

const CASES: [string, string, string | undefined, RegExp?][] = [
  ["a line comment block above", "// one\n// two\nfn f() {}\n", "one\ntwo"],
  ["a block comment, markers stripped", "/**\n * Doc.\n */\nfn f() {}\n", "Doc."],
  ["a blank line ends the block", "// far\n\n// near\nfn f() {}\n", "near"],
  ["a blank line before the definition: none", "// far\n\nfn f() {}\n", undefined],
  ["a comment trailing code is not documentation", "x(); // no\nfn f() {}\n", undefined],
  ["comments on one line both count", "/* a */ /* b */\nfn f() {}\n", "a\nb"],
  ["code before the first of them stops there", "x(); /* a */ /* b */\nfn f() {}\n", "b"],
  ["on the definition's line", "/* inline */ fn f() {}\n", "inline"],
  ["the accept pattern stops the block", "// plain\n/// doc\nfn f() {}\n", "doc", /^\/\/\//],
  ["no comment", "x();\nfn f() {}\n", undefined],
];

for (const [name, text, want, accept] of CASES) {
  Deno.test(`precedingDoc(): ${name}`, () => {
    equal(docOf(text, accept), want);
  });
}

Deno.test("precedingDoc(): what parts a comment from the definition is read as parsed, the doc as written", () => {
  // C's linkage macro, blanked for the parser (same offsets): the comment documents the prototype.
  const text = "/* Opens a LANTERN beam. */\nCURL_EXTERN int f(void);\n";
  const parsed = text.replace("LANTERN", " ".repeat(7)).replace("CURL_EXTERN", " ".repeat(11));
  const at = text.indexOf("int f");
  equal(precedingDoc(text, comments(text), at), undefined);
  equal(precedingDoc(text, comments(text), at, undefined, parsed), "Opens a LANTERN beam.");
});
