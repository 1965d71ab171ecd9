/**
 * `cargo test`: `test path::name ... FAILED` lines, a `failures:` list, and
 * `test result: FAILED. N passed; M failed;` per test binary.
 */
import { type ParsedRun, unique } from "./types.ts";

export function parseCargoTest(out: string): ParsedRun | null {
  const results = [...out.matchAll(/^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed;/gm)];
  const failed = [...out.matchAll(/^test (\S+) \.\.\. FAILED$/gm)].map((m) => m[1]!);
  if (results.length === 0 && failed.length === 0) return null;
  return {
    runner: "cargo test",
    failed: unique(failed),
    passed: results.length > 0 ? results.reduce((a, m) => a + Number(m[1]), 0) : null,
    failedCount: results.length > 0 ? results.reduce((a, m) => a + Number(m[2]), 0) : null,
  };
}
