import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultConfig, homePaths } from "../config/mod.ts";
import { createExtractor } from "../extract/mod.ts";
import { Reconciler } from "../reconcile/mod.ts";
import { Journal } from "../store/mod.ts";
import { EmbedPass } from "./embed_pass.ts";
import type { EmbedderState, TextEmbedder } from "./embedder.ts";
import { vectorStoreHealth } from "./health.ts";
import { VectorSemanticLeg } from "./semantic_leg.ts";

/**
 * A small deterministic encoder for these tests: words (identifiers split at
 * case changes) hashed into 64 buckets. Texts sharing words point the same
 * way, which is all the pass and the leg need; the real model path is
 * covered end to end with the tiny ONNX model.
 */
class HashingEmbedder implements TextEmbedder {
  readonly dims = 64;
  calls = 0;
  texts: string[] = [];
  fail = false;
  /** `salt` changes every vector, as another install of the model would. */
  constructor(
    readonly model = "hash-64",
    readonly fingerprint?: string,
    readonly salt = 0,
  ) {}
  embed(texts: string[]): Promise<Float32Array[]> {
    this.calls++;
    this.texts.push(...texts);
    if (this.fail) return Promise.reject(new Error("encoder crashed"));
    return Promise.resolve(texts.map((t) => {
      const v = new Float32Array(this.dims);
      const words = t.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().match(/[a-z]{3,}/g) ?? [];
      for (const w of words) {
        let h = 2166136261;
        for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
        v[((h >>> 0) + this.salt) % this.dims]! += 1;
      }
      return v;
    }));
  }
}

const FILES: Record<string, string> = {
  "src/config.ts": `/** Reads the settings file and checks every key. */
export function parseConfigFile(path: string): Config {
  const text = Deno.readTextFileSync(path);
  return validateSettings(JSON.parse(text));
}

export function validateSettings(raw: unknown): Config {
  return raw as Config;
}

export interface Config { port: number }
`,
  "src/retry.ts": `/** Retries a request with exponential backoff and jitter. */
export async function retryWithBackoff(fn: () => Promise<void>, attempts = 5) {
  for (let i = 0; i < attempts; i++) {
    try { return await fn(); } catch { await sleep(2 ** i * 100); }
  }
}

function sleep(ms: number) { return new Promise((r) => setTimeout(r, ms)); }
`,
  "docs/guide.md": `# Guide

## Installing

Download the binary and put it on your PATH.

## Backups

Copy the journal file while the daemon is stopped.
`,
};

function setup() {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-embed-" });
  const root = join(base, "repo");
  for (const [rel, content] of Object.entries(FILES)) {
    Deno.mkdirSync(join(root, rel, ".."), { recursive: true });
    Deno.writeTextFileSync(join(root, rel), content);
  }
  const home = homePaths(join(base, "home"));
  const journal = Journal.open(home.journal);
  const config = { ...defaultConfig(), roots: [{ path: root, depth: "max" as const }] };
  const r = new Reconciler(journal, home, config, createExtractor());
  r.syncRoots();
  let state: EmbedderState = { on: true, embedder: new HashingEmbedder() };
  const pass = new EmbedPass(journal, () => Promise.resolve(state));
  r.follow(pass);
  return {
    root,
    journal,
    r,
    pass,
    setModel(s: EmbedderState) {
      state = s;
    },
    get embedder(): HashingEmbedder {
      if (!state.on) throw new Error("no model in this test");
      return state.embedder as HashingEmbedder;
    },
    [Symbol.dispose]() {
      journal.close();
      Deno.removeSync(base, { recursive: true });
    },
  };
}

const count = (j: Journal, sql: string, ...p: (string | number)[]) =>
  j.get<{ n: number }>(sql, ...p)!.n;

/** Every vector with its chunk's identity, independent of row ids. */
function dumpVectors(j: Journal): string {
  return j.all<Record<string, unknown>>(
    `SELECT p.path, c.title, c.start_line, v.embedding_model, v.dims, v.quant, v.scale,
       hex(v.data) AS data, v.text_hash
     FROM vectors v JOIN chunks c ON c.id = v.chunk_id LEFT JOIN paths p ON p.id = v.path_id
     ORDER BY p.path, c.start_line, c.title`,
  ).map((r) => JSON.stringify(r)).join("\n");
}

