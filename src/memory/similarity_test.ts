import assert from "node:assert/strict";
import {
  normalizedWords,
  SAME_FAILURE_THRESHOLD,
  scoreThreshold,
  trigramSimilarity,
  wordSimilarity,
} from "./similarity.ts";

const PAIRS = JSON.parse(
  Deno.readTextFileSync(new URL("../../tests/fixtures/memory/attempt_pairs.json", import.meta.url)),
).pairs as { a: string; b: string; same: boolean }[];

Deno.test("normalizedWords() lower-cases, splits at punctuation and drops stop words", () => {
  assert.deepEqual(normalizedWords("Tried lazy-loading the Grammar; took 900ms"), [
    "tried",
    "lazy",
    "loading",
    "grammar",
    "took",
    "900ms",
  ]);
  // A vowel sign is part of its word, not a cut in it.
  assert.deepEqual(normalizedWords("कैश साफ़ किया"), ["कैश", "साफ़", "किया"]);
});

Deno.test("the wording threshold merges no different failure in the labelled set and finds most repeats", () => {
  assert.equal(PAIRS.length, 60);
  const s = scoreThreshold(PAIRS, trigramSimilarity, SAME_FAILURE_THRESHOLD);
  assert.equal(s.falseMerges, 0);
  assert.ok(s.recall >= 0.95, `recall ${s.recall}`);
  // Word sets separate the classes worse: at any threshold without false merges, recall is lower.
  let bestWordRecall = 0;
  for (let t = 0; t <= 1; t += 0.01) {
    const w = scoreThreshold(PAIRS, wordSimilarity, t);
    if (w.falseMerges === 0) bestWordRecall = Math.max(bestWordRecall, w.recall);
  }
  assert.ok(bestWordRecall < s.recall, `words ${bestWordRecall} vs trigrams ${s.recall}`);
});

Deno.test("trigramSimilarity() is symmetric, 1 for identical wording and low for unrelated text", () => {
  const a = "Retry loop around connect times out";
  assert.equal(trigramSimilarity(a, a), 1);
  assert.equal(trigramSimilarity(a, "zebra"), trigramSimilarity("zebra", a));
  assert.ok(trigramSimilarity(a, "The FTS tokenizer drops emoji") < 0.2);
});
