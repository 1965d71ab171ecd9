/**
 * `heimdall hook --harness NAME`: the one entry point every harness calls.
 *
 * Runs on every tool call an agent makes, so this process stays small: it
 * uses Deno's own APIs only, reads the event on stdin, and hands it to the
 * warm hook server of its `$HEIMDALL_HOME` over 127.0.0.1 (see
 * `src/harness/hook_server.ts`), printing the answer. When no server runs it
 * starts one in the background for the next call and answers this one
 * itself (loading the modules it needs). Fails open: any error prints
 * nothing, is logged to `$HEIMDALL_HOME/logs/hooks.log`, and exits 0.
 * `HEIMDALL_HOOK_SERVER=0` keeps every call in its own process.
 *
 * Never waits on something stuck: the hook call as a whole gets
 * `HEIMDALL_HOOK_WAIT_MS` (default 300 ms, counted from the process's start,
 * so its own start-up is inside the budget) for the server to answer,
 * connecting included, and never less than {@link MIN_SERVER_WAIT_MS}; past
 * that the hook prints nothing and starts a server that replaces the silent
 * one (see `hook_server.ts`). A payload over 8 MiB is read to its end (the harness
 * never gets EPIPE) and ignored.
 */
import { hookLog } from "../harness/hook_log.ts";
import { ensurePrivateDir, tightenHome, writePrivateFile } from "../config/private_files.ts";
import {
  exchange,
  type HookFrame,
  hookWaitMs,
  identityKey,
  MAX_STDIN_BYTES,
  passedEnv,
  readPortFile,
} from "../harness/hook_wire.ts";
import type { HookRequest } from "../harness/hook_run.ts";
import { spool, unspool } from "../harness/hook_spool.ts";
import { claimEvent, eventFingerprint } from "../harness/hook_once.ts";
import { expandTilde } from "../config/tilde.ts";

export const HELP = `heimdall hook --harness NAME [--budget TOKENS] [--event NAME]
  Reads one hook event (JSON) on stdin from a coding agent's harness
  (claude-code, codex, cursor, windsurf, kiro, pi, gemini), records what it
  means (the session's task, edited paths, changed symbols, test attempts, a
  summary at the end) and answers in that harness's format with context for
  the agent: prior work, constraints, failed attempts, decisions, teammates'
  claims, within a token budget (--budget, or HEIMDALL_HOOK_BUDGET; default
  1500). Never approves a tool call; pauses an edit once, with the
  harness's own deny, when a teammate's claim is within reach (config
  onConflict "warn" only warns). Written into each harness's
  config by \`heimdall init\`. A warm background server per HEIMDALL_HOME
  answers after the first call (HEIMDALL_HOOK_SERVER=0: never); the hook
  waits for it at most HEIMDALL_HOOK_WAIT_MS (default 300 ms) from its start, then prints
  nothing and has a server that did not answer replaced. Any error prints
  nothing, is logged to $HEIMDALL_HOME/logs/hooks.log, and exits 0.`;

/** A server start is not retried within this window (another hook may be starting one). */
const SPAWN_EVERY_MS = 10_000;

/** `$HEIMDALL_HOME`, or `~/.heimdall`, absolute; null when neither can be found. */
export function homeDirFromEnv(): string | null {
  const explicit = Deno.env.get("HEIMDALL_HOME");
  const h = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  const dir = explicit && explicit.trim() !== ""
    ? expandTilde(explicit, h)
    : h
    ? `${h}/.heimdall`
    : null;
  if (dir === null) return null;
  return (dir.startsWith("/") ? dir : `${Deno.cwd()}/${dir}`).replace(/\/+$/, "");
}

/**
 * Identifies the running code: the executable and the hook's modules with
 * their modification times, so a server of an older build is never asked.
 */
export function buildId(): string {
  const parts = [Deno.execPath()];
  const stamp = (p: string | URL) => {
    try {
      parts.push(`${p}@${Deno.statSync(p).mtime?.getTime() ?? 0}`);
    } catch {
      parts.push(String(p));
    }
  };
  stamp(Deno.execPath());
  // Under `deno run`, the modules a server keeps loaded (inside a binary, the binary says it all).
  if (import.meta.url.startsWith("file:")) {
    for (
      const m of [
        "../harness/hook_run.ts",
        "../harness/handler.ts",
        "../harness/search_answer.ts",
        "../search/rank.ts",
        "../search/search.ts",
      ]
    ) {
      stamp(new URL(m, import.meta.url));
    }
  }
  return parts.join("|");
}

