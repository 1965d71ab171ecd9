/**
 * `deno test`: the ` FAILURES ` section lists `name => ./file.ts:3:6` (steps
 * as `parent ... step`), and the last line is `ok | N passed | M failed` or
 * `FAILED | N passed | M failed`.
 */
import { count, type ParsedRun, unique } from "./types.ts";

export function parseDenoTest(out: string): ParsedRun | null {
  const summary = /^(?:ok|FAILED) \| (\d+) passed(?: \([^)]*\))? \| (\d+) failed/m.exec(out);
  const section = out.split(/^ FAILURES $/m)[1];
  let failed: string[] = [];
  if (section !== undefined) {
    failed = [...section.matchAll(/^(.+?) => \S+:\d+:\d+$/gm)].map((m) => m[1]!);
  } else {
    failed = [...out.matchAll(/^[ \t]*(\S.*?) \.\.\. FAILED\b/gm)].map((m) => m[1]!);
  }
  if (!summary && failed.length === 0) return null;
  return {
    runner: "deno test",
    failed: unique(failed),
    passed: summary ? Number(summary[1]) : null,
    failedCount: summary ? count(summary[0], /(\d+) failed/) : null,
  };
}
