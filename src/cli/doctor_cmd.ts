import { parseFlags } from "./flags.ts";
import { HARNESSES } from "../harness/harnesses/mod.ts";
import { isDirectory, join, readTextIfPresent, resolve } from "../files/mod.ts";
import { typedPath } from "./path_arg.ts";
import { UsageError } from "../errors/mod.ts";
import { selfArgv } from "../harness/install/command.ts";
import { inspectWiring, type Wiring } from "../harness/install/inspect.ts";
import type { InstallContext } from "../harness/install/plan.ts";
import { indexHealth, TOOLS } from "../mcp/mod.ts";
import type { Context } from "./context.ts";
import { EXIT } from "./exit_codes.ts";
import { ago, plural } from "../present/fmt.ts";
import { shellLine } from "../present/shell.ts";
import { GONE_ROOT } from "./status_cmd.ts";
import { type FaultKind, readFault } from "../reconcile/mod.ts";
import { Journal } from "../store/mod.ts";
import type { StoredSecret } from "../files/mod.ts";
import { describeStored, findStoredSecrets, screenedNow } from "./stored_secrets.ts";

/** What a person does about each kind of failed pass, for the home at `home` (the daemon retries on its own meanwhile). */
function faultFix(kind: FaultKind, home: string): string {
  const retries = "; the daemon retries on its own";
  switch (kind) {
    case "full":
      return `free space on the disk that holds it: ${shellLine(["df", "-h", home])}${retries}`;
    case "permission":
      return `give your user read and write on it and its files again: ${
        shellLine(["ls", "-la", home])
      }${retries}`;
    case "io":
      return `check the disk that holds it (dmesg names I/O errors)${retries}`;
    case "busy":
    case "locked":
      return `stop the other process that holds the journal's write lock: ${
        shellLine(["fuser", "-v", join(home, "journal.db")])
      } names it${retries}`;
    case "corrupt":
      return "heimdall rebuild";
    case "internal":
      return "a bug: logs/daemon.log has its stack; report it, then restart the daemon";
  }
}

/** The remedy an error message ends with, after its first "; " (the whole message without one). */
function remedyOf(message: string | null): string | null {
  if (message === null) return null;
  const at = message.indexOf("; ");
  return at < 0 ? message : message.slice(at + 2);
}

export const HELP = `heimdall doctor [--json] [--project DIR]
  Checks the wiring end to end: every harness's configured hook command runs
  (and is hooked to every event init wires), the MCP server answers, the
  daemon is up and its passes succeed, the index is fresh and its roots are
  on disk, the semantic leg's model is on (or why not), the vector store
  is sound, and no note or memory holds a secret an older Heimdall stored
  (each named by table and id; heimdall redact removes them). Prints each problem with its fix; exits
  1 when there is any.`;

/** One check's verdict. */
export interface Check {
  name: string;
  status: "ok" | "warn" | "fail";
  detail: string;
  fix: string | null;
}

const PROBE_TIMEOUT_MS = 20_000;

/** The fix for a project's command (`heimdall` by name, from PATH) that finds no heimdall. */
const NO_PATH_FIX =
  "put heimdall on PATH (docs/install.md): a project's files run `heimdall` by name, so they work on every teammate's machine";

/** The last line a failed command printed on stderr, as ` (LINE)`; empty when it printed none. */
function said(stderr: string): string {
  const last = stderr.trim().split("\n").at(-1)?.trim() ?? "";
  return last === "" ? "" : ` (${last.slice(0, 200)})`;
}

/** Runs a command line in a shell with `input` on stdin; never throws. */
async function runLine(
  line: string,
  input: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const t0 = performance.now();
  try {
    const child = new Deno.Command("sh", {
      args: ["-c", line],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env,
    }).spawn();
    const w = child.stdin.getWriter();
    // A command that exits without reading its input (`sh: heimdall: not found`) breaks the
    // pipe: it did start, and its exit code and output say what went wrong.
    await w.write(new TextEncoder().encode(input)).then(() => w.close()).catch(() => {});
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
    }, PROBE_TIMEOUT_MS);
    const out = await child.output();
    clearTimeout(timer);
    return {
      code: out.code,
      stdout: new TextDecoder().decode(out.stdout),
      stderr: new TextDecoder().decode(out.stderr),
      ms: performance.now() - t0,
    };
  } catch (e) {
    return { code: null, stdout: "", stderr: (e as Error).message, ms: performance.now() - t0 };
  }
}

