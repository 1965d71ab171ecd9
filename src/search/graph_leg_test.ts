import assert from "node:assert/strict";
import { indexedRows, journalWithRoot } from "../../tests/index_rows.ts";
import { replaceOwnedRows } from "../store/owned.ts";
import type { ChunkRecord, NodeRecord } from "../store/types.ts";
import { graphRanking } from "./graph_leg.ts";

const node = (id: string, parent: string | null, kind: string, line: number): NodeRecord => ({
  id,
  parent_id: parent,
  kind,
  name: id,
  qualname: id,
  start_line: line,
  end_line: line + 1,
  signature: null,
  doc: null,
  struct_hash: null,
  partial: 0,
  scoped: 0,
});

const chunk = (n: NodeRecord): ChunkRecord => ({
  node_id: n.id,
  source: "code",
  title: n.qualname,
  start_line: n.start_line,
  end_line: n.end_line,
  text_hash: n.id,
  fts: { name: n.name, qual: n.qualname, sig: "", doc: "", body: "", path: "a py" },
});

/** `/r/a.py`: class C with methods m1 and m2, function g that m1 calls; title of each ranked chunk. */
function ranked(seeds: Record<string, number>, fanout = 32): string[] {
  const j = journalWithRoot();
  try {
    const nodes = [
      node("F", null, "file", 1),
      node("C", "F", "class", 1),
      node("m1", "C", "method", 2),
      node("m2", "C", "method", 4),
      node("g", "F", "function", 8),
    ];
    j.tx(() => {
      replaceOwnedRows(
        j,
        indexedRows("/r/a.py", {
          path: { effective_depth: 3 },
          nodes,
          edges: [{ src: "m1", dst: "g", kind: "calls", line: 3 }],
          chunks: nodes.map(chunk),
        }),
        null,
      );
    });
    const titles = new Map(
      j.all<{ id: number; title: string }>("SELECT id, title FROM chunks").map((
        c,
      ) => [c.id, c.title]),
    );
    const opts = { fanout, alpha: 0.3, iterations: 8 };
    return graphRanking(j, new Map(Object.entries(seeds)), opts).map((id) => titles.get(id)!);
  } finally {
    j.close();
  }
}

Deno.test("graphRanking() reaches a symbol's container and what it calls, with no contains rows", () => {
  const got = ranked({ m1: 1 });
  assert.equal(got[0], "m1");
  assert.deepEqual(got.slice(1).sort(), ["C", "g"]);
});

Deno.test("graphRanking() reaches what a symbol contains, at most fanout of them", () => {
  assert.deepEqual(ranked({ C: 1 }).slice(1).sort(), ["F", "m1", "m2"]);
  // One neighbour each way: the first child as written, and the container.
  assert.deepEqual(ranked({ C: 1 }, 1).slice(1).sort(), ["F", "m1"]);
});
