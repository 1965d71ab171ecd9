import assert from "node:assert/strict";
import { indexedRows, journalWithRoot } from "../../tests/index_rows.ts";
import type { Journal } from "./journal.ts";
import { replaceOwnedRows, retractPath } from "./owned.ts";
import type { OwnedRows, VocabSet } from "./types.ts";
import {
  decodeVocabSets,
  encodeVocabSets,
  flushVocab,
  VocabDelta,
  vocabDrift,
  vocabRows,
} from "./vocab_counts.ts";

const SETS: VocabSet[] = [
  { prose: ["password", "check"], code: ["verifi", "user", "hash"] },
  { prose: ["password", "hash"], code: ["digest", "salt"] },
];

function rows(path: string, sets: VocabSet[]): OwnedRows {
  const vocab = vocabRows(sets);
  return indexedRows(path, {
    path: { language: "typescript", target_depth: 3, effective_depth: 3 },
    ...(vocab ? { vocab } : {}),
  });
}

function count(j: Journal, table: string): number {
  return j.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)!.n;
}

Deno.test("encodeVocabSets() and decodeVocabSets() round-trip, and vocabRows() groups postings by prose stem", () => {
  assert.deepEqual(decodeVocabSets(encodeVocabSets(SETS)), SETS);
  assert.deepEqual(decodeVocabSets(""), []);
  const r = vocabRows(SETS)!;
  assert.deepEqual(r.postings, [
    ["password", "verifi user hash\ndigest salt"],
    ["check", "verifi user hash"],
    ["hash", "digest salt"],
  ]);
  assert.equal(r.symbols, 2);
  assert.deepEqual(new Map(r.words).get("ppassword"), 2);
  assert.equal(vocabRows([]), undefined);
});

Deno.test("a commit without a delta writes its own vocabulary rows; retracting removes them all", () => {
  const j = journalWithRoot();
  j.tx(() => replaceOwnedRows(j, rows("/r/a.ts", SETS), null));
  assert.equal(count(j, "vocab_postings"), 3);
  assert.equal(j.get<{ n: number }>("SELECT n FROM vocab_words WHERE side = 'symbols'")!.n, 2);
  assert.deepEqual(vocabDrift(j), []);
  j.tx(() => retractPath(j, "/r/a.ts", 1));
  for (const t of ["vocab_sets", "vocab_postings", "vocab_words"]) assert.equal(count(j, t), 0, t);
  j.close();
});

Deno.test("a path added and removed within one delta leaves nothing behind", () => {
  const j = journalWithRoot();
  j.tx(() => {
    const delta = new VocabDelta();
    replaceOwnedRows(j, rows("/r/a.ts", SETS), null, delta);
    replaceOwnedRows(j, rows("/r/b.ts", SETS.slice(1)), null, delta);
    replaceOwnedRows(j, rows("/r/a.ts", SETS.slice(0, 1)), 1, delta);
    retractPath(j, "/r/b.ts", 1, delta);
    flushVocab(j, delta);
  });
  assert.deepEqual(vocabDrift(j), []);
  assert.deepEqual(
    j.all<{ prose: string }>("SELECT prose FROM vocab_postings ORDER BY prose").map((r) => r.prose),
    ["check", "password"],
  );
  assert.equal(j.get<{ n: number }>("SELECT n FROM vocab_words WHERE side = 'symbols'")!.n, 1);
  j.close();
});
