import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { Journal, JournalError, setBusyTimeout } from "./journal.ts";

const mapSize = (j: Journal) => j.get<{ mmap_size: number }>("PRAGMA mmap_size")!.mmap_size;

Deno.test("a reader asked to map the journal maps it, a writer and any other reader do not, and a mapped reader sees every commit as the file grows and shrinks", () => {
  const dir = Deno.makeTempDirSync();
  const file = `${dir}/journal.db`;
  // Pages freed by a delete can leave the file (VACUUM needs ATTACH, which
  // Deno allows only with every permission): set before the first table.
  const seed = new DatabaseSync(file);
  seed.exec("PRAGMA auto_vacuum = INCREMENTAL; CREATE TABLE seed (x)");
  seed.close();
  const writer = Journal.open(file);
  const reader = Journal.open(file, { readOnly: true, mapped: true });
  const unmapped = Journal.open(file, { readOnly: true });
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

/** Opens `file` in another process, counts the rows of `t`, and closes it (a hook does this). */
async function countElsewhere(file: string): Promise<number> {
  const script = `import { DatabaseSync } from "node:sqlite";
const db = new DatabaseSync(${JSON.stringify(file)});
console.log(db.prepare("SELECT count(*) AS n FROM t").get().n);
db.close();`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", script],
    env: { DENO_NO_UPDATE_CHECK: "1" },
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return Number(new TextDecoder().decode(out.stdout).trim());
}

Deno.test("opening the journal again in a process that holds it keeps the WAL: another process's close leaves it to the writer", async () => {
  const dir = Deno.makeTempDirSync();
  const file = `${dir}/journal.db`;
  const present = (path: string) => {
    try {
      return Deno.statSync(path).isFile;
    } catch {
      return false;
    }
  };
  const writer = Journal.open(file);
  try {
    writer.run("CREATE TABLE t (x)");
    writer.run("INSERT INTO t VALUES (1)");
    // What a resolving Worker, or the MCP server's reader beside its writer, does. Closing any
    // descriptor of a file drops every POSIX lock the process holds on it: the header check's
    // read of the main file drops its lock there (harmless, measured: SQLite's close asks the
    // shared-memory file whether it is the last connection), so nothing may open the -shm.
    Journal.open(file, { readOnly: true }).close();
    Journal.open(file).close();
    // A process that believes it holds the last connection checkpoints and deletes the WAL on
    // close; this process's writer would then commit into a file no one else can see.
    assert.equal(await countElsewhere(file), 1);
    assert.ok(present(`${file}-wal`), "the WAL was deleted under its writer");
    writer.run("INSERT INTO t VALUES (2)");
    assert.equal(await countElsewhere(file), 2, "a commit after the other process closed is lost");
  } finally {
    writer.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

/** The sqlite3 command-line shell on PATH, if any (Debian 12's is 3.40). */
const SQLITE3 = (() => {
  try {
    return new Deno.Command("sqlite3", { args: ["-version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

Deno.test({
  name:
    "a journal opened again in a process that holds it keeps its locks: the sqlite3 shell closing it leaves the WAL to the writer",
  ignore: !SQLITE3,
  fn() {
    const dir = Deno.makeTempDirSync();
    const file = `${dir}/journal.db`;
    // How many rows of t the sqlite3 shell sees, opening and closing the journal as a person would.
    const shell = () =>
      Number(
        new TextDecoder().decode(
          new Deno.Command("sqlite3", { args: [file, "SELECT count(*) FROM t"], stdout: "piped" })
            .outputSync().stdout,
        ).trim(),
      );
    const writer = Journal.open(file);
    try {
      writer.run("CREATE TABLE t (x)");
      writer.run("INSERT INTO t VALUES (1)");
      // The MCP server's reader beside its writer, a hook server's write beside its held reader.
      Journal.open(file, { readOnly: true }).close();
      assert.equal(shell(), 1);
      assert.ok(Deno.statSync(`${file}-wal`).isFile, "the shell deleted the WAL under its writer");
      writer.run("INSERT INTO t VALUES (2)");
      assert.equal(shell(), 2, "a commit after the shell closed went to a WAL nobody reads");
    } finally {
      writer.close();
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test("a write transaction that cannot begin fails with SQLite's result code, so a busy lock or a full disk is never reported as a bug", () => {
  const dir = Deno.makeTempDirSync();
  const file = `${dir}/journal.db`;
  Journal.open(file).close();
  // Another connection holds the write lock, and this one does not wait for it.
  const holder = new DatabaseSync(file);
  holder.exec("BEGIN IMMEDIATE");
  setBusyTimeout(0);
  const j = Journal.open(file);
  try {
    assert.throws(
      () => j.tx(() => j.run("INSERT INTO meta (key, value) VALUES ('k', 'v')")),
      (e: unknown) => ((e as { errcode?: number }).errcode ?? 0) % 256 === 5,
    );
  } finally {
    setBusyTimeout(5000);
    j.close();
    holder.exec("ROLLBACK");
    holder.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "a writer refused by a read-only -shm (left by a journal that was read-only) names that file and the remedy",
  // chmod does not stop root: the refusal cannot happen.
  ignore: Deno.build.os === "windows" || Deno.uid() === 0,
  fn() {
    const dir = Deno.makeTempDirSync();
    const file = `${dir}/journal.db`;
    // A reader keeps the -wal and -shm (SQLite gives them the journal's mode) while it is read-only.
    Journal.open(file).close();
    Deno.chmodSync(file, 0o400);
    const reader = Journal.open(file, { readOnly: true });
    const held = new DatabaseSync(file, { readOnly: true });
    held.prepare("SELECT count(*) FROM meta").get();
    reader.close();
    Deno.chmodSync(file, 0o600);
    Deno.chmodSync(`${file}-wal`, 0o600);
    try {
      assert.equal(Deno.statSync(`${file}-shm`).mode! & 0o200, 0, "the -shm is left read-only");
      assert.throws(
        () => Journal.open(file),
        (e: unknown) =>
          e instanceof JournalError && e.message.includes(`"${file}-shm" is read-only`) &&
          e.message.includes("chmod u+w"),
      );
    } finally {
      held.close();
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a reader of a journal in a read-only folder is told that the folder must be writable",
  ignore: Deno.build.os === "windows" || Deno.uid() === 0,
  fn() {
    const dir = Deno.makeTempDirSync();
    const file = `${dir}/journal.db`;
    Journal.open(file).close();
    Deno.chmodSync(dir, 0o500);
    try {
      assert.throws(
        () => Journal.open(file, { readOnly: true }),
        (e: unknown) =>
          e instanceof JournalError && e.message.includes(`its folder "${dir}" is read-only`),
      );
    } finally {
      Deno.chmodSync(dir, 0o700);
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test("a chunked write lets this thread's event loop run between its transactions, never only at its end", async () => {
  const dir = Deno.makeTempDirSync();
  const j = Journal.open(`${dir}/journal.db`);
  try {
    j.run("CREATE TABLE t (x INTEGER)");
    // A timer due at once, as a Worker's reply would be: it runs at the first
    // commit point, while the write still has many steps to go.
    let firedAtStep = -1;
    let step = 0;
    setTimeout(() => (firedAtStep = step), 0);
    await j.txChunked(
      (function* () {
        for (step = 0; step < 20; step++) {
          const until = performance.now() + 3;
          while (performance.now() < until) { /* a step's work */ }
          j.run("INSERT INTO t (x) VALUES (?)", step);
          yield `row ${step}`;
        }
      })(),
      { maxMs: 5 },
    );
    assert.ok(firedAtStep >= 0 && firedAtStep < 5, `the timer ran at step ${firedAtStep} of 20`);
    assert.equal(j.get<{ n: number }>("SELECT count(*) AS n FROM t")!.n, 20);
  } finally {
    j.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
