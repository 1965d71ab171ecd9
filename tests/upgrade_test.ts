/**
 * A journal written by the previous release opens, migrates and keeps every
 * memory: `tests/fixtures/journal/schema-N` was made by that release with
 * `scripts/make_journal_fixture.ts`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { MIGRATIONS } from "../src/store/schema.ts";
import { Client } from "@modelcontextprotocol/sdk/client";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cli, MAIN, mcpEnv, PERMS, tempDir, waitFor, warmServer, writeTree } from "./helpers.ts";

const DENO = Deno.execPath();

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

/** A home holding the first fixture's journal, as the release before left it. */
function oldHome(): { home: string; manifest: Manifest; journal: string } {
  const entry = [...Deno.readDirSync(FIXTURES)][0]!;
  const dir = join(FIXTURES, entry.name);
  const manifest = JSON.parse(Deno.readTextFileSync(join(dir, "manifest.json"))) as Manifest;
  const home = tempDir();
  for (const file of ["journal.db", "config.json"]) {
    Deno.copyFileSync(join(dir, file), join(home, file));
    Deno.chmodSync(join(home, file), 0o600);
  }
  writeTree(manifest.root, manifest.tree);
  return { home, manifest, journal: join(home, "journal.db") };
}

function schemaOf(journal: string): number {
  const db = new DatabaseSync(journal, { readOnly: true });
  try {
    return (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
  } finally {
    db.close();
  }
}

Deno.test("a search is the first command after an upgrade: it migrates the journal as the writer, says so, and answers", async () => {
  const { home, manifest, journal } = oldHome();
  try {
    assert.ok(schemaOf(journal) < MIGRATIONS.length);
    const r = await cli(home, ["search", "--json", "--kind", "notes", "gapless invoice numbers"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).hits[0]?.symbol, "Invoice numbering");
    assert.match(
      r.stderr,
      new RegExp(
        `migrated the journal from schema version ${manifest.schema} to ${MIGRATIONS.length}`,
      ),
    );
    assert.equal(schemaOf(journal), MIGRATIONS.length);
    // Once: the next search says nothing of it.
    const again = await cli(home, [
      "search",
      "--json",
      "--kind",
      "notes",
      "gapless invoice numbers",
    ]);
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /migrated/);
  } finally {
    Deno.removeSync(join(manifest.root, ".."), { recursive: true });
  }
});

Deno.test("status after an upgrade migrates the journal too, and reports it as any other", async () => {
  const { home, manifest, journal } = oldHome();
  try {
    const r = await cli(home, ["status", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /migrated the journal from schema version/);
    const status = JSON.parse(r.stdout);
    assert.equal(status.roots.length, 1, r.stdout);
    assert.ok(status.journal_bytes > 0, r.stdout);
    assert.equal(schemaOf(journal), MIGRATIONS.length);
  } finally {
    Deno.removeSync(join(manifest.root, ".."), { recursive: true });
  }
});

Deno.test("an older daemon holding the writer lock: a search refuses with what to do, and leaves the journal as it was", async () => {
  const { home, manifest, journal } = oldHome();
  // What a daemon of the release before holds: the writer lock, labelled "daemon".
  const lock = new URL("../src/reconcile/lock.ts", import.meta.url).href;
  const config = new URL("../src/config/mod.ts", import.meta.url).href;
  const holder = new Deno.Command(DENO, {
    args: [
      "eval",
      `const { WriterLock } = await import(${JSON.stringify(lock)});
       const { homePaths } = await import(${JSON.stringify(config)});
       await WriterLock.acquire(homePaths(${JSON.stringify(home)}), 300, "daemon");
       console.log("held");
       setInterval(() => {}, 60_000);`,
    ],
    env: { DENO_NO_UPDATE_CHECK: "1" },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = holder.stdout.getReader();
  try {
    let said = "";
    await waitFor(
      async () => {
        const { value } = await reader.read();
        said += new TextDecoder().decode(value ?? new Uint8Array());
        return said.includes("held");
      },
      30_000,
      "the lock held",
    );
    const before = Deno.readFileSync(journal);
    const r = await cli(home, ["search", "gapless invoice numbers"]);
    assert.equal(r.code, 3, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      new RegExp(`schema version ${manifest.schema} and this build reads ${MIGRATIONS.length}`),
    );
    assert.match(r.stderr, new RegExp(`the daemon \\(pid ${holder.pid}\\) holds the writer lock`));
    assert.match(r.stderr, /start it again with this one/);
    assert.deepEqual(Deno.readFileSync(journal), before, "the journal is untouched");
  } finally {
    reader.releaseLock();
    try {
      holder.kill("SIGKILL");
    } catch { /* gone already: its status says how */ }
    await holder.status;
    await holder.stdout.cancel().catch(() => {});
    Deno.removeSync(join(manifest.root, ".."), { recursive: true });
  }
});

Deno.test("an agent's MCP server is the first process after an upgrade: it migrates the journal, and its search answers", async () => {
  const { home, manifest, journal } = oldHome();
  const client = new Client({ name: "heimdall-test", version: "1.0.0" });
  try {
    await client.connect(
      new StdioClientTransport({
        command: Deno.execPath(),
        args: ["run", ...PERMS, MAIN, "mcp"],
        env: mcpEnv(home),
        cwd: manifest.root,
        stderr: "pipe",
      }),
    );
    const r = await client.callTool({
      name: "search",
      arguments: { query: "gapless invoice numbers", kind: "notes" },
    }) as { content: { text: string }[]; isError?: boolean };
    assert.ok(!r.isError, r.content.map((c) => c.text).join("\n"));
    assert.match(r.content.map((c) => c.text).join("\n"), /Invoice numbering/);
    assert.equal(schemaOf(journal), MIGRATIONS.length);
  } finally {
    await client.close();
    Deno.removeSync(join(manifest.root, ".."), { recursive: true });
  }
});

Deno.test("the hooks' warm server of a new build migrates the journal as it starts, before any hook reads it", async () => {
  const { home, manifest, journal } = oldHome();
  // It listens (its port file) only once the journal is migrated.
  const server = await warmServer(home);
  try {
    assert.equal(schemaOf(journal), MIGRATIONS.length);
    assert.match(
      Deno.readTextFileSync(join(home, "logs", "hooks.log")),
      new RegExp(
        `migrated the journal from schema version ${manifest.schema} to ${MIGRATIONS.length}`,
      ),
    );
  } finally {
    await server.stop();
    Deno.removeSync(join(manifest.root, ".."), { recursive: true });
  }
});
