import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { backupJournal } from "./backup.ts";
import { Journal } from "./journal.ts";
import { JournalError } from "./journal_error.ts";

Deno.test("backupJournal() copies every commit, the WAL's too, into a private file that opens on its own", async () => {
  const dir = Deno.makeTempDirSync();
  const j = Journal.open(`${dir}/journal.db`);
  try {
    j.run("INSERT INTO meta (key, value) VALUES ('k', 'in the WAL only')");
    await backupJournal(j, `${dir}/copy.backup`);
    assert.equal(Deno.statSync(`${dir}/copy.backup`).mode! & 0o777, 0o600);
    const copy = new DatabaseSync(`${dir}/copy.backup`, { readOnly: true });
    const row = copy.prepare("SELECT value FROM meta WHERE key = 'k'").get();
    copy.close();
    assert.deepEqual({ ...row }, { value: "in the WAL only" });
  } finally {
    j.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("backupJournal() that cannot write its copy says where and how much room it needs, and leaves no partial copy that would pass for a backup", async () => {
  const dir = Deno.makeTempDirSync();
  const j = Journal.open(`${dir}/journal.db`);
  const file = `${dir}/copy.backup`;
  // SQLite cannot make its rollback journal beside the copy: the copy is
  // created, then the backup fails (as a full disk fails it, half-way).
  Deno.mkdirSync(`${file}-journal`);
  try {
    await assert.rejects(
      () => backupJournal(j, file),
      (e: unknown) =>
        e instanceof JournalError && e.message.includes(`"${file}"`) &&
        /needs about [\d.]+ MiB free/.test(e.message),
    );
    assert.throws(() => Deno.statSync(file), Deno.errors.NotFound);
  } finally {
    j.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
