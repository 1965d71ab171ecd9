/**
 * Maven (Surefire) and Gradle. Surefire marks each failing test
 * `[ERROR] pkg.Class.method -- Time elapsed … <<< FAILURE!` (older versions
 * `method(pkg.Class)  Time elapsed … <<< FAILURE!`) and sums up with
 * `Tests run: N, Failures: F, Errors: E, Skipped: S`. Gradle prints
 * `Class > method() FAILED` and `N tests completed, M failed`.
 */
import { type ParsedRun, unique } from "./types.ts";

export function parseMaven(out: string): ParsedRun | null {
  const totals = [
    ...out.matchAll(
      /^(?:\[\w+\] )?Tests run: (\d+), Failures: (\d+), Errors: (\d+)(?:, Skipped: (\d+))?\s*$/gm,
    ),
  ];
  const failed = [
    ...[...out.matchAll(/^\[ERROR\] (\S+?) -- Time elapsed.*<<< (?:FAILURE|ERROR)!/gm)].map((m) =>
      m[1]!
    ),
    ...[...out.matchAll(/^(\w+)\(([\w.$]+)\)\s+Time elapsed.*<<< (?:FAILURE|ERROR)!/gm)].map((m) =>
      `${m[2]}.${m[1]}`
    ),
  ];
  if (totals.length === 0 && failed.length === 0) return null;
  const last = totals[totals.length - 1];
  const run = last ? Number(last[1]) : null;
  const bad = last ? Number(last[2]) + Number(last[3]) : null;
  return {
    runner: "maven",
    failed: unique(failed),
    passed: run === null || bad === null ? null : run - bad - Number(last?.[4] ?? 0),
    failedCount: bad,
  };
}

export function parseGradle(out: string): ParsedRun | null {
  const failed = [...out.matchAll(/^(\S.*) FAILED$/gm)].map((m) => m[1]!)
    .filter((name) => / > ./.test(name.slice(1)));
  const total = /^(\d+) tests? completed, (\d+) failed/m.exec(out);
  const success = /^BUILD SUCCESSFUL/m.test(out) && /^> Task :\S*test\b/m.test(out);
  if (failed.length === 0 && !total && !success) return null;
  return {
    runner: "gradle",
    failed: unique(failed),
    passed: total ? Number(total[1]) - Number(total[2]) : null,
    failedCount: total ? Number(total[2]) : failed.length,
  };
}
