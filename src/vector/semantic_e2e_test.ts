/**
 * The whole semantic path with a real model: the tiny ONNX encoder checked in
 * under tests/fixtures/models/tiny (random weights of the real shape, made by
 * scripts/make_tiny_model.ts). Index a tree → the embedding pass stores its
 * vectors with `embedding_model` → the semantic leg finds a section by a
 * paraphrase; then the same through the CLI and a running daemon.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultConfig, homePaths } from "../config/mod.ts";
import { embedderSource, modelFingerprint, parseManifest } from "../embed/mod.ts";
import { createExtractor } from "../extract/mod.ts";
import { Reconciler } from "../reconcile/mod.ts";
import { Journal } from "../store/mod.ts";
import { cli, startDaemon, waitFor } from "../../tests/helpers.ts";
import { attachEmbedPass } from "./embed_pass.ts";
import { VectorSemanticLeg } from "./semantic_leg.ts";

const MODELS = new URL("../../tests/fixtures/models", import.meta.url).pathname;
const TINY = join(MODELS, "tiny");

const GUIDE = `# Guide

## Installing

Download the binary and put it on your PATH.

## Backups

Copy the journal file while the daemon is stopped.
`;

function tree(): { base: string; root: string } {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-semantic-" });
  const root = join(base, "repo");
  Deno.mkdirSync(join(root, "docs"), { recursive: true });
  Deno.writeTextFileSync(join(root, "docs/guide.md"), GUIDE);
  Deno.writeTextFileSync(
    join(root, "retry.ts"),
    "/** Retries a request with exponential backoff. */\nexport function retry() {}\n",
  );
  return { base, root };
}

Deno.test("with the tiny model active, indexing stores its vectors and a paraphrase finds its section", async () => {
  const { base, root } = tree();
  const home = homePaths(join(base, "home"));
  const journal = Journal.open(home.journal);
  const source = embedderSource({ models: MODELS, lib: home.lib }, () => "tiny");
  try {
    const r = new Reconciler(
      journal,
      home,
      { ...defaultConfig(), roots: [{ path: root, depth: "max" }] },
      createExtractor(),
    );
    r.syncRoots();
    const pass = attachEmbedPass(r, source);
    await r.audit();
    const done = await pass.runAll();
    assert.equal(done.model, "tiny");
    const chunks = journal.get<{ n: number }>("SELECT count(*) AS n FROM chunks")!.n;
    const stored = journal.all<{ embedding_model: string; dims: number; n: number }>(
      "SELECT embedding_model, dims, count(*) AS n FROM vectors GROUP BY 1, 2",
    );
    assert.deepEqual(stored.map((r) => ({ ...r })), [{
      embedding_model: "tiny",
      dims: 32,
      n: chunks,
    }]);

    const leg = new VectorSemanticLeg(journal, source, () => ({ on: true, model: "tiny" }));
    try {
      const title = (id: number) =>
        journal.get<{ title: string }>("SELECT title FROM chunks WHERE id = ?", id)!.title;
      const backup = await leg.search("how do I back up the journal", 3, {});
      assert.equal(title(backup[0]!.chunkId), "Guide > Backups");
      const install = await leg.search("install the binary on my PATH", 3, {});
      assert.equal(title(install[0]!.chunkId), "Guide > Installing");
      assert.ok(backup[0]!.score > 0.5 && backup[0]!.score <= 1.0001);
    } finally {
      leg.close();
    }
  } finally {
    const s = await source();
    if (s.on) await s.embedder.close();
    journal.close();
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test({
  name:
    "through the CLI: index embeds with the active model, status reports it, the daemon re-embeds an edit",
  async fn() {
    const { base, root } = tree();
    const home = join(base, "home");
    try {
      // No model: nothing embedded, and status says why.
      assert.equal((await cli(home, ["index", root])).code, 0);
      const off = JSON.parse((await cli(home, ["status", "--json"])).stdout);
      assert.equal(off.semantic.on, false);
      assert.match(off.semantic.reason, /no model; run heimdall model pull/);
      assert.equal(off.vectors.total, 0);
      const offSearch = JSON.parse((await cli(home, ["search", "--json", "back up"])).stdout);
      assert.equal(offSearch.legs.semantic.on, false);
      assert.match(offSearch.legs.semantic.reason, /no model; run heimdall model pull/);

      assert.equal((await cli(home, ["model", "import", "tiny", "--from", TINY])).code, 0);
      const idx = await cli(home, ["index", root]);
      assert.equal(idx.code, 0, idx.stderr);
      assert.match(idx.stdout, /embedded \d+ chunks with tiny/);
      const on = JSON.parse((await cli(home, ["status", "--json"])).stdout);
      // Which install of it: a digest of its files, the same for the same files.
      const tiny = parseManifest(
        JSON.parse(Deno.readTextFileSync(join(TINY, "manifest.json"))),
        "the tiny model",
      );
      assert.deepEqual(on.semantic, {
        on: true,
        model: "tiny",
        fingerprint: modelFingerprint(tiny),
      });
      assert.equal(on.vectors.fault, null);
      assert.equal(on.vectors.active.missing, 0);
      assert.equal(on.vectors.models[0].model, "tiny");
      assert.equal(on.vectors.models[0].count, on.vectors.chunks);
      // A one-shot search loads the vectors' modules only with a model to run: here it runs.
      const onSearch = JSON.parse((await cli(home, ["search", "--json", "back up"])).stdout);
      assert.deepEqual(onSearch.legs.semantic.on, true);
      assert.ok(onSearch.hits.some((h: { legs: string[] }) => h.legs.includes("semantic")));

      // The daemon embeds an edited file's new chunks in the background.
      const daemon = await startDaemon(home);
      try {
        const file = join(root, "docs/guide.md");
        Deno.writeTextFileSync(file, GUIDE + "\n## Upgrading\n\nReplace the binary.\n");
        const j = Journal.open(join(home, "journal.db"), { readOnly: true });
        try {
          await waitFor(
            () => {
              const c = j.get<{ n: number }>(
                `SELECT count(*) AS n FROM chunks c JOIN vectors v ON v.chunk_id = c.id
                 WHERE c.title = 'Guide > Upgrading' AND v.embedding_model = 'tiny'`,
              )!.n;
              return c === 1;
            },
            30_000,
            "the edited section's vector",
          );
        } finally {
          j.close();
        }
      } finally {
        await daemon.stop();
      }
      const after = JSON.parse((await cli(home, ["status", "--json"])).stdout);
      assert.equal(after.vectors.active.missing, 0);
      assert.equal(after.vectors.total, after.vectors.chunks);
    } finally {
      Deno.removeSync(base, { recursive: true });
    }
  },
});
