/**
 * Table tests of pure functions: rows of an input and the output wanted, run
 * through one loop. Outputs are compared with `assert.deepEqual` (strict),
 * which for a string, number or boolean is `assert.equal`.
 */
import assert from "node:assert/strict";

/** Asserts `fn(input)` equals `want` for each row `[input, want]`; a failing row is named by its input. */
export function assertCases<I, O>(fn: (input: I) => O, cases: readonly (readonly [I, O])[]): void {
  for (const [input, want] of cases) assert.deepEqual(fn(input), want, String(input));
}

/** Asserts `fn(input)` equals `want` for each row `[what, input, want]`; a failing row is named by `what`. */
export function assertNamedCases<I, O>(
  fn: (input: I) => O,
  cases: readonly (readonly [string, I, O])[],
): void {
  for (const [what, input, want] of cases) assert.deepEqual(fn(input), want, what);
}