/**
 * `--name value` and `--name=value` flags, read leniently: an unknown or
 * malformed flag is ignored, never an error, since a hook fails open and
 * an installed hook line must keep working across versions (`parseFlags`
 * refuses such a command line, as a person's command should be).
 */
function flags(args: string[]): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith("--")) continue;
    const eq = a.indexOf("=");
    if (eq > 0) out[a.slice(2, eq)] = a.slice(eq + 1);
    else if (i + 1 < args.length && !args[i + 1]!.startsWith("--")) out[a.slice(2)] = args[++i]!;
    else out[a.slice(2)] = true;
  }
  return out;
}

/**
 * All of stdin (read directly: a web stream costs milliseconds to set up),
 * or its size when it is larger than {@link MAX_STDIN_BYTES}: the rest is
 * still read to the end and thrown away, so the harness writing it never
 * meets a closed pipe.
 */
async function readStdin(): Promise<string | number> {
  let buf = new Uint8Array(64 * 1024);
  let size = 0;
  for (;;) {
    if (size === buf.length) {
      if (buf.length >= MAX_STDIN_BYTES) {
        const sink = new Uint8Array(256 * 1024);
        for (;;) {
          const n = await Deno.stdin.read(sink);
          if (n === null) return size;
          size += n;
        }
      }
      const next = new Uint8Array(Math.min(buf.length * 2, MAX_STDIN_BYTES));
      next.set(buf);
      buf = next;
    }
    const n = await Deno.stdin.read(buf.subarray(size));
    if (n === null) break;
    size += n;
  }
  return new TextDecoder().decode(buf.subarray(0, size));
}

type Asked =
  | { kind: "answered"; stdout: string | null }
  | { kind: "absent" }
  | { kind: "oversize" }
  | { kind: "refused" }
  | { kind: "late"; pid: number | null; spooled: boolean }
  | { kind: "taken" };

/**
 * Asks the warm server, waiting at most `waitMs` in all: `absent` when none
 * listens, `late` when it did not answer in time (stopped, wedged, or gone
 * mid-request). The event is spooled first (see hook_spool.ts): one the
 * server did not answer stays there for a server to record; one this hook
 * answers itself is taken back, or is `taken` when a server already has it.
 */
async function askServer(
  homeDir: string,
  frame: Omit<HookFrame, "token">,
  waitMs: number,
): Promise<Asked> {
  const at = readPortFile(homeDir);
  if (at === null) return { kind: "absent" };
  let spooled: string | null = null;
  try {
    spooled = spool(homeDir, { identity: frame.identity, request: frame.request });
  } catch (e) {
    hookLog(homeDir, `hook: could not spool the event (${(e as Error).message}); sent as it is`);
  }
  const r = await exchange(
    at.port,
    { ...frame, token: at.token, waitMs, ...(spooled ? { spool: spooled } : {}) },
    waitMs,
  );
  if (r === "late") return { kind: "late", pid: at.pid, spooled: spooled !== null };
  if (typeof r === "object" && r.status === "ok") return { kind: "answered", stdout: r.stdout };
  // Answered here: unless a server took it before it went quiet (it died mid-request).
  if (spooled !== null && !unspool(homeDir, spooled)) return { kind: "taken" };
  if (r === "absent") return { kind: "absent" }; // not our server (a stale port file): it said nothing
  if (r === "oversize") return { kind: "oversize" };
  return { kind: "refused" };
}

/**
 * Starts the hook server in the background, at most once per
 * {@link SPAWN_EVERY_MS}; with `replace`, one that takes the place of a
 * server that stopped answering. The first hook starts it, and so does a
 * `heimdall search` typed when none was listening.
 */
