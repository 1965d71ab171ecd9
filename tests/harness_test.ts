/**
 * Harness integration (each harness's payloads against its description are
 * tested beside it, in src/harness/harnesses/harnesses_test.ts): tool calls
 * classified; test-runner output parsed; the token budget against real
 * tokenizers; `heimdall init` config writers against temporary HOME folders;
 * `heimdall hook` failing open; every harness's fixtures through the real
 * `heimdall hook` on an indexed repository with a running daemon; and hooks
 * on two machines sharing a real PostgreSQL (see tests/team_fixture.ts for
 * where the server comes from).
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { encode as cl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { encode as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { parseEvent } from "../src/harness/engine.ts";
import { estimateTokens, fitContext } from "../src/harness/budget.ts";
import { HARNESSES, type HarnessName, harnessSpec } from "../src/harness/harnesses/mod.ts";
import { GUARD_STREAK, type LookUp, stepGuard } from "../src/harness/grep_guard.ts";
import { parsePatch } from "../src/hints/mod.ts";
import { answerHook, type HookRequest } from "../src/harness/hook_run.ts";
import { editsByFile, MAX_EDITS_PER_FILE, MAX_TEST_RUNS } from "../src/harness/handler.ts";
import { readSession, sessionFile, type SessionState } from "../src/harness/session.ts";
import { parseTestRun } from "../src/harness/test_runs/mod.ts";
import { isSearchCommand, lookUpOf, toolCall } from "../src/harness/tools.ts";
import { homePaths } from "../src/config/mod.ts";
import { Journal } from "../src/store/mod.ts";
import { exists, readTextOrNull } from "../src/files/mod.ts";
import { selfArgv } from "../src/harness/install/command.ts";
import {
  detectHarnesses,
  onPath,
  type PathRules,
  pathRules,
} from "../src/harness/install/detect.ts";
import {
  cli,
  copyDir,
  type DaemonProcess,
  denoDir,
  MAIN,
  PERMS,
  removeTree,
  startDaemon,
  tempDir,
  waitFor,
} from "./helpers.ts";
import { fixture, FIXTURES, payloadText } from "./harness_fixtures.ts";
import {
  freshDatabase,
  heimdall,
  heimdallJson,
  machine,
  noPostgres,
  pgServer,
  sql,
} from "./team_fixture.ts";

/**
 * Runs `heimdall hook` the way a harness does: the command `heimdall init`
 * writes (the hook's own entry module, the installed permissions).
 */
async function hookCli(
  home: string,
  args: string[],
  options: { stdin: string; cwd?: string; env?: Record<string, string> },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const argv = selfArgv("hook");
  const child = new Deno.Command(argv[0]!, {
    args: [...argv.slice(1), "hook", ...args],
    // These tests check what a hook says, not how soon: on a loaded machine the
    // warm server's 300 ms would drop answers (tests/hook_faults_test.ts holds the bound).
    env: {
      HEIMDALL_HOME: home,
      DENO_NO_UPDATE_CHECK: "1",
      HEIMDALL_HOOK_WAIT_MS: "10000",
      ...options.env,
    },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    ...(options.cwd ? { cwd: options.cwd } : {}),
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(options.stdin));
  await w.close();
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

// ---------------------------------------------------------------- tools, guard, patch

Deno.test("tool names and shell commands are classified", () => {
  const cases: [string, unknown, string][] = [
    ["Edit", { file_path: "a.ts", old_string: "x", new_string: "y" }, "edit"],
    ["MultiEdit", { file_path: "a.ts", edits: [{ old_string: "x", new_string: "y" }] }, "edit"],
    ["Write", { file_path: "a.ts", content: "x" }, "write"],
    ["fs_write", { command: "create", path: "a.ts", file_text: "x" }, "write"],
    ["fs_write", { command: "str_replace", path: "a.ts", old_str: "x", new_str: "y" }, "edit"],
    ["replace", { file_path: "a.ts", old_string: "x", new_string: "y" }, "edit"],
    ["apply_patch", { command: "*** Begin Patch\n*** Add File: b.ts\n+x\n*** End Patch" }, "patch"],
    ["Bash", { command: "ls" }, "shell"],
    ["run_shell_command", { command: "ls" }, "shell"],
    ["execute_bash", { command: "ls" }, "shell"],
    ["Grep", { pattern: "x" }, "search"],
    ["mcp__heimdall__search", { query: "x" }, "other"],
  ];
  for (const [name, input, kind] of cases) {
    const t = toolCall(name, input, "/w");
    assert.equal(t.kind, kind, name);
    if (kind === "edit" || kind === "write" || kind === "patch") {
      assert.ok(t.edits[0]!.path.startsWith("/w/"), name);
    }
  }
  assert.equal(
    toolCall("Bash", { command: ["bash", "-lc", "pytest -q"] }, "/").command,
    "pytest -q",
  );
  for (
    const c of [
      "grep -rn foo .",
      "rg foo",
      "cd src && ls -la",
      "FOO=1 find . -name x",
      "git grep foo",
      "sudo fd x",
    ]
  ) {
    assert.ok(isSearchCommand(c), c);
  }
  for (const c of ["pytest -q", "git status", "cat a | grep x", "npm test", "echo ls"]) {
    assert.ok(!isSearchCommand(c), c);
  }
});

Deno.test("the grep guard counts look-ups since the last Heimdall search; reads leave the count alone", () => {
  let state = { streak: 0, reminded: false };
  const seq: LookUp[] = [
    "grep",
    "other", // a Read or a cat: not a search, and not a Heimdall one either
    "grep",
    "grep", // third: remind
    "grep",
    "other",
    "grep", // no second reminder for the same count
    "heimdall", // a Heimdall search starts the count again
    "grep",
    "grep",
    "grep", // third since: remind
  ];
  const reminders: number[] = [];
  seq.forEach((call, i) => {
    const step = stepGuard(state, call);
    state = step.state;
    if (step.remind) reminders.push(i);
  });
  assert.deepEqual(reminders, [3, 10]);
  assert.equal(GUARD_STREAK, 3);
});

Deno.test("a Heimdall search is told apart from other calls, whatever the harness names it", () => {
  const shell = (command: string) => ({ name: "Bash", kind: "shell" as const, edits: [], command });
  const tool = (name: string) => ({ name, kind: "other" as const, edits: [], command: null });
  assert.equal(lookUpOf(shell('heimdall search "retry with backoff"')), "heimdall");
  assert.equal(lookUpOf(shell("cd shop && deno task heimdall search retry")), "heimdall");
  assert.equal(lookUpOf(shell("/usr/local/bin/heimdall --debug search x --json")), "heimdall");
  assert.equal(lookUpOf(tool("mcp__heimdall__search")), "heimdall");
  assert.equal(lookUpOf(tool("heimdall.search")), "heimdall");
  assert.equal(lookUpOf(shell("rg compute_total")), "grep");
  assert.equal(lookUpOf(shell("cat pkg/billing.py")), "other");
  assert.equal(lookUpOf(shell("heimdall status")), "other");
  assert.equal(lookUpOf(tool("Read")), "other");
});

Deno.test("a tool call's edits are located in at most 5 files and 64 edits a file, however many it sends", () => {
  // 20,000 edits of one file (a runaway MultiEdit): each would be searched for in the
  // whole file, holding the warm server, and every session's hooks, for seconds.
  const edits = Array.from({ length: 20_000 }, (_, i) => ({
    path: i % 1000 === 999 ? `/r/other${i}.ts` : "/r/big.ts",
    oldText: `zzzz ${i}`,
    newText: "y",
  }));
  const located = editsByFile(edits);
  assert.deepEqual([...located.keys()], [
    "/r/big.ts",
    "/r/other999.ts",
    "/r/other1999.ts",
    "/r/other2999.ts",
    "/r/other3999.ts",
  ]);
  assert.equal(located.get("/r/big.ts")!.length, MAX_EDITS_PER_FILE);
  assert.deepEqual(
    located.get("/r/big.ts")!.slice(0, 2),
    edits.slice(0, 2),
    "the first ones, in order",
  );
  // After the edit every file is hinted, each with its first edits.
  const all = editsByFile(edits, Infinity);
  assert.equal(all.size, 21);
  assert.ok([...all.values()].every((e) => e.length <= MAX_EDITS_PER_FILE));
});

Deno.test("apply_patch bodies parse into per-file edits", () => {
  const files = parsePatch([
    "*** Begin Patch",
    "*** Update File: src/a.ts",
    "@@ function f",
    " const x = 1;",
    "-return x;",
    "+return x + 1;",
    "*** Add File: src/b.ts",
    "+export const b = 1;",
    "*** Delete File: src/c.ts",
    "*** Update File: src/d.ts",
    "*** Move to: src/e.ts",
    "@@",
    "-a",
    "+b",
    "*** End Patch",
  ].join("\n"));
  assert.deepEqual(files.map((f) => [f.path, f.op, f.moveTo]), [
    ["src/a.ts", "update", null],
    ["src/b.ts", "add", null],
    ["src/c.ts", "delete", null],
    ["src/d.ts", "update", "src/e.ts"],
  ]);
  assert.equal(files[0]!.oldText, "const x = 1;\nreturn x;");
  assert.equal(files[0]!.newText, "const x = 1;\nreturn x + 1;");
  assert.equal(files[1]!.newText, "export const b = 1;");
});

// ---------------------------------------------------------------- test runners

Deno.test("test runners' output is parsed: outcome and failing test names", () => {
  const dir = join(FIXTURES, "test_output");
  const cases: Record<string, [string, string, string, string[]]> = {
    "pytest_fail.txt": ["pytest", "pytest", "fail", [
      "test_calc.py::test_add_negative",
      "test_calc.py::TestGroup::test_inner",
    ]],
    "pytest_fail_quiet.txt": ["pytest -q", "pytest", "fail", [
      "test_calc.py::test_add_negative",
      "test_calc.py::TestGroup::test_inner",
    ]],
    "pytest_pass.txt": ["python -m pytest", "pytest", "pass", []],
    "unittest_fail.txt": ["python3 -m unittest", "unittest", "fail", [
      "test_calc.CalcTest.test_divide",
      "test_calc.CalcTest.test_sub",
    ]],
    "jest_fail.txt": ["npx jest", "jest", "fail", [
      "calc › adds negatives",
      "calc › nested › works deeply",
    ]],
    "jest_pass.txt": ["npm test", "jest", "pass", []],
    "vitest_fail.txt": ["pnpm vitest run", "vitest", "fail", [
      "calc > adds negatives",
      "calc > nested > works deeply",
    ]],
    "vitest_pass.txt": ["npx vitest run", "vitest", "pass", []],
    "go_fail.txt": ["go test ./...", "go test", "fail", ["TestAdd", "TestTable/negative_numbers"]],
    "go_verbose_fail.txt": ["go test -v ./...", "go test", "fail", ["TestDivide"]],
    "go_pass.txt": ["go test ./...", "go test", "pass", []],
    "cargo_fail.txt": ["cargo test", "cargo test", "fail", [
      "tests::it_fails",
      "tests::another_failure",
    ]],
    "cargo_pass.txt": ["cargo test --all", "cargo test", "pass", []],
    "deno_fail.txt": ["deno test -A", "deno test", "fail", [
      "subtracts numbers",
      "group ... inner step fails",
    ]],
    "deno_pass.txt": ["deno task test", "deno test", "pass", []],
    "maven_fail.txt": ["mvn -q test", "maven", "fail", [
      "com.example.CalculatorTest.testSubtract",
      "com.example.CalculatorTest.testDivide",
    ]],
    "maven_pass.txt": ["./mvnw verify", "maven", "pass", []],
    "gradle_fail.txt": ["./gradlew test", "gradle", "fail", [
      "CalculatorTest > testSubtract()",
      "CalculatorTest > Nested > handlesOverflow()",
    ]],
    "gradle_pass.txt": ["gradle test", "gradle", "pass", []],
    "rspec_fail.txt": ["bundle exec rspec", "rspec", "fail", ["Calculator#add handles negatives"]],
    "rspec_pass.txt": ["rspec spec/", "rspec", "pass", []],
  };
  const files = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  assert.deepEqual(files, Object.keys(cases).sort(), "every output fixture has a case");
  for (const [file, [command, runner, outcome, failed]] of Object.entries(cases)) {
    const out = Deno.readTextFileSync(join(dir, file));
    const run = parseTestRun(command, out, null, null);
    assert.ok(run, file);
    assert.equal(run.runner, runner, file);
    assert.equal(run.outcome, outcome, file);
    assert.deepEqual(run.failed, failed, file);
    // An exit status, when the harness gives one, decides a run with no failures parsed.
    if (outcome === "pass") {
      assert.equal(parseTestRun(command, out, 1, false)!.outcome, "fail", file);
    }
    // A runner found by its output when the command does not name it.
    assert.equal(
      parseTestRun("make test", out, null, null)!.runner,
      runner,
      `${file} via make test`,
    );
  }
  assert.equal(parseTestRun("ls -la", "3 passed", 0, true), null, "not a test command");
  assert.equal(parseTestRun("npm test", "weird output", 2, false)!.outcome, "fail");
});

Deno.test("a command that only reads, finds or installs a test runner is no test run; one that runs it among others is", () => {
  // Each exits 0 (or 1) with no test output: read as a run, it was a passed attempt that
  // resolved the session's open failure (or a failure with no failing test).
  for (
    const command of [
      "cat pytest.ini",
      "cat jest.config.js",
      "head -5 vitest.config.ts",
      "sed -n 1,20p pytest.ini",
      "cat gradle/build.gradle",
      "which pytest",
      "grep -rn pytest setup.cfg",
      "rg jest src",
      "pip install pytest-cov",
      "python -m pip install -U pytest",
      "npm install --save-dev jest",
      "npm i -D vitest",
      "yarn add -D jest",
      "uv add --dev pytest",
      "poetry add pytest",
      'git commit -m "make pytest pass"',
      "echo run pytest",
      "ls node_modules/.bin/jest",
    ]
  ) {
    assert.equal(parseTestRun(command, "[pytest]\naddopts = -q\n", 0, true), null, command);
    assert.equal(parseTestRun(command, "", 1, false), null, command);
  }
  for (
    const command of [
      "cd api && CI=1 pytest -q | tail -5",
      'bash -c "pytest -q"',
      "uv run pytest",
      "poetry run pytest -x",
      "timeout 60 pytest",
      "docker compose exec web pytest",
      "(cd sub; go test ./...)",
      "ls tests; npm test",
      "git stash && cargo test",
      // An agent's heredoc, then the run: the run is found past a megabyte of it.
      `cat > gen.py <<'EOF'\n${"x = 1; y = 2\n".repeat(100_000)}EOF\npytest -q`,
    ]
  ) {
    assert.equal(parseTestRun(command, "", 1, false)?.outcome, "fail", command);
  }
});

// ---------------------------------------------------------------- budget

Deno.test("test output of any shape is read in one pass: blank lines, long lines, runs of spaces", async () => {
  // Each shape made a runner's line pattern backtrack over it again from every line or
  // position: 40,000 blank lines (40 KB) held a hook, and the warm server with it, for
  // 11 s. At this size that would be hours; read in one pass it is well under a second.
  const module = new URL("../src/harness/test_runs/mod.ts", import.meta.url).href;
  const script = `
    import { parseTestRun } from ${JSON.stringify(module)};
    const n = 300_000;
    const shapes = ["\\n".repeat(n), " \\n".repeat(n), " ".repeat(n) + "x", "a ".repeat(n), "> ".repeat(n)];
    const commands = ["pytest -q", "npx jest", "npx vitest", "go test ./...", "cargo test",
      "deno test", "mvn test", "gradle test", "rspec"];
    const read = commands.flatMap((command) => shapes.map((shape) => {
      const output = "FAILED tests/a.py::test_one - x\\n" + shape + "\\n1 failed in 0.10s\\n";
      const r = parseTestRun(command, output, 1, false);
      return [command, r.runner, r.failed];
    }));
    console.log(JSON.stringify(read));`;
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  assert.equal(r.code, 0, new TextDecoder().decode(r.stderr));
  const read = JSON.parse(new TextDecoder().decode(r.stdout)) as [string, string, string[]][];
  assert.equal(read.length, 45);
  for (const [command, runner, failed] of read) {
    if (command === "pytest -q") {
      assert.deepEqual([runner, failed], ["pytest", ["tests/a.py::test_one"]]);
    }
  }
});

Deno.test("token estimates are upper bounds of real tokenizers on what hooks inject", () => {
  const corpus = [
    Deno.readTextFileSync(new URL("../README.md", import.meta.url)),
    // The prose, formulas and tables that were the README's before it moved to docs/.
    Deno.readTextFileSync(new URL("../docs/search.md", import.meta.url)),
    Deno.readTextFileSync(new URL("../docs/performance.md", import.meta.url)),
    Deno.readTextFileSync(new URL("../src/harness/handler.ts", import.meta.url)),
    Deno.readTextFileSync(new URL("../deno.json", import.meta.url)),
    Deno.readTextFileSync(join(FIXTURES, "test_output", "jest_fail.txt")),
    Deno.readTextFileSync(join(FIXTURES, "test_output", "cargo_fail.txt")),
    "- [STRONG] /home/dev/shop/pkg/billing.py:9 compute_total — def compute_total(prices, discount=0.0):",
    "MUST: Round money to cents only in apply_discount [billing]",
    "日本語のテキストと emoji 🎉 mixed with English — and “quotes”.",
    "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 c0ffee00-1111-2222-3333-444455556666",
    "Zm9vYmFyYmF6cXV4cXV1eHh5enp5Mjk4NzM0NjU4NzI2NTg3MjM0NjU4NzM0",
    "\n\n\n    }\n  }\n}\n",
  ];
  for (const text of corpus) {
    const est = estimateTokens(text);
    const real = Math.max(cl100k(text).length, o200k(text).length);
    assert.ok(
      est >= real,
      `estimate ${est} < real ${real} for ${JSON.stringify(text.slice(0, 60))}`,
    );
    if (text.length > 1000) {
      assert.ok(est <= real * 2.5, `estimate ${est} is useless (real ${real})`);
    }
  }
});

Deno.test("fitContext never exceeds the budget and never repeats an injected item", () => {
  const items = Array.from({ length: 200 }, (_, i) => ({
    key: `k${i}`,
    section: i % 2 ? "Decisions" : "Constraints (must)",
    text: `item ${i}: ${"word ".repeat(i % 17)}src/module_${i}.ts:${i * 7}`,
  }));
  for (const budget of [40, 100, 500, 1500]) {
    const r = fitContext("Heimdall: test", items, budget);
    assert.ok(r.text !== null);
    assert.ok(estimateTokens(r.text!) <= budget, `${budget}`);
    assert.equal(r.tokens, estimateTokens(r.text!));
    const again = fitContext("Heimdall: test", items, budget, new Set(r.keys));
    for (const k of again.keys) {
      assert.ok(!r.keys.includes(k), "a second injection brings only new items");
    }
  }
  assert.equal(fitContext("t", items, 1).text, null, "nothing fits under a tiny budget");
  assert.equal(fitContext("t", items, 1500, new Set(items.map((i) => i.key))).text, null);
});

// ---------------------------------------------------------------- init

/** The environment init runs with: `home` as HOME, and the real Deno cache, so nothing is fetched again. */
function initEnv(home: string): Record<string, string> {
  return { HOME: home, DENO_DIR: denoDir(), PATH: "/usr/bin:/bin", CODEX_HOME: "" };
}

/** `init` argv installing `harnesses` (comma-separated) into `project`'s own files, then `extra`. */
function projectInit(harnesses: string, project: string, ...extra: string[]): string[] {
  return ["init", "--harness", harnesses, "--scope", "project", "--project", project, ...extra];
}

/** Every file under `dir`, relative, with its text. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of Deno.readDirSync(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) walk(p);
      else out[relative(dir, p)] = Deno.readTextFileSync(p);
    }
  };
  walk(dir);
  return out;
}

/** What a person already has in each harness's files before Heimdall comes. */
const EXISTING: Record<string, string> = {
  ".claude/settings.json": JSON.stringify(
    {
      permissions: { allow: ["Bash(ls:*)"] },
      hooks: {
        PreToolUse: [{
          matcher: "Bash",
          hooks: [{ type: "command", command: "/usr/local/bin/guard" }],
        }],
      },
    },
    null,
    2,
  ) + "\n",
  // Written by hand: a number JavaScript cannot hold, kept digit for digit.
  ".claude.json":
    '{"numStartups":12,"userID":12345678901234567890,"mcpServers":{"github":{"command":"npx","args":["gh-mcp"]}}}\n',
  ".codex/config.toml":
    'model = "gpt-5-codex"\n\n[mcp_servers.github]\ncommand = "npx"\nargs = ["gh-mcp"]\n',
  ".codex/hooks.json": JSON.stringify(
    { hooks: { Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }] } },
    null,
    2,
  ) +
    "\n",
  ".cursor/hooks.json": JSON.stringify(
    { version: 1, hooks: { afterFileEdit: [{ command: "prettier --write" }] } },
    null,
    2,
  ) +
    "\n",
  ".cursor/mcp.json":
    JSON.stringify({ mcpServers: { linear: { url: "https://mcp.linear.app/sse" } } }, null, 2) +
    "\n",
  ".codeium/windsurf/hooks.json": JSON.stringify(
    { hooks: { pre_run_command: [{ command: "audit", show_output: false }] } },
    null,
    4,
  ) +
    "\n",
  ".gemini/settings.json": JSON.stringify(
    {
      theme: "GitHub",
      hooks: {
        BeforeTool: [{
          matcher: "run_shell_command",
          hooks: [{ name: "x", type: "command", command: "check" }],
        }],
      },
    },
    null,
    2,
  ) +
    "\n",
  ".kiro/settings/mcp.json": JSON.stringify({ mcpServers: {} }, null, 2) + "\n",
};

