/**
 * Hook and MCP latency, each against a baseline measured in the same run.
 *
 * - `heimdall hook` per event kind (session start, prompt, before an edit,
 *   after an edit, after a test run, after a grep), run the way a harness
 *   runs it (a fresh `deno run` process with the installed permissions),
 *   interleaved with a bare `deno run` of an empty script: the overhead is
 *   the hook's p95 minus the bare start's p95 (target: under 50 ms).
 * - The MCP `search` round trip on a warm `heimdall mcp` server, through the
 *   official SDK client, against a `tools/list` round trip on the same server
 *   (the transport's own cost). Target: p95 under 50 ms on a 30,000-file index.
 *
 * Without --home it indexes a copy of the hook test fixture repository (with
 * an architectural map, a decision and a failed attempt). With --home it uses
 * that prebuilt HEIMDALL_HOME read-only for the MCP search timing, and for the
 * hooks a copy of it (so the hooks' writes never touch the original).
 *
 *   deno run -A scripts/bench_hooks.ts [--runs 40] [--queries 60] [--home DIR] [--json]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { selfArgv } from "../src/harness/install/command.ts";
import {
  type Cleanup,
  fmtMs,
  fmtRatio,
  percentile,
  renderTable,
  runBenchMain,
  timeCommand,
  wholeNumber,
} from "./bench_util.ts";

/**
 * The command lines `heimdall init` installs under `deno run` (the same
 * flags, permissions and config): the hook's own entry module, and main.ts.
 */
const HOOK_ARGV = selfArgv("hook").slice(1);
const MAIN_ARGV = selfArgv("main").slice(1);
const REPO = new URL("../tests/fixtures/harness/repo/", import.meta.url).pathname;
const DENO = Deno.execPath();

interface Options {
  runs: number;
  queries: number;
  home?: string;
  json?: boolean;
}

interface Series {
  name: string;
  ms: number[];
}

interface Result {
  runs: number;
  baseline: Series;
  hooks: Series[];
  /** CPU time (user + system) of the same processes: what a loaded machine's wall clock hides. */
  cpu: { baseline: Series; hooks: Series[] } | null;
  mcp: { files: number | null; listTools: Series; search: Series };
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      runs: { type: "string", default: "40" },
      queries: { type: "string", default: "60" },
      home: { type: "string" },
      json: { type: "boolean" },
    },
  });
  return {
    runs: wholeNumber("runs", values.runs, 5),
    queries: wholeNumber("queries", values.queries, 5),
    ...(values.home ? { home: values.home } : {}),
    ...(values.json ? { json: true } : {}),
  };
}

function copyDir(from: string, to: string): void {
  Deno.mkdirSync(to, { recursive: true });
  for (const e of Deno.readDirSync(from)) {
    if (e.isDirectory) copyDir(join(from, e.name), join(to, e.name));
    else Deno.copyFileSync(join(from, e.name), join(to, e.name));
  }
}

async function heimdall(home: string, args: string[], cwd?: string): Promise<void> {
  const r = await timeCommand(
    DENO,
    [...MAIN_ARGV, ...args],
    {
      env: { HEIMDALL_HOME: home, HEIMDALL_AUTHOR: "bench", DENO_NO_UPDATE_CHECK: "1" },
      ...(cwd ? { cwd } : {}),
    },
  );
  if (r.code !== 0) throw new Error(`heimdall ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
}

/** The payloads of one Claude Code session, by event kind. */
function payloads(repo: string, session: string): Record<string, unknown> {
  const base = {
    session_id: session,
    transcript_path: "/dev/null",
    cwd: repo,
    permission_mode: "default",
  };
  const file = join(repo, "pkg", "billing.py");
  const edit = {
    file_path: file,
    old_string: "    subtotal = sum(prices)",
    new_string: "    subtotal = sum(prices)",
  };
  return {
    "session start": { ...base, hook_event_name: "SessionStart", source: "startup" },
    "prompt (prior work)": {
      ...base,
      hook_event_name: "UserPromptSubmit",
      prompt: "fix the rounding of negative discounts in compute_total",
    },
    "before an edit": {
      ...base,
      hook_event_name: "PreToolUse",
      tool_name: "Edit",
      tool_input: edit,
    },
    "after an edit": {
      ...base,
      hook_event_name: "PostToolUse",
      tool_name: "Edit",
      tool_input: edit,
      tool_response: {},
    },
    "after a test run": {
      ...base,
      hook_event_name: "PostToolUseFailure",
      tool_name: "Bash",
      tool_input: { command: "pytest -q" },
      error:
        "Exit code 1\nFAILED tests/test_billing.py::test_negative_discount - assert 15.0 == 10.0\n1 failed, 1 passed in 0.03s\n",
    },
    "after a grep": {
      ...base,
      hook_event_name: "PostToolUse",
      tool_name: "Grep",
      tool_input: { pattern: "x" },
      tool_response: {},
    },
  };
}

async function timeHook(home: string, repo: string, payload: unknown): Promise<number> {
  const child = new Deno.Command(DENO, {
    args: [...HOOK_ARGV, "hook", "--harness", "claude-code"],
    env: { HEIMDALL_HOME: home, HEIMDALL_AUTHOR: "bench", DENO_NO_UPDATE_CHECK: "1" },
    cwd: repo,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const t0 = performance.now();
  const p = child.spawn();
  const w = p.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify(payload)));
  await w.close();
  const out = await p.output();
  const ms = performance.now() - t0;
  if (out.code !== 0) {
    throw new Error(`hook exited ${out.code}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return ms;
}

/**
 * CPU time (user + system, ms) of one process, read with bash's `times`
 * after it exits; null when bash is not there.
 */
async function cpuOf(
  argv: string[],
  stdinFile: string,
  env: Record<string, string>,
  cwd: string,
): Promise<number | null> {
  try {
    const out = await new Deno.Command("bash", {
      args: ["-c", '"$@" < "$STDIN_FILE" > /dev/null 2>&1; times', "bench", ...argv],
      env: { ...env, STDIN_FILE: stdinFile },
      cwd,
      stdout: "piped",
      stderr: "null",
    }).output();
    // `times` prints the shell's own times, then its children's: "0m0.031s 0m0.012s".
    const line = new TextDecoder().decode(out.stdout).trim().split("\n").at(-1) ?? "";
    const secs = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) =>
      Number(m[1]) * 60 + Number(m[2])
    );
    return secs.length === 2 ? (secs[0]! + secs[1]!) * 1000 : null;
  } catch {
    return null;
  }
}

