/**
 * Writes the journal fixture the upgrade test opens: a small journal made by
 * this checkout's schema, holding an indexed folder and one of every kind of
 * memory, so the next release's migrations are tested from a real journal
 * of the previous one.
 *
 *     deno run -A scripts/make_journal_fixture.ts
 *
 * Run it from a clean checkout of a release (e.g. `git worktree add /tmp/rel
 * v0.1.0`); it writes `tests/fixtures/journal/schema-<N>/journal.db`, where N
 * is that checkout's schema version (`MIGRATIONS.length`), its `config.json`
 * (the roots live there), and `manifest.json`
 * listing what the journal holds, for the test to check.
 */
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { MIGRATIONS } from "../src/store/schema.ts";

const ROOT = join(import.meta.dirname!, "..");
const MAIN = join(ROOT, "main.ts");
const OUT = join(ROOT, "tests", "fixtures", "journal", `schema-${MIGRATIONS.length}`);

/** The indexed folder: one function, one class with a method, a note in markdown. */
export const FIXTURE_TREE: Record<string, string> = {
  "billing/invoice.py":
    "class InvoiceRenderer:\n    def render_pdf(self, invoice):\n        return pdf_bytes(invoice)\n\n\ndef pdf_bytes(invoice):\n    return b'%PDF' + invoice.encode()\n",
  "docs/billing.md": "# Billing\n\nInvoices are rendered to PDF by the renderer.\n",
};

function heimdall(home: string, cwd: string, ...args: string[]): string {
  const out = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    cwd,
    env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  const dec = new TextDecoder();
  if (!out.success) {
    throw new Error(`heimdall ${args.join(" ")} failed: ${dec.decode(out.stderr)}`);
  }
  return dec.decode(out.stdout);
}

if (import.meta.main) {
  const work = Deno.makeTempDirSync({ prefix: "heimdall-fixture-" });
  const home = join(work, "home");
  const tree = join(work, "shop");
  for (const [rel, text] of Object.entries(FIXTURE_TREE)) {
    Deno.mkdirSync(join(tree, rel, ".."), { recursive: true });
    Deno.writeTextFileSync(join(tree, rel), text);
  }
  heimdall(home, tree, "index", ".", "--no-embed");
  const memories = [
    [
      "remember",
      "--kind",
      "decision",
      "--about",
      "InvoiceRenderer.render_pdf",
      "PDFs are rendered server-side, never in the browser",
    ],
    [
      "remember",
      "--kind",
      "convention",
      "--about",
      "billing/invoice.py",
      "Amounts are integers of cents",
    ],
    ["attempt", "--about", "pdf_bytes", "--failed", "Streaming the PDF broke the checksum"],
    [
      "insert",
      "--title",
      "Invoice numbering",
      "--body",
      "Invoice numbers are gapless per year",
      "--keywords",
      "invoice,sequence",
    ],
  ];
  for (const m of memories) heimdall(home, tree, ...m);
  // One file, no WAL beside it: the fixture is what a closed journal looks like.
  const db = new DatabaseSync(join(home, "journal.db"));
  db.exec("PRAGMA wal_checkpoint(TRUNCATE); VACUUM;");
  const version =
    (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
  db.close();
  Deno.mkdirSync(OUT, { recursive: true });
  Deno.copyFileSync(join(home, "journal.db"), join(OUT, "journal.db"));
  Deno.copyFileSync(join(home, "config.json"), join(OUT, "config.json"));
  Deno.writeTextFileSync(
    join(OUT, "manifest.json"),
    JSON.stringify({ schema: version, root: tree, memories, tree: FIXTURE_TREE }, null, 2) + "\n",
  );
  Deno.removeSync(work, { recursive: true });
  console.log(`wrote ${OUT} (schema ${version})`);
}
