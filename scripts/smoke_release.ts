/**
 * Smoke test of a heimdall binary, as the release workflow runs it on each
 * binary its runner can execute: `--version`; `index` of a small fixture and a
 * `search` that finds its function; `hook` answering a prompt payload on
 * stdin with context naming that function; `mcp` listing its tools.
 *
 *   deno run -A scripts/smoke_release.ts -- dist/heimdall [more argv words]
 *
 * Prints one line per check; exits 1 at the first failing check, naming what
 * it ran and what came back.
 */
import { join } from "node:path";

/** One check's outcome. */
export interface SmokeResult {
  check: string;
  ok: boolean;
  detail: string;
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function runWith(argv: string[], env: Record<string, string>, stdin?: string): Promise<Ran> {
  const child = new Deno.Command(argv[0]!, {
    args: argv.slice(1),
    env,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Speaks MCP over the binary's stdio: initialize, then tools/list; returns the tool names. */
async function mcpToolNames(argv: string[], env: Record<string, string>): Promise<string[]> {
  const messages = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "heimdall-smoke", version: "1" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
  ];
  const child = new Deno.Command(argv[0]!, {
    args: [...argv.slice(1), "mcp"],
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(messages.map((m) => JSON.stringify(m) + "\n").join("")));
  // Read replies until the tools/list answer, then close stdin so the server exits.
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  let names: string[] | undefined;
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  try {
    while (names === undefined) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += value;
      for (const line of buffered.split("\n").slice(0, -1)) {
        const msg = JSON.parse(line);
        if (msg.id === 2) names = (msg.result?.tools ?? []).map((t: { name: string }) => t.name);
      }
      buffered = buffered.slice(buffered.lastIndexOf("\n") + 1);
    }
  } finally {
    clearTimeout(timer);
    await w.close().catch(() => {});
    await reader.cancel().catch(() => {});
    await child.stderr.cancel().catch(() => {});
    await child.status;
  }
  if (names === undefined) throw new Error("mcp closed stdout before answering tools/list");
  return names;
}

/** Runs every check against the heimdall started by `argv`; stops at the first failure. */
export async function smoke(argv: string[]): Promise<SmokeResult[]> {
  const work = Deno.makeTempDirSync({ prefix: "heimdall-smoke-" });
  const repo = join(work, "shop");
  const env = {
    HEIMDALL_HOME: join(work, "home"),
    // The hook answers in its own process: no background server outlives the smoke test.
    HEIMDALL_HOOK_SERVER: "0",
    NO_COLOR: "1",
  };
  Deno.mkdirSync(join(repo, "pkg"), { recursive: true });
  Deno.writeTextFileSync(
    join(repo, "pkg", "billing.py"),
    [
      "def compute_total(items, discount):",
      '    """Sum the prices of the items, then take the discount off."""',
      "    total = sum(item.price for item in items)",
      "    return total - discount",
      "",
    ].join("\n"),
  );
  const results: SmokeResult[] = [];
  const check = (name: string, ok: boolean, detail: string) => {
    results.push({ check: name, ok, detail });
    return ok;
  };
  try {
    const v = await runWith([...argv, "--version"], env);
    if (
      !check(
        "version",
        v.code === 0 && /^heimdall \d+\.\d+\.\d+/.test(v.stdout),
        v.stdout + v.stderr,
      )
    ) {
      return results;
    }
    const ix = await runWith([...argv, "index", repo], env);
    if (!check("index", ix.code === 0, ix.stdout + ix.stderr)) return results;
    const s = await runWith([...argv, "search", "compute_total discount"], env);
    if (
      !check(
        "search",
        s.code === 0 && s.stdout.includes("compute_total") && s.stdout.includes("billing.py"),
        s.stdout + s.stderr,
      )
    ) return results;
    const payload = JSON.stringify({
      session_id: "smoke-1",
      cwd: repo,
      hook_event_name: "UserPromptSubmit",
      prompt: "Fix compute_total so a negative discount never raises the total",
    });
    const h = await runWith([...argv, "hook", "--harness", "claude-code"], env, payload);
    let context = "";
    try {
      context = JSON.parse(h.stdout).hookSpecificOutput?.additionalContext ?? "";
    } catch { /* not JSON: the check below fails with what was printed */ }
    if (!check("hook", h.code === 0 && context.includes("compute_total"), h.stdout + h.stderr)) {
      return results;
    }
    let tools: string[] = [];
    let why = "";
    try {
      tools = await mcpToolNames(argv, env);
    } catch (e) {
      why = e instanceof Error ? e.message : String(e);
    }
    check("mcp", tools.includes("search") && tools.includes("symbols"), why || tools.join(", "));
    return results;
  } finally {
    Deno.removeSync(work, { recursive: true });
  }
}

if (import.meta.main) {
  const argv = Deno.args[0] === "--" ? Deno.args.slice(1) : Deno.args;
  if (argv.length === 0) {
    console.error("usage: deno run -A scripts/smoke_release.ts -- PATH/TO/heimdall");
    Deno.exit(2);
  }
  let results: SmokeResult[];
  try {
    results = await smoke(argv);
  } catch (e) {
    // A binary that is not there is a wrong argument, not a failing check.
    if (!(e instanceof Deno.errors.NotFound || e instanceof Deno.errors.PermissionDenied)) throw e;
    console.error(
      `smoke_release: cannot run "${argv[0]}": ${
        e instanceof Deno.errors.NotFound ? "no such program" : "not executable"
      }; pass the path of a built heimdall (\`deno task compile\` writes dist/heimdall)`,
    );
    Deno.exit(2);
  }
  for (const r of results) {
    console.log(`${r.ok ? "ok  " : "FAIL"} ${r.check}${r.ok ? "" : `: ${r.detail.trim()}`}`);
  }
  Deno.exit(results.length === 5 && results.every((r) => r.ok) ? 0 : 1);
}