/** Asks an MCP server (argv) for its tools over stdio: initialize, then tools/list. */
export async function probeMcp(
  argv: string[],
  env: Record<string, string>,
): Promise<{ tools: string[] | null; error: string | null; ms: number }> {
  const t0 = performance.now();
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(argv[0]!, {
      args: argv.slice(1),
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
      env,
    }).spawn();
  } catch (e) {
    return { tools: null, error: `cannot start ${argv[0]}: ${(e as Error).message}`, ms: 0 };
  }
  const w = child.stdin.getWriter();
  const send = (m: unknown) => w.write(new TextEncoder().encode(JSON.stringify(m) + "\n"));
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  }, PROBE_TIMEOUT_MS);
  try {
    await send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "heimdall-doctor", version: "1" },
      },
    });
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    let buf = "";
    const dec = new TextDecoder();
    for await (const chunk of child.stdout) {
      buf += dec.decode(chunk, { stream: true });
      for (const line of buf.split("\n").slice(0, -1)) {
        const m = JSON.parse(line);
        if (m.id === 2) {
          await w.close().catch(() => {});
          return {
            tools: (m.result?.tools ?? []).map((t: { name: string }) => t.name),
            error: m.error ? m.error.message : null,
            ms: performance.now() - t0,
          };
        }
      }
      buf = buf.slice(buf.lastIndexOf("\n") + 1);
    }
    return {
      tools: null,
      error: "the server closed stdout without answering tools/list",
      ms: performance.now() - t0,
    };
  } catch (e) {
    return { tools: null, error: (e as Error).message, ms: performance.now() - t0 };
  } finally {
    clearTimeout(timer);
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    await child.status;
  }
}

/** An event every adapter ignores: proves the command runs without recording anything. */
function probePayload(): string {
  return JSON.stringify({
    hook_event_name: "HeimdallDoctorProbe",
    agent_action_name: "heimdall_doctor_probe",
    event: "heimdall_doctor_probe",
    session_id: `heimdall-doctor-${Deno.pid}`,
    cwd: Deno.cwd(),
  });
}

/** Hook errors logged in the last day: how many, and the last one. */
function recentHookErrors(logs: string, now = Date.now()): { count: number; last: string | null } {
  let text: string;
  try {
    text = Deno.readTextFileSync(join(logs, "hooks.log"));
  } catch {
    return { count: 0, last: null };
  }
  let count = 0;
  let last: string | null = null;
  for (const line of text.split("\n")) {
    if (!/ error: /.test(line)) continue;
    const t = Date.parse(line.slice(0, 24));
    if (Number.isFinite(t) && now - t > 24 * 3600 * 1000) continue;
    count++;
    last = line.slice(0, 300);
  }
  return { count, last };
}

/**
 * Whether the journal holds secrets an older build stored before a rule of
 * the screen existed (each named by table and id, never its value): search,
 * `why`, `history` and MCP answers would show them until `heimdall redact`;
 * or, when roots are `indexed`, whether the screen changed since a writer
 * last read their files.
 */
function storedSecretsCheck(ctx: Context, indexed: boolean): Check {
  let found: StoredSecret[];
  let screened: boolean;
  try {
    const j = Journal.open(ctx.home.journal, { readOnly: true });
    try {
      found = findStoredSecrets(j, ctx.home);
      screened = screenedNow(j);
    } finally {
      j.close();
    }
  } catch (e) {
    return {
      name: "stored secrets",
      status: "warn",
      detail: `not checked: ${(e as Error).message}`,
      fix: null,
    };
  }
  if (found.length === 0 && !screened && indexed) {
    // Files indexed by an older screen are not read here (every file, each run): a writer does it.
    return {
      name: "stored secrets",
      status: "warn",
      detail:
        "the secret screen changed since the indexed files were last screened: those it now refuses stay indexed until a writer reads them again",
      fix: "heimdall reconcile --all   (or restart the daemon)",
    };
  }
  if (found.length === 0) {
    return {
      name: "stored secrets",
      status: "ok",
      detail: "no note, memory, personal candidate, task, session file or log holds one",
      fix: null,
    };
  }
  const shown = found.slice(0, 10).map(describeStored).join("; ");
  return {
    name: "stored secrets",
    status: "fail",
    detail: `${plural(found.length, "record")} stored by an older Heimdall ${
      found.length === 1 ? "holds" : "hold"
    } a secret that search, why, history and MCP answers show: ${shown}${
      found.length > 10 ? `; and ${found.length - 10} more` : ""
    }`,
    fix: "heimdall redact   (rewrites only the secrets, to [REDACTED:<kind>])",
  };
}