const QUERIES = [
  "parse the configuration file",
  "retry with exponential backoff",
  "open a database connection",
  "read a file line by line",
  "handle a signal and shut down cleanly",
  "hash the contents of a file",
  "compute the total with a discount",
  "walk a directory tree recursively",
  "format a date for a log line",
  "validate the command line arguments",
  "serialize an object to json",
  "lock a file so only one process writes",
];

async function runBench(opts: Options, cleanup: Cleanup): Promise<Result> {
  const tmp = Deno.makeTempDirSync({ prefix: "heimdall-bench-hooks-" });
  cleanup.add(`remove ${tmp}`, () => Deno.removeSync(tmp, { recursive: true }));
  const repo = join(tmp, "shop");
  copyDir(REPO, repo);
  const hookHome = join(tmp, "home");
  if (opts.home) {
    // The hooks write (sessions, hints, memory): give them a copy of the prebuilt home.
    copyDir(opts.home, hookHome);
  }
  await heimdall(hookHome, ["index", repo]);
  const sym = `${repo}/pkg/billing.py:compute_total`;
  await heimdall(hookHome, [
    "remember",
    "--kind",
    "decision",
    "--about",
    sym,
    "Discounts are clamped to [0, 1]",
  ]);
  await heimdall(hookHome, [
    "attempt",
    "--about",
    sym,
    "--failed",
    "Rounding first broke the negative discount test",
  ]);
  const empty = join(tmp, "empty.ts");
  Deno.writeTextFileSync(empty, "");

  // Warm Deno's module cache and the hook server, then interleave: hook kinds and the bare start alternate.
  await timeCommand(DENO, ["run", empty]);
  const kinds = Object.keys(payloads(repo, "warm"));
  for (const k of kinds) await timeHook(hookHome, repo, payloads(repo, "warm")[k]);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      Deno.statSync(join(hookHome, "hookd.port"));
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await new Promise((r) => setTimeout(r, 1000)); // the server loads its modules
  for (const k of kinds) await timeHook(hookHome, repo, payloads(repo, "warm2")[k]);
  const baseline: Series = { name: "bare `deno run` of an empty script", ms: [] };
  const hooks: Series[] = kinds.map((name) => ({ name, ms: [] }));
  for (let i = 0; i < opts.runs; i++) {
    const p = payloads(repo, `bench-${i}`);
    baseline.ms.push((await timeCommand(DENO, ["run", empty])).ms);
    for (const s of hooks) s.ms.push(await timeHook(hookHome, repo, p[s.name]));
  }

  // CPU time of the same processes (a few samples each): not inflated by other load on the machine.
  let cpu: Result["cpu"] = {
    baseline: { name: baseline.name, ms: [] },
    hooks: kinds.map((name) => ({ name, ms: [] })),
  };
  const hookArgv = [DENO, ...HOOK_ARGV, "hook", "--harness", "claude-code"];
  const hookEnv = {
    HEIMDALL_HOME: hookHome,
    HEIMDALL_AUTHOR: "bench",
    DENO_NO_UPDATE_CHECK: "1",
    PATH: Deno.env.get("PATH") ?? "",
  };
  const emptyIn = join(tmp, "empty.in");
  Deno.writeTextFileSync(emptyIn, "");
  for (let i = 0; i < Math.max(5, Math.floor(opts.runs / 3)); i++) {
    const c = await cpuOf([DENO, "run", empty], emptyIn, hookEnv, repo);
    if (c === null) continue;
    cpu.baseline.ms.push(c);
    const p = payloads(repo, `cpu-${i}`);
    for (const s of cpu.hooks) {
      const f = join(tmp, "payload.json");
      Deno.writeTextFileSync(f, JSON.stringify(p[s.name]));
      const h = await cpuOf(hookArgv, f, hookEnv, repo);
      if (h !== null) s.ms.push(h);
    }
  }
  if (cpu.baseline.ms.length === 0) cpu = null;

  // MCP: a warm server; search round trips against tools/list round trips.
  const mcpHome = opts.home ?? hookHome;
  const transport = new StdioClientTransport({
    command: DENO,
    args: [...MAIN_ARGV, "mcp"],
    env: {
      HEIMDALL_HOME: mcpHome,
      DENO_NO_UPDATE_CHECK: "1",
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
    },
    cwd: repo,
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(transport);
  cleanup.add("close the MCP client", () => client.close());
  const status = await client.callTool({ name: "status", arguments: {} });
  const paths = (status.structuredContent as { journal: { paths: Record<string, number> } | null })
    ?.journal?.paths;
  const files = paths ? Object.values(paths).reduce((a, b) => a + b, 0) : null;
  for (let i = 0; i < 5; i++) {
    await client.callTool({ name: "search", arguments: { query: QUERIES[i % QUERIES.length]! } });
  }
  const listTools: Series = { name: "MCP tools/list round trip", ms: [] };
  const search: Series = { name: "MCP search round trip", ms: [] };
  for (let i = 0; i < opts.queries; i++) {
    let t0 = performance.now();
    await client.listTools();
    listTools.ms.push(performance.now() - t0);
    t0 = performance.now();
    const r = await client.callTool({
      name: "search",
      arguments: { query: QUERIES[i % QUERIES.length]! },
    });
    search.ms.push(performance.now() - t0);
    if (r.isError) throw new Error(`search failed: ${JSON.stringify(r.content)}`);
  }
  return { runs: opts.runs, baseline, hooks, cpu, mcp: { files, listTools, search } };
}

function render(r: Result): string {
  const p = (s: Series, q: number) => percentile(s.ms, q);
  const base50 = p(r.baseline, 50), base95 = p(r.baseline, 95);
  const rows = [
    [r.baseline.name, fmtMs(base50), fmtMs(base95), "", "", ""],
    ...r.hooks.map((s) => [
      `hook: ${s.name}`,
      fmtMs(p(s, 50)),
      fmtMs(p(s, 95)),
      fmtMs(p(s, 50) - base50),
      fmtMs(p(s, 95) - base95),
      fmtRatio(p(s, 95), base95),
    ]),
  ];
  const mcpRows = [r.mcp.listTools, r.mcp.search].map((s) => [
    s.name,
    fmtMs(p(s, 50)),
    fmtMs(p(s, 95)),
    fmtRatio(p(s, 95), p(r.mcp.listTools, 95)),
  ]);
  const cpuRows = r.cpu
    ? [
      [r.cpu.baseline.name, fmtMs(p(r.cpu.baseline, 50)), ""],
      ...r.cpu.hooks.map((s) => [
        `hook: ${s.name}`,
        fmtMs(p(s, 50)),
        fmtMs(p(s, 50) - p(r.cpu!.baseline, 50)),
      ]),
    ]
    : [];
  return [
    `heimdall hook, ${r.runs} runs per kind, interleaved with a bare Deno start (Claude Code payloads)`,
    renderTable(["process", "p50", "p95", "overhead p50", "overhead p95", "p95 ratio"], rows, [
      1,
      2,
      3,
      4,
      5,
    ]),
    "",
    ...(r.cpu
      ? [
        `CPU time (user + system) of the hook process, ${r.cpu.baseline.ms.length} samples each ` +
        "(the warm server's work is not in it)",
        renderTable(["process", "CPU p50", "overhead p50"], cpuRows, [1, 2]),
        "",
      ]
      : []),
    `heimdall mcp, warm server, ${r.mcp.search.ms.length} queries, index of ${
      r.mcp.files ?? "?"
    } files`,
    renderTable(["round trip", "p50", "p95", "p95 vs tools/list"], mcpRows, [1, 2, 3]),
  ].join("\n");
}

if (import.meta.main) {
  Deno.exit(await runBenchMain("bench_hooks", parseOptions, runBench, render));
}
