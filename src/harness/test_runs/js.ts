/**
 * Jest and Vitest. Jest marks each failure `● Suite › test` and sums up with
 * `Tests: N failed, M passed, T total`; Vitest prints `FAIL file > suite >
 * test` (or `× suite > test`) and `Tests  N failed | M passed (T)`.
 */
import { count, type ParsedRun, unique } from "./types.ts";

export function parseJest(out: string): ParsedRun | null {
  const tests = /^Tests:\s+(.*\d+ total)$/m.exec(out);
  const failed = [...out.matchAll(/^\s*● (.+ › .+|[^\n]+?)\s*$/gm)]
    .map((m) => m[1]!)
    .filter((n) => !/^Test suite failed to run/.test(n));
  if (!tests && failed.length === 0) return null;
  const line = tests?.[1] ?? "";
  return {
    runner: "jest",
    failed: unique(failed),
    passed: tests ? count(line, /(\d+) passed/) ?? 0 : null,
    failedCount: tests ? count(line, /(\d+) failed/) ?? 0 : null,
  };
}

export function parseVitest(out: string): ParsedRun | null {
  const tests = /^\s*Tests\s+(.*\(\d+\))\s*$/m.exec(out);
  let failed = [...out.matchAll(/^\s*FAIL\s+\S+ > (.+?)\s*$/gm)].map((m) => m[1]!);
  if (failed.length === 0) {
    failed = [...out.matchAll(/^\s*[×✗] (.+?)(?: \d+ms)?\s*$/gm)].map((m) => m[1]!);
  }
  if (!tests && failed.length === 0) return null;
  const line = tests?.[1] ?? "";
  return {
    runner: "vitest",
    failed: unique(failed),
    passed: tests ? count(line, /(\d+) passed/) ?? 0 : null,
    failedCount: tests ? count(line, /(\d+) failed/) ?? 0 : null,
  };
}
