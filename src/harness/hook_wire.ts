/**
 * What the hook client and the hook server say to each other: one JSON line
 * each way over a TCP connection to 127.0.0.1 (the only network Heimdall's
 * permissions allow; a Unix socket would need a per-path grant). The server
 * writes its port, a random token and its pid to `$HEIMDALL_HOME/hookd.port`
 * (mode 0600); a client proves it may ask by sending the token, as the first
 * field of its line, so the server can drop a stranger after a few bytes.
 * Deno APIs only: the client imports this on every tool call.
 */
import { after } from "./deadline.ts";
import type { HookRequest } from "./hook_run.ts";
import type { SearchArgs } from "./search_request.ts";
import type { SearchResult } from "../search/types.ts";

/** The client's request: the server's token, its build, its acting identity, and the hook call itself. */
export interface HookFrame {
  token: string;
  build: string;
  identity: string;
  request: HookRequest;
  /** How long the client waits for the answer (ms); the server answers (or gives up) before. */
  waitMs?: number;
  /** The id of the event's spool file (see hook_spool.ts), which the server takes. */
  spool?: string;
}

/**
 * A `heimdall search` typed on a command line, asked of the warm server so
 * that the modules and the journal's pages it needs are already loaded.
 */
export interface SearchFrame {
  token: string;
  build: string;
  identity: string;
  search: SearchArgs;
  /**
   * The client's `HEIMDALL_*` variables: the server reads the config with
   * them in place of its own (`HEIMDALL_MODEL=…`, `HEIMDALL_TEAM_URL=…` on
   * one search's command line count as they would in its own process).
   */
  env: Record<string, string>;
  /** How long the client waits for the answer (ms); the server answers (or gives up) before. */
  waitMs: number;
}

/** A search's answer, with what the command prints on stderr around it. */
export interface SearchAnswer {
  result: SearchResult;
  /** Lines for stderr before the answer (the team store could not be read). */
  warnings: string[];
  /** Why the journal is known to be damaged, when it is (a warning after the answer). */
  damage: string | null;
}

/** "Are you alive?": answered at once, whatever the server is busy with. */
export interface PingFrame {
  token: string;
  ping: true;
}

/** The server's answer: what to print, or why it will not answer (the client then answers itself). */
export type ServerReply =
  | { status: "ok"; stdout: string | null }
  | { status: "searched"; answer: SearchAnswer }
  | { status: "refused"; reason: "build" | "identity" | "model" | "failed" }
  | { status: "pong"; pid: number };

/** The most a hook reads from stdin; a larger payload is drained and ignored. */
export const MAX_STDIN_BYTES = 8 * 1024 * 1024;
/**
 * The longest request line the server reads: a full stdin and the rest, with
 * room for some escaping. A client with a longer one answers in-process.
 */
export const MAX_FRAME_BYTES = MAX_STDIN_BYTES + 1024 * 1024;
/** How long a hook waits for the warm server by default before it fails open. */
export const DEFAULT_WAIT_MS = 300;

/**
 * How long a hook waits for the warm server: `HEIMDALL_HOOK_WAIT_MS` when it
 * is a whole number of ms within 20..10000, else {@link DEFAULT_WAIT_MS}.
 */
export function hookWaitMs(env: (name: string) => string | undefined): number {
  const n = Number(env("HEIMDALL_HOOK_WAIT_MS"));
  return Number.isInteger(n) && n >= 20 && n <= 10_000 ? n : DEFAULT_WAIT_MS;
}

/** Where the hook server of a home folder says how to reach it. */
export function portFile(homeDir: string): string {
  return `${homeDir}/hookd.port`;
}

/** Where the server is: its port, its token and (from this version on) its pid. */
export interface ServerAddress {
  port: number;
  token: string;
  pid: number | null;
}

/** The server's port and token, or null when no server said where it listens. */
export function readPortFile(homeDir: string): ServerAddress | null {
  try {
    const [port, token, pid] = Deno.readTextFileSync(portFile(homeDir)).trim().split(" ");
    const n = Number(port);
    const p = Number(pid);
    return Number.isInteger(n) && n > 0 && token
      ? { port: n, token, pid: Number.isInteger(p) && p > 0 ? p : null }
      : null;
  } catch {
    return null;
  }
}

