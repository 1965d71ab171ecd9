import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../../tests/helpers.ts";
import { Journal } from "../store/mod.ts";
import { deleteLooseChunk, upsertLooseChunk } from "./chunks.ts";
import { insertNote, notePaths } from "./notes.ts";
import { rank } from "./rank.ts";
import type { SemanticLeg } from "./legs.ts";

function journal(): Journal {
  return Journal.open(join(tempDir(), "journal.db"));
}

async function found(j: Journal, query: string): Promise<string[]> {
  const r = await rank(j, { query, semantic: null });
  return r.candidates.map((c) => `${c.best.source}:${c.best.ref_id}`);
}

Deno.test("upsertLooseChunk() makes a memory searchable, replaces it in place, and delete removes it", async () => {
  const j = journal();
  const id = upsertLooseChunk(j, {
    source: "memory",
    refId: "m-1",
    title: "Decision: use WAL mode",
    text: "SQLite journal runs in write-ahead logging so readers never block the writer.",
  });
  assert.deepEqual(await found(j, "write-ahead logging readers"), ["memory:m-1"]);
  const again = upsertLooseChunk(j, {
    source: "memory",
    refId: "m-1",
    title: "Decision: use rollback journal",
    text: "Changed our mind: the rollback journal, for network filesystems.",
    path: "/r/src/store.ts",
  });
  assert.equal(again, id, "the chunk keeps its id");
  assert.deepEqual(
    await found(j, "write-ahead logging readers"),
    [],
    "the old text matches nothing",
  );
  assert.deepEqual(await found(j, "network filesystems"), ["memory:m-1"]);
  const row = j.get<{ anchor: string; title: string }>(
    "SELECT anchor, title FROM chunks WHERE id = ?",
    id,
  )!;
  assert.deepEqual({ ...row }, {
    anchor: "/r/src/store.ts",
    title: "Decision: use rollback journal",
  });
  assert.equal(deleteLooseChunk(j, "memory", "m-1"), true);
  assert.equal(deleteLooseChunk(j, "memory", "m-1"), false);
  assert.deepEqual(await found(j, "network filesystems"), []);
  assert.equal(j.get<{ n: number }>("SELECT count(*) AS n FROM chunks")!.n, 0);
  j.close();
});

Deno.test("insertNote() records the note, its paths as they are now (each once), and its chunk in one go", async () => {
  const j = journal();
  const dir = Deno.makeTempDirSync();
  const file = `${dir}/a.txt`;
  Deno.writeTextFileSync(file, "hello");
  const id = insertNote(j, {
    title: "Deploy checklist",
    body: "Drain the queue before the migration.",
    keywords: ["release", " ops "],
    paths: [file, `${dir}/missing.txt`, file],
  });
  assert.equal(id, 1);
  // The path given twice is attached once.
  assert.deepEqual(notePaths(j, id).map((p) => ({ ...p })), [
    { path: file, hash: "aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d", size: 5 },
    { path: `${dir}/missing.txt`, hash: null, size: null },
  ]);
  assert.equal(j.get<{ keywords: string }>("SELECT keywords FROM notes")!.keywords, "release,ops");
  assert.deepEqual(await found(j, "drain queue migration"), ["notes:1"]);
  assert.deepEqual(await found(j, "ops release"), ["notes:1"], "keywords match");
  j.close();
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("rank() leaves out a chunk the semantic leg found that holds an excluded word", async () => {
  const j = journal();
  const drain = upsertLooseChunk(j, {
    source: "memory",
    refId: "m-drain",
    title: "Deploy: drain first",
    text: "Drain the queue before the migration runs.",
  });
  const pause = upsertLooseChunk(j, {
    source: "memory",
    refId: "m-pause",
    title: "Deploy: pause the workers",
    text: "Pause the workers before the migration runs.",
  });
  // A leg ranking by meaning finds both, whatever words they share with the query.
  const semantic: SemanticLeg = {
    name: "semantic",
    status: () => ({ on: true, model: "test" }),
    search: () => Promise.resolve([{ chunkId: drain, score: 0.9 }, { chunkId: pause, score: 0.8 }]),
  };
  const keys = async (query: string) =>
    (await rank(j, { query, semantic })).candidates.map((c) => c.key);
  assert.deepEqual(await keys("release steps"), ["memory:m-drain", "memory:m-pause"]);
  assert.deepEqual(await keys("release steps -drain"), ["memory:m-pause"]);
  j.close();
});

Deno.test("rank() excludes a quoted phrase or an identifier whole, never each of its words", async () => {
  const j = journal();
  const memory = (refId: string, text: string) =>
    upsertLooseChunk(j, { source: "memory", refId, title: refId, text });
  memory("dry", "Deploy: a dry run first, then the real one.");
  memory("run", "Deploy: run the migrations before the workers restart.");
  memory("parser", "The request body is read by parseHTTPRequest before routing.");
  memory("body", "Parse the request body once; routing reads the parsed form.");
  assert.deepEqual(await found(j, 'deploy -"dry run"'), ["memory:run"]);
  assert.deepEqual(await found(j, "request body -parseHTTPRequest"), ["memory:body"]);
  j.close();
});