Deno.test("the embedding pass gives every chunk one vector of the active model", async () => {
  using t = setup();
  await t.r.audit();
  const chunks = count(t.journal, "SELECT count(*) AS n FROM chunks");
  assert.ok(chunks >= 8, `chunks: ${chunks}`);
  const progress: number[] = [];
  const done = await t.pass.runAll((p) => progress.push(p.done));
  assert.equal(done.model, "hash-64");
  assert.equal(done.embedded, chunks);
  assert.equal(progress.at(-1), chunks);
  assert.equal(count(t.journal, "SELECT count(*) AS n FROM vectors"), chunks);
  assert.equal(
    count(
      t.journal,
      "SELECT count(*) AS n FROM vectors WHERE embedding_model = 'hash-64' AND dims = 64 AND quant = 'i8'",
    ),
    chunks,
  );
  // Path-owned vectors carry their path; the text came from the file's lines.
  assert.equal(count(t.journal, "SELECT count(*) AS n FROM vectors WHERE path_id IS NULL"), 0);
  assert.ok(t.embedder.texts.some((s) => s.includes("JSON.parse(text)")));
  assert.ok(t.embedder.texts.some((s) => s.startsWith("Guide > Backups")));
  assert.equal(await t.pass.step(), false, "nothing left");
});

Deno.test("an edit's vectors follow it; reconciling twice leaves the vectors byte-identical", async () => {
  using t = setup();
  await t.r.audit();
  await t.pass.runAll();
  const before = dumpVectors(t.journal);
  const ids = t.journal.all<{ id: number }>("SELECT id FROM vectors ORDER BY id");
  // A second pass over an unchanged tree writes nothing.
  await t.r.audit({ deep: true });
  assert.equal(await t.pass.step(), false);
  assert.equal(dumpVectors(t.journal), before);
  assert.deepEqual(t.journal.all<{ id: number }>("SELECT id FROM vectors ORDER BY id"), ids);
  // An edit replaces that file's vectors (ownership): a chunk whose text it did
  // not change keeps its vector, the others are embedded by the next step.
  const file = join(t.root, "src/retry.ts");
  Deno.writeTextFileSync(file, FILES["src/retry.ts"]!.replace("jitter", "full jitter"));
  await t.r.reconcilePaths([file]);
  const pathId = t.journal.get<{ id: number }>("SELECT id FROM paths WHERE path = ?", file)!.id;
  const keptTitles = t.journal.all<{ title: string }>(
    `SELECT c.title FROM vectors v JOIN chunks c ON c.id = v.chunk_id
     WHERE v.path_id = ? ORDER BY c.title`,
    pathId,
  ).map((r) => r.title);
  assert.deepEqual(keptTitles, ["sleep"], "only the untouched function keeps its vector");
  const embeddedBefore = t.embedder.texts.length;
  assert.equal(await t.pass.step(), true);
  const embedded = t.embedder.texts.slice(embeddedBefore);
  assert.ok(
    embedded.some((text) => text.includes("full jitter")),
    "the edited function re-embedded",
  );
  assert.ok(!embedded.some((text) => /function sleep/.test(text)), "the untouched one not");
  const chunksOfFile = count(
    t.journal,
    "SELECT count(*) AS n FROM chunks WHERE path_id = ?",
    pathId,
  );
  assert.equal(
    count(t.journal, "SELECT count(*) AS n FROM vectors WHERE path_id = ?", pathId),
    chunksOfFile,
  );
  // Deleting the file removes its vectors with its rows.
  Deno.removeSync(file);
  await t.r.reconcilePaths([file]);
  assert.equal(count(t.journal, "SELECT count(*) AS n FROM vectors WHERE path_id = ?", pathId), 0);
  assert.equal(
    count(t.journal, "SELECT count(*) AS n FROM vectors"),
    count(t.journal, "SELECT count(*) AS n FROM chunks"),
  );
});

