import type { Language, Query, QueryMatch } from "./grammars.ts";

/**
 * `(#type? @capture "type" …)`: a query predicate that Heimdall evaluates
 * itself, after the query has run: a match is kept only when every node
 * captured as `@capture` is of one of the named types (a match that captured
 * none under that name passes, as a branch of an alternation without it).
 *
 * Why not write the type in the pattern: tree-sitter analyses each pattern
 * when the query is compiled, walking the grammar's parse table from every
 * place the parent node can occur to find where the child may be; a named
 * child (`(binary (identifier))`) makes that walk explore every path that
 * does not lead to one, a wildcard (`(binary (_))`) stops at the first child,
 * and a wildcard parent (`(_ scope: … name: …)`) is not analysed at all. Ruby's
 * `(binary (identifier))` compiles in ~28 ms, `(binary (_))` in ~7 (5 of them
 * the grammar's fixed cost). A wildcard with a `#type?` test matches exactly
 * what the typed pattern matched, and costs only the matches of other types
 * that the test then drops, a few where the wildcard sits under a parent that
 * is rare or narrow.
 *
 * web-tree-sitter keeps predicates it does not know in
 * `query.predicatesForPattern()` and applies none of them, so the query
 * compiles unchanged; without {@link keepTyped} the test is not applied.
 */

/** One `#type?` test: a capture name and the node types its nodes may have. */
interface TypeTest {
  capture: string;
  types: ReadonlySet<string>;
}

/** Per pattern index, that pattern's `#type?` tests (undefined: it has none). */
export type TypeTests = readonly (readonly TypeTest[] | undefined)[];

/**
 * The `#type?` tests of `query`'s patterns, read once after it compiles.
 * Throws on a malformed test (no capture, no type) or a type `grammar` does
 * not name: a mistake in the query files that would otherwise drop every
 * match of the pattern, found on the first load of the language.
 */
export function typeTests(query: Query, grammar: Language): TypeTests {
  const out: (TypeTest[] | undefined)[] = [];
  for (let i = 0; i < query.patternCount(); i++) {
    for (const p of query.predicatesForPattern(i)) {
      if (p.operator !== "type?") continue;
      const [first, ...rest] = p.operands;
      const types = rest.map((o) => o.type === "string" ? o.value : "");
      if (first?.type !== "capture" || types.length === 0 || types.includes("")) {
        throw new Error(
          `pattern ${i} has a malformed #type? test; write (#type? @capture "type" …)`,
        );
      }
      const unknown = types.find((t) => grammar.idForNodeType(t, true) === null);
      if (unknown !== undefined) {
        throw new Error(`pattern ${i} tests for node type "${unknown}", which the grammar lacks`);
      }
      (out[i] ??= []).push({ capture: first.name, types: new Set(types) });
    }
  }
  return out;
}

/** The matches whose captures pass their pattern's `#type?` tests (all of them when no pattern has one). */
export function keepTyped(matches: QueryMatch[], tests: TypeTests): QueryMatch[] {
  if (tests.length === 0) return matches;
  return matches.filter((m) => {
    const own = tests[m.patternIndex];
    if (own === undefined) return true;
    for (const c of m.captures) {
      for (const t of own) if (c.name === t.capture && !t.types.has(c.node.type)) return false;
    }
    return true;
  });
}