Deno.test("init writes every harness's hooks and MCP server, merges, is idempotent, and uninstalls exactly", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const hh = join(base, "heimdall-home");
  for (const [rel, text] of Object.entries(EXISTING)) {
    Deno.mkdirSync(join(home, rel, ".."), { recursive: true });
    Deno.writeTextFileSync(join(home, rel), text);
  }
  const before = snapshot(home);
  const all = HARNESSES.join(",");

  // --dry-run prints diffs and writes nothing.
  const dry = await cli(hh, ["init", "--harness", all, "--dry-run"], { env: initEnv(home) });
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /would update .*\.claude\/settings\.json \(hooks\)\n--- /);
  assert.match(dry.stdout, /\+\[mcp_servers\.heimdall\]/);
  assert.deepEqual(snapshot(home), before, "a dry run writes nothing");

  const first = await cli(hh, ["init", "--harness", all, "--json"], { env: initEnv(home) });
  assert.equal(first.code, 0, first.stderr);
  const report = JSON.parse(first.stdout);
  const after = snapshot(home);
  const parsed = (rel: string) => JSON.parse(after[rel]!);

  // Claude Code: the person's hooks and settings are kept, ours added, no permission granted.
  const claude = parsed(".claude/settings.json");
  assert.deepEqual(claude.permissions, { allow: ["Bash(ls:*)"] });
  assert.equal(claude.hooks.PreToolUse[0].hooks[0].command, "/usr/local/bin/guard");
  for (
    const ev of [
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PostToolUse",
      "PostToolUseFailure",
      "Stop",
      "SessionEnd",
    ]
  ) {
    const ours = claude.hooks[ev].flatMap((g: { hooks: { command: string }[] }) => g.hooks)
      .filter((h: { command: string }) => / hook --harness claude-code/.test(h.command));
    assert.equal(ours.length, 1, ev);
    assert.match(
      ours[0].command,
      new RegExp(`^HEIMDALL_HOME=${hh} `),
      "the hook runs against the same home",
    );
  }
  const claudeJson = parsed(".claude.json");
  assert.equal(claudeJson.numStartups, 12);
  assert.ok(
    after[".claude.json"]!.startsWith(
      '{"numStartups":12,"userID":12345678901234567890,"mcpServers":{"github":',
    ),
    "values and the file's one-line layout are kept",
  );
  assert.deepEqual(claudeJson.mcpServers.github, { command: "npx", args: ["gh-mcp"] });
  assert.equal(claudeJson.mcpServers.heimdall.type, "stdio");
  assert.equal(claudeJson.mcpServers.heimdall.args.at(-1), "mcp");
  assert.deepEqual(claudeJson.mcpServers.heimdall.env, { HEIMDALL_HOME: hh });
  // Codex: TOML edited in place, hooks.json merged.
  assert.ok(
    after[".codex/config.toml"]!.startsWith(
      EXISTING[".codex/config.toml"]!.trimEnd() + "\n\n[mcp_servers.heimdall]\n",
    ),
  );
  assert.match(
    after[".codex/config.toml"]!,
    /args = \[.*"mcp"\]\nenv = \{ HEIMDALL_HOME = ".*" \}\n$/,
  );
  assert.equal(parsed(".codex/hooks.json").hooks.Stop.length, 2);
  // Cursor, Windsurf, Gemini, Kiro, pi.
  assert.equal(parsed(".cursor/hooks.json").version, 1);
  assert.equal(parsed(".cursor/hooks.json").hooks.afterFileEdit[0].command, "prettier --write");
  assert.ok(
    parsed(".cursor/hooks.json").hooks.preToolUse[0].command.includes("hook --harness cursor"),
  );
  assert.ok(parsed(".cursor/mcp.json").mcpServers.linear);
  assert.match(
    after[".codeium/windsurf/hooks.json"]!,
    /^\{\n {4}"hooks"/,
    "the file's own indentation is kept",
  );
  assert.equal(parsed(".codeium/windsurf/hooks.json").hooks.pre_write_code[0].show_output, true);
  assert.ok(parsed(".codeium/windsurf/mcp_config.json").mcpServers.heimdall);
  const gem = parsed(".gemini/settings.json");
  assert.equal(gem.theme, "GitHub");
  assert.equal(gem.hooks.BeforeTool.length, 2);
  assert.ok(gem.mcpServers.heimdall);
  const kiroHooks = parsed(".kiro/hooks/heimdall.json");
  assert.equal(kiroHooks.version, "v1");
  assert.deepEqual(kiroHooks.hooks.map((h: { trigger: string }) => h.trigger), [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
  ]);
  assert.ok(parsed(".kiro/settings/mcp.json").mcpServers.heimdall);
  assert.match(after[".pi/agent/extensions/heimdall.ts"]!, /^\/\/ heimdall:pi-extension v1/);
  // Backups of every file that existed.
  const backups = report.harnesses.flatMap((h: { changes: { backup: string | null }[] }) =>
    h.changes
  )
    .map((c: { backup: string | null }) => c.backup).filter((b: string | null) => b !== null);
  assert.equal(
    backups.length,
    Object.keys(EXISTING).filter((k) => k !== ".gemini/settings.json").length + 1,
  );
  for (const b of backups) assert.ok(Object.values(EXISTING).includes(Deno.readTextFileSync(b)), b);
  for (const b of backups) Deno.removeSync(b);

  // A second run changes nothing, byte for byte.
  const settled = snapshot(home);
  const second = await cli(hh, ["init", "--harness", all], { env: initEnv(home) });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(second.stdout.match(/nothing to change/g)?.length, HARNESSES.length, second.stdout);
  assert.deepEqual(snapshot(home), settled);

  // --uninstall removes exactly what was added: the person's files come back as they were.
  const un = await cli(hh, ["init", "--harness", all, "--uninstall"], { env: initEnv(home) });
  assert.equal(un.code, 0, un.stderr);
  const restored = snapshot(home);
  for (const k of Object.keys(restored)) if (k.includes(".heimdall-backup-")) delete restored[k];
  assert.deepEqual(
    Object.keys(restored).sort(),
    Object.keys(before).sort(),
    "files Heimdall created are gone",
  );
  for (const [rel, text] of Object.entries(before)) assert.equal(restored[rel], text, rel);
  const again = await cli(hh, ["init", "--harness", all, "--uninstall"], { env: initEnv(home) });
  assert.equal(again.stdout.match(/nothing to remove/g)?.length, HARNESSES.length, again.stdout);
  removeTree(base);
});