Deno.test("a file changed after its commit is skipped, never embedded from other bytes", async () => {
  using t = setup();
  await t.r.audit();
  const file = join(t.root, "src/config.ts");
  Deno.writeTextFileSync(file, "export const changed = true;\n");
  const pathId = t.journal.get<{ id: number }>("SELECT id FROM paths WHERE path = ?", file)!.id;
  const done = await t.pass.runAll();
  assert.ok(done.skipped > 0);
  assert.equal(count(t.journal, "SELECT count(*) AS n FROM vectors WHERE path_id = ?", pathId), 0);
  assert.ok(!t.embedder.texts.some((s) => s.includes("changed = true")));
  // Its next commit brings new chunks, which are embedded from the new bytes.
  await t.r.reconcilePaths([file]);
  while (await t.pass.step()) { /* drain */ }
  assert.ok(count(t.journal, "SELECT count(*) AS n FROM vectors WHERE path_id = ?", pathId) > 0);
});

Deno.test("switching the active model re-embeds everything, then drops the old model's vectors", async () => {
  using t = setup();
  await t.r.audit();
  await t.pass.runAll();
  const chunks = count(t.journal, "SELECT count(*) AS n FROM chunks");
  t.setModel({ on: true, embedder: new HashingEmbedder("other-64") });
  // A pass taking two chunks a step: mid-way the store mixes models, and says so.
  const pass = new EmbedPass(t.journal, () => Promise.resolve({ on: true, embedder: t.embedder }), {
    batch: 2,
  });
  await pass.step();
  const mid = vectorStoreHealth(t.journal, "other-64");
  assert.match(mid.fault ?? "", /2 models mixed: hash-64 \(\d+\), other-64 \(\d+\)/);
  while (await pass.step()) { /* drain */ }
  const after = vectorStoreHealth(t.journal, "other-64");
  assert.equal(after.fault, null);
  assert.deepEqual(after.models.map((m) => [m.model, m.count]), [["other-64", chunks]]);
});

Deno.test("with no model the pass does nothing and says why; a failing encoder backs off", async () => {
  using t = setup();
  await t.r.audit();
  t.setModel({ on: false, reason: "no model; run heimdall model pull multilingual-e5-small-int8" });
  assert.equal(await t.pass.step(), false);
  assert.deepEqual(
    [t.pass.status().on, t.pass.status().reason],
    [false, "no model; run heimdall model pull multilingual-e5-small-int8"],
  );
  assert.equal(count(t.journal, "SELECT count(*) AS n FROM vectors"), 0);
  const broken = new HashingEmbedder();
  broken.fail = true;
  t.setModel({ on: true, embedder: broken });
  assert.equal(await t.pass.step(), false);
  assert.match(t.pass.status().reason ?? "", /encoder crashed/);
  // Backing off: the next step does not call the encoder again.
  const calls = broken.calls;
  assert.equal(await t.pass.step(), false);
  assert.equal(broken.calls, calls);
  assert.equal(count(t.journal, "SELECT count(*) AS n FROM vectors"), 0);
});

Deno.test("the semantic leg ranks chunks by meaning, filtered to the active model", async () => {
  using t = setup();
  await t.r.audit();
  await t.pass.runAll();
  let active = "hash-64";
  const leg = new VectorSemanticLeg(
    t.journal,
    () => Promise.resolve({ on: true, embedder: new HashingEmbedder(active) }),
    () => ({ on: true, model: active }),
  );
  try {
    assert.deepEqual(leg.status(), { on: true, model: "hash-64" });
    const title = (id: number) =>
      t.journal.get<{ title: string }>("SELECT title FROM chunks WHERE id = ?", id)!.title;
    const hits = await leg.search("parse config json text", 3, {});
    assert.equal(title(hits[0]!.chunkId), "parseConfigFile");
    const retry = await leg.search("retry attempts sleep backoff", 1, {});
    assert.equal(title(retry[0]!.chunkId), "retryWithBackoff");
    // A filter to a few chunks is honoured.
    const only = t.journal.all<{ id: number }>(
      "SELECT id FROM chunks WHERE title = 'validateSettings'",
    ).map((r) => r.id);
    const filtered = await leg.search("parse config json text", 3, {
      chunkIds: new Set(only),
    });
    assert.deepEqual(filtered.map((h) => h.chunkId), only);
    // Another active model with no vectors: the leg is off and says why.
    active = "unused-model";
    assert.equal(leg.status().on, false);
    assert.match((leg.status() as { reason: string }).reason, /no vectors of unused-model/);
    assert.deepEqual(await leg.search("backoff", 3, {}), []);
  } finally {
    leg.close();
  }
});

