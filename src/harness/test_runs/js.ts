/**
 * Jest and Vitest. Jest marks each failure `● Suite › test` and sums up with
 * `Tests: N failed, M passed, T total`; Vitest prints `FAIL file > suite >
 * test` (or `× suite > test`) and `Tests  N failed | M passed (T)`.
 */
import { count, type ParsedRun, unique } from "./types.ts";

export function parseJest(out: string): ParsedRun | null {
  const tests = /^Tests:\s+(.*\d+ total)$/m.exec(out);
  const failed = [...out.matchAll(/^[ \t]*● (.+ › .+|[^\n]+?)[ \t]*$/gm)]
    .map((m) => m[1]!)
    .filter((n) => !/^Test suite failed to run/.test(n));
  return summarise("jest", tests, failed);
}

export function parseVitest(out: string): ParsedRun | null {
  const tests = /^[ \t]*Tests[ \t]+(.*\(\d+\))[ \t]*$/m.exec(out);
  let failed = [...out.matchAll(/^[ \t]*FAIL[ \t]+\S+ > (.+?)[ \t]*$/gm)].map((m) => m[1]!);
  if (failed.length === 0) {
    failed = [...out.matchAll(/^[ \t]*[×✗] (.+?)(?: \d+ms)?[ \t]*$/gm)].map((m) => m[1]!);
  }
  return summarise("vitest", tests, failed);
}

/**
 * The run both runners report the same way: nothing when there is neither a
 * summary line nor a failure, counts only when there is a summary line
 * (`null` otherwise; 0 when the line does not name them).
 */
function summarise(
  runner: string,
  tests: RegExpExecArray | null,
  failed: string[],
): ParsedRun | null {
  if (!tests && failed.length === 0) return null;
  const line = tests?.[1] ?? "";
  return {
    runner,
    failed: unique(failed),
    passed: tests ? count(line, /(\d+) passed/) ?? 0 : null,
    failedCount: tests ? count(line, /(\d+) failed/) ?? 0 : null,
  };
}