Deno.test("init --scope project writes into the project, and refuses files it cannot edit safely", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const project = join(base, "proj");
  Deno.mkdirSync(join(project, ".gemini"), { recursive: true });
  Deno.mkdirSync(home, { recursive: true });
  const commented = '{\n  // my theme\n  "theme": "Dracula"\n}\n';
  Deno.writeTextFileSync(join(project, ".gemini", "settings.json"), commented);
  const r = await cli(join(base, "hh"), projectInit("claude-code,codex,gemini", project), {
    env: initEnv(home),
  });
  assert.equal(r.code, 3, "a refused harness is an environment problem");
  assert.match(r.stderr, /gemini: .*settings\.json" has comments; heimdall will not rewrite it/);
  assert.equal(Deno.readTextFileSync(join(project, ".gemini", "settings.json")), commented);
  const mcp = JSON.parse(Deno.readTextFileSync(join(project, ".mcp.json")));
  assert.deepEqual(mcp.mcpServers.heimdall.args.at(-1), "mcp");
  assert.ok(
    JSON.parse(Deno.readTextFileSync(join(project, ".claude", "settings.json"))).hooks.SessionStart,
  );
  assert.match(
    Deno.readTextFileSync(join(project, ".codex", "config.toml")),
    /^\[mcp_servers\.heimdall\]/,
  );
  assert.match(r.stdout, /codex: note: Codex runs a new or changed hook only after you trust it/);
  assert.deepEqual(snapshot(home), {}, "nothing written to the user's home");

  // A "heimdall" MCP server that is someone else's is never replaced.
  Deno.writeTextFileSync(
    join(project, ".mcp.json"),
    JSON.stringify({ mcpServers: { heimdall: { command: "norse-gods" } } }),
  );
  const foreign = await cli(join(base, "hh"), projectInit("claude-code", project), {
    env: initEnv(home),
  });
  assert.equal(foreign.code, 3);
  assert.match(
    foreign.stderr,
    /already has an MCP server named "heimdall" that does not run Heimdall/,
  );
  const usage = await cli(join(base, "hh"), ["init", "--harness", "vim"], { env: initEnv(home) });
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /Unknown harness "vim"/);
  // An empty list is a typing slip, not "nothing installed on this machine".
  const none = await cli(join(base, "hh"), ["init", "--harness", ","], { env: initEnv(home) });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /--harness "," names no harness: name one or more of claude-code, /);
  // A mistyped project folder is named, not made; --project without --scope project is a
  // mistake, not a user-scope install.
  const typo = join(base, "porj");
  const mistyped = await cli(join(base, "hh"), projectInit("claude-code", typo), {
    env: initEnv(home),
  });
  assert.equal(mistyped.code, 2);
  assert.match(
    mistyped.stderr,
    /No project folder ".*porj": --project takes the folder the agent works in/,
  );
  assert.ok(!exists(typo), "no folder made for a typo");
  const unscoped = await cli(join(base, "hh"), [
    "init",
    "--harness",
    "claude-code",
    "--project",
    project,
  ], {
    env: initEnv(home),
  });
  assert.equal(unscoped.code, 2);
  assert.match(unscoped.stderr, /--project ".*proj" is for --scope project: add --scope project/);
  assert.deepEqual(snapshot(home), {}, "nothing written to the user's home");

  // Hooks the person wrote in a shape the harness does not read are theirs to fix, never
  // replaced; the message names the file and the key.
  const cases = [
    [
      { hooks: { PreToolUse: { matcher: "Bash" } } },
      /"hooks\.PreToolUse" in ".*\/\.claude\/settings\.json" is not a list; make it a list of hooks/,
    ],
    [
      { hooks: [] },
      /"hooks" in ".*\/\.claude\/settings\.json" is not an object; make it an object/,
    ],
  ] as const;
  for (const [settings, message] of cases) {
    const file = join(project, ".claude", "settings.json");
    const text = JSON.stringify(settings, null, 2) + "\n";
    Deno.writeTextFileSync(file, text);
    const odd = await cli(join(base, "hh"), projectInit("claude-code", project), {
      env: initEnv(home),
    });
    assert.equal(odd.code, 3, odd.stderr);
    assert.match(odd.stderr, message);
    assert.equal(Deno.readTextFileSync(file), text);
  }
  removeTree(base);
});

Deno.test("init --scope project writes no path of this machine into the project's files: teammates run heimdall from PATH", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const project = join(base, "proj");
  const hh = join(base, "hh");
  Deno.mkdirSync(join(project, ".claude"), { recursive: true });
  Deno.mkdirSync(home, { recursive: true });
  // An older init wrote this machine's command into the committed file: a re-run replaces it.
  const old = `${Deno.execPath()} run ${MAIN} hook --harness claude-code`;
  Deno.writeTextFileSync(
    join(project, ".claude", "settings.json"),
    JSON.stringify({
      permissions: { allow: ["Bash(ls:*)"] },
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: old }] }] },
    }) + "\n",
  );
  const before = snapshot(project);
  const args = projectInit(HARNESSES.join(","), project);
  const r = await cli(hh, args, { env: initEnv(home) });
  assert.equal(r.code, 0, r.stderr);
  const files = snapshot(project);
  const machinePaths = [base, Deno.execPath(), join(MAIN, ".."), hh, home];
  for (const [rel, text] of Object.entries(files)) {
    for (const p of machinePaths) assert.ok(!text.includes(p), `${rel} names "${p}":\n${text}`);
    assert.ok(!text.includes("HEIMDALL_HOME"), `${rel} carries a HEIMDALL_HOME`);
  }
  // The old file's copy (with this machine's paths in it) is kept in the home, not left in
  // the repository beside the file for `git add -A` to commit.
  const backup = /backup (\S+)/.exec(r.stdout)?.[1];
  assert.ok(backup?.startsWith(join(hh, "backups")), r.stdout);
  assert.ok(Deno.readTextFileSync(backup!).includes(old));
  const settings = JSON.parse(files[".claude/settings.json"]!);
  assert.deepEqual(settings.permissions, { allow: ["Bash(ls:*)"] });
  assert.deepEqual(
    settings.hooks.SessionStart.flatMap((g: { hooks: { command: string }[] }) =>
      g.hooks.map((h) => h.command)
    ),
    ["heimdall hook --harness claude-code"],
    "the old absolute command is replaced, not kept beside the new one",
  );
  assert.deepEqual(JSON.parse(files[".mcp.json"]!).mcpServers.heimdall, {
    type: "stdio",
    command: "heimdall",
    args: ["mcp"],
  });
  assert.match(files[".codex/config.toml"]!, /^\[mcp_servers\.heimdall\]\ncommand = "heimdall"\n/);
  assert.match(files[".pi/extensions/heimdall.ts"]!, /const ARGV: string\[\] = \["heimdall",/);
  // This machine has no heimdall on PATH and a home of its own: both are said, once.
  assert.equal(r.stdout.match(/note: the project's files run `heimdall` from PATH/g)?.length, 1);
  assert.match(r.stdout, /note: HEIMDALL_HOME ".*hh" is not written into the project's files/);
  // Set to the default home, it is the default: nothing to say.
  const byDefault = await cli(join(home, ".heimdall"), [...args, "--dry-run"], {
    env: initEnv(home),
  });
  assert.equal(byDefault.code, 0, byDefault.stderr);
  assert.ok(!byDefault.stdout.includes("HEIMDALL_HOME"), byDefault.stdout);
  assert.deepEqual(snapshot(home), {}, "nothing written to the user's home");

  // doctor names the fix that works: heimdall on PATH, not an init that writes the same again.
  const doctor = await cli(hh, ["doctor", "--json", "--project", project], {
    env: { ...initEnv(home), HEIMDALL_HOOK_SERVER: "0" },
  });
  const check = (JSON.parse(doctor.stdout).checks as {
    name: string;
    detail: string;
    fix: string | null;
  }[]).find((c) => c.name === "claude-code hook (project)")!;
  assert.match(check.detail, /exited 127 \(.*heimdall: .*not found\)/);
  assert.match(check.fix!, /^put heimdall on PATH/, JSON.stringify(check));

  // With a heimdall on PATH (as on a teammate's machine), the committed hook runs.
  const bin = join(base, "bin");
  Deno.mkdirSync(bin);
  Deno.writeTextFileSync(
    join(bin, "heimdall"),
    `#!/bin/sh\nexec '${Deno.execPath()}' run ${PERMS.join(" ")} '${MAIN}' "$@"\n`,
  );
  Deno.chmodSync(join(bin, "heimdall"), 0o755);
  const hook = new Deno.Command("sh", {
    args: ["-c", settings.hooks.SessionStart[0].hooks[0].command],
    cwd: project,
    env: {
      ...initEnv(home),
      PATH: `${bin}:/usr/bin:/bin`,
      HEIMDALL_HOME: hh,
      HEIMDALL_HOOK_SERVER: "0",
    },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = hook.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify({
    hook_event_name: "SessionStart",
    session_id: "s1",
    cwd: project,
    source: "startup",
  })));
  await w.close();
  const ran = await hook.output();
  assert.equal(ran.code, 0, new TextDecoder().decode(ran.stderr));
  assert.equal(new TextDecoder().decode(ran.stderr), "");

  // --uninstall gives the project back as it was, less the old command it replaced.
  const un = await cli(hh, [...args, "--uninstall"], { env: initEnv(home) });
  assert.equal(un.code, 0, un.stderr);
  const left = snapshot(project);
  for (const k of Object.keys(left)) if (k.includes(".heimdall-backup-")) delete left[k];
  assert.deepEqual(Object.keys(left), Object.keys(before));
  assert.deepEqual(JSON.parse(left[".claude/settings.json"]!), {
    permissions: { allow: ["Bash(ls:*)"] },
    hooks: { SessionStart: [] },
  });
  removeTree(base);
});

Deno.test("init run by a Deno that npx fetched says the hooks it writes run a Deno npm may clean", async () => {
  const base = tempDir();
  const home = join(base, "home");
  Deno.mkdirSync(home, { recursive: true });
  // Where `npx -y deno@… task heimdall init` runs Deno from: npm's npx cache.
  const npx = join(base, ".npm", "_npx", "3f2a", "node_modules", "deno");
  Deno.mkdirSync(npx, { recursive: true });
  const deno = join(npx, "deno");
  try {
    Deno.linkSync(Deno.execPath(), deno);
  } catch {
    Deno.copyFileSync(Deno.execPath(), deno);
    Deno.chmodSync(deno, 0o755);
  }
  const out = await new Deno.Command(deno, {
    args: ["run", ...PERMS, MAIN, "init", "--harness", "claude-code"],
    env: { ...initEnv(home), HEIMDALL_HOME: join(base, "hh"), NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.ok(Deno.readTextFileSync(join(home, ".claude", "settings.json")).includes(deno));
  assert.match(
    stdout,
    /note: the command written runs .*\/_npx\/.*, a Deno that npx fetched into npm's cache, which npm may clean/,
  );
  // A Deno of its own (this test's) says nothing of the kind.
  const plain = await cli(join(base, "hh2"), ["init", "--harness", "codex"], {
    env: initEnv(home),
  });
  assert.equal(plain.code, 0, plain.stderr);
  assert.ok(!plain.stdout.includes("npx"), plain.stdout);
  removeTree(base);
});

Deno.test("init --scope project in a folder inside a repository says an agent reads the repository's top", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "shop");
  Deno.mkdirSync(join(repo, ".git"), { recursive: true });
  Deno.mkdirSync(join(repo, "src"), { recursive: true });
  Deno.mkdirSync(home, { recursive: true });
  const init = (project: string) =>
    cli(join(base, "hh"), [
      "init",
      "--harness",
      "claude-code",
      "--scope",
      "project",
      "--dry-run",
    ], { env: initEnv(home), cwd: project });
  // Claude Code started at the repository's top never reads shop/src/.claude/settings.json.
  const inner = await init(join(repo, "src"));
  assert.equal(inner.code, 0, inner.stderr);
  assert.match(
    inner.stdout,
    /note: ".*\/shop\/src" is a folder inside the repository ".*\/shop": .*pass --project .*\/shop /,
  );
  const top = await init(repo);
  assert.ok(!top.stdout.includes("inside the repository"), top.stdout);
  removeTree(base);
});

Deno.test("init and doctor say when a harness runs Heimdall's hooks from both scopes: each event starts two hooks", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const project = join(base, "proj");
  const hh = join(base, "hh");
  Deno.mkdirSync(project, { recursive: true });
  Deno.mkdirSync(home, { recursive: true });
  const user = await cli(hh, ["init", "--harness", "claude-code,cursor"], { env: initEnv(home) });
  assert.equal(user.code, 0, user.stderr);
  assert.ok(!user.stdout.includes("starts two hooks"), user.stdout);
  // The repository's committed hooks (portable, so no longer the same command as the user's,
  // which Claude Code would have run once): both run, the second for nothing.
  const args = projectInit("claude-code", project);
  const r = await cli(hh, args, { env: initEnv(home) });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /claude-code: note: .*\/home\/\.claude\/settings\.json \(user scope\) runs Heimdall's hooks too: claude-code runs both, so each event starts two hooks .*; keep one: heimdall init --harness claude-code --scope user --uninstall/,
  );
  const doctor = await cli(hh, ["doctor", "--json", "--project", project], {
    env: { ...initEnv(home), HEIMDALL_HOOK_SERVER: "0" },
  });
  const checks = JSON.parse(doctor.stdout).checks as { name: string; status: string }[];
  assert.deepEqual(
    checks.filter((c) => c.name.endsWith("(user and project)")).map((c) => [c.name, c.status]),
    [["claude-code hooks (user and project)", "warn"]],
    "cursor is wired at user scope only",
  );
  // In the home folder the project's files are the user's own: one file, nothing run twice.
  const atHome = await cli(hh, ["init", "--harness", "claude-code"], {
    env: initEnv(home),
    cwd: home,
  });
  assert.ok(!atHome.stdout.includes("starts two hooks"), atHome.stdout);
  const doctorAtHome = await cli(hh, ["doctor", "--json", "--project", home], {
    env: { ...initEnv(home), HEIMDALL_HOOK_SERVER: "0" },
  });
  assert.ok(!doctorAtHome.stdout.includes("(user and project)"), doctorAtHome.stdout);
  removeTree(base);
});

Deno.test("init --uninstall with no record of the install (a teammate's committed files) takes out what held only Heimdall's, and keeps the person's", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const project = join(base, "proj");
  Deno.mkdirSync(join(project, ".claude"), { recursive: true });
  Deno.mkdirSync(home, { recursive: true });
  const mine = JSON.stringify(
    {
      permissions: { allow: ["Bash(ls:*)"] },
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "my-linter" }] }],
        // Empty, and no Heimdall hook ever joins it: it stays.
        Notification: [],
      },
    },
    null,
    2,
  ) + "\n";
  Deno.writeTextFileSync(join(project, ".claude", "settings.json"), mine);
  const before = snapshot(project);
  const args = projectInit(HARNESSES.join(","), project);
  // The teammate who committed the files kept the record of the install in their own home.
  const installed = await cli(join(base, "teammate"), args, { env: initEnv(home) });
  assert.equal(installed.code, 0, installed.stderr);
  const un = await cli(join(base, "me"), [...args, "--uninstall"], { env: initEnv(home) });
  assert.equal(un.code, 0, un.stderr);
  const left = snapshot(project);
  for (const k of Object.keys(left)) if (k.includes(".heimdall-backup-")) delete left[k];
  // It left .mcp.json as {"mcpServers": {}}, .cursor/hooks.json as {"version": 1, "hooks":
  // {"sessionStart": [], …}}, an empty config.toml: files a teammate would commit again.
  assert.deepEqual(left, before);
  removeTree(base);
});