Deno.test("a model installed again with other files: its vectors are dropped and made again, the leg off meanwhile", async () => {
  using t = setup();
  await t.r.audit();
  t.setModel({ on: true, embedder: new HashingEmbedder("hash-64", "install-a") });
  await t.pass.runAll();
  const chunks = count(t.journal, "SELECT count(*) AS n FROM chunks");
  const before = dumpVectors(t.journal);
  // The same name, other files: what `heimdall model import hash-64 --from DIR` over it makes.
  let installed = { fingerprint: "install-b", salt: 7 };
  const leg = new VectorSemanticLeg(
    t.journal,
    () =>
      Promise.resolve({
        on: true,
        embedder: new HashingEmbedder("hash-64", installed.fingerprint, installed.salt),
      }),
    () => ({ on: true, model: "hash-64", fingerprint: installed.fingerprint }),
  );
  try {
    const status = leg.status();
    assert.equal(status.on, false, "vectors of the earlier install are not this model's");
    assert.match((status as { reason: string }).reason, /made by an earlier install of it/);
    assert.deepEqual(await leg.search("retry attempts sleep backoff", 3, {}), []);

    t.setModel({ on: true, embedder: new HashingEmbedder("hash-64", "install-b", 7) });
    while (await t.pass.step()) { /* drain */ }
    assert.equal(count(t.journal, "SELECT count(*) AS n FROM vectors"), chunks);
    const after = dumpVectors(t.journal).split("\n");
    const old = new Set(before.split("\n"));
    assert.equal(after.filter((v) => old.has(v)).length, 0, "every vector made again");
    assert.deepEqual(leg.status(), { on: true, model: "hash-64", fingerprint: "install-b" });
    const title = (id: number) =>
      t.journal.get<{ title: string }>("SELECT title FROM chunks WHERE id = ?", id)!.title;
    const hits = await leg.search("retry attempts sleep backoff", 1, {});
    assert.equal(title(hits[0]!.chunkId), "retryWithBackoff");

    // The same install again (a new process, the same files): nothing is dropped.
    const ids = t.journal.all<{ id: number }>("SELECT id FROM vectors ORDER BY id");
    t.setModel({ on: true, embedder: new HashingEmbedder("hash-64", "install-b", 7) });
    const fresh = new EmbedPass(
      t.journal,
      () => Promise.resolve({ on: true, embedder: t.embedder }),
    );
    assert.equal(await fresh.step(), false);
    assert.deepEqual(t.journal.all<{ id: number }>("SELECT id FROM vectors ORDER BY id"), ids);
    installed = { fingerprint: "install-b", salt: 7 };
    assert.equal(leg.status().on, true);
  } finally {
    leg.close();
  }
});

Deno.test("a model that does not load is said by status and the leg, not waited for; a working one clears it", async () => {
  using t = setup();
  await t.r.audit();
  const reason = 'model "hash-64" failed to load: protobuf parsing failed; install it again';
  t.setModel({ on: false, reason, failed: "hash-64" });
  assert.equal((await t.pass.runAll()).model, null);
  assert.equal(await t.pass.step(), false);
  assert.match(vectorStoreHealth(t.journal, "hash-64").fault ?? "", /cannot embed: .*protobuf/);
  const leg = new VectorSemanticLeg(
    t.journal,
    () => Promise.resolve({ on: false, reason, failed: "hash-64" }),
    () => ({ on: true, model: "hash-64" }),
  );
  try {
    assert.deepEqual(leg.status(), { on: false, reason });
    // Another process (the daemon) loads the model once it is installed again.
    t.setModel({ on: true, embedder: new HashingEmbedder() });
    const daemon = new EmbedPass(
      t.journal,
      () => Promise.resolve({ on: true, embedder: t.embedder }),
    );
    while (await daemon.step()) { /* drain */ }
    assert.equal(vectorStoreHealth(t.journal, "hash-64").fault, null);
    assert.deepEqual(leg.status(), { on: true, model: "hash-64" });
  } finally {
    leg.close();
  }
});
