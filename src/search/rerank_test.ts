import assert from "node:assert/strict";
import { rerankByCoverage, substringCoverage } from "./rerank.ts";

Deno.test("substringCoverage() finds words inside identifiers, case already folded", () => {
  const cases: [string[], string, number][] = [
    [["http", "request"], "function parsehttprequest()", 1],
    [["retry", "backoff", "jitter"], "def retry_with_backoff():", 2 / 3],
    [["zebra"], "", 0],
    [[], "anything", 1],
  ];
  for (const [words, text, want] of cases) assert.equal(substringCoverage(words, text), want);
});

Deno.test("rerankByCoverage() adds coverage as a fusion leg would, stable on ties", () => {
  const items = [{ id: "a", score: 3 / 61 }, { id: "b", score: 2 / 61 }, {
    id: "c",
    score: 2 / 61,
  }];
  assert.deepEqual(rerankByCoverage(items, [0, 0, 0], 2, 60).map((i) => i.id), ["a", "b", "c"]);
  assert.deepEqual(rerankByCoverage(items, [0, 0, 1], 2, 60).map((i) => i.id), ["c", "a", "b"]);
  assert.deepEqual(
    rerankByCoverage(items, [0, 1, 1], 0, 60).map((i) => i.id),
    ["a", "b", "c"],
    "weight 0 keeps the order",
  );
});
