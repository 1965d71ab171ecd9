import assert from "node:assert/strict";
import { proseLine } from "./hit_text.ts";

Deno.test("proseLine() drops rules, underlines and roff requests, and roff font escapes", () => {
  const cases: [string, string][] = [
    ["=========", ""],
    ["~~~~", ""],
    [".SH OPTIONS", ""],
    ["\\fB\\-x\\fR extracts files", "-x extracts files"],
    ["  Plain words stay.  ", "Plain words stay."],
  ];
  for (const [line, want] of cases) assert.equal(proseLine(line), want, line);
});
