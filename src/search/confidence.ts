/**
 * Confidence (pure): the probability that a hit is a right answer — that the
 * symbol or section it names is the one asked for — from what search knows
 * of it: its best unit's score, the share of the query its own text covers,
 * and its rank. A logistic model whose coefficients were fitted on the
 * benchmark's tuning half (`scripts/bench_search.ts`), so that a confidence
 * of 0.8 is right about 80% of the time there; the hooks inject only hits at
 * or above {@link INJECT_CONFIDENCE}.
 */

/** What confidence is computed from. */
export interface ConfidenceFacts {
  /** The best unit's score in the second stage (0 when the file was not read). */
  unitScore: number;
  /** Share of the query's content words in the hit's own text (0–1). */
  coverage: number;
  /** 1-based rank among the hits. */
  rank: number;
  /** How far its score stands above the next candidate's, as a share of its own (0–1). */
  margin: number;
  /** The query names the hit's symbol as an identifier (`compute_total`). */
  named: boolean;
}

/** The fitted coefficients: intercept, unit score, coverage, 1 ÷ rank, margin. */
export const CONFIDENCE_MODEL = {
  intercept: -7.32,
  unitScore: 1.15,
  coverage: 2.5,
  inverseRank: 4.25,
  margin: 1.51,
} as const;

/**
 * A hit whose symbol the query names as an identifier is taken to be what
 * was asked for: the benchmark's questions are prose and never name one, so
 * this is a rule, not a fit.
 */
export const NAMED_CONFIDENCE = 0.9;

/**
 * The lowest confidence the prompt hook and session-start injection accept:
 * on the benchmark's tuning half, at least 80% of the hits at or above it
 * name the right function or paragraph (README, Search figures).
 */
export const INJECT_CONFIDENCE = 0.6;

/**
 * A hit's confidence in [0, 1], rounded to two decimals.
 *
 * @example
 * ```ts
 * import { confidence } from "./confidence.ts";
 * import assert from "node:assert/strict";
 * const strong = confidence({ unitScore: 0.8, coverage: 1, rank: 1, margin: 0.4, named: false });
 * const weak = confidence({ unitScore: 0.1, coverage: 0.25, rank: 7, margin: 0, named: false });
 * assert.ok(strong > weak);
 * ```
 */
export function confidence(f: ConfidenceFacts): number {
  const m = CONFIDENCE_MODEL;
  const z = m.intercept + m.unitScore * f.unitScore + m.coverage * f.coverage +
    m.inverseRank / Math.max(1, f.rank) + m.margin * f.margin;
  const p = Math.round(100 / (1 + Math.exp(-z))) / 100;
  return f.named ? Math.max(p, NAMED_CONFIDENCE) : p;
}
