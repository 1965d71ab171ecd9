import assert from "node:assert/strict";
import { indexedRows, journalWithRoot } from "../../tests/index_rows.ts";
import { replaceOwnedRows, retractPath, StaleCommitError, touchPath } from "./owned.ts";
import type { OwnedRows } from "./types.ts";

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
    () => j.tx(() => touchPath(j, "/r/a", 1, { size: 1, mtime_ms: 2, racy: 0 })),
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