/** One request line, token first (see {@link framePrefix}). */
export function encodeFrame(frame: HookFrame | SearchFrame | PingFrame): string {
  const { token, ...rest } = frame;
  return JSON.stringify({ token, ...rest }) + "\n";
}

/** How every line of a client holding `token` starts. */
export function framePrefix(token: string): string {
  return `{"token":${JSON.stringify(token)}`;
}

/**
 * Who is acting, as the services read it from the environment (memory's
 * author, the team's actor): a server answers only clients that agree with it.
 */
export function identityKey(env: (name: string) => string | undefined): string {
  return JSON.stringify(
    ["HEIMDALL_AUTHOR", "HEIMDALL_AGENT", "HEIMDALL_SESSION", "USER", "HOME"].map((n) =>
      env(n) ?? null
    ),
  );
}

/** The `HEIMDALL_*` variables of an environment: those that change what the config says. */
export function heimdallEnv(all: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(all)) if (k.startsWith("HEIMDALL_")) out[k] = v;
  return out;
}

/** Environment variables a hook passes along (the payload readers and the budget read them). */
export function passedEnv(all: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(all)) {
    if (/^(CLAUDE|GEMINI|CODEX|CURSOR|KIRO|WINDSURF|HEIMDALL)_/.test(k)) out[k] = v;
  }
  return out;
}

/**
 * Sends `frame` to 127.0.0.1:`port` and reads one reply line, all within
 * `waitMs` (connecting included: a stopped server's backlog still accepts).
 * Resolves to the reply; `"absent"` when nothing listens or it closed
 * without a word (not a server of ours); `"late"` when no whole reply came
 * in time or the connection broke after the request went out; `"oversize"`
 * (nothing sent) when the line is longer than the server reads.
 */
export async function exchange(
  port: number,
  frame: HookFrame | SearchFrame | PingFrame,
  waitMs: number,
): Promise<ServerReply | "absent" | "late" | "oversize"> {
  const data = new TextEncoder().encode(encodeFrame(frame));
  if (data.length > MAX_FRAME_BYTES) return "oversize";
  let conn: Deno.TcpConn | undefined;
  let timedOut = false;
  let done = false;
  const deadline = after(waitMs, "late" as const).then((late) => {
    if (done) return late;
    timedOut = true;
    try {
      conn?.close();
    } catch { /* closed */ }
    return late;
  });
  const talk = async (): Promise<ServerReply | "absent" | "late"> => {
    try {
      conn = await Deno.connect({ hostname: "127.0.0.1", port });
    } catch {
      return timedOut ? "late" : "absent";
    }
    if (timedOut) {
      conn.close();
      return "late";
    }
    try {
      for (let off = 0; off < data.length;) off += await conn.write(data.subarray(off));
      const dec = new TextDecoder();
      const buf = new Uint8Array(64 * 1024);
      let text = "";
      for (;;) {
        const n = await conn.read(buf);
        if (n === null) break;
        text += dec.decode(buf.subarray(0, n), { stream: true });
        if (text.includes("\n")) break;
      }
      if (text === "") return timedOut ? "late" : "absent";
      return JSON.parse(text) as ServerReply;
    } catch {
      return "late";
    } finally {
      try {
        conn.close();
      } catch { /* closed */ }
    }
  };
  try {
    return await Promise.race([talk(), deadline]);
  } finally {
    done = true;
  }
}

/** The warm server of a home as a ping finds it: its pid, and whether it answered. */
export interface ServerState {
  pid: number | null;
  port: number;
  answering: boolean;
}

/**
 * Pings the warm server of `homeDir`: null when none says where it listens
 * or nothing listens there (a stale port file); else its pid and whether it
 * answered within `waitMs` (a stopped or wedged one does not).
 */
export async function pingServer(homeDir: string, waitMs: number): Promise<ServerState | null> {
  const at = readPortFile(homeDir);
  if (at === null) return null;
  const r = await exchange(at.port, { token: at.token, ping: true }, waitMs);
  if (r === "absent") return null;
  const pid = typeof r === "object" && r.status === "pong" ? r.pid : at.pid;
  return { pid, port: at.port, answering: typeof r === "object" && r.status === "pong" };
}
