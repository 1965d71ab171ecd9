/** What a test runner's output says, parsed (pure). */
export interface ParsedRun {
  /** `pytest`, `jest`, `go test`… */
  runner: string;
  /** Names of the failing tests, as the runner prints them (deduplicated, in order). */
  failed: string[];
  /** Counts from the runner's summary line, when it printed one. */
  passed: number | null;
  failedCount: number | null;
}

/** A parser returns null when the output carries none of its runner's marks. */
export type RunParser = (output: string) => ParsedRun | null;

/** Keeps the first occurrence of each name. */
export function unique(names: string[]): string[] {
  return [...new Set(names.map((n) => n.trim()).filter((n) => n !== ""))];
}

/** A whole number captured by `re` in `text`, or null. */
export function count(text: string, re: RegExp): number | null {
  const m = re.exec(text);
  return m ? Number(m[1]) : null;
}
