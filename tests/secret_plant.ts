/**
 * Planting secrets through every way text gets into Heimdall, and searching
 * stored bytes for them afterwards: shared by tests/secrets_test.ts and the
 * fault suite (scripts/faults/secrets.ts). Everything runs the real CLI, MCP
 * server and hook in subprocesses; {@link useMain} points them at another
 * checkout's `main.ts` (to measure a previous version the same way).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cli as runCli, type CliResult, copyDir, MAIN, mcpEnv, writeTree } from "./helpers.ts";
import { type SecretSample, secretSamples } from "./secret_samples.ts";
import { sql } from "./team_fixture.ts";

const FIXTURE = new URL("./fixtures/harness/repo/", import.meta.url).pathname;
let main = MAIN;

/** Runs every later subprocess on `path` (a `main.ts`), e.g. an older checkout's. */
export function useMain(path: string): void {
  main = path;
}
export const SAMPLES: SecretSample[] = secretSamples();
/** Samples that fit on one line without commas (titles, keywords, test names). */
export const ONE_LINERS: SecretSample[] = SAMPLES.filter((s) =>
  !s.line.includes("\n") && !s.line.includes(",")
);
export const ALL_LINES: string = SAMPLES.map((s) => s.line).join("\n");

/** The CLI's permissions, and the loopback network a PostgreSQL team store needs. */
const PG_NET = "--allow-net=127.0.0.1,localhost";
const PERMS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  PG_NET,
];

/** Runs `heimdall ARGS` with HEIMDALL_HOME set, allowed to reach a loopback PostgreSQL. */
export function cli(
  home: string,
  args: string[],
  options: { stdin?: string; cwd?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  return runCli(home, args, { ...options, main, extraPerms: [PG_NET] });
}

/** Every file under `dir`, as text (bytes read as Latin-1, so binary files compare too). */
export function rawFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const latin1 = new TextDecoder("latin1");
  const walk = (d: string) => {
    for (const e of Deno.readDirSync(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) walk(p);
      else if (e.isFile) out.set(p, latin1.decode(Deno.readFileSync(p)));
    }
  };
  walk(dir);
  return out;
}

/** "kind in file" for every planted secret found in `blobs`; empty when none leaked. */
export function leaks(blobs: Map<string, string>, samples: SecretSample[] = SAMPLES): string[] {
  const found: string[] = [];
  for (const [where, text] of blobs) {
    for (const s of samples) if (text.includes(s.secret)) found.push(`${s.kind} in ${where}`);
  }
  return found;
}

/** A repository: the harness fixture plus one file per sample and the filler file. */
export function plantedRepo(base: string): string {
  const repo = join(base, "shop");
  copyDir(FIXTURE, repo);
  const exts = ["py", "ts", "yaml", "json", "md", "go", "rb", "txt"];
  const files: Record<string, string> = {};
  SAMPLES.forEach((s, i) => {
    const ext = exts[i % exts.length]!;
    files[`config/planted_${i}.${ext}`] = `# settings for the billing service\n${s.line}\n`;
  });
  // The old screen read 256 KiB: a token after 412 KiB of ordinary code was indexed.
  const filler = "def helper_%d(x):\n    return x + %d\n\n";
  let big = "";
  for (let i = 0; big.length < 412 * 1024; i++) big += filler.replaceAll("%d", String(i));
  files["pkg/generated.py"] = `${big}\nDEPLOY_KEY = None  # ${SAMPLES[0]!.line}\n`;
  files["pkg/canary_module.py"] = "def canary_function_word():\n    return 1\n";
  writeTree(repo, files);
  return repo;
}

