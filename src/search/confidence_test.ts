import assert from "node:assert/strict";
import { confidence, INJECT_CONFIDENCE, namesSymbol } from "./confidence.ts";

Deno.test("confidence() rises with score, coverage, rank and margin, and stays in [0, 1]", () => {
  const base = { unitScore: 0.4, coverage: 0.5, rank: 3, margin: 0.05 };
  const c = confidence(base);
  assert.ok(c >= 0 && c <= 1);
  assert.ok(confidence({ ...base, unitScore: 0.9 }) > c);
  assert.ok(confidence({ ...base, coverage: 1 }) > c);
  assert.ok(confidence({ ...base, rank: 1 }) > c);
  assert.ok(confidence({ ...base, margin: 0.5 }) > c);
  assert.ok(confidence({ unitScore: 0.9, coverage: 1, rank: 1, margin: 0.6 }) >= INJECT_CONFIDENCE);
  assert.ok(confidence({ unitScore: 0.1, coverage: 0.2, rank: 8, margin: 0 }) < INJECT_CONFIDENCE);
});

Deno.test("namesSymbol() is true for a compound identifier the query names, not a plain word", () => {
  const cases: [string[], string | null, boolean][] = [
    [["computetotal"], "compute_total", true],
    [["computetotal"], "billing.compute_total", true],
    [["parseheader"], "Cookies.parseHeader", true],
    [["computetotal"], "compute", false],
    [[], "parse", false],
    [["computetotal"], null, false],
  ];
  for (const [wholes, symbol, want] of cases) {
    assert.equal(namesSymbol(wholes, symbol), want, `${symbol}`);
  }
});
