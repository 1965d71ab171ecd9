import assert from "node:assert/strict";
import { indexedRows, journalWithRoot } from "../../tests/index_rows.ts";
import { replaceOwnedRows, retractPath, StaleCommitError, touchPath } from "./owned.ts";
import type { ChunkRecord, NodeRecord, OwnedRows } from "./types.ts";

function rows(path: string, hash: string): OwnedRows {
  return indexedRows(path, { path: { hash } });
}

Deno.test("replaceOwnedRows() moves the generation and rejects a commit that expected another", () => {
  const j = journalWithRoot();
  assert.deepEqual(j.tx(() => replaceOwnedRows(j, rows("/r/a", "h1"), null)).generation, 1);
  assert.equal(j.tx(() => replaceOwnedRows(j, rows("/r/a", "h2"), 1)).generation, 2);
  assert.throws(() => j.tx(() => replaceOwnedRows(j, rows("/r/a", "h3"), 1)), StaleCommitError);
  // Two writers that both saw "no row" for a new path: the second loses.
  assert.throws(() => j.tx(() => replaceOwnedRows(j, rows("/r/a", "h4"), null)), StaleCommitError);
  assert.equal(j.get<{ hash: string }>("SELECT hash FROM paths")!.hash, "h2");
  assert.throws(
    () => j.tx(() => touchPath(j, "/r/a", 1, { size: 1, mtime_ms: 2, ctime_ms: 2, racy: 0 })),
    StaleCommitError,
  );
  assert.throws(() => j.tx(() => retractPath(j, "/r/a", 7)), StaleCommitError);
  assert.equal(j.tx(() => retractPath(j, "/r/a", 2)), true);
  assert.equal(j.get<{ n: number }>("SELECT count(*) AS n FROM paths")!.n, 0);
  j.close();
});

Deno.test("a rejected commit inside a batch leaves the batch's other paths committed", () => {
  const j = journalWithRoot();
  j.tx(() => replaceOwnedRows(j, rows("/r/a", "h1"), null));
  j.tx(() => {
    replaceOwnedRows(j, rows("/r/b", "h1"), null);
    assert.throws(() => replaceOwnedRows(j, rows("/r/a", "h9"), null), StaleCommitError);
    replaceOwnedRows(j, rows("/r/c", "h1"), null);
  });
  const paths = j.all<{ path: string; hash: string }>("SELECT path, hash FROM paths ORDER BY path")
    .map((r) => `${r.path}=${r.hash}`);
  assert.deepEqual(paths, ["/r/a=h1", "/r/b=h1", "/r/c=h1"]);
  j.close();
});

Deno.test("a pending edge is looked up by name and target through one index on both", () => {
  const j = journalWithRoot();
  // The resolver's retry of `C.m` when C's file changes: by name alone it read every pending `m`.
  const plan = j.all<{ detail: string }>(
    `EXPLAIN QUERY PLAN SELECT rowid, * FROM pending_edges
     WHERE name = ? AND target = ? AND owner_id != ? AND kind = 'calls' AND module IS NULL`,
    "get",
    "Map.get",
    1,
  ).map((r) => r.detail).join("; ");
  assert.match(plan, /USING INDEX pending_name \(name=\? AND target=\?\)/);
  j.close();
});

Deno.test("an edit keeps the rows it did not change: an unchanged chunk keeps its id and full-text row, its lines moved; a changed one is rewritten", () => {
  const j = journalWithRoot();
  const node = (name: string, start: number, end: number): NodeRecord => ({
    id: `id-${name}`,
    parent_id: name === "F" ? null : "id-F",
    kind: name === "F" ? "file" : "function",
    name,
    qualname: name === "F" ? "" : name,
    start_line: start,
    end_line: end,
    signature: null,
    doc: null,
    struct_hash: null,
    partial: 0,
    scoped: 0,
  });
  const chunk = (n: NodeRecord, hash: string, body: string): ChunkRecord => ({
    node_id: n.id,
    source: "code",
    title: n.qualname,
    start_line: n.start_line,
    end_line: n.end_line,
    text_hash: hash,
    fts: { name: n.name, qual: "", sig: "", doc: "", body, path: "a py" },
  });
  const version = (
    derivation: string,
    f: NodeRecord,
    g: NodeRecord,
    gHash: string,
    gBody: string,
  ) =>
    indexedRows("/r/a.py", {
      path: { hash: `${derivation}${gHash}${f.start_line}`, effective_depth: 3, derivation },
      nodes: [node("F", 1, 9), f, g],
      chunks: [chunk(f, "hf", "alpha"), chunk(g, gHash, gBody)],
    });
  const ids = () =>
    new Map(
      j.all<{ id: number; title: string }>("SELECT id, title FROM chunks").map((
        c,
      ) => [c.title, c.id]),
    );
  const match = (word: string) =>
    j.all<{ rowid: number }>("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?", word).map((
      r,
    ) => r.rowid);

  j.tx(() =>
    replaceOwnedRows(j, version("d1", node("f", 1, 3), node("g", 5, 7), "hg", "beta"), null)
  );
  const first = ids();
  // Another file's chunk after them: a rewritten chunk cannot get its old id back.
  j.tx(() =>
    replaceOwnedRows(
      j,
      indexedRows("/r/b.py", { chunks: [chunk(node("h", 1, 1), "hh", "delta")] }),
      null,
    )
  );
  // f's text is the same, one line lower; g's text changed.
  j.tx(() =>
    replaceOwnedRows(j, version("d1", node("f", 2, 4), node("g", 6, 9), "hg2", "gamma"), 1)
  );
  const second = ids();
  assert.equal(second.get("f"), first.get("f"));
  assert.notEqual(second.get("g"), first.get("g"));
  assert.deepEqual(match("alpha"), [first.get("f")]);
  assert.deepEqual(match("beta"), []);
  assert.deepEqual(match("gamma"), [second.get("g")]);
  assert.deepEqual(
    j.all<Record<string, unknown>>(
      "SELECT title, start_line, end_line FROM chunks WHERE title IN ('f', 'g') ORDER BY title",
    ).map((
      r,
    ) => ({ ...r })),
    [{ title: "f", start_line: 2, end_line: 4 }, { title: "g", start_line: 6, end_line: 9 }],
  );
  assert.deepEqual(
    j.all<Record<string, unknown>>("SELECT name, start_line, end_line FROM nodes ORDER BY name")
      .map((r) => ({ ...r })),
    [{ name: "F", start_line: 1, end_line: 9 }, { name: "f", start_line: 2, end_line: 4 }, {
      name: "g",
      start_line: 6,
      end_line: 9,
    }],
  );
  // Derived by other code: nothing is kept, every full-text row is written again.
  j.tx(() =>
    replaceOwnedRows(j, version("d2", node("f", 2, 4), node("g", 6, 9), "hg2", "gamma"), 2)
  );
  const third = ids();
  assert.notEqual(third.get("f"), second.get("f"));
  assert.deepEqual(match("alpha"), [third.get("f")]);
  assert.equal(j.get<{ n: number }>("SELECT count(*) AS n FROM chunks")!.n, 3);
  j.close();
});
