/**
 * Confidence (pure): the probability that a hit is a right answer — that the
 * symbol or section it names is the one asked for — from what search knows
 * of it: its best unit's score, the share of the query its own text covers,
 * its rank and its margin over the next candidate. A logistic model whose
 * coefficients were fitted (maximum likelihood, {@link fitConfidence}) on
 * the benchmark's tuning half (`scripts/bench_search.ts` refits it on each
 * run and prints how often hits above each threshold were right, with the
 * model in use and with the one refitted); the hooks inject only hits at or above
 * {@link INJECT_CONFIDENCE}, and those whose symbol the prompt names
 * ({@link namesSymbol}).
 */

import { wholeForm } from "../derive/words.ts";

/**
 * What confidence is computed from.
 *
 * @internal
 */
export interface ConfidenceFacts {
  /** The best unit's score in the second stage (0 when the file was not read). */
  unitScore: number;
  /** Share of the query's content words in the hit's own text (0–1). */
  coverage: number;
  /** 1-based rank among the hits. */
  rank: number;
  /** How far its score stands above the next candidate's, as a share of its own (0–1). */
  margin: number;
}

/** A logistic model of confidence: its intercept and the weight of each fact. */
export interface ConfidenceModel {
  /** The log-odds of a hit with every fact 0. */
  intercept: number;
  /** The weight of the best unit's score. */
  unitScore: number;
  /** The weight of the share of the query the hit's text covers. */
  coverage: number;
  /** The weight of 1 ÷ rank. */
  inverseRank: number;
  /** The weight of the margin over the next candidate. */
  margin: number;
}

/**
 * The fitted coefficients: {@link fitConfidence} on the benchmark's tuning
 * half, as `scripts/bench_search.ts` printed them at b7d8c70 (2026-12-06).
 */
export const CONFIDENCE_MODEL: Readonly<ConfidenceModel> = {
  intercept: -6.57,
  unitScore: 3.81,
  coverage: 2.24,
  inverseRank: 2.58,
  margin: 2.82,
};

/**
 * The lowest confidence the prompt hook and session-start injection accept:
 * the lowest threshold, in hundredths (confidence is rounded so), at which
 * 80% of the benchmark's tuning-half hits at or above it name the right
 * function or paragraph, as `scripts/bench_search.ts` picks it. On its
 * 2,600 code questions (2026-12-08, at 991760a): 80.0% of 10 there, and
 * 92.9% of 14 held out; 0.78, picked on 600, was 72.1% right of 179
 * (`docs/performance.md`, Search).
 */
export const INJECT_CONFIDENCE = 0.93;

/**
 * A hit's confidence in [0, 1], rounded to two decimals.
 *
 * @example
 * ```ts
 * import { confidence } from "./confidence.ts";
 * import assert from "node:assert/strict";
 * const strong = confidence({ unitScore: 0.8, coverage: 1, rank: 1, margin: 0.4 });
 * const weak = confidence({ unitScore: 0.1, coverage: 0.25, rank: 7, margin: 0 });
 * assert.ok(strong > weak);
 * ```
 */
export function confidence(f: ConfidenceFacts, m: ConfidenceModel = CONFIDENCE_MODEL): number {
  const z = dot(weightsOf(m), featuresOf(f));
  return Math.round(100 / (1 + Math.exp(-z))) / 100;
}

/** A hit's facts and whether it was a right answer: what {@link fitConfidence} learns from. */
export interface JudgedFacts {
  /** What its confidence was computed from. */
  facts: ConfidenceFacts;
  /** True when it named the right function or paragraph. */
  right: boolean;
}

