/**
 * What the hook client and the hook server say to each other: one JSON line
 * each way over a TCP connection to 127.0.0.1 (the only network Heimdall's
 * permissions allow; a Unix socket would need a per-path grant). The server
 * writes its port and a random token to `$HEIMDALL_HOME/hookd.port` (mode
 * 0600); a client proves it may ask by sending the token. Deno APIs only: the
 * client imports this on every tool call.
 */
import type { HookRequest } from "./hook_run.ts";

/** The client's request: the server's token, its build, its acting identity, and the hook call itself. */
export interface HookFrame {
  token: string;
  build: string;
  identity: string;
  request: HookRequest;
}

/** The server's answer: what to print, or why it will not answer (the client then answers itself). */
export type ServerReply =
  | { status: "ok"; stdout: string | null }
  | { status: "refused"; reason: "build" | "identity" };

/** Where the hook server of a home folder says how to reach it. */
export function portFile(homeDir: string): string {
  return `${homeDir}/hookd.port`;
}

/** The server's port and token, or null when no server said where it listens. */
export function readPortFile(homeDir: string): { port: number; token: string } | null {
  try {
    const [port, token] = Deno.readTextFileSync(portFile(homeDir)).trim().split(" ");
    const n = Number(port);
    return Number.isInteger(n) && n > 0 && token ? { port: n, token } : null;
  } catch {
    return null;
  }
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

/** Environment variables a hook passes along (the adapters and the budget read them). */
export function passedEnv(all: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(all)) {
    if (/^(CLAUDE|GEMINI|CODEX|CURSOR|KIRO|WINDSURF|HEIMDALL)_/.test(k)) out[k] = v;
  }
  return out;
}
