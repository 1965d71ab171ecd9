import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../../tests/helpers.ts";
import { Journal } from "../store/mod.ts";
import { HeldReader } from "./held_reader.ts";

/** A journal at `path` whose one root is `root`. */
function journalWithRoot(path: string, root: string): void {
  const j = Journal.open(path);
  j.run("INSERT INTO roots (path) VALUES (?)", root);
  j.close();
}
const rootOf = (j: Journal) => j.get<{ path: string }>("SELECT path FROM roots")!.path;

Deno.test("HeldReader lends one connection to every request and sees what the writer commits", () => {
  const path = join(tempDir(), "journal.db");
  journalWithRoot(path, "/a");
  const reader = new HeldReader(path);
  const first = reader.acquire();
  const second = reader.acquire();
  assert.equal(first.journal, second.journal);
  first.release();
  second.release();
  const writer = Journal.open(path);
  writer.run("UPDATE roots SET path = '/b'");
  writer.close();
  const third = reader.acquire();
  assert.equal(third.journal, first.journal, "kept across requests");
  assert.equal(rootOf(third.journal), "/b");
  third.release();
  reader.close();
  assert.throws(() => rootOf(first.journal), "closed with the reader");
  assert.throws(() => reader.acquire(), /closed/);
});

Deno.test("HeldReader opens the journal again when it is replaced, closing the old one once released", () => {
  const dir = tempDir();
  const path = join(dir, "journal.db");
  journalWithRoot(path, "/old");
  const reader = new HeldReader(path);
  const old = reader.acquire();
  // A rebuild's salvage renamed into place: another file at the same path.
  journalWithRoot(join(dir, "salvaged.db"), "/new");
  Deno.renameSync(join(dir, "salvaged.db"), path);
  const fresh = reader.acquire();
  assert.notEqual(fresh.journal, old.journal);
  assert.equal(rootOf(fresh.journal), "/new");
  assert.equal(rootOf(old.journal), "/old", "a request still reading keeps its connection");
  old.release();
  assert.throws(() => rootOf(old.journal), "closed once no request holds it");
  old.release(); // twice does nothing
  assert.equal(rootOf(fresh.journal), "/new");
  fresh.release();
  reader.close();
});

Deno.test("HeldReader throws as Journal.open does while there is no journal, then opens it", () => {
  const path = join(tempDir(), "journal.db");
  const reader = new HeldReader(path);
  assert.throws(() => reader.acquire());
  journalWithRoot(path, "/a");
  const lease = reader.acquire();
  assert.equal(rootOf(lease.journal), "/a");
  lease.release();
  reader.close();
});
