/**
 * `heimdall rebuild`'s backups: each is a whole, consistent, private copy of
 * the journal that opens with every memory, and only the newest few are
 * kept, so that rebuilds (or rebuilds killed half-way) never fill the disk.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { cli, tempDir, writeTree } from "./helpers.ts";

Deno.test("rebuild keeps its newest 3 backups, deletes older ones and stale salvage scratch, and never touches a damaged journal kept aside", async () => {
  const home = tempDir();
  const repo = tempDir();
  writeTree(repo, { "src/a.ts": "export function alpha(): number {\n  return 1;\n}\n" });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const remember = await cli(home, [
    "remember",
    "--kind",
    "decision",
    "--about",
    join(repo, "src/a.ts"),
    "alpha returns one on purpose",
  ]);
  assert.equal(remember.code, 0, remember.stderr);
  // Left by earlier rebuilds, some killed half-way (one with SQLite's side files).
  const old = [
    "journal.db.20250101T000000Z.backup",
    "journal.db.20250102T000000Z.backup",
    "journal.db.20250103T000000Z.backup",
    "journal.db.20250104T000000Z.backup",
  ];
  for (const name of old) Deno.copyFileSync(join(home, "journal.db"), join(home, name));
  Deno.writeFileSync(join(home, `${old[0]}-wal`), new Uint8Array(0));
  const damaged = "journal.db.damaged-20250101T000000Z";
  const scratch = `${damaged}.salvage`;
  Deno.writeTextFileSync(join(home, damaged), "kept aside, never deleted");
  Deno.writeTextFileSync(join(home, scratch), "a salvage killed before its cleanup");

  const r = await cli(home, ["rebuild", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { backup: string; pruned: string[] };
  assert.deepEqual(out.pruned, old.slice(0, 2).map((n) => join(home, n)));
  const left = [...Deno.readDirSync(home)].map((e) => e.name);
  const backups = left.filter((n) => n.endsWith(".backup")).sort();
  assert.deepEqual(backups, [...old.slice(2), out.backup.split("/").at(-1)!].sort());
  assert.ok(!left.includes(`${old[0]}-wal`), "a pruned backup's side files go with it");
  assert.ok(!left.includes(scratch), "a stale salvage scratch copy is deleted");
  assert.equal(Deno.readTextFileSync(join(home, damaged)), "kept aside, never deleted");
  // The new backup is private and holds the memory.
  assert.equal(Deno.statSync(out.backup).mode! & 0o777, 0o600);
  const db = new DatabaseSync(out.backup, { readOnly: true });
  try {
    const row = db.prepare("SELECT text FROM memories").get();
    assert.deepEqual({ ...row }, { text: "alpha returns one on purpose" });
  } finally {
    db.close();
  }
});
