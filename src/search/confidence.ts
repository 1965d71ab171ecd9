/**
 * Confidence (pure): the probability that a hit is a right answer — that the
 * symbol or section it names is the one asked for — from what search knows
 * of it: its best unit's score, the share of the query its own text covers,
 * its rank and its margin over the next candidate. A logistic model whose
 * coefficients were fitted (maximum likelihood) on the benchmark's tuning
 * half (`scripts/bench_search.ts` prints how often hits above each threshold
 * were right); the hooks inject only hits at or above
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

/** The fitted coefficients: intercept, unit score, coverage, 1 ÷ rank, margin. */
export const CONFIDENCE_MODEL = {
  intercept: -6.65,
  unitScore: 4.04,
  coverage: 2.3,
  inverseRank: 2.64,
  margin: 2.59,
} as const;

/**
 * The lowest confidence the prompt hook and session-start injection accept:
 * the lowest threshold, in hundredths (confidence is rounded so), at which
 * 80% of the benchmark's tuning-half hits at or above it name the right
 * function or paragraph, as `scripts/bench_search.ts` picks it. With the
 * phrase leg over prose (2026-12-05, at 68cdfb6): 80.3% of 132 there, and
 * 82.8% of 134 held out (`docs/performance.md`, Search).
 */
export const INJECT_CONFIDENCE = 0.69;

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
export function confidence(f: ConfidenceFacts): number {
  const m = CONFIDENCE_MODEL;
  const z = m.intercept + m.unitScore * f.unitScore + m.coverage * f.coverage +
    m.inverseRank / Math.max(1, f.rank) + m.margin * f.margin;
  return Math.round(100 / (1 + Math.exp(-z))) / 100;
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
