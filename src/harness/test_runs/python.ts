/**
 * pytest and unittest. pytest's short summary lists `FAILED file::test - msg`
 * and `ERROR file::test`; its last line counts `N failed, M passed`. unittest
 * prints `FAIL: test_x (module.Class.test_x)` blocks and `Ran N tests`.
 */
import { count, type ParsedRun, unique } from "./types.ts";

export function parsePytest(out: string): ParsedRun | null {
  const failed = [...out.matchAll(/^(?:FAILED|ERROR) (\S+::\S+|\S+\.py)(?: - .*)?$/gm)].map((m) =>
    m[1]!
  );
  const hasSummary =
    /^=*[ \t]*(?:\d+ (?:failed|passed|errors?|skipped|xfailed|xpassed|warnings?|deselected)(?:, )?)+ in [\d.]+s/m
      .test(out);
  if (!hasSummary && failed.length === 0) return null;
  // A line that says how long the run took: the counts above it are the run's.
  const timed = /\bin [\d.]+s\b/.test(out);
  return {
    runner: "pytest",
    failed: unique(failed),
    passed: count(out, /(\d+) passed/),
    failedCount: timed
      ? (count(out, /(\d+) failed/) ?? 0) + (count(out, /(\d+) errors?\b/) ?? 0)
      : null,
  };
}

export function parseUnittest(out: string): ParsedRun | null {
  const ran = count(out, /^Ran (\d+) tests? in/m);
  const failed = [...out.matchAll(/^(?:FAIL|ERROR): (\S+) \(([^)]+)\)/gm)].map((m) =>
    m[2]!.endsWith(m[1]!) ? m[2]! : `${m[2]}.${m[1]}`
  );
  if (ran === null && failed.length === 0) return null;
  const failures = (count(out, /failures=(\d+)/) ?? 0) + (count(out, /errors=(\d+)/) ?? 0);
  return {
    runner: "unittest",
    failed: unique(failed),
    passed: ran === null ? null : ran - failures,
    failedCount: ran === null ? null : failures,
  };
}