/**
 * The model of maximum likelihood for hits judged right or wrong (pure):
 * Newton's method on the logistic log-likelihood, from all weights 0, with
 * a ridge of {@link RIDGE} on the weights (not the intercept) so that a
 * fact that alone tells the samples apart keeps a finite weight. How
 * `scripts/bench_search.ts` refits {@link CONFIDENCE_MODEL} on its tuning
 * half. Throws when `samples` has no right or no wrong hit: no model is
 * fitted from one kind.
 *
 * @example
 * ```ts
 * import { confidence, fitConfidence } from "./confidence.ts";
 * import assert from "node:assert/strict";
 * const hit = (unitScore: number, right: boolean) => ({
 *   facts: { unitScore, coverage: 1, rank: 1, margin: 0 },
 *   right,
 * });
 * const m = fitConfidence([hit(0.9, true), hit(0.8, true), hit(0.7, false), hit(0.2, false), hit(0.3, true), hit(0.1, false)]);
 * assert.ok(confidence({ unitScore: 0.9, coverage: 1, rank: 1, margin: 0 }, m) > 0.5);
 * ```
 */
export function fitConfidence(samples: readonly JudgedFacts[]): ConfidenceModel {
  const right = samples.filter((s) => s.right).length;
  if (right === 0 || right === samples.length) {
    throw new RangeError(
      `cannot fit confidence on ${samples.length} hits of which ${right} are right: both kinds are needed`,
    );
  }
  const xs = samples.map((s) => featuresOf(s.facts));
  const k = xs[0]!.length;
  const w = new Array<number>(k).fill(0);
  for (let round = 0; round < 100; round++) {
    // Gradient and Hessian of the penalised log-likelihood.
    const g = w.map((wi, i) => (i === 0 ? 0 : -RIDGE * wi));
    const h = Array.from(
      { length: k },
      (_, i) => Array.from({ length: k }, (_, c) => (i === c && i > 0 ? -RIDGE : 0)),
    );
    samples.forEach((s, n) => {
      const x = xs[n]!;
      const p = 1 / (1 + Math.exp(-dot(w, x)));
      for (let i = 0; i < k; i++) {
        g[i]! += ((s.right ? 1 : 0) - p) * x[i]!;
        for (let c = 0; c < k; c++) h[i]![c]! -= p * (1 - p) * x[i]! * x[c]!;
      }
    });
    const step = solve(h, g);
    let moved = 0;
    for (let i = 0; i < k; i++) {
      w[i]! -= step[i]!;
      moved = Math.max(moved, Math.abs(step[i]!));
    }
    if (moved < 1e-9) break;
  }
  const [intercept, unitScore, coverage, inverseRank, margin] = w as [
    number,
    number,
    number,
    number,
    number,
  ];
  return { intercept, unitScore, coverage, inverseRank, margin };
}

/** The ridge {@link fitConfidence} puts on each weight: small against thousands of hits. */
const RIDGE = 1e-3;

/** A hit's facts as the model reads them: 1 (for the intercept), unit score, coverage, 1 ÷ rank, margin. */
function featuresOf(f: ConfidenceFacts): number[] {
  return [1, f.unitScore, f.coverage, 1 / Math.max(1, f.rank), f.margin];
}

/** A model's weights in {@link featuresOf}'s order. */
function weightsOf(m: ConfidenceModel): number[] {
  return [m.intercept, m.unitScore, m.coverage, m.inverseRank, m.margin];
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** `x` with `a·x = b`, by Gaussian elimination with partial pivoting (a small dense system). */
function solve(a: readonly (readonly number[])[], b: readonly number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) {
      if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    }
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = col + 1; r < n; r++) {
      const f = m[r]![col]! / m[col]![col]!;
      for (let c = col; c <= n; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let c = r + 1; c < n; c++) s -= m[r]![c]! * x[c]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}

/**
 * True when a query names a hit's symbol as an identifier: the whole form of
 * the symbol's last part (`compute_total`, `parseHeader`) is one of the
 * query's identifiers. A one-word name does not count: it is also a plain
 * word. Not part of the confidence: a prompt that names `compute_total`
 * wants to see it, but on the benchmark a question naming one function is
 * most often about another (its caller, its twin).
 */
export function namesSymbol(wholes: readonly string[], symbol: string | null): boolean {
  if (symbol === null) return false;
  const whole = wholeForm(symbol.split(/\.|::|#| > /).at(-1) ?? "");
  return whole !== undefined && wholes.includes(whole);
}
