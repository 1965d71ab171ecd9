import assert from "node:assert/strict";
import {
  confidence,
  CONFIDENCE_MODEL,
  type ConfidenceModel,
  fitConfidence,
  INJECT_CONFIDENCE,
  type JudgedFacts,
  namesSymbol,
} from "./confidence.ts";
import { seededRandom } from "../../tests/seeded_random.ts";

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

/** `n` hits whose facts are drawn at random and whose rightness is drawn from `model`'s probability. */
function drawn(model: ConfidenceModel, n: number, seed: number): JudgedFacts[] {
  const next = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const facts = {
      unitScore: next(),
      coverage: next(),
      rank: 1 + Math.floor(next() * 10),
      margin: next() * 0.6,
    };
    const z = model.intercept + model.unitScore * facts.unitScore +
      model.coverage * facts.coverage + model.inverseRank / facts.rank +
      model.margin * facts.margin;
    return { facts, right: next() < 1 / (1 + Math.exp(-z)) };
  });
}

Deno.test("fitConfidence() finds again the model its samples were drawn from", () => {
  const fitted = fitConfidence(drawn(CONFIDENCE_MODEL, 20_000, 7));
  for (const k of ["intercept", "unitScore", "coverage", "inverseRank", "margin"] as const) {
    assert.ok(
      Math.abs(fitted[k] - CONFIDENCE_MODEL[k]) < 0.5,
      `${k}: fitted ${fitted[k]}, drawn from ${CONFIDENCE_MODEL[k]}`,
    );
  }
  // Another model's samples give another model: nothing is hard-wired.
  const other = { intercept: 1, unitScore: -2, coverage: 0.5, inverseRank: 0, margin: 1 };
  const back = fitConfidence(drawn(other, 20_000, 11));
  assert.ok(Math.abs(back.unitScore - other.unitScore) < 0.3, `${back.unitScore}`);
  assert.ok(Math.abs(back.intercept - other.intercept) < 0.3, `${back.intercept}`);
});

Deno.test("fitConfidence() refuses hits all right or all wrong, naming how many", () => {
  const all = drawn(CONFIDENCE_MODEL, 50, 3).map((h) => ({ ...h, right: true }));
  assert.throws(() => fitConfidence(all), /50 hits of which 50 are right/);
  assert.throws(() => fitConfidence([]), /0 hits of which 0 are right/);
});

Deno.test("fitConfidence() keeps weights finite when one fact alone tells right from wrong", () => {
  const hits = drawn(CONFIDENCE_MODEL, 400, 5).map((h) => ({
    ...h,
    right: h.facts.coverage > 0.5,
  }));
  const m = fitConfidence(hits);
  assert.ok(Number.isFinite(m.coverage) && m.coverage > 10, `${m.coverage}`);
  assert.ok(confidence({ unitScore: 0.5, coverage: 0.9, rank: 3, margin: 0.1 }, m) > 0.9);
  assert.ok(confidence({ unitScore: 0.5, coverage: 0.1, rank: 3, margin: 0.1 }, m) < 0.1);
});