/** `heimdall doctor`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values } = parseFlags(args, {
    string: ["project"],
    boolean: ["json"],
    positionals: false,
  });
  // A mistyped --project would check a folder nobody wired and report its
  // project-scope hooks missing: say which folder is not there instead.
  const project = values.project === undefined
    ? resolve(Deno.cwd())
    : typedPath(values.project, "--project");
  if (!isDirectory(project)) {
    throw new UsageError(
      `No project folder "${project}": --project takes the folder the agent works in; check the path`,
    );
  }
  const checks: Check[] = [];
  const env = Deno.env.toObject();
  const userHome = env.HOME ?? env.USERPROFILE ?? "";
  const base = {
    userHome,
    project,
    argv: selfArgv(),
    hookArgv: selfArgv("hook"),
    heimdallHome: null,
    budget: null,
    env: (n: string) => env[n],
  };

  // 1. Wiring: what each harness has, and whether its hook command runs.
  const wired: Wiring[] = [];
  for (const harness of HARNESSES) {
    for (const scope of ["user", "project"] as const) {
      const ic: InstallContext = { ...base, scope };
      const w = inspectWiring(harness, ic, readTextIfPresent);
      if (w.hookCommands.length > 0 || w.mcp !== null) wired.push(w);
    }
  }
  if (wired.length === 0) {
    checks.push({
      name: "wiring",
      status: "fail",
      detail:
        "no agent harness is wired to Heimdall (no hooks, no MCP server in any harness config)",
      fix: `heimdall init --harness all   (or --harness ${HARNESSES.join("|")})`,
    });
  }
  const probeEnv = { ...env, HEIMDALL_HOME: ctx.home.home };
  const ranLines = new Set<string>();
  for (const w of wired) {
    if (w.hookCommands.length === 0) {
      checks.push({
        name: `${w.harness} hooks (${w.scope})`,
        status: "warn",
        detail: `MCP server registered but no hooks in ${w.hooksFile}`,
        fix: `heimdall init --harness ${w.harness} --scope ${w.scope}`,
      });
    }
    // One probe per harness and scope: its commands differ only by --event.
    for (const line of w.hookCommands.slice(0, 1)) {
      if (ranLines.has(line)) continue;
      ranLines.add(line);
      const r = await runLine(line, probePayload(), probeEnv);
      checks.push(
        r.code === 0
          ? {
            name: `${w.harness} hook (${w.scope})`,
            status: "ok",
            detail: `the configured command runs (${r.ms.toFixed(0)} ms): ${w.hooksFile}`,
            fix: null,
          }
          : {
            name: `${w.harness} hook (${w.scope})`,
            status: "fail",
            detail: `the configured command ${
              r.code === null
                ? `cannot start (${r.stderr.trim()})`
                : `exited ${r.code}${said(r.stderr)}`
            }: ${line}`,
            fix: r.code === 127 && w.scope === "project"
              ? NO_PATH_FIX
              : `heimdall init --harness ${w.harness} --scope ${w.scope}   (rewrites the command for this heimdall)`,
          },
      );
    }
    if (w.hookCommands.length > 0 && w.missingEvents.length > 0) {
      // Hooks removed by hand (or by an older init): the command runs, but these events never reach it.
      checks.push({
        name: `${w.harness} hook events (${w.scope})`,
        status: "warn",
        detail: `only ${w.events.length - w.missingEvents.length} of the ${w.events.length} ` +
          `events init wires are hooked in ${w.hooksFile}; missing: ${w.missingEvents.join(", ")}`,
        fix: `heimdall init --harness ${w.harness} --scope ${w.scope}`,
      });
    }
  }
  // A harness runs every hook its files hold: wired at both scopes, each event starts two hooks.
  for (const harness of HARNESSES) {
    const both = wired.filter((w) => w.harness === harness && w.hookCommands.length > 0);
    // Run in the home folder, the project's file is the user's own: one file, one hook.
    if (both.length < 2 || new Set(both.map((w) => w.hooksFile)).size < 2) continue;
    checks.push({
      name: `${harness} hooks (user and project)`,
      status: "warn",
      detail: `${
        both.map((w) => w.hooksFile).join(" and ")
      } both run Heimdall's hooks: ${harness} runs both, so each event starts two hooks (sharing a HEIMDALL_HOME, the second finds the event taken and does nothing; with another home, it records the event there too)`,
      fix: `heimdall init --harness ${harness} --scope user --uninstall   (or --scope project)`,
    });
  }
  const errors = recentHookErrors(ctx.home.logs);
  if (errors.count > 0) {
    checks.push({
      name: "hook errors",
      status: "warn",
      detail:
        `${errors.count} hook error(s) logged in the last day (hooks fail open); last: ${errors.last}`,
      fix: `read ${join(ctx.home.logs, "hooks.log")}`,
    });
  }

  // 2. The MCP server answers (each registered command, or this heimdall's own).
  type Where = { harness: string; scope: string };
  const servers = new Map<string, { argv: string[]; wheres: Where[] }>();
  for (const w of wired) {
    if (!w.mcp) continue;
    const key = w.mcp.join("\0");
    const s = servers.get(key) ?? { argv: w.mcp, wheres: [] };
    s.wheres.push({ harness: w.harness, scope: w.scope });
    servers.set(key, s);
  }
  if (servers.size === 0) {
    servers.set("self", { argv: [...selfArgv(), "mcp"], wheres: [] });
  }
  // One init per scope rewrites the configs of that scope that point elsewhere.
  const reinit = (wheres: readonly Where[]) =>
    [...new Set(wheres.map((w) => w.scope))].map((scope) =>
      `heimdall init --harness ${
        wheres.filter((w) => w.scope === scope).map((w) => w.harness).join(",")
      } --scope ${scope}`
    ).join(" && ");
  for (const { argv, wheres } of servers.values()) {
    const where = wheres.length === 0
      ? "this heimdall"
      : wheres.map((w) => `${w.harness} (${w.scope})`).join(", ");
    const r = await probeMcp(argv, probeEnv);
    const missing = r.tools ? TOOLS.map((t) => t.name).filter((n) => !r.tools!.includes(n)) : [];
    checks.push(
      r.tools && missing.length === 0
        ? {
          name: `MCP server, ${where}`,
          status: "ok",
          detail: `answers: ${r.tools.length} tools (${r.ms.toFixed(0)} ms)`,
          fix: null,
        }
        : {
          name: `MCP server, ${where}`,
          status: "fail",
          detail: r.tools
            ? `answers but lacks ${missing.join(", ")} (an older heimdall?)`
            : `does not answer: ${r.error}`,
          fix: wheres.length === 0
            ? "heimdall mcp < /dev/null   (shows why it does not start)"
            : r.tools === null && r.error?.startsWith("cannot start") && !argv[0]!.includes("/")
            ? NO_PATH_FIX
            : `${reinit(wheres)}   (points the configs at this heimdall)`,
        },
    );
  }

  // 3. Daemon and index freshness.
  const config = ctx.config();
  const h = await indexHealth(ctx.home, config);
  const fault = readFault(ctx.home);
  const failing = h.daemon.running && fault !== null && fault.recovered_ms === null &&
    fault.pid === h.daemon.pid;
  checks.push(
    failing
      ? {
        name: "daemon",
        status: "fail",
        detail:
          `running, pid ${h.daemon.pid}, but its passes fail (${fault.failures} in a row, last ${
            ago(fault.at_ms)
          }): ${fault.kind}: ${fault.message}; edits wait until one succeeds`,
        fix: faultFix(fault.kind, ctx.home.home),
      }
      : h.daemon.running
      ? { name: "daemon", status: "ok", detail: `running, pid ${h.daemon.pid}`, fix: null }
      : {
        name: "daemon",
        status: "fail",
        detail: `not running${
          h.writer
            ? ` (a one-shot \`heimdall ${h.writer.role}\`, pid ${
              h.writer.pid ?? "unknown"
            }, writes now; the daemon waits for it)`
            : ""
        }: edits reach the index only through hooks, audits and one-shot commands`,
        fix: "heimdall daemon   (keep it running: a terminal, tmux, or a user service)",
      },
  );
  if (h.journal === null) {
    checks.push({
      name: "index",
      status: "fail",
      detail: h.journal_error ?? "no journal",
      // Roots configured (`roots add`) are indexed where they are, not the
      // current folder. A journal that is there but cannot be used (newer,
      // damaged, not this user's) is not fixed by indexing: its error's remedy.
      fix: !h.journal_missing
        ? remedyOf(h.journal_error)
        : h.roots_not_indexed.length > 0
        ? "heimdall reconcile --all"
        : "heimdall index DIR…",
    });
  } else {
    checks.push(
      h.stale
        ? {
          name: "index",
          status: "fail",
          detail: `may lag the disk: ${h.stale_reason}`,
          // Not `heimdall index`: with no folder it adds the current one as a root.
          fix: h.roots_not_indexed.length > 0
            ? "heimdall reconcile --all"
            : "heimdall daemon   (or heimdall reconcile --all now)",
        }
        : {
          name: "index",
          status: "ok",
          detail: `${h.roots.length} root(s), last audit ${ago(h.last_audit_ms)}, queue ${h.queue}`,
          fix: null,
        },
    );
  }

  if (h.journal !== null) checks.push(storedSecretsCheck(ctx, h.roots.length > 0));

  const gone = h.roots.filter((r) => r.gone).map((r) => r.path);
  if (gone.length > 0) {
    checks.push({
      name: "roots",
      status: "warn",
      detail: `${plural(gone.length, "root")} gone from disk (${gone.join(", ")}): ${GONE_ROOT}`,
      fix: shellLine(["heimdall", "roots", "remove", ...gone]),
    });
  }

  // 4. The semantic leg (the model) and the vector store.
  const sem = h.semantic;
  checks.push(
    sem.on ? { name: "semantic leg", status: "ok", detail: `on: ${sem.model}`, fix: null } : {
      name: "semantic leg",
      status: "warn",
      detail: `off: ${sem.reason} (search runs without it: words, not meaning)`,
      // The command the reason names; the writer's own work when it is only behind.
      fix: /heimdall model (?:pull|import) [^;()]*/.exec(sem.reason)?.[0].trim() ??
        (sem.reason.includes("the daemon (or heimdall index)")
          ? "heimdall daemon   (re-embeds with the active model)"
          : sem.reason.includes("heimdall ")
          ? sem.reason.slice(sem.reason.indexOf("heimdall "))
          : null),
    },
  );
  if (h.vectors) {
    const v = h.vectors;
    checks.push(
      v.fault
        ? {
          name: "vector store",
          status: "fail",
          detail: v.fault,
          // A model that does not load is installed again; a mixed store is re-embedded.
          fix: /heimdall model (?:pull|import) [^;()]*/.exec(v.fault)?.[0].trim() ??
            "heimdall daemon   (re-embeds with the active model)",
        }
        : {
          name: "vector store",
          status: "ok",
          // The active model's vectors, as search counts them: another model's are left aside.
          detail: v.active
            ? `${v.active.vectors} vectors of ${v.active.model} for ${v.chunks} chunks, ${v.active.missing} still to embed${
              v.total > v.active.vectors
                ? `; ${v.total - v.active.vectors} of another model, which search leaves aside`
                : ""
            }`
            : `${v.total} vectors for ${v.chunks} chunks`,
          fix: null,
        },
    );
  }

  const problems = checks.filter((c) => c.status === "fail").length;
  if (values.json) {
    ctx.out(JSON.stringify({ ok: problems === 0, problems, checks }));
  } else {
    for (const c of checks) {
      ctx.out(
        `${
          c.status === "ok" ? "ok  " : c.status === "warn" ? "warn" : "FAIL"
        }  ${c.name}: ${c.detail}`,
      );
      if (c.fix && c.status !== "ok") ctx.out(`      fix: ${c.fix}`);
    }
    ctx.out(problems === 0 ? "no problems" : `${problems} problem(s)`);
  }
  return problems === 0 ? EXIT.ok : EXIT.none;
}
