/**
 * Which of a search's chunks hold an excluded word (`-test`): a word in a
 * third of 60,000 chunks and one in a hundredth, asked of 100 chunks spread
 * over the index (the semantic leg's, the graph's) and of 15 runs of 40
 * (the files the second stage reads). The baseline is one count of the
 * common word's whole posting list in the same run: `chunksHolding` should
 * cost a few such passes at most, never one per run.
 *
 *     deno bench -A src/search/lexical_bench.ts
 */
import { join } from "node:path";
import { Journal } from "../store/mod.ts";
import { upsertLooseChunk } from "./chunks.ts";
import { chunksHolding } from "./lexical.ts";

const N = 60_000;
const dir = Deno.makeTempDirSync({ prefix: "heimdall-lexical-bench-" });
const j = Journal.open(join(dir, "journal.db"));
j.run("BEGIN");
const ids: number[] = [];
for (let i = 0; i < N; i++) {
  const text = `${i % 3 === 0 ? "test" : "case"} ${i % 100 === 7 ? "cookie" : "value"} item${i}`;
  ids.push(upsertLooseChunk(j, { source: "memory", refId: `m${i}`, title: `t${i}`, text }));
}
j.run("COMMIT");
const scattered = Array.from({ length: 100 }, (_, k) => ids[k * 599]!);
const runs = Array.from({ length: 15 }, (_, f) => ids.slice(f * 3_900, f * 3_900 + 40)).flat();

Deno.bench("the word's posting list counted whole", { group: "holding", baseline: true }, () => {
  j.get("SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?", '"test"');
});

Deno.bench("chunksHolding: a word in a third of the chunks, 100 chunks spread over the index", {
  group: "holding",
}, () => {
  chunksHolding(j, scattered, ["test"]);
});

Deno.bench("chunksHolding: a word in a third of the chunks, 15 files of 40 chunks", {
  group: "holding",
}, () => {
  chunksHolding(j, runs, ["test"]);
});

Deno.bench("chunksHolding: a word in a hundredth, 100 chunks spread over the index", {
  group: "holding",
}, () => {
  chunksHolding(j, scattered, ["cookie"]);
});

Deno.bench(
  "chunksHolding: a word in a hundredth, 15 files of 40 chunks",
  { group: "holding" },
  () => {
    chunksHolding(j, runs, ["cookie"]);
  },
);

globalThis.addEventListener("unload", () => {
  j.close();
  Deno.removeSync(dir, { recursive: true });
});
