import assert from "node:assert/strict";
import { GrammarStore, Query, type QueryMatch } from "./grammars.ts";
import { keepTyped, typeTests } from "./type_predicates.ts";

const SOURCE = "run();\nthis.stop();\nnew Thing();\n";

/** The text of each match's first capture. */
const texts = (matches: QueryMatch[]) => matches.map((m) => m.captures[0]!.node.text);

/**
 * `query` compiled over JavaScript's grammar and run on {@link SOURCE}: the
 * first captures of all its matches, and of those its `#type?` tests keep.
 */
async function run(query: string): Promise<{ all: string[]; kept: string[] }> {
  const { parser } = await new GrammarStore().load("javascript");
  const q = new Query(parser.language!, query);
  const tree = parser.parse(SOURCE)!;
  try {
    const matches = q.matches(tree.rootNode);
    return { all: texts(matches), kept: texts(keepTyped(matches, typeTests(q, parser.language!))) };
  } finally {
    tree.delete();
  }
}

Deno.test("#type? keeps a match only when its capture has one of the named types", async () => {
  const { all, kept } = await run(
    `(call_expression function: (_) @callee (#type? @callee "identifier"))`,
  );
  // The wildcard alone matches both calls; the test keeps the bare name.
  assert.deepEqual(all, ["run", "this.stop"]);
  assert.deepEqual(kept, ["run"]);
});

Deno.test("#type? passes a match that captured nothing under its name, and any of several types", async () => {
  const { kept } = await run(
    `([(call_expression function: (_) @callee) (new_expression constructor: (_) @made)]
      (#type? @callee "member_expression" "identifier"))`,
  );
  assert.deepEqual(kept, ["run", "this.stop", "Thing"]);
});

Deno.test("a #type? test that is malformed or names a type the grammar lacks fails the load, naming it", async () => {
  for (
    const [query, message] of [
      [
        `((identifier) @x (#type? @x "identifer"))`,
        /node type "identifer", which the grammar lacks/,
      ],
      [
        `((identifier) @x (#type? @x))`,
        /malformed #type\? test; write \(#type\? @capture "type" …\)/,
      ],
      [`((identifier) @x (#type? "identifier"))`, /malformed #type\? test/],
    ] as const
  ) {
    await assert.rejects(run(query), message, query);
  }
});