Deno.test("init edits Codex's config.toml in place: one table whatever quotes the file holds, the person's keys and comments kept", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const project = join(base, "proj");
  const toml = join(project, ".codex", "config.toml");
  Deno.mkdirSync(join(project, ".codex"), { recursive: true });
  Deno.mkdirSync(home, { recursive: true });
  const init = (...extra: string[]) =>
    cli(join(base, "hh"), projectInit("codex", project, ...extra), { env: initEnv(home) });
  const tables = (text: string) => text.match(/^\[mcp_servers\.heimdall\]$/gm)?.length ?? 0;

  // A `"""` in a comment once hid the table below it: init added a second one.
  const quoted = '# docstrings use """ quotes\nmodel = "o3"\n\n[mcp_servers.heimdall]\n' +
    'command = "/usr/local/bin/heimdall"\nargs = ["mcp"]\n';
  Deno.writeTextFileSync(toml, quoted);
  const first = await init();
  assert.equal(first.code, 0, first.stderr);
  assert.equal(tables(Deno.readTextFileSync(toml)), 1);
  assert.ok(Deno.readTextFileSync(toml).startsWith(quoted.slice(0, quoted.indexOf("command"))));
  assert.equal((await init("--uninstall")).code, 0);
  assert.equal(Deno.readTextFileSync(toml), '# docstrings use """ quotes\nmodel = "o3"\n');

  // Re-pointing an old table replaces Heimdall's values only.
  const mine = "startup_timeout_sec = 30\n\n# my github server, keep\n[mcp_servers.github]\n" +
    'command = "gh-mcp"\n';
  Deno.writeTextFileSync(
    toml,
    '[mcp_servers.heimdall]\ncommand = "/old/heimdall"\nargs = ["mcp"]\n' + mine,
  );
  const again = await init();
  assert.equal(again.code, 0, again.stderr);
  const text = Deno.readTextFileSync(toml);
  assert.match(text, /^\[mcp_servers\.heimdall\]\ncommand = "heimdall"\nargs = \["mcp"\]\n/);
  assert.ok(text.endsWith(mine), text);
  assert.equal(tables(text), 1);
  assert.equal((await init("--uninstall")).code, 0);
  assert.equal(Deno.readTextFileSync(toml), mine.slice(mine.indexOf("#")));
  removeTree(base);
});

Deno.test("init writes through a symlinked config (dotfiles) and keeps the link", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const dotfiles = join(base, "dotfiles", "gemini");
  Deno.mkdirSync(dotfiles, { recursive: true });
  Deno.mkdirSync(join(home, ".gemini"), { recursive: true });
  const text =
    '{\n  "theme": "GitHub",\n  "limits": [1, 2, 3],\n  "seed": 18446744073709551615\n}\n';
  Deno.writeTextFileSync(join(dotfiles, "settings.json"), text);
  const link = join(home, ".gemini", "settings.json");
  Deno.symlinkSync("../../dotfiles/gemini/settings.json", link);
  const hh = join(base, "hh");
  const r = await cli(hh, ["init", "--harness", "gemini"], { env: initEnv(home) });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /updated .*settings\.json \(a link: wrote its target .*dotfiles\/gemini/);
  assert.ok(Deno.lstatSync(link).isSymlink, "the link is still a link");
  const written = Deno.readTextFileSync(join(dotfiles, "settings.json"));
  assert.ok(JSON.parse(written).hooks.SessionStart, "the link's target has the hooks");
  assert.ok(
    written.startsWith(
      '{\n  "theme": "GitHub",\n  "limits": [1, 2, 3],\n  "seed": 18446744073709551615,',
    ),
    written,
  );
  const un = await cli(hh, ["init", "--harness", "gemini", "--uninstall"], { env: initEnv(home) });
  assert.equal(un.code, 0, un.stderr);
  assert.ok(Deno.lstatSync(link).isSymlink);
  assert.equal(Deno.readTextFileSync(join(dotfiles, "settings.json")), text);
  removeTree(base);
});

Deno.test({
  name:
    "init that cannot write a harness's second file records the first, so --uninstall takes it out",
  // A link into /proc: read as absent, and no folder can be made there, whoever runs the test.
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const base = tempDir();
    const home = join(base, "home");
    const project = join(base, "proj");
    Deno.mkdirSync(join(project, ".cursor"), { recursive: true });
    Deno.mkdirSync(home, { recursive: true });
    Deno.symlinkSync("/proc/self/heimdall-none/mcp.json", join(project, ".cursor", "mcp.json"));
    const args = projectInit("cursor", project);
    const hh = join(base, "hh");
    const r = await cli(hh, args, { env: initEnv(home) });
    assert.equal(r.code, 3, "a file that cannot be written is an environment problem");
    assert.match(r.stdout, /cursor: created .*\.cursor\/hooks\.json \(hooks\)/);
    assert.match(
      r.stderr,
      /cursor: Cannot write ".*mcp\.json" \(a link to "\/proc\/self\/heimdall-none\/mcp\.json"\): .*; make it writable .*\(created .*hooks\.json already; recorded, so --uninstall takes it out\)/,
    );
    assert.deepEqual(
      [...Deno.readDirSync(join(project, ".cursor"))].map((e) => e.name).sort(),
      ["hooks.json", "mcp.json"],
      "no temporary file left",
    );
    const un = await cli(hh, [...args, "--uninstall"], { env: initEnv(home) });
    assert.equal(un.code, 0, un.stderr);
    assert.deepEqual(
      [...Deno.readDirSync(join(project, ".cursor"))].map((e) => e.name)
        .filter((n) => !n.includes(".heimdall-backup-")).sort(),
      ["mcp.json"],
      "the hooks file init created is gone, not left as a skeleton",
    );
    removeTree(base);
  },
});

Deno.test("init --detect finds harnesses by their folders", async () => {
  const base = tempDir();
  Deno.mkdirSync(join(base, ".cursor"), { recursive: true });
  Deno.mkdirSync(join(base, ".gemini"), { recursive: true });
  const r = await cli(join(base, "hh"), ["init", "--detect", "--json"], { env: initEnv(base) });
  assert.equal(r.code, 0);
  const found = JSON.parse(r.stdout).harnesses.filter((h: { found: boolean }) => h.found).map((
    h: { harness: string },
  ) => h.harness);
  assert.deepEqual(found, ["cursor", "gemini"]);
  const none = await cli(join(base, "hh"), ["init", "--detect"], {
    env: initEnv(join(base, "empty")),
  });
  assert.equal(none.code, 1);
  removeTree(base);
});

Deno.test("detectHarnesses() on Windows finds npm's claude.cmd and codex.exe on a ;-separated PATH", () => {
  const base = tempDir();
  const npm = join(base, "npm"), bin = join(base, "bin");
  Deno.mkdirSync(npm);
  Deno.mkdirSync(bin);
  Deno.writeTextFileSync(join(npm, "claude.cmd"), "@echo off\r\n");
  Deno.writeTextFileSync(join(bin, "codex.exe"), "MZ");
  const path = `${npm};${bin}`;
  const windows = pathRules("windows", ".COM;.EXE;.BAT;.CMD");
  const found = (rules: PathRules) =>
    detectHarnesses(join(base, "home"), path, rules).filter((d) => d.found).map((d) => d.harness);
  // Split on ":" and looked up by the bare name, neither was found: `init --harness all`
  // wired nothing on Windows unless ~/.claude or ~/.codex existed.
  assert.deepEqual(found(windows), ["claude-code", "codex"]);
  assert.equal(onPath("claude", path, windows), join(npm, "claude.cmd"));
  assert.equal(onPath("heimdall", path, windows), null);
  assert.deepEqual(found(pathRules("linux")), [], "elsewhere a command is its bare name");
  removeTree(base);
});

Deno.test("doctor runs the configured hooks and MCP server, and names each problem with its fix", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const hh = join(base, "hh");
  Deno.mkdirSync(home, { recursive: true });
  const bare = await cli(hh, ["doctor", "--json"], { env: initEnv(home) });
  assert.equal(bare.code, 1);
  const wiring = JSON.parse(bare.stdout).checks.find((c: { name: string }) => c.name === "wiring");
  assert.equal(wiring.status, "fail");
  assert.match(wiring.fix, /heimdall init --harness/);

  assert.equal(
    (await cli(hh, ["init", "--harness", "claude-code,codex,pi"], { env: initEnv(home) })).code,
    0,
  );
  const r = await cli(hh, ["doctor", "--json"], {
    env: { ...initEnv(home), HEIMDALL_HOOK_SERVER: "0" },
  });
  assert.equal(r.code, 1, "no daemon, no index: problems");
  const checks = JSON.parse(r.stdout).checks as {
    name: string;
    status: string;
    detail: string;
    fix: string | null;
  }[];
  const by = (name: string) => checks.find((c) => c.name === name)!;
  for (const n of ["claude-code hook (user)", "codex hook (user)", "pi hook (user)"]) {
    assert.equal(by(n).status, "ok", n);
  }
  const mcp = checks.find((c) => c.name.startsWith("MCP server"))!;
  assert.equal(mcp.status, "ok", mcp.detail);
  assert.match(mcp.detail, /19 tools/);
  assert.equal(by("daemon").status, "fail");
  assert.match(by("daemon").fix!, /heimdall daemon/);
  assert.equal(by("index").status, "fail");
  assert.deepEqual(checks.filter((c) => / hook events /.test(c.name)), [], "every event wired");

  // A hook command that no longer runs (the binary moved) is a problem with its fix; hooks
  // removed by hand are named, with the init that puts them back.
  const settings = join(home, ".claude", "settings.json");
  Deno.writeTextFileSync(
    settings,
    Deno.readTextFileSync(settings).replaceAll(Deno.execPath(), "/nowhere/deno"),
  );
  const codexHooks = join(home, ".codex", "hooks.json");
  const cut = JSON.parse(Deno.readTextFileSync(codexHooks));
  cut.hooks = { SessionStart: cut.hooks.SessionStart };
  Deno.writeTextFileSync(codexHooks, JSON.stringify(cut));
  const later = JSON.parse(
    (await cli(hh, ["doctor", "--json"], { env: { ...initEnv(home), HEIMDALL_HOOK_SERVER: "0" } }))
      .stdout,
  ).checks as typeof checks;
  const moved = later.find((c) => c.name === "claude-code hook (user)")!;
  assert.equal(moved.status, "fail");
  assert.match(moved.fix!, /heimdall init --harness claude-code --scope user/);
  const events = later.find((c) => c.name === "codex hook events (user)")!;
  assert.equal(events.status, "warn");
  assert.match(
    events.detail,
    /only 1 of the 5 events .*hooks\.json; missing: UserPromptSubmit, PreToolUse, PostToolUse, Stop$/,
  );
  assert.equal(events.fix, "heimdall init --harness codex --scope user");
  removeTree(base);
});

// ---------------------------------------------------------------- hook: fail open

