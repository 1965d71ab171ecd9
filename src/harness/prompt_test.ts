import assert from "node:assert/strict";
import { parseQuery } from "../search/mod.ts";
import { asksForPriorWork, isTaskPrompt, promptQuery, QUERY_TERMS, taskTitle } from "./prompt.ts";

/** The search terms a query has: its content words and whole identifiers. */
function termCount(query: string): number {
  const q = parseQuery(query);
  return new Set([...q.words.map((w) => `w:${w}`), ...q.wholes.map((w) => `n:${w}`)]).size;
}

/** `n` characters of code words in an order that repeats nothing for a long while. */
function paste(n: number): string {
  const words: string[] = [];
  for (let i = 0, size = 0; size < n; i++) {
    const w = `${["parse", "emit", "load", "fold"][i % 4]}Node${(i * 7919) % 100003}_x${i % 13}`;
    words.push(i % 5 === 0 ? `-${w}` : i % 7 === 0 ? `"${w}` : w);
    size += w.length + 1;
  }
  return words.join(" ");
}

Deno.test("promptQuery() has at most QUERY_TERMS terms, whatever the prompt's size", () => {
  for (const size of [3_000, 200_000, 1_000_000, 8_000_000]) {
    const prompt = `Why is apply_discount rounding twice? Log: ${paste(size)}`;
    const q = promptQuery(prompt);
    assert.ok(termCount(q) <= QUERY_TERMS, `${size}: ${termCount(q)} terms in ${q}`);
    assert.ok(q.startsWith("apply_discount rounding twice? Log:"), q);
    assert.doesNotMatch(q, /(^| )-|"/, "a paste means no exclusion and no phrase");
  }
});

Deno.test("promptQuery() keeps a prompt typed by hand as it is, less the request it opens with", () => {
  for (
    const p of [
      "Why does compute_total let a negative discount raise the total?",
      'find "retry with backoff" -test in src/net',
      "make test fails on CI since parseHeader moved",
    ]
  ) {
    assert.equal(promptQuery(p), p);
  }
  const asked: [string, string][] = [
    [
      "Fix compute_total so a negative discount never raises the total",
      "compute_total so a negative discount never raises the total",
    ],
    [
      "Refactor the importer: split parseHeader out of readFile, keep the error messages, " +
      "and make sure the tests in importer_test.ts still pass on Windows paths.",
      "the importer: split parseHeader out of readFile, keep the error messages, " +
      "and make sure the tests in importer_test.ts still pass on Windows paths.",
    ],
    [
      "please, can you add a retry with exponential backoff to the uploader",
      "a retry with exponential backoff to the uploader",
    ],
    ["We need to clean up the session cache", "the session cache"],
  ];
  for (const [p, q] of asked) assert.equal(promptQuery(p), q);
  // Nothing but the request: searched as typed (the caller's `asksForPriorWork` decides).
  assert.equal(promptQuery("Fix it."), "Fix it.");
});

Deno.test("promptQuery() builds a long prompt's query from its question and the code it names", () => {
  const log = Array.from({ length: 400 }, (_, i) => `2024-05-01T10:${i % 60}:00 INFO ok ${i}`);
  const blob = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo".repeat(4);
  const q = promptQuery(
    `The nightly import fails, see below\n${log.join("\n")}\n${blob}\n` +
      `Traceback: in importer.read_rows (importer/rows.py:88)`,
  );
  assert.match(q, /^nightly import fails, see below INFO ok/);
  assert.match(q, /importer\.read_rows \(importer\/rows\.py:88\)/, "the names of code, found late");
  assert.ok(!q.includes(blob) && !/\d{4}-\d\d/.test(q), "no blobs, no bare numbers");
});

Deno.test("a prompt's task and title look at its start only, and redact what they keep", () => {
  const token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
  const huge = `  deploy ${token} to billing now\n${"x ".repeat(4_000_000)}`;
  assert.equal(isTaskPrompt(huge), true);
  assert.equal(taskTitle(huge), "deploy [REDACTED:github_token] to billing now");
  assert.equal(taskTitle("y".repeat(3_000_000)), "y".repeat(199) + "…");
  assert.equal(isTaskPrompt("/compact " + "z ".repeat(1_000_000)), false);
});

Deno.test("promptQuery() reads a long Japanese or Chinese prompt as words, not as one blob", () => {
  // One sentence, no spaces: 60 characters, far more terms than a query holds.
  const asked =
    "ユーザー認証のトークンの有効期限が切れたときにセッションを更新する処理をどこかで既に実装しましたか。" +
    "接続プールの設定も確認してください。";
  const q = promptQuery(asked);
  assert.ok(termCount(q) > 0 && termCount(q) <= QUERY_TERMS, `${termCount(q)} terms in ${q}`);
  // The opening is asked, every pair of it: the pieces overlap by a character.
  const pairs = parseQuery(q).words;
  for (const w of ["ユー", "認証", "トー", "有効", "期限"]) {
    assert.ok(pairs.includes(w), `${w} in ${q}`);
  }
  // With a pasted log after it, the question still leads.
  const log = Array.from({ length: 300 }, (_, i) => `2024-05-01 INFO 接続 ok ${i}`).join("\n");
  assert.match(promptQuery(`${asked}\n${log}`), /^ユーザー認証/);
  assert.match(
    promptQuery("缓存在服务重启后会被清空，这是在哪里实现的？请找一下之前的代码。"),
    /缓存/,
  );
});

Deno.test("asksForPriorWork(): a reply of one word asks nothing; two words, or one naming code, do", () => {
  for (
    const p of ["continue", "fix it", "do it now", "  ok  ", "Commit.", "thanks!", "/clear", ""]
  ) {
    assert.equal(asksForPriorWork(p), false, p);
  }
  for (
    const p of [
      "compute_total",
      "produceWithPatches?",
      "pkg/billing.py",
      "run the tests",
      "negative discount",
    ]
  ) {
    assert.equal(asksForPriorWork(p), true, p);
  }
});
