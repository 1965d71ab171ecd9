import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { tempDir } from "../../tests/helpers.ts";
import { Journal } from "./journal.ts";

/** Fills `j` with `n` pending edges and deletes them all: their pages become free. */
function freePages(j: Journal, n: number): void {
  j.tx(() => {
    const ins = j.stmt(
      "INSERT INTO pending_edges (owner_id, src, kind, target, name, line) VALUES (?, ?, 'calls', ?, ?, 1)",
    );
    for (let i = 0; i < n; i++) ins.run(i % 50, `node${i}`, `receiver.target${i}`, `target${i}`);
  });
  j.tx(() => j.run("DELETE FROM pending_edges"));
}

const pragma = (j: Journal, name: string) =>
  Number(Object.values(j.get<Record<string, number>>(`PRAGMA ${name}`)!)[0]);

Deno.test("a journal gives the pages a large deletion left free back to the file system, in short steps", async () => {
  const file = join(tempDir(), "journal.db");
  const j = Journal.open(file);
  try {
    assert.equal(pragma(j, "auto_vacuum"), 2, "made with incremental auto-vacuum");
    freePages(j, 200_000);
    const before = pragma(j, "page_count");
    assert.ok(pragma(j, "freelist_count") * 2 > before, "most pages are free");
    const steps = [...j.reclaimSteps()];
    assert.ok(steps.length >= 2, `several steps (${steps.length})`);
    assert.equal(pragma(j, "freelist_count"), 0);
    assert.ok(pragma(j, "page_count") * 2 < before);
    // Through txChunked, as the reconciler runs it, and a no-op once nothing is free.
    freePages(j, 30_000);
    await j.txChunked(j.reclaimSteps(), { maxMs: 50 });
    assert.equal(pragma(j, "freelist_count"), 0);
    assert.deepEqual([...j.reclaimSteps()], []);
  } finally {
    j.close();
  }
});

Deno.test("a journal made without incremental auto-vacuum keeps its free pages for its next writes", () => {
  const file = join(tempDir(), "journal.db");
  // As an older build made it: WAL first, which fixes the file's mode at none.
  const db = new DatabaseSync(file);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("CREATE TABLE made_before (x INTEGER)");
  db.close();
  const j = Journal.open(file);
  try {
    assert.equal(pragma(j, "auto_vacuum"), 0);
    freePages(j, 30_000);
    const free = pragma(j, "freelist_count");
    assert.ok(free > 0);
    assert.deepEqual([...j.reclaimSteps()], []);
    assert.equal(pragma(j, "freelist_count"), free);
  } finally {
    j.close();
  }
});