Deno.test("the hook fails open: garbage, a missing journal, an unknown or missing harness", async () => {
  const base = tempDir();
  const hh = join(base, "hh");
  const env = { HEIMDALL_HOOK_SERVER: "0" };
  const garbage = await cli(hh, ["hook", "--harness", "claude-code"], { stdin: "{not json", env });
  assert.equal(garbage.code, 0);
  assert.equal(garbage.stdout, "");
  assert.equal(garbage.stderr, "");
  const noJournal = await cli(hh, ["hook", "--harness", "claude-code"], {
    env,
    stdin: JSON.stringify({
      hook_event_name: "PreToolUse",
      session_id: "s",
      cwd: base,
      tool_name: "Edit",
      tool_input: { file_path: join(base, "a.py"), old_string: "x", new_string: "y" },
    }),
  });
  assert.equal(noJournal.code, 0);
  assert.equal(noJournal.stdout, "");
  const unknown = await cli(hh, ["hook", "--harness", "emacs"], { stdin: "{}", env });
  assert.equal(unknown.code, 0);
  assert.equal(unknown.stdout, "");
  const empty = await cli(hh, ["hook", "--harness", "cursor"], { stdin: "", env });
  assert.equal(empty.code, 0);
  const unnamed = await cli(hh, ["hook"], { stdin: "{}", env });
  assert.equal(unnamed.code, 0);
  assert.equal(unnamed.stdout, "");
  const log = Deno.readTextFileSync(join(hh, "logs", "hooks.log"));
  assert.match(log, /claude-code: stdin is not JSON/);
  assert.match(log, /no journal/);
  assert.match(
    log,
    /unknown --harness "emacs"; expected one of claude-code, .*: `heimdall init --harness NAME` writes the hook command again/,
  );
  // A hook line without --harness is named as such, not as a harness called "?".
  assert.match(log, /error: no --harness given; expected one of /);
  assert.doesNotMatch(log, /"\?"/);
  assert.ok(!log.includes("hook server"), "HEIMDALL_HOOK_SERVER=0 starts no server");
  removeTree(base);
});

// ---------------------------------------------------------------- hook: the warm server

function pidAlive(pid: number): boolean {
  return new Deno.Command("kill", { args: ["-0", String(pid)], stderr: "null" }).outputSync()
    .success;
}

Deno.test({
  name: "the first hook starts the warm server; later ones are answered by it, the same way",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const base = tempDir();
    const hh = join(base, "hh");
    const env = { HEIMDALL_HOOK_DEBUG: "1", HEIMDALL_AUTHOR: "ada" };
    const grep = (session: string, extra: Record<string, string> = {}) =>
      hookCli(hh, ["--harness", "claude-code"], {
        stdin: JSON.stringify({
          hook_event_name: "PostToolUse",
          session_id: session,
          cwd: base,
          tool_name: "Grep",
          tool_input: { pattern: "x" },
          tool_response: {},
        }),
        env: { ...env, ...extra },
      });
    const first = await grep("a");
    assert.equal(first.code, 0);
    assert.equal(first.stdout, "");
    await waitFor(
      () => {
        try {
          return Deno.readTextFileSync(join(hh, "logs", "hooks.log")).includes(
            "listening on 127.0.0.1:",
          );
        } catch {
          return false;
        }
      },
      30_000,
      "the hook server",
    );
    const pid = Number(Deno.readTextFileSync(join(hh, "hookd.pid")).trim());
    assert.ok(pidAlive(pid));
    assert.equal(
      Deno.statSync(join(hh, "hookd.port")).mode! & 0o777,
      0o600,
      "the token is the user's alone",
    );
    await grep("a");
    const third = await grep("a");
    assert.match(third.stdout, /heimdall search/, "the server keeps the same session state");
    const log = () => Deno.readTextFileSync(join(hh, "logs", "hooks.log"));
    assert.match(
      log(),
      new RegExp(`PostToolUse → after_tool in [\\d.]+ ms \\(server pid ${pid}\\)`),
    );
    assert.match(
      log(),
      /PostToolUse → after_tool in [\d.]+ ms \(in-process\)/,
      "the very first call answered itself",
    );

    // A client acting as someone else is refused and answers itself.
    const before = log().split("\n").length;
    assert.equal((await grep("b", { HEIMDALL_AUTHOR: "grace" })).code, 0);
    assert.match(log().split("\n").slice(before - 1).join("\n"), /\(in-process\)/);

    // A stale port file (nothing listens there) counts as no server.
    Deno.writeTextFileSync(join(hh, "hookd.port"), "9 stale\n");
    await waitFor(
      () => !pidAlive(pid),
      10_000,
      "the server stops once its port file names another",
    );
    Deno.removeSync(join(hh, "hookd.spawn"));
    assert.equal((await grep("c")).code, 0);
    await waitFor(
      () => {
        try {
          return Number(Deno.readTextFileSync(join(hh, "hookd.pid")).trim()) !== pid &&
            !Deno.readTextFileSync(join(hh, "hookd.port")).includes("stale");
        } catch {
          return false;
        }
      },
      30_000,
      "a new server",
    );
    const second = Number(Deno.readTextFileSync(join(hh, "hookd.pid")).trim());
    // The server may write its log while the folder goes: remove until it is gone.
    await waitFor(
      () => {
        try {
          removeTree(base);
        } catch (e) {
          if (!(e instanceof Deno.errors.NotFound)) return false;
        }
        return true;
      },
      10_000,
      "the home to be removed",
    );
    await waitFor(() => !pidAlive(second), 10_000, "the server stops when its home is removed");
    try {
      removeTree(base); // a last log line it wrote on its way out
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  },
});

// ---------------------------------------------------------------- hook: end to end

/** Which fixtures make up one harness's session, in order. */
const SCENARIO: Record<HarnessName, {
  start: string | null;
  prompt: string;
  preEdit: string;
  postEdit: string;
  test: string;
  stop: string;
}> = {
  "claude-code": {
    start: "session_start",
    prompt: "prompt",
    preEdit: "pre_edit",
    postEdit: "post_edit",
    test: "post_bash_failure",
    stop: "stop",
  },
  codex: {
    start: "session_start",
    prompt: "prompt",
    preEdit: "pre_apply_patch",
    postEdit: "post_apply_patch",
    test: "post_bash",
    stop: "stop",
  },
  cursor: {
    start: "session_start",
    prompt: "prompt",
    preEdit: "pre_tool",
    postEdit: "after_file_edit",
    test: "post_shell_failure",
    stop: "stop",
  },
  windsurf: {
    start: null,
    prompt: "prompt",
    preEdit: "pre_write_code",
    postEdit: "post_write_code",
    test: "post_run_command",
    stop: "post_cascade_response",
  },
  kiro: {
    start: "agent_spawn",
    prompt: "prompt",
    preEdit: "pre_fs_write",
    postEdit: "post_fs_write",
    test: "post_execute_bash",
    stop: "stop",
  },
  gemini: {
    start: "session_start",
    prompt: "before_agent",
    preEdit: "before_tool",
    postEdit: "after_tool_replace",
    test: "after_tool_shell",
    stop: "after_agent",
  },
  pi: {
    start: "session_start",
    prompt: "prompt",
    preEdit: "tool_call_edit",
    postEdit: "tool_result_edit",
    test: "tool_result_bash",
    stop: "agent_end",
  },
};

/** The context an answer carries, in each harness's format (null: none). */
function contextOf(harness: HarnessName, stdout: string): string | null {
  const out = stdout.trim();
  if (out === "") return null;
  switch (harness) {
    case "claude-code":
    case "codex":
    case "gemini":
      return JSON.parse(out).hookSpecificOutput.additionalContext;
    case "cursor": {
      const o = JSON.parse(out);
      return o.additional_context ?? o.agent_message ?? null;
    }
    case "pi":
      return JSON.parse(out).context;
    default:
      return out;
  }
}

/** What each harness's stop fixture says the agent said (none: its transcript is not on this machine). */
const AGENT_SAID: Partial<Record<string, string>> = {
  codex: "Fixed\\.",
  gemini: "Done\\.",
  windsurf: "I clamped the discount at zero\\.",
};

const OLD = "    return apply_discount(subtotal, discount)";
const NEW = "    return apply_discount(subtotal, max(discount, 0.0))";

Deno.test({
  name:
    "every harness's session through `heimdall hook` on an indexed repository with a running daemon",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const base = tempDir();
    const home = join(base, "home");
    const root = join(base, "work");
    for (const h of HARNESSES) copyDir(join(FIXTURES, "repo"), join(root, h, "shop"));
    const env = { HEIMDALL_AUTHOR: "ada" };
    assert.equal((await cli(home, ["index", root], { env })).code, 0);
    for (const h of HARNESSES) {
      const sym = `${join(root, h, "shop")}/pkg/billing.py:compute_total`;
      assert.equal(
        (await cli(home, [
          "remember",
          "--kind",
          "decision",
          "--about",
          sym,
          "Discounts are clamped to [0, 1]",
        ], { env })).code,
        0,
      );
      assert.equal(
        (await cli(home, [
          "attempt",
          "--about",
          sym,
          "--failed",
          "--tests",
          "t::neg",
          "Rounding the subtotal first broke t::neg",
        ], { env }))
          .code,
        0,
      );
    }
    const daemon: DaemonProcess = await startDaemon(home);
    const paths = homePaths(home);
    try {
      for (const harness of HARNESSES) {
        await t.step(harness, async () => {
          const repo = join(root, harness, "shop");
          const billing = join(repo, "pkg", "billing.py");
          const s = SCENARIO[harness];
          const hook = async (name: string) => {
            const r = await hookCli(home, ["--harness", harness], {
              stdin: payloadText(fixture(harness, name), repo),
              cwd: repo,
              env,
            });
            assert.equal(r.code, 0, `${harness}/${name}: ${r.stderr}`);
            assert.equal(r.stderr, "", `${harness}/${name}`);
            return contextOf(harness, r.stdout);
          };
          const sessionId = parseEvent(
            harnessSpec(harness),
            JSON.parse(payloadText(fixture(harness, s.prompt), repo)),
            {
              cwd: repo,
              env: () => undefined,
              event: null,
            },
          ).sessionId;
          const state = () => readSession(sessionFile(join(home, "sessions"), harness, sessionId))!;

          // Session start: must-constraints and decisions of the repository, under the budget.
          if (s.start) {
            const ctx = await hook(s.start);
            assert.ok(ctx, `${harness}: session start context`);
            assert.match(ctx!, /MUST: Round money to cents only in apply_discount/);
            assert.match(ctx!, /Discounts are clamped to \[0, 1\]/);
            assert.ok(estimateTokens(ctx!) <= 1500);
            if (harness === "kiro") {
              // Kiro sends no session id: each start is a new session, told it all again.
              assert.match((await hook(s.start))!, /MUST: Round money to cents only/);
            } else {
              assert.equal(
                await hook(s.start),
                null,
                `${harness}: a second start injects nothing new`,
              );
            }
          }

          // The prompt becomes the session's task; prior work comes back.
          const pctx = await hook(s.prompt);
          assert.equal(
            state().task?.title,
            "Fix compute_total so a negative discount never raises the total",
          );
          assert.ok(state().task?.id, "a team task was started");
          if (harness !== "cursor") {
            assert.ok(pctx, `${harness}: prior work`);
            assert.match(pctx!, /compute_total|test_negative_discount/);
            // The open failure on the function found comes with it, before any edit.
            assert.match(pctx!, /Rounding the subtotal first broke t::neg/);
            // Without a session start, the first prompt brings the repository's constraints too.
            if (!s.start) assert.match(pctx!, /MUST: Round money to cents only in apply_discount/);
          }

          // Before the edit: the open failure on the edited function, unless the prompt told it.
          const ectx = await hook(s.preEdit);
          if (harness === "kiro") {
            assert.equal(ectx, null, "Kiro does not pass pre-tool output to the model");
          } else if (harness === "cursor") {
            assert.ok(ectx, `${harness}: before-edit context`);
            assert.match(ectx!, /before you edit pkg\/billing\.py/);
            assert.match(ectx!, /Rounding the subtotal first broke t::neg/);
          } else {
            assert.doesNotMatch(ectx ?? "", /Rounding the subtotal/, `${harness}: told once`);
          }

          // The agent edits; after the edit the path is hinted and, once reconciled, the changed symbol recorded.
          Deno.writeTextFileSync(billing, Deno.readTextFileSync(billing).replace(OLD, NEW));
          await hook(s.postEdit);
          assert.ok(state().edited.includes(billing));
          const j = () => Journal.open(paths.journal, { readOnly: true });
          await waitFor(
            () => {
              const jj = j();
              try {
                return jj.get<{ size: number }>("SELECT size FROM paths WHERE path = ?", billing)
                  ?.size ===
                  Deno.statSync(billing).size;
              } finally {
                jj.close();
              }
            },
            20_000,
            `${harness}: the daemon reconciles the edit`,
          );

          // A failing test run: an attempt with the failing test, on the changed symbol.
          await hook(s.test);
          const st = state();
          assert.deepEqual(st.changed.map((c) => [c.qualname, c.change]), [[
            "compute_total",
            "modified",
          ]]);
          assert.deepEqual(st.tests.map((x) => [x.runner, x.outcome, x.failed]), [[
            "pytest",
            "fail",
            ["tests/test_billing.py::test_negative_discount"],
          ]]);
          const why = await cli(home, ["why", `${repo}/pkg/billing.py:compute_total`, "--json"], {
            env,
          });
          const current = JSON.parse(why.stdout).current as {
            kind: string;
            text: string;
            tests: string;
          }[];
          assert.ok(
            current.some((m) =>
              m.kind === "attempt" && m.text.includes("pytest -q") &&
              m.tests.includes("test_negative_discount")
            ),
            why.stdout,
          );
          const claims = j();
          try {
            assert.ok(
              claims.get(
                "SELECT 1 FROM claims WHERE qualname = 'compute_total' AND session = ?",
                sessionId,
              ),
              "claimed",
            );
          } finally {
            claims.close();
          }

          // Stop: the summary is a progress note on the task.
          await hook(s.stop);
          assert.ok(state().summarized);
          const notes = await cli(home, ["why", billing, "--json"], { env });
          const note =
            (JSON.parse(notes.stdout).current as { kind: string; text: string; task_id: string }[])
              .find((m) => m.kind === "note" && m.text.includes(`(${harness})`));
          assert.ok(note, notes.stdout);
          assert.match(note!.text, /Progress: Fix compute_total/);
          assert.match(note!.text, /Changed symbols: compute_total \(modified\)/);
          assert.equal(note!.task_id, state().task!.id);
          // The agent's own last words, where the payload carries them, lead the note.
          const said = AGENT_SAID[harness];
          if (said) {
            assert.match(note!.text, new RegExp(`^Progress: [^\\n]*\\n${said}\\n\\nSession `));
          }
          await hook(s.stop);
          const count =
            (JSON.parse((await cli(home, ["why", billing, "--json"], { env })).stdout).current as {
              kind: string;
              text: string;
            }[])
              .filter((m) => m.kind === "note" && m.text.includes(`(${harness})`)).length;
          assert.equal(count, 1, "a stop with nothing new stores no second note");
        });
      }

      await t.step(
        "the grep guard reminds on the third look-up without a Heimdall search; reads do not reset it",
        async () => {
          const repo = join(root, "claude-code", "shop");
          const send = async (payload: Record<string, unknown>) =>
            contextOf(
              "claude-code",
              (await hookCli(home, ["--harness", "claude-code"], {
                stdin: JSON.stringify(payload),
              }))
                .stdout,
            );
          const grep = JSON.parse(payloadText(fixture("claude-code", "grep"), repo));
          const read = {
            ...grep,
            tool_name: "Read",
            tool_input: { file_path: join(repo, "pkg/billing.py") },
            tool_response: { type: "text" },
          };
          const searched = {
            ...grep,
            tool_name: "Bash",
            tool_input: { command: 'heimdall search "compute total"' },
            tool_response: { stdout: "", stderr: "", interrupted: false },
          };
          assert.equal(await send(grep), null);
          assert.equal(await send(read), null, "reading is not a look-up");
          assert.equal(await send(grep), null);
          assert.match((await send(grep))!, /heimdall search/);
          assert.equal(await send(grep), null, "once per count");
          assert.equal(await send(searched), null);
          assert.equal(await send(grep), null);
          assert.equal(await send(grep), null);
          assert.match(
            (await send(grep))!,
            /without a Heimdall search/,
            "a new count, a new reminder",
          );
        },
      );

      await t.step("a compacted context gets the repository's memory again", async () => {
        const repo = join(root, "claude-code", "shop");
        const payload = JSON.parse(payloadText(fixture("claude-code", "session_start"), repo));
        const r = await hookCli(home, ["--harness", "claude-code"], {
          stdin: JSON.stringify({ ...payload, source: "compact" }),
        });
        assert.match(contextOf("claude-code", r.stdout)!, /MUST: Round money to cents/);
      });
    } finally {
      await daemon.stop();
      removeTree(base);
    }
  },
});

