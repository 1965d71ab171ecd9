/**
 * RSpec: `N examples, M failures` and, under `Failed examples:`, one
 * `rspec ./spec/x_spec.rb:9 # Description of the example` line per failure.
 */
import { type ParsedRun, unique } from "./types.ts";

export function parseRspec(out: string): ParsedRun | null {
  const totals = /^(\d+) examples?, (\d+) failures?/m.exec(out);
  const failed = [...out.matchAll(/^rspec \S+ # (.+)$/gm)].map((m) => m[1]!);
  if (!totals && failed.length === 0) return null;
  return {
    runner: "rspec",
    failed: unique(failed),
    passed: totals ? Number(totals[1]) - Number(totals[2]) : null,
    failedCount: totals ? Number(totals[2]) : failed.length,
  };
}
