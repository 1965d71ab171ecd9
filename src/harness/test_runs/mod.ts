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

/**
 * A command that names a test runner without running it: reading or
 * searching a file (`cat pytest.ini`, `grep -rn jest .`), finding or
 * installing the runner (`which pytest`, `pip install pytest-cov`, `npm i -D
 * vitest`), a commit message, an echo. Its exit status says nothing about
 * any test.
 */
const NOT_A_RUN = new RegExp(
  "^(?:" + [
    String
      .raw`cat|bat|less|more|head|tail|grep|egrep|fgrep|zgrep|rg|ag|ack|wc|sort|uniq|diff|file|stat`,
    String.raw`which|whereis|type|echo|printf|ls|tree|find|fd|sed|awk|jq|yq|cut|tr`,
    String.raw`touch|mkdir|rm|rmdir|cp|mv|ln|chmod|chown|vi|vim|nvim|nano|emacs|code|open|man|git`,
    String
      .raw`curl|wget|pip\d*(?:\.\d+)?|pipx|brew|apt|apt-get|dnf|yum|pacman|conda|mamba|micromamba`,
    String.raw`(?:python[\d.]*\s+-m\s+pip)`,
    String
      .raw`(?:npm|pnpm|yarn|bun)\s+(?:install|i|ci|add|remove|rm|uninstall|un|update|up|upgrade|outdated|ls|list|view|info|why)`,
    String.raw`(?:uv|poetry|pdm|rye|hatch)\s+(?:add|remove|lock|sync|install|pip|tool|show)`,
    String.raw`cargo\s+(?:add|install|search|remove)|go\s+(?:get|install|mod|doc)|gem\s+install`,
  ].join("|") + String.raw`)(?=\s|$)`,
);

/** Leading `VAR=value` assignments and `sudo`/`time`/`env`/`nice`/`command`, which run what follows. */
const PREFIX = /^(?:(?:[A-Za-z_]\w*=\S*|sudo|time|env|nice|command|exec)\s+)+/;

/** Where one simple command ends and the next begins (`&&`, `||`, `;`, `|`, `&`, a newline, `(`, `)`, a backtick). */
const OPERATORS = [";", "&", "|", "\n", "(", ")", "`"];
/** How far back from a runner's name its simple command's start is looked for. */
const COMMAND_REACH = 4096;
/** Runner names looked at in one command line (an agent's heredoc can be megabytes). */
const MOST_NAMES = 64;

/**
 * True when a shell command line runs tests (pytest, jest, go test, cargo
 * test, `npm test`…): a runner is named in it, and the simple command it is
 * named in (from the operator before it) does not only read, find or
 * install it (`cat pytest.ini`, `which pytest`, `pip install pytest-cov`).
 * Costs a scan of the line per runner pattern, and a look back from each of
 * its first {@link MOST_NAMES} runner names.
 *
 * @example
 * ```ts
 * import { isTestCommand } from "./mod.ts";
 * import assert from "node:assert/strict";
 * assert.equal(isTestCommand("cd api && CI=1 pytest -q | tail -5"), true);
 * assert.equal(isTestCommand("cat pytest.ini"), false);
 * ```
 */
export function isTestCommand(command: string): boolean {
  let looked = 0;
  for (const pattern of [GENERIC, ...RUNNERS.map((r) => r.command)]) {
    const named = new RegExp(pattern.source, "g");
    for (let m = named.exec(command); m !== null; m = named.exec(command)) {
      if (++looked > MOST_NAMES) return false;
      const from = Math.max(0, m.index - COMMAND_REACH);
      const before = command.slice(from, m.index);
      const start = Math.max(0, ...OPERATORS.map((o) => before.lastIndexOf(o) + 1));
      const simple = (before.slice(start) + m[0]).trim().replace(PREFIX, "");
      if (!NOT_A_RUN.test(simple)) return true;
      if (named.lastIndex === m.index) named.lastIndex++;
    }
  }
  return false;
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
