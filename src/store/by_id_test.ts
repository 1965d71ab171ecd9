import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../../tests/helpers.ts";
import { ID_PAGE, Journal, pagesById } from "./mod.ts";

Deno.test("pagesById() reads every row once, a page at a time, and never an empty page", () => {
  const j = Journal.open(join(tempDir(), "journal.db"));
  const select = `SELECT id FROM notes WHERE id > ? ORDER BY id LIMIT ${ID_PAGE}`;
  const sizes = () => [...pagesById<{ id: number }>(j, select, 0)].map((p) => p.length);
  const add = (from: number, to: number) =>
    j.tx(() => {
      for (let id = from; id <= to; id++) {
        j.run(
          "INSERT INTO notes (id, title, body, created_ms) VALUES (?, 't', 'b', 0)",
          id,
        );
      }
    });
  assert.deepEqual(sizes(), []);
  add(1, 2 * ID_PAGE);
  assert.deepEqual(sizes(), [ID_PAGE, ID_PAGE]);
  add(2 * ID_PAGE + 1, 2 * ID_PAGE + 7);
  assert.deepEqual(sizes(), [ID_PAGE, ID_PAGE, 7]);
  const ids = [...pagesById<{ id: number }>(j, select, 0)].flat().map((r) => r.id);
  assert.deepEqual(ids, Array.from({ length: 2 * ID_PAGE + 7 }, (_, i) => i + 1));
  j.close();
});
