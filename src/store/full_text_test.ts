import assert from "node:assert/strict";
import { indexedRows, journalWithRoot } from "../../tests/index_rows.ts";
import { fullTextMergeDue, fullTextSegments, mergeFullTextSteps } from "./full_text.ts";
import type { Journal } from "./journal.ts";
import { replaceOwnedRows } from "./owned.ts";

/** Commits `files` paths one transaction each, every one with a chunk holding `word`: a segment a commit. */
function commitEach(j: Journal, files: number, word = "lantern"): void {
  for (let i = 0; i < files; i++) {
    const rows = indexedRows(`/r/f${i}.ts`, { path: { hash: `h${i}` } });
    rows.chunks = [{
      node_id: null,
      source: "code",
      title: `f${i}.ts`,
      start_line: 1,
      end_line: 1,
      text_hash: `t${i}`,
      fts: { name: `f${i}`, qual: "", sig: "", doc: "", body: `${word} item${i}`, path: `f${i}` },
    }];
    j.tx(() => replaceOwnedRows(j, rows, null));
  }
}

const matches = (j: Journal, q: string) =>
  j.all<{ rowid: number }>(
    "SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid",
    q,
  )
    .map((r) => r.rowid);

Deno.test("mergeFullTextSteps() leaves one segment that answers every query as before", async () => {
  const j = journalWithRoot();
  commitEach(j, 12);
  const before = fullTextSegments(j);
  assert.ok(before > 1, `${before} segments after 12 commits`);
  const lantern = matches(j, "lantern");
  const one = matches(j, "item7");
  assert.equal(lantern.length, 12);
  await j.txChunked(mergeFullTextSteps(j));
  assert.equal(fullTextSegments(j), 1);
  assert.deepEqual(matches(j, "lantern"), lantern);
  assert.deepEqual(matches(j, "item7"), one);
  // Already one segment: no step at all.
  assert.equal([...mergeFullTextSteps(j)].length, 0);
  j.close();
});

Deno.test("fullTextMergeDue() after a pass that changed a quarter of the indexed files, 100 or more", () => {
  const j = journalWithRoot();
  commitEach(j, 400);
  assert.equal(fullTextMergeDue(j, 400), true);
  assert.equal(fullTextMergeDue(j, 100), true);
  assert.equal(fullTextMergeDue(j, 99), false, "too few to matter");
  assert.equal(fullTextMergeDue(j, 0), false);
  j.close();
  const big = journalWithRoot();
  commitEach(big, 500);
  assert.equal(fullTextMergeDue(big, 124), false, "under a quarter of 500");
  assert.equal(fullTextMergeDue(big, 125), true);
  big.close();
});
