/**
 * A journal written by the previous release opens, migrates and keeps every
 * memory: `tests/fixtures/journal/schema-N` was made by that release with
 * `scripts/make_journal_fixture.ts`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { MIGRATIONS } from "../src/store/schema.ts";
import { cli, tempDir, writeTree } from "./helpers.ts";

const FIXTURES = new URL("./fixtures/journal/", import.meta.url).pathname;

interface Manifest {
  schema: number;
  root: string;
  memories: string[][];
  tree: Record<string, string>;
}

for (const entry of Deno.readDirSync(FIXTURES)) {
  const dir = join(FIXTURES, entry.name);
  const manifest = JSON.parse(Deno.readTextFileSync(join(dir, "manifest.json"))) as Manifest;
  Deno.test(`a schema-${manifest.schema} journal opens, migrates to ${MIGRATIONS.length} and keeps its memories`, async () => {
    const home = tempDir();
    // As the release before left a home: readable by others (it had no private-files rule).
    Deno.chmodSync(home, 0o755);
    for (const file of ["journal.db", "config.json"]) {
      Deno.copyFileSync(join(dir, file), join(home, file));
      Deno.chmodSync(join(home, file), 0o644);
    }
    // The indexed folder where the old release saw it, so the audit can compare.
    writeTree(manifest.root, manifest.tree);
    try {
      const history = await cli(home, ["history", "--json"]);
      assert.equal(history.code, 0, history.stderr);
      const texts = JSON.stringify(JSON.parse(history.stdout));
      for (const m of manifest.memories.filter((m) => m[0] !== "insert")) {
        assert.ok(texts.includes(m.at(-1)!), `history keeps "${m.at(-1)}"`);
      }
      // Opening it made the home private.
      assert.equal(Deno.statSync(join(home, "config.json")).mode! & 0o777, 0o600);
      const db = new DatabaseSync(join(home, "journal.db"), { readOnly: true });
      const { user_version } = db.prepare("PRAGMA user_version").get() as { user_version: number };
      // Containment is nodes.parent_id alone since schema 13: no edge row repeats it.
      const contains = db.prepare("SELECT count(*) AS n FROM edges WHERE kind = 'contains'").get();
      db.close();
      assert.equal(user_version, MIGRATIONS.length, "opening migrated it");
      assert.deepEqual({ ...contains }, { n: 0 });
      const why = await cli(home, ["why", "InvoiceRenderer.render_pdf", "--json"], {
        cwd: manifest.root,
      });
      assert.equal(why.code, 0, why.stderr);
      assert.match(why.stdout, /rendered server-side/);
      const note = await cli(home, [
        "search",
        "--json",
        "--kind",
        "notes",
        "gapless invoice numbers",
      ]);
      assert.equal(note.code, 0, note.stderr);
      assert.equal(JSON.parse(note.stdout).hits[0]?.symbol, "Invoice numbering");
      // The old index converges with the disk under the new code, and search still answers.
      const rec = await cli(home, ["reconcile", "--all"]);
      assert.equal(rec.code, 0, rec.stderr);
      const verify = await cli(home, ["verify"]);
      assert.equal(verify.code, 0, verify.stdout + verify.stderr);
      const code = await cli(home, ["search", "--json", "--kind", "code", "render invoice pdf"]);
      assert.equal(JSON.parse(code.stdout).hits[0]?.symbol, "InvoiceRenderer.render_pdf");
    } finally {
      Deno.removeSync(join(manifest.root, ".."), { recursive: true });
    }
  });
}
