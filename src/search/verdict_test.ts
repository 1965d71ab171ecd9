import assert from "node:assert/strict";
import { coverage, decideVerdict, type HitFacts } from "./verdict.ts";

Deno.test("coverage() matches query words by stem against identifier parts", () => {
  const cases: [string[], string, number, string[]][] = [
    [["optimization", "portfolio", "jam"], "class PortfolioOptimizer {}", 2 / 3, ["jam"]],
    [["retry", "backoff"], "def retry_with_backoff(call):", 1, []],
    [["retries"], "retry()", 1, []],
    [["lock"], "unlocked", 0, ["lock"]],
    [[], "anything", 1, []],
    // Pairs of characters inside a sentence; a Hangul syllable stays itself once accents are dropped.
    [["認証", "期限"], "// ユーザー認証はトークンで行います", 1 / 2, ["期限"]],
    [["인증", "만료"], "사용자 인증은 토큰으로 합니다", 1 / 2, ["만료"]],
    [["cle"], "la clé du cache", 1, []],
    // Japanese grammar pairs need not be covered; the words between them must.
    [["認証", "の有", "有効", "ます"], "認証と有効", 1, []],
    [["認証", "の有", "期限"], "認証", 1 / 2, ["期限"]],
  ];
  for (const [words, text, want, missing] of cases) {
    const c = coverage(words, text);
    assert.equal(c.coverage, want, `${words} in ${text}`);
    assert.deepEqual(c.missing, missing);
  }
});

Deno.test("decideVerdict() labels each situation and says why", () => {
  const base: HitFacts = {
    exists: true,
    sameStat: true,
    hash: "same",
    coverage: { coverage: 1, missing: [] },
    semanticOnly: false,
    threshold: 0.5,
  };
  const cases: [string, Partial<HitFacts>, string, RegExp | null][] = [
    ["as indexed and covered", {}, "STRONG", null],
    ["stat checked only", { hash: "unchecked" }, "STRONG", null],
    [
      "low coverage",
      { coverage: { coverage: 0.25, missing: ["a", "b", "c"] } },
      "WEAK",
      /covers 25%.*a, b, c\)/,
    ],
    [
      "low coverage, but a frame of the pasted stack trace names it",
      { coverage: { coverage: 0.25, missing: ["traceback", "most", "recent"] }, framed: true },
      "STRONG",
      null,
    ],
    [
      "low coverage of a long question: the first eight words missing, and a count",
      {
        coverage: {
          coverage: 0.1,
          missing: ["w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "w9", "w10", "w11"],
        },
      },
      "WEAK",
      /\(missing: w1, w2, w3, w4, w5, w6, w7, w8 and 3 more\)$/,
    ],
    [
      "changed since indexed",
      { sameStat: false, hash: "unchecked", changedAgoMs: 120_000 },
      "WEAK",
      /changed since indexed 2m ago/,
    ],
    ["touched only (same hash)", { sameStat: false, hash: "same" }, "STRONG", null],
    ["same stat, other bytes", { hash: "differs" }, "WEAK", /reconcile --deep/],
    ["semantic only", { semanticOnly: true }, "WEAK", /semantic match only/],
    [
      "there, but unreadable now (its doc and name alone covered the query)",
      { hash: "unchecked", unreadable: "Permission denied (os error 13)" },
      "WEAK",
      /cannot be read now, so its text is unchecked \(Permission denied/,
    ],
    [
      "gone, found again",
      { exists: false, relocated: { from: "/r/a.ts", how: "same content" } },
      "REBUILT",
      /moved from \/r\/a\.ts/,
    ],
    ["gone, not found", { exists: false }, "STALE", /not found/],
    ["note pointing at a gone path", { missingPath: "/r/x" }, "WEAK", /points at \/r\/x/],
    [
      "moved and covering little",
      {
        exists: false,
        relocated: { from: "/r/a.ts", how: "same symbol" },
        coverage: { coverage: 0, missing: ["z"] },
      },
      "REBUILT",
      /moved from \/r\/a\.ts \(same symbol\); covers 0%/,
    ],
  ];
  for (const [name, facts, verdict, reason] of cases) {
    const got = decideVerdict({ ...base, ...facts });
    assert.equal(got.verdict, verdict, name);
    if (reason === null) assert.equal(got.reason, null, name);
    else assert.match(got.reason ?? "", reason, name);
  }
});
