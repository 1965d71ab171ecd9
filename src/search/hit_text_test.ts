import { proseLine } from "./hit_text.ts";
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
