import assert from "node:assert/strict";
import {
  type ChunkRecord,
  deleteRoot,
  Journal,
  type OwnedRows,
  replaceOwnedRows,
  retractPath,
} from "../store/mod.ts";
import { deleteLooseChunk, upsertLooseChunk } from "../search/mod.ts";
import { VectorCache } from "./cache.ts";
import { vectorStoreHealth } from "./health.ts";
import { encodeVector } from "./quantize.ts";
import { indexedRows, journalWithRoot } from "../../tests/index_rows.ts";
import { type NewVector, putVectors, vectorCounts } from "./store.ts";

const DIMS = 16;

function chunk(title: string, line: number): ChunkRecord {
  return {
    node_id: null,
    source: "code",
    title,
    start_line: line,
    end_line: line + 1,
    text_hash: `h-${title}`,
    fts: { name: title, qual: "", sig: "", doc: "", body: title, path: "" },
  };
}

function rows(path: string, hash: string, titles: string[]): OwnedRows {
  return indexedRows(path, { path: { hash }, chunks: titles.map((t, i) => chunk(t, i + 1)) });
}

/** A vector that points along axis `axis` (so searches have one clear answer). */
function axis(axis: number): Float32Array {
  const v = new Float32Array(DIMS).fill(0.01);
  v[axis % DIMS] = 1;
  return v;
}

/** Embeds every chunk of the journal without a vector of `model` (axis = chunk id). */
function embedAll(j: Journal, model: string): number {
  const missing = j.all<{ id: number; path_id: number | null; text_hash: string }>(
    `SELECT id, path_id, text_hash FROM chunks c WHERE NOT EXISTS
     (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id AND v.embedding_model = ?)`,
    model,
  );
  const news: NewVector[] = missing.map((c) => ({
    chunkId: c.id,
    pathId: c.path_id,
    textHash: c.text_hash,
    vector: encodeVector(axis(c.id), "i8"),
  }));
  return j.tx(() => putVectors(j, model, news));
}

function vectorsOf(j: Journal, pathId: number): number {
  return j.get<{ n: number }>("SELECT count(*) AS n FROM vectors WHERE path_id = ?", pathId)!.n;
}

Deno.test("a re-commit of a path replaces its vectors; a retract removes them", () => {
  const j = journalWithRoot();
  const a = j.tx(() => replaceOwnedRows(j, rows("/r/a", "h1", ["x", "y"]), null));
  const b = j.tx(() => replaceOwnedRows(j, rows("/r/b", "h1", ["z"]), null));
  assert.equal(embedAll(j, "m"), 3);
  assert.equal(vectorsOf(j, a.pathId), 2);
  j.tx(() => replaceOwnedRows(j, rows("/r/a", "h2", ["x", "w", "v"]), a.generation));
  const kept = j.all<{ title: string }>(
    "SELECT c.title FROM vectors v JOIN chunks c ON c.id = v.chunk_id WHERE v.path_id = ?",
    a.pathId,
  );
  assert.deepEqual(
    kept.map((r) => r.title),
    ["x"],
    "only the chunk whose text is unchanged keeps one",
  );
  assert.equal(vectorsOf(j, b.pathId), 1, "another path's vectors stay");
  assert.equal(embedAll(j, "m"), 2);
  j.tx(() => retractPath(j, "/r/a", a.generation + 1));
  assert.equal(vectorsOf(j, a.pathId), 0);
  assert.equal(j.get<{ n: number }>("SELECT count(*) AS n FROM vectors")!.n, 1);
  j.close();
});

Deno.test("removing a root removes its vectors (through the chunks they belong to)", () => {
  const j = journalWithRoot();
  j.tx(() => replaceOwnedRows(j, rows("/r/a", "h1", ["x", "y"]), null));
  embedAll(j, "m");
  j.tx(() => deleteRoot(j, 1));
  assert.equal(j.get<{ n: number }>("SELECT count(*) AS n FROM vectors")!.n, 0);
  j.close();
});