// ---------------------------------------------------------------- hook: a shared team store

/** A loopback port that accepts connections and never says a word (a store that hangs). */
function silentServer(): { url: string; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    try {
      for await (const conn of listener) held.push(conn);
    } catch { /* closed */ }
  })();
  return {
    url: `postgres://heimdall@127.0.0.1:${(listener.addr as Deno.NetAddr).port}/silent`,
    close() {
      listener.close();
      for (const c of held) {
        try {
          c.close();
        } catch { /* the hook closed it */ }
      }
    },
  };
}

Deno.test({
  name:
    "with a shared PostgreSQL, hooks read the team's fresh memories and claims, write through the store, and fail open when it hangs",
  ignore: noPostgres(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const server = await pgServer();
    const cleanups: (() => Promise<void> | void)[] = [];
    try {
      const db = await freshDatabase(server.url, "heimdall_hook");
      cleanups.push(db.drop);
      const [a, b] = await Promise.all([machine("shop"), machine("shop-clone")]);
      cleanups.push(() => a[Symbol.dispose](), () => b[Symbol.dispose]());
      for (const m of [a, b]) {
        const r = await heimdall(m.home, ["team", "connect", db.url]);
        assert.equal(r.code, 0, r.stderr);
      }
      const alice = { author: "alice", cwd: a.repo };
      const dispatchTs = join(b.repo, "src", "dispatch.ts");
      // Bob's agent, in its own process each time (no warm server: each hook opens the store anew).
      const hook = async (session: string, event: Record<string, unknown>) => {
        const r = await hookCli(b.home, ["--harness", "claude-code"], {
          stdin: JSON.stringify({ session_id: session, cwd: b.repo, ...event }),
          cwd: b.repo,
          env: { HEIMDALL_AUTHOR: "bob", HEIMDALL_HOOK_SERVER: "0", HEIMDALL_HOOK_DEBUG: "1" },
        });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stderr, "");
        return contextOf("claude-code", r.stdout);
      };
      const edit = {
        tool_name: "Edit",
        tool_input: {
          file_path: dispatchTs,
          old_string: "  return store(req);",
          new_string: "  return store(req.trim());",
        },
      };
      const log = () => Deno.readTextFileSync(join(b.home, "logs", "hooks.log"));

      await t.step(
        "before an edit on B: A's decision recorded a moment ago, and A's claim next door",
        async () => {
          // B's agent starts its session first: B's copies are as of then.
          await hook("b-1", { hook_event_name: "SessionStart", source: "startup" });
          const d = await heimdallJson<{ memory: { id: string } }>(a.home, [
            "remember",
            "--kind",
            "decision",
            "--about",
            "dispatch",
            "dispatch stays synchronous",
          ], alice);
          assert.equal((await heimdall(a.home, ["claim", "store"], alice)).code, 0);
          const ctx = await hook("b-1", { hook_event_name: "PreToolUse", ...edit });
          assert.ok(ctx, log());
          assert.match(ctx!, /before you edit src\/dispatch\.ts \(dispatch\)/);
          assert.match(ctx!, /Decision: dispatch stays synchronous \(alice, via /);
          assert.match(ctx!, /alice is changing a callee \(1 hop\): store in shop\/src\/store\.ts/);
          const j = Journal.open(homePaths(b.home).journal, { readOnly: true });
          try {
            assert.ok(
              j.get("SELECT 1 FROM memory_shared WHERE memory_id = ?", d.memory.id),
              "pulled into B's journal as the team's copy",
            );
          } finally {
            j.close();
          }
        },
      );

      await t.step(
        "the session's summary on B is written to the team store, and A reads it",
        async () => {
          Deno.writeTextFileSync(
            dispatchTs,
            Deno.readTextFileSync(dispatchTs).replace("store(req)", "store(req.trim())"),
          );
          await hook("b-1", {
            hook_event_name: "PostToolUse",
            ...edit,
            tool_response: { filePath: dispatchTs, success: true },
          });
          await hook("b-1", { hook_event_name: "Stop", stop_hook_active: false });
          const rows = await sql<{ id: string; author: string; kind: string; scope: string }>(
            db.url,
            "SELECT id, author, kind, scope FROM heimdall.memories WHERE kind = 'note'",
          );
          assert.deepEqual(rows.map((r) => [r.author, r.kind, r.scope]), [[
            "bob",
            "note",
            "project",
          ]]);
          const seen = await heimdallJson<{ current: { id: string; text: string }[] }>(
            a.home,
            ["why", "src/dispatch.ts"],
            alice,
          );
          const note = seen.current.find((m) => m.id === rows[0]!.id);
          assert.ok(note, JSON.stringify(seen));
          assert.match(note!.text, /Edited 1 file\(s\): src\/dispatch\.ts/);
        },
      );

      await t.step(
        "a store that hangs: the hook waits its bound, answers from B's copies, and keeps writes private",
        async () => {
          const silent = silentServer();
          cleanups.push(() => silent.close());
          const config = join(b.home, "config.json");
          const c = JSON.parse(Deno.readTextFileSync(config));
          Deno.writeTextFileSync(config, JSON.stringify({ ...c, teamUrl: silent.url }));
          const ctx = await hook("b-2", { hook_event_name: "PreToolUse", ...edit });
          assert.ok(ctx, log());
          assert.match(ctx!, /Decision: dispatch stays synchronous \(alice/, "from B's copy");
          assert.match(
            log(),
            /team: the team store did not answer within 1500 ms; answering from this machine's copies/,
          );
          assert.match(log(), /PreToolUse → before_tool in \d/, "answered, not given up");

          await hook("b-2", {
            hook_event_name: "PostToolUse",
            ...edit,
            tool_response: { filePath: dispatchTs, success: true },
          });
          await hook("b-2", { hook_event_name: "Stop", stop_hook_active: false });
          assert.match(
            log(),
            /team: storing the session's summary: kept on this machine as a private memory/,
          );
          const j = Journal.open(homePaths(b.home).journal, { readOnly: true });
          try {
            const kept = j.all<{ scope: string }>(
              "SELECT scope FROM memories WHERE kind = 'note' AND text LIKE '%b-2%'",
            );
            assert.deepEqual(kept.map((m) => m.scope), ["private"]);
          } finally {
            j.close();
          }
          const stored = await sql<{ n: number }>(
            db.url,
            "SELECT count(*)::int AS n FROM heimdall.memories WHERE text LIKE '%b-2%'",
          );
          assert.equal(stored[0]!.n, 0);

          // A warm server answers many requests: after one wait it leaves the store alone a while.
          const request = (session: string): HookRequest => ({
            harness: "claude-code",
            budget: null,
            event: null,
            cwd: b.repo,
            env: {},
            stdin: JSON.stringify({
              session_id: session,
              cwd: b.repo,
              hook_event_name: "PreToolUse",
              ...edit,
            }),
          });
          for (const session of ["b-3", "b-4"]) {
            const answer = await answerHook(request(session), homePaths(b.home));
            assert.match(answer ?? "", /Decision: dispatch stays synchronous/, session);
          }
          const waits = log().match(/team: the team store did not answer within 1500 ms/g) ?? [];
          assert.equal(
            waits.length,
            3,
            "one wait per hook process: two before (edit, stop), one here",
          );
          assert.match(
            log(),
            /team: skipped opening the team store: the team store did not answer within 1500 ms/,
          );
        },
      );
    } finally {
      for (const c of cleanups.reverse()) await c();
      await server.stop();
    }
  },
});

/** A Claude Code session on the harness fixture repository, as claudeSession() makes it. */
interface ClaudeSession {
  home: string;
  repo: string;
  /** Sends Claude Code fixture payload `name` (fields in `extra` replaced) through `heimdall hook`; its stdout. */
  send(name: string, extra?: Record<string, unknown>): Promise<string>;
  /** The session's state file as the hooks left it. */
  state(): SessionState;
}

/**
 * The harness fixture repository indexed in a fresh home under `base`, and a
 * sender of Claude Code fixture payloads (with fields replaced) through
 * `heimdall hook`, both with `env`.
 */
async function claudeSession(base: string, env: Record<string, string>): Promise<ClaudeSession> {
  const home = join(base, "home");
  const repo = join(base, "shop");
  copyDir(join(FIXTURES, "repo"), repo);
  assert.equal((await cli(home, ["index", repo, "--no-embed"], { env })).code, 0);
  const send = async (name: string, extra: Record<string, unknown> = {}) => {
    const payload = { ...JSON.parse(payloadText(fixture("claude-code", name), repo)), ...extra };
    const r = await hookCli(home, ["--harness", "claude-code"], {
      stdin: JSON.stringify(payload),
      env,
    });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  const state = () =>
    readSession(sessionFile(join(home, "sessions"), "claude-code", "cc-session-1"))!;
  return { home, repo, send, state };
}

/**
 * Runs `fn` with a claudeSession() in a fresh temp folder `base`, with `env`
 * (Ada by default); removes the folder after, pass or fail.
 */
async function withClaudeSession(
  fn: (session: ClaudeSession & { base: string; env: Record<string, string> }) => Promise<void>,
  env: Record<string, string> = { HEIMDALL_AUTHOR: "ada" },
): Promise<void> {
  const base = tempDir();
  try {
    await fn({ ...await claudeSession(base, env), base, env });
  } finally {
    removeTree(base);
  }
}

Deno.test("at the stop, the agent's own summary from the transcript leads the task's progress note, redacted", () =>
  withClaudeSession(async ({ base, home, repo, send, env }) => {
    const token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
    const transcript = join(base, "cc-session-1.jsonl");
    Deno.writeTextFileSync(
      transcript,
      [
        { type: "user", message: { role: "user", content: "Fix compute_total" } },
        {
          type: "assistant",
          message: {
            role: "assistant",
            content: [
              { type: "text", text: `Clamped the discount at zero; t::neg passes. Used ${token}.` },
              { type: "tool_use", name: "Bash", input: { command: "pytest" } },
            ],
          },
        },
      ].map((r) => JSON.stringify(r)).join("\n") + "\n",
    );
    await send("prompt");
    await send("post_edit");
    await send("stop", { transcript_path: transcript });
    const why = await cli(home, ["why", join(repo, "pkg/billing.py"), "--json"], { env });
    const note = (JSON.parse(why.stdout).current as { kind: string; text: string }[])
      .find((m) => m.kind === "note" && m.text.startsWith("Progress:"));
    assert.ok(note, why.stdout);
    assert.match(note.text, /^Progress: .*\nClamped the discount at zero; t::neg passes\./);
    assert.match(note.text, /\[REDACTED:github_token\]/);
    assert.ok(!note.text.includes(token), "the secret never reaches the journal");
    assert.match(note.text, /Edited 1 file/, "the structured note stays beside it");
  }));

Deno.test("a session that ends on a failing run joins the agent's account to that failure, without counting it twice", () =>
  withClaudeSession(async ({ base, home, repo, send, env }) => {
    const transcript = join(base, "cc.jsonl");
    const account = "test_negative_discount still fails: the rounding runs before the clamp.";
    Deno.writeTextFileSync(
      transcript,
      JSON.stringify({
        type: "assistant",
        message: { role: "assistant", content: [{ type: "text", text: account }] },
      }) + "\n" + JSON.stringify({ type: "user", message: { role: "user", content: "ok" } }) + "\n",
    );
    await send("prompt");
    await send("post_edit");
    await send("post_bash_failure");
    await send("stop", { transcript_path: transcript });
    await send("stop", { transcript_path: transcript }); // told twice: joined once
    const why = await cli(home, ["why", join(repo, "pkg/billing.py"), "--json"], { env });
    const attempts = (JSON.parse(why.stdout).current as {
      kind: string;
      text: string;
      count: number;
    }[]).filter((m) => m.kind === "attempt");
    assert.equal(attempts.length, 1, why.stdout);
    assert.match(attempts[0]!.text, /^`pytest -q` failed: .*test_negative_discount/);
    assert.equal(attempts[0]!.text.split("Agent's account: ").length, 2, attempts[0]!.text);
    assert.ok(attempts[0]!.text.endsWith(`Agent's account: ${account}`), attempts[0]!.text);
    assert.equal(attempts[0]!.count, 1, "the account is the same failure, not a repeat");
  }));

Deno.test("hooks wired at both scopes: two hook runs of one event inject it once and record it once; the same payload sent again later is a new event", async () => {
  const base = tempDir();
  try {
    const env = { HEIMDALL_AUTHOR: "ada", HEIMDALL_HOOK_SERVER: "0" };
    const { home, repo, send, state } = await claudeSession(base, env);
    const sym = `${repo}/pkg/billing.py:compute_total`;
    const decision = "Discounts are clamped to [0, 1] before rounding";
    const remembered = await cli(
      home,
      ["remember", "--kind", "decision", "--about", sym, decision],
      {
        env,
      },
    );
    assert.equal(remembered.code, 0, remembered.stderr);
    // As a harness runs the user's and the project's hook: the same bytes, at once.
    const twice = async (name: string) => {
      const stdin = payloadText(fixture("claude-code", name), repo);
      const runs = await Promise.all(
        [0, 1].map(() => hookCli(home, ["--harness", "claude-code"], { stdin, env })),
      );
      for (const r of runs) assert.equal(r.code, 0, r.stderr);
      return runs.map((r) => r.stdout);
    };
    const prompt = await twice("prompt");
    assert.equal(
      prompt.filter((out) => out.includes(decision)).length,
      1,
      `injected once: ${JSON.stringify(prompt)}`,
    );
    assert.equal(prompt.filter((out) => out !== "").length, 1, JSON.stringify(prompt));
    assert.equal(state().prompts, 1, "recorded once");
    await twice("post_edit");
    await twice("post_bash_failure");
    const attempts = async () => {
      const why = await cli(home, ["why", join(repo, "pkg/billing.py"), "--json"], { env });
      return (JSON.parse(why.stdout).current as { kind: string; count: number }[])
        .filter((m) => m.kind === "attempt");
    };
    assert.deepEqual((await attempts()).map((a) => a.count), [1], "a failing run counted once");
    // The person types the same prompt again, after the first was answered: handled.
    await send("prompt");
    assert.equal(state().prompts, 2);
  } finally {
    removeTree(base);
  }
});

Deno.test("a secret in a long test command is redacted before the command is cut: no piece of it reaches an attempt or the session's file", () =>
  withClaudeSession(async ({ home, repo, send, env }) => {
    const token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
    /** `pytest -q` after a long PYTHONPATH, with the token starting `at` characters in. */
    const run = (at: number) => {
      const head = "PYTHONPATH=";
      const tail = " GITHUB_TOKEN=";
      const path = "lib/".repeat(200).slice(0, at - head.length - tail.length);
      return `${head}${path}${tail}${token} pytest -q`;
    };
    await send("prompt");
    await send("post_edit");
    // The attempt's text keeps 200 characters of the command, the session's file 500.
    for (const at of [190, 490]) {
      const command = run(at);
      assert.equal(command.indexOf(token), at);
      await send("post_bash_failure", { tool_input: { command } });
    }
    await send("stop");
    const why = await cli(home, ["why", join(repo, "pkg/billing.py"), "--json"], { env });
    const texts = (JSON.parse(why.stdout).current as { kind: string; text: string }[])
      .filter((m) => m.kind === "attempt" || m.kind === "note").map((m) => m.text);
    assert.ok(texts.some((t) => t.includes(" GITHUB_TOKEN=")), why.stdout);
    const piece = token.slice(0, 10);
    for (const t of texts) assert.ok(!t.includes(piece), `a piece of the token is stored: ${t}`);
    const session = Deno.readTextFileSync(
      sessionFile(join(home, "sessions"), "claude-code", "cc-session-1"),
    );
    assert.ok(!session.includes(piece), "a piece of the token is in the session's file");
  }));

Deno.test("a first prompt with no prior work is told the repository's memory under its name, not as prior work related to the prompt", () =>
  withClaudeSession(async ({ send }) => {
    const ctx = (out: string) => JSON.parse(out).hookSpecificOutput.additionalContext as string;
    const unrelated = ctx(
      await send("prompt", { prompt: "Write a haiku about autumn leaves falling" }),
    );
    assert.match(unrelated, /^Heimdall memory for shop:\nConstraints \(must\):/);
    assert.doesNotMatch(unrelated, /prior work/);
    // A prompt that finds prior work is still headed as such.
    const related = ctx(await send("prompt", { session_id: "s2", prompt: "Fix compute_total" }));
    assert.match(related, /^Heimdall: prior work related to this prompt:\nPrior work/);
  }));

Deno.test("a prompt that finds a function is told what was tried on it and failed, before any edit", () =>
  withClaudeSession(async ({ home, repo, send, env }) => {
    const ctx = (out: string) => JSON.parse(out).hookSpecificOutput.additionalContext as string;
    const tried = "Rounding before the clamp let a negative discount raise the total";
    const failed = await cli(home, [
      "attempt",
      "--about",
      `${join(repo, "pkg/billing.py")}:compute_total`,
      "--failed",
      tried,
    ], { env });
    assert.equal(failed.code, 0, failed.stderr);
    // Also a failure on a function the prompt does not lead to: not told.
    const other = await cli(home, [
      "attempt",
      "--about",
      `${join(repo, "pkg/cart.py")}`,
      "--failed",
      "Caching the cart in a module global leaked carts between requests",
    ], { env });
    assert.equal(other.code, 0, other.stderr);
    const told = ctx(await send("prompt", { prompt: "Fix compute_total" }));
    assert.match(told, /Prior work[^]*billing\.py:9 compute_total/);
    assert.match(told, /Open failed attempts here or next door:\n- Rounding before the clamp/);
    assert.doesNotMatch(told, /Caching the cart/);
  }));

Deno.test("a long prompt ending in a stack trace is told the functions its frames name", () =>
  withClaudeSession(async ({ repo, send }) => {
    const ctx = (out: string) => JSON.parse(out).hookSpecificOutput.additionalContext as string;
    // A log long enough that the prompt's query keeps 32 of its terms, none from the trace.
    const log = Array.from(
      { length: 120 },
      (_, i) => `12:00:${i % 60} worker_pool_${i} handler_${i}_ready queue_depth_${i} ok`,
    ).join("\n");
    const trace = `Traceback (most recent call last):
  File "/srv/shop/pkg/billing.py", line 12, in compute_total
    return apply_discount(subtotal, discount)
  File "/srv/shop/pkg/billing.py", line 6, in apply_discount
    return round(amount * (1 - discount), 2)
TypeError: unsupported operand type(s) for -: 'int' and 'str'`;
    const told = ctx(
      await send("prompt", { prompt: `The nightly job died, log below.\n${log}\n${trace}` }),
    );
    // The innermost frame's function names the file's hit (a file is one hit).
    assert.match(told, /Prior work[^]*\n- \[[A-Z]+\] [^\n]*billing\.py:4 apply_discount/);
    assert.ok(told.includes(join(repo, "pkg/billing.py")), told);
  }));

Deno.test("sessions untouched for 30 days are pruned also for a harness with no session start (Windsurf)", () =>
  withClaudeSession(async ({ home, repo, env }) => {
    const windsurf = async (trajectory: string) => {
      const payload = JSON.parse(payloadText(fixture("windsurf", "prompt"), repo));
      const r = await hookCli(home, ["--harness", "windsurf"], {
        stdin: JSON.stringify({ ...payload, trajectory_id: trajectory }),
        env,
      });
      assert.equal(r.code, 0, r.stderr);
    };
    const sessions = join(home, "sessions");
    await windsurf("t-old");
    const old = sessionFile(sessions, "windsurf", "t-old");
    const longAgo = new Date(Date.now() - 40 * 24 * 3600 * 1000);
    Deno.utimeSync(old, longAgo, longAgo);
    // A new trajectory's first event: Windsurf sends no session start.
    await windsurf("t-new");
    assert.ok(!exists(old), "the 40-day-old session is pruned");
    assert.ok(!exists(`${old}.lock`));
    assert.ok(exists(sessionFile(sessions, "windsurf", "t-new")));
  }));

Deno.test("a test command started in the background is no test run: nothing passed or failed yet", () =>
  withClaudeSession(async ({ home, repo, send, state, env }) => {
    await send("prompt");
    await send("post_edit");
    // Claude Code answers a background Bash call at once, with the task's id and no output.
    await send("post_bash", {
      tool_input: { command: "pytest -q", run_in_background: true },
      tool_response: {
        stdout: "",
        stderr: "",
        interrupted: false,
        isImage: false,
        backgroundTaskId: "b1",
      },
    });
    assert.deepEqual(state().tests, []);
    const why = await cli(home, ["why", join(repo, "pkg/billing.py"), "--json"], { env });
    assert.ok(
      !(JSON.parse(why.stdout).current as { kind: string }[]).some((m) => m.kind === "attempt"),
      why.stdout,
    );
    // The same command run in the foreground is one.
    await send("post_bash");
    assert.deepEqual(state().tests.map((t) => t.outcome), ["pass"]);
  }));

Deno.test("a session's file keeps its latest test runs, however many it makes, and a run past them still makes a new progress note", () =>
  withClaudeSession(async ({ home, repo, send, state, env }) => {
    await send("prompt");
    await send("post_edit");
    for (let i = 0; i < MAX_TEST_RUNS + 5; i++) {
      await send("post_bash_failure", { tool_input: { command: `pytest -q -k run${i}` } });
    }
    assert.equal(state().tests.length, MAX_TEST_RUNS);
    assert.equal(state().tests.at(-1)!.command, `pytest -q -k run${MAX_TEST_RUNS + 4}`);
    await send("stop");
    // One more run: news for the next stop, though the number of runs kept stays the same.
    await send("post_bash_failure", { tool_input: { command: "pytest -q -k last" } });
    await send("stop");
    const why = await cli(home, ["why", join(repo, "pkg/billing.py"), "--json"], { env });
    const notes = (JSON.parse(why.stdout).current as { kind: string; text: string }[])
      .filter((m) => m.kind === "note" && m.text.startsWith("Progress:"));
    assert.ok(notes.some((m) => m.text.includes("`pytest -q -k last`")), why.stdout);
  }));

Deno.test("before an edit the symbols are claimed first; a teammate's claim a call away pauses the edit once, then it goes ahead", () =>
  withClaudeSession(async ({ home, repo, send, env: ada }) => {
    // Bob (another developer on this machine's store) holds the callee.
    const bob = { HEIMDALL_AUTHOR: "bob", HEIMDALL_AGENT: "codex", HEIMDALL_SESSION: "b1" };
    assert.equal(
      (await cli(home, ["claim", `${repo}/pkg/billing.py:apply_discount`], { env: bob })).code,
      0,
    );
    const pre = async (session: string) => ({
      stdout: await send("pre_edit", { session_id: session }),
    });
    const first = JSON.parse((await pre("s1")).stdout).hookSpecificOutput;
    assert.equal(first.permissionDecision, "deny");
    assert.match(
      first.permissionDecisionReason,
      /paused this edit once[\s\S]*bob \(codex\) is changing a callee \(1 hop\): apply_discount/,
    );
    // The claim was made before the edit, not after it.
    const claims = JSON.parse((await cli(home, ["claims", "--json"], { env: ada })).stdout) as {
      claims: { developer: string; qualname: string }[];
    };
    assert.ok(
      claims.claims.some((c) => c.developer === "ada" && c.qualname === "compute_total"),
      JSON.stringify(claims),
    );
    // The same edit again: no second pause.
    assert.doesNotMatch((await pre("s1")).stdout, /permissionDecision/);
    // Another agent session of Ada's is paused once on its own (acknowledgements are per
    // session, as the team store keeps them), also for her first session's claim next door.
    const other = JSON.parse((await pre("s2")).stdout).hookSpecificOutput;
    assert.match(other.permissionDecisionReason, /ada \(claude-code\) is changing compute_total/);
    assert.doesNotMatch((await pre("s2")).stdout, /permissionDecision/);

    // With onConflict "warn", a conflict is a warning in the context, never a deny.
    assert.equal((await cli(home, ["release", "--all"], { env: ada })).code, 0);
    const cfg = join(home, "config.json");
    Deno.writeTextFileSync(
      cfg,
      JSON.stringify({ ...JSON.parse(Deno.readTextFileSync(cfg)), onConflict: "warn" }),
      { mode: 0o600 },
    );
    assert.equal(
      (await cli(home, ["claim", `${repo}/pkg/billing.py:compute_total`], {
        env: { ...bob, HEIMDALL_SESSION: "b2" },
      })).code,
      0,
    );
    const warned = JSON.parse((await pre("s3")).stdout).hookSpecificOutput;
    assert.equal(warned.permissionDecision, undefined);
    assert.match(warned.additionalContext, /bob \(codex\) is changing compute_total/);
  }));

Deno.test("a session's end releases its claims: the person's next session is not paused by its own ended one", () =>
  withClaudeSession(async ({ home, send, env: ada }) => {
    const activeClaims = async () =>
      (JSON.parse((await cli(home, ["claims", "--json"], { env: ada })).stdout) as {
        claims: { developer: string; session: string | null; qualname: string }[];
      }).claims.map((c) => `${c.session}:${c.qualname}`);
    assert.doesNotMatch(await send("pre_edit", { session_id: "s1" }), /permissionDecision/);
    // A turn's stop is not the session's end: its claim stays.
    await send("stop", { session_id: "s1" });
    assert.deepEqual(await activeClaims(), ["s1:compute_total"]);
    await send("session_end", { session_id: "s1" });
    assert.deepEqual(await activeClaims(), [], "the ended session still holds its claim");
    const next = await send("pre_edit", { session_id: "s2" });
    assert.doesNotMatch(next, /permissionDecision|is changing/, "paused by its own ended session");
    assert.deepEqual(await activeClaims(), ["s2:compute_total"]);
  }));

Deno.test("an agent working through a linked folder is told what it would be told through the real one, and claims what it edits", () =>
  withClaudeSession(async ({ base, home, repo, env }) => {
    // The hooks run in their own process here: env (below) sets HEIMDALL_HOOK_SERVER=0.
    assert.equal(
      (await cli(home, [
        "remember",
        "--kind",
        "decision",
        "--about",
        `${repo}/pkg/billing.py:compute_total`,
        "Discounts are clamped to [0, 1]",
      ], { env })).code,
      0,
    );
    // ~/work -> /data/work, or macOS's /tmp -> /private/tmp: the agent's folder and paths.
    const link = join(base, "linked");
    Deno.symlinkSync(base, link);
    const linked = join(link, "shop");
    const send = async (name: string) => {
      const r = await hookCli(home, ["--harness", "claude-code"], {
        stdin: JSON.stringify({
          ...JSON.parse(payloadText(fixture("claude-code", name), linked)),
          session_id: "via-link",
        }),
        cwd: linked,
        env,
      });
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    const pre = await send("pre_edit");
    assert.match(pre, /before you edit pkg\/billing\.py \(compute_total\)/);
    assert.match(pre, /Discounts are clamped/);
    const claims = JSON.parse((await cli(home, ["claims", "--json"], { env })).stdout) as {
      claims: { qualname: string }[];
    };
    assert.deepEqual(claims.claims.map((c) => c.qualname), ["compute_total"]);
    // The prompt names compute_total: a weak hit of the agent's own repository is kept.
    assert.match(await send("prompt"), /prior work related to this prompt[\s\S]*compute_total/);
  }, { HEIMDALL_AUTHOR: "ada", HEIMDALL_HOOK_SERVER: "0" }));

Deno.test("the person's own claims made in no session (the CLI, the MCP claim tool) never pause their agent's edit", () =>
  withClaudeSession(async ({ home, repo, send, env: ada }) => {
    // Ada's agent claims what it is about to change through MCP (or Ada at her terminal).
    assert.equal(
      (await cli(home, ["claim", `${repo}/pkg/billing.py:compute_total`], { env: ada })).code,
      0,
    );
    const own = await send("pre_edit", { session_id: "s1" });
    assert.doesNotMatch(own, /permissionDecision|is changing/, "paused by Ada's own claim");
    // Another developer's claim, also made in no session, still pauses it once.
    assert.equal(
      (await cli(home, ["claim", `${repo}/pkg/billing.py:apply_discount`], {
        env: { HEIMDALL_AUTHOR: "bob" },
      })).code,
      0,
    );
    const theirs = JSON.parse(await send("pre_edit", { session_id: "s1" })).hookSpecificOutput;
    assert.equal(theirs.permissionDecision, "deny");
    assert.match(theirs.permissionDecisionReason, /bob is changing a callee/);
    assert.doesNotMatch(theirs.permissionDecisionReason, /ada/);
  }));

Deno.test("a conflict the person acknowledged at the terminal does not pause their agent's edit, as conflicts --ack promises", () =>
  withClaudeSession(async ({ home, repo, send, env: ada }) => {
    const bob = await cli(home, ["claim", `${repo}/pkg/billing.py:apply_discount`], {
      env: { HEIMDALL_AUTHOR: "bob" },
    });
    assert.equal(bob.code, 0, bob.stderr);
    const acked = await cli(home, ["conflicts", "compute_total", "--ack"], { cwd: repo, env: ada });
    assert.match(acked.stdout, /acknowledged: not shown to ada again/, acked.stdout);
    const edit = await send("pre_edit", { session_id: "s1" });
    assert.doesNotMatch(edit, /permissionDecision|bob is changing/, "shown to ada again");
    // Another person's acknowledgement is not hers.
    const carol = await cli(home, ["claim", `${repo}/pkg/billing.py:compute_total`], {
      env: { HEIMDALL_AUTHOR: "carol" },
    });
    assert.equal(carol.code, 0, carol.stderr);
    assert.equal(
      (await cli(home, ["conflicts", "compute_total", "--ack"], {
        cwd: repo,
        env: { HEIMDALL_AUTHOR: "dave" },
      })).code,
      0,
    );
    const paused = JSON.parse(await send("pre_edit", { session_id: "s1" })).hookSpecificOutput;
    assert.equal(paused.permissionDecision, "deny");
    assert.match(paused.permissionDecisionReason, /carol is changing/);
  }));

Deno.test("an event the harness shows nobody is not counted as told: Cursor's prompt hook leaves prior work, usage and the grep reminder as they were", () =>
  withClaudeSession(async ({ home, repo, env }) => {
    const cursor = async (name: string, extra: Record<string, unknown> = {}) => {
      const payload = { ...JSON.parse(payloadText(fixture("cursor", name), repo)), ...extra };
      const r = await hookCli(home, ["--harness", "cursor"], {
        stdin: JSON.stringify(payload),
        env,
      });
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout);
    };
    const grep = {
      tool_name: "Grep",
      tool_input: { pattern: "discount", path: repo },
      tool_output: "pkg/billing.py",
    };
    assert.deepEqual(await cursor("post_tool", grep), {});
    assert.deepEqual(await cursor("post_tool", grep), {});
    // Cursor takes no context before a prompt: the agent is shown no prior work there.
    assert.deepEqual(await cursor("prompt"), {});
    const state = readSession(
      sessionFile(
        join(home, "sessions"),
        "cursor",
        fixture("cursor", "prompt").payload.conversation_id as string,
      ),
    )!;
    assert.match(state.task?.title ?? "", /^Fix compute_total/, "the prompt still starts the task");
    assert.deepEqual(state.injected, []);
    assert.equal(state.injectedTokens, 0);
    const usage = readTextOrNull(join(home, "logs", "usage.log")) ?? "";
    assert.doesNotMatch(usage, /"event":"inject"/, "the dashboard counts no tokens as injected");
    // No search reached the agent, so its third look-up gets the reminder.
    assert.match((await cursor("post_tool", grep)).additional_context ?? "", /third grep/);
  }));

Deno.test("each Kiro session in a folder is told the repository's constraints and has a task of its own, though Kiro sends no session id", () =>
  withClaudeSession(async ({ home, repo, env }) => {
    const kiro = async (name: string, event: string, extra: Record<string, unknown> = {}) => {
      const payload = { ...JSON.parse(payloadText(fixture("kiro", name), repo)), ...extra };
      const r = await hookCli(home, ["--harness", "kiro", "--event", event], {
        stdin: JSON.stringify(payload),
        env,
        cwd: repo,
      });
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    const state = () => readSession(sessionFile(join(home, "sessions"), "kiro", `cwd:${repo}`))!;
    for (const task of ["Fix compute_total for negative discounts", "Add a refund to the cart"]) {
      // A new Kiro session: a new context window, which has been told nothing yet.
      assert.match(
        await kiro("session_start", "SessionStart"),
        /MUST: Round money to cents only in apply_discount/,
      );
      await kiro("prompt", "UserPromptSubmit", { prompt: task });
      assert.equal(state().task?.title, task);
    }
  }));

Deno.test("the warm server reads the config with each hook's HEIMDALL_* variables: HEIMDALL_ON_CONFLICT=warn on one session only warns", () =>
  withClaudeSession(async ({ home, repo, send, env: ada }) => {
    const bob = { HEIMDALL_AUTHOR: "bob", HEIMDALL_AGENT: "codex", HEIMDALL_SESSION: "b1" };
    assert.equal(
      (await cli(home, ["claim", `${repo}/pkg/billing.py:apply_discount`], { env: bob })).code,
      0,
    );
    // The first hook starts the warm server, with Ada's environment as it was then.
    await send("prompt");
    await waitFor(() => exists(join(home, "hookd.port")), 30_000, "the warm server's port file");
    const pre = await hookCli(home, ["--harness", "claude-code"], {
      stdin: JSON.stringify({
        ...JSON.parse(payloadText(fixture("claude-code", "pre_edit"), repo)),
        session_id: "w1",
      }),
      env: { ...ada, HEIMDALL_ON_CONFLICT: "warn", HEIMDALL_HOOK_DEBUG: "1" },
    });
    assert.equal(pre.code, 0, pre.stderr);
    const log = Deno.readTextFileSync(join(home, "logs", "hooks.log"));
    assert.match(log, /PreToolUse → before_tool in [\d.]+ ms \(server pid \d+\)/, log);
    const answer = JSON.parse(pre.stdout).hookSpecificOutput;
    assert.equal(answer.permissionDecision, undefined, pre.stdout);
    assert.match(
      answer.additionalContext,
      /bob \(codex\) is changing a callee \(1 hop\): apply_discount/,
    );
  }));

Deno.test("an edit the journal took in before any snapshot records and claims only what its texts show changed, never the whole file as added", () =>
  withClaudeSession(async ({ home, repo, send, env: ada }) => {
    const billing = join(repo, "pkg", "billing.py");
    const state = () => readSession(sessionFile(join(home, "sessions"), "claude-code", "s1"))!;
    /** The agent edits with no before-edit hook (or one that failed); the daemon is quicker than the hook. */
    const edit = async (oldText: string, newText: string) => {
      Deno.writeTextFileSync(billing, Deno.readTextFileSync(billing).replace(oldText, newText));
      assert.equal((await cli(home, ["reconcile", billing], { env: ada })).code, 0);
      await send("post_edit", {
        session_id: "s1",
        tool_input: { file_path: billing, old_string: oldText, new_string: newText },
        tool_response: { filePath: billing, success: true },
      });
    };
    await edit("subtotal = sum(prices)", "subtotal = float(sum(prices))");
    assert.deepEqual(state().changed.map((c) => [c.qualname, c.change]), [[
      "compute_total",
      "modified",
    ]]);
    // A function the next edit puts in (after compute_total's last line) is added, and only it.
    await edit(
      "    return apply_discount(subtotal, discount)\n",
      "    return apply_discount(subtotal, discount)\n\n\ndef refund(amount):\n    return -amount\n",
    );
    assert.deepEqual(state().changed.map((c) => [c.qualname, c.change]), [
      ["compute_total", "modified"],
      ["refund", "added"],
    ]);
    const claims = JSON.parse((await cli(home, ["claims", "--json"], { env: ada })).stdout) as {
      claims: { developer: string; qualname: string }[];
    };
    assert.deepEqual(
      claims.claims.filter((c) => c.developer === "ada").map((c) => c.qualname).sort(),
      ["compute_total", "refund"],
      "apply_discount, untouched, is not claimed",
    );
    await send("stop", { session_id: "s1" });
    const why = await cli(home, ["why", billing, "--json"], { env: ada });
    const note = (JSON.parse(why.stdout).current as { kind: string; text: string }[])
      .find((m) => m.kind === "note" && m.text.startsWith("Progress"));
    assert.match(
      note?.text ?? "",
      /Changed symbols: compute_total \(modified\), refund \(added\)$/m,
    );
    // A teammate about to change apply_discount hears of Ada's caller, not of a claim on it.
    const bob = await hookCli(home, ["--harness", "claude-code"], {
      stdin: JSON.stringify({
        ...JSON.parse(payloadText(fixture("claude-code", "pre_edit"), repo)),
        session_id: "b1",
        tool_input: {
          file_path: billing,
          old_string: "return round(amount * (1 - discount), 2)",
          new_string: "return round(amount * (1 - min(discount, 1)), 2)",
        },
      }),
      env: { HEIMDALL_AUTHOR: "bob" },
    });
    const reason = JSON.parse(bob.stdout).hookSpecificOutput.permissionDecisionReason as string;
    assert.match(reason, /ada \(claude-code\) is changing a caller \(1 hop\): compute_total/);
    assert.doesNotMatch(reason, /is changing apply_discount/);
  }));

Deno.test("a session's claims are its developer's whichever process answers: git's name in the session's folder, not in the process's own", async () => {
  const base = tempDir();
  try {
    // The person's name everywhere, and another one this repository sets for itself.
    const global = join(base, "gitconfig");
    Deno.writeTextFileSync(global, "[user]\n\tname = Gus Global\n");
    const env = { HEIMDALL_AUTHOR: "", GIT_CONFIG_GLOBAL: global, HEIMDALL_HOOK_SERVER: "0" };
    const { home, repo } = await claudeSession(base, env);
    for (const args of [["init", "-q"], ["config", "user.name", "Ann Local"]]) {
      const git = new Deno.Command("git", { args, cwd: repo, env, stdout: "null" }).outputSync();
      assert.ok(git.success, args.join(" "));
    }
    const edit = async (cwd: string, old: string, now: string) => {
      const payload = JSON.parse(payloadText(fixture("claude-code", "pre_edit"), repo));
      payload.tool_input = {
        file_path: join(repo, "pkg/billing.py"),
        old_string: old,
        new_string: now,
      };
      const r = await hookCli(home, ["--harness", "claude-code"], {
        stdin: JSON.stringify(payload),
        cwd,
        env,
      });
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    // Answered in the harness's folder (the hook's own process), then elsewhere: a warm
    // server runs in the home folder, where the repository's name is not set.
    await edit(
      repo,
      "return apply_discount(subtotal, discount)",
      "return apply_discount(subtotal, 0)",
    );
    const second = await edit(base, "round(amount * (1 - discount), 2)", "round(amount, 2)");
    assert.doesNotMatch(second, /permissionDecision/, "the session's own claim paused its edit");
    const claims = JSON.parse(
      (await cli(home, ["claims", "--json"], { cwd: repo, env })).stdout,
    ) as { claims: { developer: string; qualname: string }[] };
    assert.deepEqual(
      claims.claims.map((c) => [c.qualname, c.developer]).sort(),
      [["apply_discount", "Ann Local"], ["compute_total", "Ann Local"]],
    );
  } finally {
    removeTree(base);
  }
});
