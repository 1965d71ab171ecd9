/**
 * `heimdall rebuild`'s backups and its memory check: each backup is a whole,
 * consistent, private copy of the journal that opens with every memory, only
 * the newest few are kept, so that rebuilds (or rebuilds killed half-way)
 * never fill the disk, and a memory recorded by another process while the
 * rebuild runs is kept, not taken for a loss.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { cli, tempDir, waitFor, writeTree } from "./helpers.ts";

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

Deno.test("a memory recorded by another process while rebuild runs is kept, and rebuild does not call it a loss", async () => {
  const home = tempDir();
  const repo = tempDir();
  // Enough files that the pass outlasts starting another command.
  const files: Record<string, string> = {};
  for (let f = 0; f < 400; f++) {
    files[`src/m${f}.ts`] =
      `/** Part ${f}. */\nexport function part${f}(x: number): number {\n  return x + ${f};\n}\n`;
  }
  writeTree(repo, files);
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const about = join(repo, "src/m1.ts");
  const first = await cli(home, ["remember", "--kind", "note", "--about", about, "before"]);
  assert.equal(first.code, 0, first.stderr);
  const rebuild = cli(home, ["rebuild"]);
  // The backup is written before the pass begins (and before memory is counted).
  await waitFor(
    () => [...Deno.readDirSync(home)].some((e) => e.name.endsWith(".backup")),
    60_000,
    "rebuild's backup",
  );
  const during = await cli(home, ["remember", "--kind", "note", "--about", about, "during"]);
  assert.equal(during.code, 0, during.stderr);
  const r = await rebuild;
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /lost/);
  const db = new DatabaseSync(join(home, "journal.db"), { readOnly: true });
  try {
    const texts = db.prepare("SELECT text FROM memories ORDER BY text").all().map((m) => m.text);
    assert.deepEqual(texts, ["before", "during"]);
  } finally {
    db.close();
  }
});