Deno.test("a note's vector goes with its chunk; a changed note needs a new vector", () => {
  const j = journalWithRoot();
  const id = upsertLooseChunk(j, { source: "notes", refId: 7, title: "retry", text: "backoff" });
  assert.equal(embedAll(j, "m"), 1);
  const old = j.get<{ text_hash: string }>("SELECT text_hash FROM vectors WHERE chunk_id = ?", id)!;
  upsertLooseChunk(j, { source: "notes", refId: 7, title: "retry", text: "jitter too" });
  // The old vector no longer matches the chunk's text: it is refused as a stale write…
  const refused = j.tx(() =>
    putVectors(j, "m", [{
      chunkId: id,
      pathId: null,
      textHash: old.text_hash,
      vector: encodeVector(axis(1), "i8"),
    }])
  );
  assert.equal(refused, 0);
  // …and replaced by one for the new text.
  const now = j.get<{ text_hash: string }>("SELECT text_hash FROM chunks WHERE id = ?", id)!;
  j.tx(() =>
    putVectors(j, "m", [{
      chunkId: id,
      pathId: null,
      textHash: now.text_hash,
      vector: encodeVector(axis(2), "i8"),
    }])
  );
  assert.equal(j.get<{ n: number }>("SELECT count(*) AS n FROM vectors")!.n, 1);
  deleteLooseChunk(j, "notes", 7);
  assert.equal(j.get<{ n: number }>("SELECT count(*) AS n FROM vectors")!.n, 0);
  j.close();
});

Deno.test("the scan cache follows commits incrementally and finds each chunk by its vector", async () => {
  const j = journalWithRoot();
  const a = j.tx(() => replaceOwnedRows(j, rows("/r/a", "h1", ["x", "y"]), null));
  j.tx(() => replaceOwnedRows(j, rows("/r/b", "h1", ["z"]), null));
  embedAll(j, "m");
  const cache = new VectorCache(j);
  try {
    const first = await cache.sync("m");
    assert.equal(first.from, "journal");
    assert.equal(first.added, 3);
    const ids = j.all<{ id: number }>("SELECT id FROM chunks ORDER BY id").map((r) => r.id);
    for (const id of ids) {
      assert.equal((await cache.search("m", axis(id), 1))[0]!.key, id);
    }
    assert.equal((await cache.sync("m")).from, "cache", "nothing changed: nothing read");
    j.tx(() => replaceOwnedRows(j, rows("/r/a", "h2", ["u", "v"]), a.generation));
    embedAll(j, "m");
    const next = await cache.sync("m");
    assert.deepEqual([next.from, next.added, next.removed], ["cache", 2, 2]);
    assert.equal(cache.stats("m").vectors, 3);
    const now = j.all<{ id: number }>("SELECT id FROM chunks ORDER BY id").map((r) => r.id);
    for (const id of now) {
      assert.equal((await cache.search("m", axis(id), 1))[0]!.key, id);
    }
    // Restricting to some chunks only returns those.
    const only = new Set([now[0]!]);
    assert.deepEqual((await cache.search("m", axis(now[2]!), 3, only)).map((h) => h.key), [now[0]]);
    assert.deepEqual(await cache.search("other", axis(1), 3), []);
  } finally {
    cache.close();
    j.close();
  }
});

Deno.test("a cache in another connection sees the writer's changes (data_version)", async () => {
  const j = journalWithRoot();
  j.tx(() => replaceOwnedRows(j, rows("/r/a", "h1", ["x"]), null));
  embedAll(j, "m");
  const reader = Journal.open(j.file, { readOnly: true });
  const cache = new VectorCache(reader);
  try {
    assert.equal((await cache.sync("m")).added, 1);
    j.tx(() => replaceOwnedRows(j, rows("/r/b", "h1", ["y", "z"]), null));
    embedAll(j, "m");
    const r = await cache.sync("m");
    assert.deepEqual([r.from, r.added, r.removed], ["cache", 2, 0]);
    j.tx(() => retractPath(j, "/r/a", 1));
    assert.deepEqual([(await cache.sync("m")).removed], [1]);
    assert.equal((await cache.search("m", axis(1), 10)).length, 2);
  } finally {
    cache.close();
    reader.close();
    j.close();
  }
});

Deno.test("a pruned deletion log makes the cache reload in full", async () => {
  const j = journalWithRoot();
  const a = j.tx(() => replaceOwnedRows(j, rows("/r/a", "h1", ["x", "y"]), null));
  embedAll(j, "m");
  const cache = new VectorCache(j);
  try {
    await cache.sync("m");
    j.tx(() => retractPath(j, "/r/a", a.generation));
    j.run("DELETE FROM vectors_gone");
    const r = await cache.sync("m");
    assert.equal(r.from, "journal");
    assert.equal(cache.stats("m").vectors, 0);
  } finally {
    cache.close();
    j.close();
  }
});

