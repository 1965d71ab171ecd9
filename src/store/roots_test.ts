import assert from "node:assert/strict";
import { join } from "node:path";
import { Journal } from "./journal.ts";
import { deleteRoot, lastAudit, recordAudit, upsertRoot } from "./roots.ts";

Deno.test("a deleted root's audit time does not pass to the next root given its id", () => {
  const dir = Deno.makeTempDirSync();
  const j = Journal.open(join(dir, "journal.db"));
  try {
    const id = j.tx(() => upsertRoot(j, "/src/a", "max"));
    j.tx(() => recordAudit(j, id, { secrets: 0, ignored: 0 }, 1_000));
    assert.equal(lastAudit(j, id), 1_000);
    j.tx(() => deleteRoot(j, id));
    const again = j.tx(() => upsertRoot(j, "/src/a", "max"));
    assert.equal(again, id, "SQLite gives the freed id again");
    assert.equal(lastAudit(j, again), null);
  } finally {
    j.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
