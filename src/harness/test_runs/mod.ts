/**
 * Test runs seen through a harness: is this shell command a test command, and
 * what did its output say (pure)? One parser per runner family; the runner
 * named on the command line is tried first, then every other parser, so
 * `npm test` or `make check` is read by whichever runner actually printed.
 */
import { parseCargoTest } from "./cargo.ts";
import { parseDenoTest } from "./deno.ts";
import { parseGoTest } from "./go.ts";
import { parseJest, parseVitest } from "./js.ts";
import { parseGradle, parseMaven } from "./jvm.ts";
import { parsePytest, parseUnittest } from "./python.ts";
import { parseRspec } from "./rspec.ts";
import type { ParsedRun, RunParser } from "./types.ts";

export type { ParsedRun } from "./types.ts";

/** A test command's result. */
export interface TestRun extends ParsedRun {
  command: string;
  /** From the exit status when known, else from the runner's own summary. */
  outcome: "pass" | "fail" | "unknown";
}

const RUNNERS: { command: RegExp; parse: RunParser }[] = [
  { command: /\b(?:py\.?test)\b|\bpython[\d.]*\s+-m\s+pytest\b/, parse: parsePytest },
  { command: /\bpython[\d.]*\s+-m\s+unittest\b|\bmanage\.py\s+test\b/, parse: parseUnittest },
  { command: /\bjest\b/, parse: parseJest },
  { command: /\bvitest\b/, parse: parseVitest },
  { command: /\bgo\s+test\b/, parse: parseGoTest },
  { command: /\bcargo\s+(?:\+\S+\s+)?(?:test|nextest)\b/, parse: parseCargoTest },
  { command: /\bdeno\s+(?:test|task\s+\S*test\S*)\b/, parse: parseDenoTest },
  { command: /\b(?:mvnw?)\b.*\b(?:test|verify|install|package)\b/, parse: parseMaven },
  { command: /\bgradlew?\b.*\b(?:test|check|build)\b/, parse: parseGradle },
  { command: /\brspec\b/, parse: parseRspec },
];

const GENERIC =
  /\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test\b|\bnpx\s+\S*test\b|\bmake\s+(?:test|check)\b|\b(?:tox|nox|ctest)\b/;

/** True when a shell command line runs tests (pytest, jest, go test, cargo test, `npm test`…). */
export function isTestCommand(command: string): boolean {
  return GENERIC.test(command) || RUNNERS.some((r) => r.command.test(command));
}

// deno-lint-ignore no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/**
 * Reads a test command's output. Returns null when `command` is not a test
 * command. `exitCode`/`ok` come from the harness when it reports them; a
 * failure count in the runner's summary overrides a missing or zero status.
 */
export function parseTestRun(
  command: string,
  output: string,
  exitCode: number | null,
  ok: boolean | null,
): TestRun | null {
  if (!isTestCommand(command)) return null;
  const text = output.replace(ANSI, "").replace(/\r\n/g, "\n");
  const named = RUNNERS.filter((r) => r.command.test(command));
  const order = [...named, ...RUNNERS.filter((r) => !named.includes(r))];
  let parsed: ParsedRun | null = null;
  for (const r of order) {
    parsed = r.parse(text);
    if (parsed) break;
  }
  const run: ParsedRun = parsed ??
    { runner: "unknown", failed: [], passed: null, failedCount: null };
  let outcome: TestRun["outcome"] = "unknown";
  if (exitCode !== null) outcome = exitCode === 0 ? "pass" : "fail";
  else if (ok !== null) outcome = ok ? "pass" : "fail";
  if (run.failed.length > 0 || (run.failedCount ?? 0) > 0) outcome = "fail";
  else if (outcome === "unknown" && parsed && run.failedCount === 0) outcome = "pass";
  return { ...run, command, outcome };
}