Deno.test("vectorStoreHealth reports a store that mixes models as a fault, with each count", () => {
  const j = journalWithRoot();
  j.tx(() => replaceOwnedRows(j, rows("/r/a", "h1", ["x", "y", "z"]), null));
  assert.equal(vectorStoreHealth(j, "m1").fault, null);
  embedAll(j, "m1");
  const healthy = vectorStoreHealth(j, "m1");
  assert.equal(healthy.fault, null);
  assert.deepEqual(healthy.active, { model: "m1", vectors: 3, missing: 0 });
  // Switching models replaces vectors one chunk at a time: mid-way, the store mixes.
  const one = j.get<{ id: number; text_hash: string }>(
    "SELECT id, text_hash FROM chunks ORDER BY id LIMIT 1",
  )!;
  j.tx(() =>
    putVectors(j, "m2", [{
      chunkId: one.id,
      pathId: 1,
      textHash: one.text_hash,
      vector: encodeVector(axis(3), "i8"),
    }])
  );
  const mixed = vectorStoreHealth(j, "m2");
  assert.deepEqual(vectorCounts(j).map((m) => [m.model, m.count]), [["m1", 2], ["m2", 1]]);
  assert.match(mixed.fault ?? "", /2 models mixed: m1 \(2\), m2 \(1\)/);
  assert.deepEqual(mixed.active, { model: "m2", vectors: 1, missing: 2 });
  j.close();
});

Deno.test("a snapshot lets the next process load in one read and catch up from the journal", async () => {
  const j = journalWithRoot();
  const a = j.tx(() => replaceOwnedRows(j, rows("/r/a", "h1", ["x", "y"]), null));
  j.tx(() => replaceOwnedRows(j, rows("/r/b", "h1", ["z", "w"]), null));
  embedAll(j, "m");
  const dir = Deno.makeTempDirSync();
  const open = () =>
    new VectorCache(Journal.open(j.file, { readOnly: true }), { snapshotDir: dir });
  const first = open();
  const r1 = await first.sync("m");
  assert.equal(r1.from, "journal");
  assert.ok(r1.snapshotMs !== undefined, "a full read writes a snapshot");
  first.close();
  first.journal.close();
  // The writer replaces a path: two vectors gone, two new.
  j.tx(() => replaceOwnedRows(j, rows("/r/a", "h2", ["x", "y"]), a.generation));
  embedAll(j, "m");
  const second = open();
  const reference = new VectorCache(j);
  try {
    const r2 = await second.sync("m");
    assert.deepEqual([r2.from, r2.added, r2.removed], ["snapshot", 2, 2]);
    const ids = j.all<{ id: number }>("SELECT id FROM chunks ORDER BY id").map((r) => r.id);
    for (const id of ids) {
      assert.deepEqual(
        await second.search("m", axis(id), 4),
        await reference.search("m", axis(id), 4),
      );
    }
  } finally {
    second.close();
    second.journal.close();
    reference.close();
  }
  // A damaged snapshot, or one the deletion log cannot bring up to date, is ignored.
  const file = [...Deno.readDirSync(dir)].map((e) => `${dir}/${e.name}`)[0]!;
  Deno.truncateSync(file, 100);
  const third = open();
  assert.equal((await third.sync("m")).from, "journal");
  third.close();
  third.journal.close();
  j.tx(() => retractPath(j, "/r/b", 1));
  j.run("DELETE FROM vectors_gone");
  const fourth = open();
  assert.equal((await fourth.sync("m")).from, "journal");
  fourth.close();
  fourth.journal.close();
  j.close();
});

Deno.test("a snapshot of another journal is never used", async () => {
  const dir = Deno.makeTempDirSync();
  const one = journalWithRoot();
  one.tx(() => replaceOwnedRows(one, rows("/r/a", "h1", ["x"]), null));
  embedAll(one, "m");
  const c1 = new VectorCache(one, { snapshotDir: dir });
  await c1.sync("m");
  c1.close();
  const two = journalWithRoot();
  two.tx(() => replaceOwnedRows(two, rows("/r/a", "h1", ["x", "y"]), null));
  embedAll(two, "m");
  const c2 = new VectorCache(two, { snapshotDir: dir });
  const r = await c2.sync("m");
  assert.equal(r.from, "journal");
  assert.equal(c2.stats("m").vectors, 2);
  c2.close();
  one.close();
  two.close();
});