function memoryExport(repo: string, canary: string): string {
  const at = Date.now() - 3600_000;
  const memory = {
    id: "m0000secret",
    kind: "decision",
    text: `${canary} imported decision\n${ALL_LINES}`,
    author: "ada",
    scope: "project",
    valid_from: at,
    valid_to: null,
    recorded_at: at,
    superseded_at: null,
    superseded_by: null,
    forgotten_at: null,
    forgotten_by: null,
    task_id: null,
    outcome: null,
    status: null,
    count: 1,
    last_seen_at: at,
    tests: JSON.stringify(ONE_LINERS.slice(0, 5).map((s) => s.line)),
    fix: ONE_LINERS[5]!.line,
    resolved_by: null,
    resolved_at: null,
    updated_at: at,
    anchors: [{
      ord: 0,
      target: "file",
      original: "pkg/billing.py",
      path: join(repo, "pkg/billing.py"),
      root: repo,
      symbol: null,
      symbol_kind: null,
      name: "billing.py",
      node_id: null,
      struct_hash: null,
      shape: null,
      start_line: null,
      end_line: null,
      state: "active",
      moved_from: null,
      state_at: at,
      checked: null,
    }],
  };
  return `${JSON.stringify({ type: "heimdall-memory", version: 1 })}\n${JSON.stringify(memory)}\n`;
}

