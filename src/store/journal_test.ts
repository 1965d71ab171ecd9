import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { Journal } from "./journal.ts";

const mapSize = (j: Journal) => j.get<{ mmap_size: number }>("PRAGMA mmap_size")!.mmap_size;

Deno.test("a reader maps the journal, a writer and an unmapped reader do not, and a mapped reader sees every commit as the file grows and shrinks", () => {
  const dir = Deno.makeTempDirSync();
  const file = `${dir}/journal.db`;
  // Pages freed by a delete can leave the file (VACUUM needs ATTACH, which
  // Deno allows only with every permission): set before the first table.
  const seed = new DatabaseSync(file);
  seed.exec("PRAGMA auto_vacuum = INCREMENTAL; CREATE TABLE seed (x)");
  seed.close();
  const writer = Journal.open(file);
  const reader = Journal.open(file, { readOnly: true });
  const unmapped = Journal.open(file, { readOnly: true, mapped: false });
  try {
    assert.equal(mapSize(writer), 0);
    assert.ok(mapSize(reader) >= 2 ** 30, `reader maps ${mapSize(reader)} bytes`);
    assert.equal(mapSize(unmapped), 0);

    writer.run("CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
    const count = (j: Journal) =>
      j.get<{ n: number; last: string | null }>(
        "SELECT count(*) AS n, max(text) AS last FROM t",
      )!;
    assert.deepEqual({ ...count(reader) }, { n: 0, last: null });
    // Several MB of rows, checkpointed into the main file: the mapped file grows under the reader.
    for (let round = 1; round <= 3; round++) {
      writer.tx(() => {
        for (let i = 0; i < 2000; i++) {
          writer.run("INSERT INTO t (text) VALUES (?)", `${round}:${i}:${"x".repeat(1000)}`);
        }
      });
      writer.run("PRAGMA wal_checkpoint(TRUNCATE)");
      assert.equal(count(reader).n, round * 2000);
      assert.equal(count(reader).n, count(unmapped).n);
    }
    // And shrinks: the rows deleted, their pages given back to the file system.
    const grown = Deno.statSync(file).size;
    writer.run("DELETE FROM t WHERE id > 10");
    // Each step frees one page: all() steps to the end.
    writer.db.prepare("PRAGMA incremental_vacuum").all();
    writer.run("PRAGMA wal_checkpoint(TRUNCATE)");
    const shrunk = Deno.statSync(file).size;
    assert.ok(shrunk < grown / 4, `${grown} → ${shrunk} bytes after the vacuum`);
    assert.equal(count(reader).n, 10);
    assert.equal(count(reader).last, count(unmapped).last);
  } finally {
    for (const j of [reader, unmapped, writer]) j.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