export async function spawnServer(homeDir: string, replace = false): Promise<void> {
  const marker = `${homeDir}/hookd.spawn`;
  try {
    const m = Deno.statSync(marker).mtime?.getTime() ?? 0;
    if (Date.now() - m < SPAWN_EVERY_MS) return;
  } catch { /* never started */ }
  ensurePrivateDir(homeDir);
  writePrivateFile(marker, `${Deno.pid}\n`);
  const { selfArgv } = await import("../harness/install/command.ts");
  const argv = selfArgv("hook");
  const child = new Deno.Command(argv[0]!, {
    args: [...argv.slice(1), "hook", "--serve", ...(replace ? ["--replace"] : [])],
    env: { HEIMDALL_HOME: homeDir },
    cwd: homeDir,
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  child.unref();
}

async function print(text: string | null): Promise<void> {
  if (text === null || text === "") return;
  const data = new TextEncoder().encode(text.endsWith("\n") ? text : text + "\n");
  for (let off = 0; off < data.length;) off += await Deno.stdout.write(data.subarray(off));
}

/**
 * The server's wait when the process's start-up already spent most of the
 * budget (a cold disk cache): a healthy server answers in ~20 ms.
 */
const MIN_SERVER_WAIT_MS = 100;

/** Everything `heimdall hook` does; always resolves to 0. */
async function hookEntry(args: string[], homeDir: string): Promise<number> {
  try {
    const f = flags(args);
    if (f.serve === true) {
      const { serve } = await import("../harness/hook_server.ts");
      return await serve(homeDir, buildId(), f.replace === true);
    }
    tightenHome(homeDir);
    const str = (v: string | true | undefined) => (typeof v === "string" ? v : null);
    // Empty when missing: answerHook names that; "?" in this process's own log lines.
    const harness = str(f.harness) ?? "";
    const stdin = await readStdin();
    if (typeof stdin === "number") {
      hookLog(
        homeDir,
        `${
          harness || "?"
        }: payload of ${stdin} bytes is over the hook's ${MAX_STDIN_BYTES}-byte cap; read to its end and ignored`,
      );
      return 0;
    }
    const request: HookRequest = {
      harness,
      budget: str(f.budget),
      event: str(f.event),
      cwd: Deno.cwd(),
      env: passedEnv(Deno.env.toObject()),
      stdin,
    };
    // Wired at both scopes, the harness sends this event to a sibling hook too: one answers.
    const claim = claimEvent(homeDir, await eventFingerprint(request));
    if (!claim.first) {
      if (request.env.HEIMDALL_HOOK_DEBUG) {
        hookLog(
          homeDir,
          `${
            harness || "?"
          }: the same event is being handled by another hook of this home (hooks wired at both scopes? see heimdall doctor); answered nothing`,
        );
      }
      return 0;
    }
    try {
      return await answerEvent(homeDir, harness, request);
    } finally {
      claim.done();
    }
  } catch (e) {
    hookLog(homeDir, `hook: error: ${(e as Error)?.stack ?? String(e)}`);
  }
  return 0;
}

/** Answers one event this hook claimed: through the warm server, else in this process. */
async function answerEvent(
  homeDir: string,
  harness: string,
  request: HookRequest,
): Promise<number> {
  const useServer = Deno.env.get("HEIMDALL_HOOK_SERVER") !== "0";
  if (useServer) {
    const frame = { build: buildId(), identity: identityKey((n) => Deno.env.get(n)), request };
    const budgetMs = hookWaitMs((n) => Deno.env.get(n));
    const waitMs = Math.max(
      Math.min(budgetMs, MIN_SERVER_WAIT_MS),
      Math.round(budgetMs - performance.now()),
    );
    const asked = await askServer(homeDir, frame, waitMs);
    if (asked.kind === "answered") {
      await print(asked.stdout);
      return 0;
    }
    if (asked.kind === "late") {
      // Fail open now; the next call finds a server that answers.
      hookLog(
        homeDir,
        `${harness || "?"}: hook server pid ${
          asked.pid ?? "?"
        } did not answer within ${waitMs} ms (${budgetMs} ms budget); answered nothing${
          asked.spooled ? ", kept the event for a server to record," : ""
        } and started a replacement`,
      );
      await spawnServer(homeDir, true);
      return 0;
    }
    if (asked.kind === "taken") {
      // A server died holding it: the next one records it.
      hookLog(homeDir, `${harness || "?"}: hook server went away mid-request; answered nothing`);
      await spawnServer(homeDir);
      return 0;
    }
    if (asked.kind === "absent") await spawnServer(homeDir);
  }
  const [{ answerHook, boundJournalWaits }, { homePaths }] = await Promise.all([
    import("../harness/hook_run.ts"),
    import("../config/mod.ts"),
  ]);
  boundJournalWaits();
  await print(await answerHook(request, homePaths(homeDir)));
  return 0;
}

/** `heimdall hook` through the CLI's command table. */
export function run(args: string[], ctx: { home: { home: string } }): Promise<number> {
  return hookEntry(args, ctx.home.home);
}

/** The fast path main.ts takes for `heimdall hook …`. */
export async function hookMain(argv: string[]): Promise<number> {
  // What every other command does (the command table answers it before
  // `run`): a person asking for help never gets a hook that waits on stdin.
  const args = argv[0] === "hook" ? argv.slice(1) : argv;
  if (args.includes("--help") || args.includes("-h")) {
    await print(HELP);
    return 0;
  }
  const homeDir = homeDirFromEnv();
  if (homeDir === null) return 0;
  return await hookEntry(args, homeDir);
}
