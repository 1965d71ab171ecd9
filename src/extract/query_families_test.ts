import { equal, match, throws } from "node:assert/strict";
import { expandFamilies, familyNames } from "./query_families.ts";
import { defaultGrammarPaths } from "./grammars.ts";

const FAMILY_LINE = /^;;\s*@family\s+(\S+)\s*$/gm;

Deno.test("expandFamilies() returns a query without family lines unchanged", () => {
  const source = ";; a comment\n(call_expression function: (identifier) @name) @reference.call\n";
  equal(expandFamilies(source, "c"), source);
});

Deno.test("expandFamilies() puts a family's patterns where its line stands", () => {
  const out = expandFamilies("(a) @x\n;; @family php.includes\n(b) @y\n", "php");
  const include = out.indexOf("(include_expression");
  match(out, /^\(a\) @x\n; ---- family php\.includes/);
  equal(include > 0 && include < out.indexOf("(b) @y"), true);
});

Deno.test("expandFamilies() names the file and the family when the family does not exist", () => {
  throws(
    () => expandFamilies(";; @family cpp.nothing\n", "cpp"),
    /query file "cpp\.scm" asks for pattern family "cpp\.nothing"/,
  );
});

Deno.test("every family a query file asks for exists, and every family is asked for once", () => {
  const asked: string[] = [];
  for (const entry of Deno.readDirSync(defaultGrammarPaths().queries)) {
    if (!entry.name.endsWith(".scm")) continue;
    const source = Deno.readTextFileSync(new URL(entry.name, defaultGrammarPaths().queries));
    for (const m of source.matchAll(FAMILY_LINE)) asked.push(m[1]!);
  }
  equal(asked.sort().join(" "), familyNames().sort().join(" "));
});
