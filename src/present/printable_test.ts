import assert from "node:assert/strict";
import { printable } from "./printable.ts";
import { assertCases } from "../../tests/cases.ts";

Deno.test("printable() keeps a file name on one line and leaves ordinary text alone", () => {
  /** printable(input), once checked to hold no line break; the table then checks its value. */
  const oneLine = (input: string) => {
    const out = printable(input);
    assert.ok(!/[\n\r\u2028\u2029]/.test(out), JSON.stringify(input));
    return out;
  };
  assertCases(oneLine, [
    ["src/a.ts", "src/a.ts"],
    ["dir\\with\\backslash.ts", "dir\\with\\backslash.ts"],
    ["über/naïve—ok.ts", "über/naïve—ok.ts"],
    ["two\nlines.py", "two\\nlines.py"],
    ["cr\r.py", "cr\\r.py"],
    ["tab\t.py", "tab\\t.py"],
    ["esc\x1b[31mred.py", "esc\\x1b[31mred.py"],
    ["del\x7f.py", "del\\x7f.py"],
    ["ls\u2028.py", "ls\\u2028.py"],
    // Once anything is escaped, a backslash is doubled so the escapes stay unambiguous.
    ["a\\n\nb", "a\\\\n\\nb"],
  ]);
});
