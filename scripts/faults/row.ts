/**
 * One figure of the fault-injection suite (`scripts/bench_faults.ts`): what
 * was tried, what happened and the bar it is held to. Each `scripts/faults/*`
 * module exports `run(): Promise<FaultRow[]>`; the suite prints them as one table.
 */
export interface FaultRow {
  /** What was measured, e.g. "secrets planted and found in the journal". */
  figure: string;
  /** The measured value, already formatted ("0 of 31", "p95 212 ms"). */
  value: string;
  /** The bar it is held to ("0", "≤ 300 ms"). */
  target: string;
  /** Whether `value` meets `target`. */
  met: boolean;
}
