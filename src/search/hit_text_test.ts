import assert from "node:assert/strict";
import { linesOf, proseLine } from "./hit_text.ts";
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
