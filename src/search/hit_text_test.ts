import assert from "node:assert/strict";
import { linesOf, proseLine, spanOf, summaryOf } from "./hit_text.ts";
import { definitionLine } from "./relocate.ts";
import { assertCases } from "../../tests/cases.ts";

Deno.test("proseLine() drops rules, underlines and roff requests, and roff font escapes", () => {
  assertCases(proseLine, [
    ["=========", ""],
    ["~~~~", ""],
    [".SH OPTIONS", ""],
    ["\\fB\\-x\\fR extracts files", "-x extracts files"],
    ["  Plain words stay.  ", "Plain words stay."],
  ]);
});

Deno.test("linesOf() gives the lines split and slice would, without splitting the file", () => {
  const texts = ["", "a", "a\n", "a\nb", "a\nb\n", "\n\n", "x\ny\nz\n\nw"];
  for (const text of texts) {
    for (let start = -1; start <= 7; start++) {
      for (let end = -1; end <= 8; end++) {
        assert.equal(
          linesOf(text, start, end),
          text.split("\n").slice(start - 1, end).join("\n"),
          `${JSON.stringify(text)} ${start}..${end}`,
        );
      }
    }
  }
});

Deno.test("summaryOf() skips an rst overline and the title under it", () => {
  const section = { kind: "heading", source: "docs", path_id: 1, title: "Guide > Top Title" };
  const m = section as unknown as Parameters<typeof summaryOf>[0];
  assert.equal(summaryOf(m, "=====\nTop Title\n=====\n\nIntro paragraph."), "Intro paragraph.");
  assert.equal(summaryOf(m, "Top Title\n=========\n\nIntro paragraph."), "Intro paragraph.");
  assert.equal(summaryOf(m, "# Top Title\n\nIntro paragraph."), "Intro paragraph.");
  assert.equal(
    summaryOf({ ...m, title: "NAME" }, ".SH NAME\nfoo \\- does things"),
    "foo - does things",
  );
});

Deno.test("summaryOf() shows the first line of a chunk that opens with no heading", () => {
  const top = { kind: null, source: "docs", path_id: 1, title: "notes.md (top)" };
  const m = top as unknown as Parameters<typeof summaryOf>[0];
  assert.equal(summaryOf(m, "Intro paragraph.\nIts second line."), "Intro paragraph.");
  assert.equal(summaryOf(m, "---\ntitle: Notes\n---\n\nIntro."), "title: Notes");
  const rest = { ...m, title: "Guide > Install" };
  assert.equal(
    summaryOf(rest, "The rest of a long section.\nMore."),
    "The rest of a long section.",
  );
  // Plain text under no heading is titled by its first line: the summary is the next one.
  const text = { ...m, title: "A first line that titles the chunk" };
  assert.equal(summaryOf(text, "A first line that titles the chunk\nThen more."), "Then more.");
});

Deno.test("definitionLine() takes the match nearest where the symbol was, through an export macro", () => {
  const c = [
    "static int total (int a, int b);",
    "",
    "int helper (void) {",
    "}",
    "static int total (int a, int b) {",
    "  return a + b;",
    "}",
  ];
  assert.equal(definitionLine(c, "static int total (int a, int b)", 5), 5);
  assert.equal(definitionLine(["/* x */", ...c], "static int total (int a, int b)", 5), 6);
  assert.equal(definitionLine(c, "static int total (int a, int b)", 1), 1);
  assert.equal(
    definitionLine(["", "LUALIB_API int make_state (void) {"], "int make_state (void)", 1),
    2,
  );
  assert.equal(definitionLine(["int other (void) {"], "int make_state (void)", 1), undefined);
});

Deno.test("definitionLine() finds a method whose signature starts on a short line of its own", () => {
  // `set(` of an object literal's method, its parameters one a line (prettier's layout).
  const traps = [
    "\tget(state, prop) {", // 1
    "\t\tset(", //            2: a call
    "\t\t\tprop,", //        3
    "\t\t)", //               4
    "\t},", //                 5
    "\tset(", //               6: the method
    "\t\tstate: ProxyObjectState,", // 7
    "\t\tprop: string /* strictly not */,", // 8
    "\t\tvalue", //           9
    "\t) {", //               10
  ];
  const sig = "set(state: ProxyObjectState, prop: string , value)";
  assert.equal(definitionLine(traps, sig, 1), 6);
  assert.equal(definitionLine(traps.slice(0, 5), sig, 1), undefined, "the call is not it");
});

Deno.test("summaryOf() shows a changed symbol's first line when it no longer holds its signature", () => {
  const fn = {
    kind: "function",
    source: "code",
    path_id: 1,
    title: "f",
    signature: "def f(a, b):",
  };
  const m = fn as unknown as Parameters<typeof summaryOf>[0];
  const now = "def f(a, b, c=0):\n    return a";
  assert.equal(summaryOf(m, now), "def f(a, b):", "unchanged: the index's signature");
  assert.equal(summaryOf(m, now, true), "def f(a, b, c=0):");
  assert.equal(summaryOf(m, "def f(a,\n      b):\n    return a", true), "def f(a, b):");
  assert.equal(summaryOf(m, ""), "def f(a, b):", "nothing read: what was indexed");
  // Its lines hold another definition now (it was renamed or deleted), or nothing.
  assert.equal(summaryOf(m, "def g(a, b):\n    return a", true), "def g(a, b):");
  assert.equal(summaryOf(m, "\n\n", true), null, "blank: not a signature the file lost");
});

Deno.test("spanOf() ends a file's own chunk at the file's last line, not one past its final newline", () => {
  const file = { kind: "file", source: "code", path_id: 1, title: "a.py", rel: "a.py" };
  // Indexed as lines 1-4 of a three-line file that ends with a newline.
  const m = { ...file, start_line: 1, end_line: 4 } as unknown as Parameters<typeof spanOf>[0];
  assert.equal(spanOf(m, "a\nb\nc\n", false).endLine, 3);
  assert.equal(spanOf(m, "a\nb\nc", false).endLine, 3);
  assert.equal(spanOf(m, "a\n", true).endLine, 1, "cut short since");
  assert.equal(spanOf(m, "", false).endLine, 4, "not read: as indexed");
});
