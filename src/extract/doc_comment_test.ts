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