/** A real MCP client of `heimdall mcp` run in `cwd` on `home`. */
export async function mcpClient(home: string, cwd: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...PERMS, main, "mcp"],
    env: mcpEnv(home),
    cwd,
    stderr: "pipe",
  });
  const client = new Client({ name: "heimdall-secrets-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** What a tool call answers. */
export type CallResult = { content: { type: string; text: string }[]; isError?: boolean };

/** Plants every sample through the MCP tools; returns what the tools answered. */
export async function plantThroughMcp(
  home: string,
  repo: string,
  canary: string,
): Promise<string[]> {
  const client = await mcpClient(home, repo);
  const answers: string[] = [];
  // An older server (measured by the fault suite) may lack a tool: plant through the others.
  const names = new Set((await client.listTools()).tools.map((t) => t.name));
  const call = async (name: string, args: Record<string, unknown>) => {
    if (!names.has(name)) return;
    const r = await client.callTool({ name, arguments: args }) as CallResult;
    assert.ok(!r.isError, `${name}: ${JSON.stringify(r.content)}`);
    answers.push(r.content.map((c) => c.text).join("\n"));
  };
  try {
    await call("insert_note", {
      title: `${canary} mcp note ${ONE_LINERS[1]!.line}`,
      body: ALL_LINES,
      keywords: ONE_LINERS.map((s) => s.line),
    });
    await call("remember", {
      kind: "decision",
      text: `${canary} mcp decision\n${ALL_LINES}`,
      about: ["pkg/billing.py"],
    });
    await call("record_attempt", {
      about: ["pkg/billing.py"],
      outcome: "failed",
      text: `${canary} mcp attempt\n${ALL_LINES}`,
      tests: ONE_LINERS.map((s) => s.line),
    });
    await call("start_task", { text: `${canary} mcp task ${ONE_LINERS[2]!.line}` });
  } finally {
    await client.close();
  }
  return answers;
}

/** One claude-code hook call, answered in-process; returns what it printed for the agent. */
export async function hook(home: string, payload: Record<string, unknown>): Promise<string> {
  const r = await cli(home, ["hook", "--harness", "claude-code"], {
    stdin: JSON.stringify(payload),
    env: { HEIMDALL_HOOK_SERVER: "0", HEIMDALL_HOOK_DEBUG: "1", HEIMDALL_AUTHOR: "ada" },
  });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

/** A whole agent session whose prompt, commands, test output and last words carry secrets. */
export async function plantThroughHooks(
  home: string,
  repo: string,
  base: string,
  canary: string,
): Promise<string[]> {
  const session = `secret-session-${canary}`;
  const common = { session_id: session, cwd: repo, permission_mode: "default" };
  const transcript = join(base, "transcript.jsonl");
  Deno.writeTextFileSync(
    transcript,
    JSON.stringify({
      type: "assistant",
      message: {
        role: "assistant",
        content: [{ type: "text", text: `${canary} done; I used ${ALL_LINES}` }],
      },
    }) + "\n",
  );
  const out: string[] = [];
  out.push(await hook(home, { ...common, hook_event_name: "SessionStart", source: "startup" }));
  out.push(
    await hook(home, {
      ...common,
      hook_event_name: "UserPromptSubmit",
      prompt: `${canary} deploy compute_total with ${
        ONE_LINERS.map((s) => s.line).join(" ")
      }\n${ALL_LINES}`,
    }),
  );
  const file = join(repo, "pkg/billing.py");
  out.push(
    await hook(home, {
      ...common,
      hook_event_name: "PostToolUse",
      tool_name: "Edit",
      tool_input: { file_path: file, old_string: "a", new_string: "b" },
      tool_response: { filePath: file },
      tool_use_id: "t1",
    }),
  );
  const failing = ONE_LINERS.slice(0, 8).map((s, i) =>
    `FAILED tests/test_billing.py::test_${i} - ${s.line}`
  ).join("\n");
  out.push(
    await hook(home, {
      ...common,
      hook_event_name: "PostToolUseFailure",
      tool_name: "Bash",
      tool_input: { command: `${ONE_LINERS[3]!.line} pytest -q ${canary}` },
      tool_use_id: "t2",
      error: `Exit code 1\n${failing}\n8 failed in 0.03s\n${ALL_LINES}\n`,
    }),
  );
  out.push(
    await hook(home, {
      ...common,
      hook_event_name: "Stop",
      stop_hook_active: false,
      transcript_path: transcript,
    }),
  );
  // A new session asks about the same code: what the first one stored comes back, redacted.
  out.push(
    await hook(home, {
      ...common,
      session_id: `${session}-2`,
      hook_event_name: "UserPromptSubmit",
      prompt: `${canary} why does compute_total deploy fail in billing`,
    }),
  );
  return out;
}

export async function ok(
  home: string,
  args: string[],
  options: { cwd?: string; stdin?: string } = {},
) {
  const r = await cli(home, args, { ...options, env: { HEIMDALL_AUTHOR: "ada" } });
  assert.equal(r.code, 0, `heimdall ${args.slice(0, 2).join(" ")}: ${r.stderr}`);
  return r;
}

/** Plants every sample through the CLI's writers; returns their output. */
export async function plantThroughCli(home: string, repo: string, base: string, canary: string) {
  const outputs: string[] = [];
  const run = async (args: string[], options: { stdin?: string } = {}) =>
    outputs.push((await ok(home, args, { cwd: repo, ...options })).stdout);
  await run([
    "insert",
    "--title",
    `${canary} cli note ${ONE_LINERS.map((s) => s.line).join(" ")}`,
    "--body",
    "-",
    "--keywords",
    ONE_LINERS.map((s) => s.line).join(","),
  ], { stdin: ALL_LINES });
  await run(["remember", "--kind", "note", "--about", ".", `${canary} cli memory\n${ALL_LINES}`]);
  await run([
    "attempt",
    "--about",
    "pkg/billing.py",
    "--failed",
    "--tests",
    ONE_LINERS.map((s) => s.line).join(","),
    `${canary} cli attempt\n${ALL_LINES}`,
  ]);
  const file = join(base, "memories.jsonl");
  Deno.writeTextFileSync(file, memoryExport(repo, canary));
  await run(["import", file]);
  const task = JSON.parse(
    (await ok(home, ["task", "start", `${canary} task ${ONE_LINERS[4]!.line}`, "--json"], {
      cwd: repo,
    })).stdout,
  ) as { id: string };
  await run(["claim", "compute_total"]);
  await run(["task", "handoff", task.id, "--to", "bob", "--note", `${canary} ${ALL_LINES}`]);
  return outputs;
}

/** Every row of every table of the team schema at `url`, as text, by table. */
export async function pgRows(url: string): Promise<Map<string, string>> {
  const tables = await sql<{ table_name: string }>(
    url,
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'heimdall'",
  );
  const rows = new Map<string, string>();
  for (const { table_name } of tables) {
    const dump = await sql<{ row: string }>(
      url,
      `SELECT t::text AS row FROM heimdall.${table_name} t`,
    );
    rows.set(`heimdall.${table_name}`, dump.map((r) => r.row).join("\n"));
  }
  return rows;
}
