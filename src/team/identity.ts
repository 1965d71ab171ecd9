/** Who is acting, and how long a claim lasts: read from the environment and the command line. */
import { gitUserName } from "../memory/mod.ts";
import type { Actor } from "./types.ts";

/**
 * Reads an environment variable (Deno.env or a test's map).
 *
 * @internal
 */
export interface Env {
  get(name: string): string | undefined;
}

/**
 * The acting developer, agent and session. Developer: `$HEIMDALL_AUTHOR`,
 * else git's `user.name` (as it reads in `overrides.cwd`, by default this
 * process's folder: a repository may set its own), else `$USER`. Agent:
 * `--agent`, else `$HEIMDALL_AGENT`. Session: `--session`, else
 * `$HEIMDALL_SESSION`. Costs one `git config` subprocess (a few ms) when
 * `$HEIMDALL_AUTHOR` is unset.
 */
export function currentActor(
  overrides: {
    agent?: string | undefined;
    session?: string | undefined;
    cwd?: string | undefined;
  } = {},
  env: Env = Deno.env,
): Actor {
  const nonEmpty = (v: string | undefined) => (v && v.trim() !== "" ? v.trim() : null);
  const developer = nonEmpty(env.get("HEIMDALL_AUTHOR")) ?? gitUserName(overrides.cwd) ??
    nonEmpty(env.get("USER")) ?? nonEmpty(env.get("USERNAME")) ?? "unknown";
  return {
    developer,
    agent: nonEmpty(overrides.agent) ?? nonEmpty(env.get("HEIMDALL_AGENT")),
    session: nonEmpty(overrides.session) ?? nonEmpty(env.get("HEIMDALL_SESSION")),
  };
}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/**
 * How long a claim may last, in seconds: more than nothing, at most a week
 * (claim again to renew; a forgotten longer claim would block teammates for
 * good, and a 10000-year one is a typo). The MCP `claim` tool takes minutes,
 * 1 to a week.
 */
export const CLAIM_TTL_RANGE = { min: 1, max: 7 * 86400 } as const;

/**
 * Parses a duration like `90s`, `45m`, `2h`, `1d` or `1h30m` into seconds;
 * undefined for anything else (the caller names the flag and the value).
 */
export function parseDuration(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (!/^(\d+[smhd])+$/.test(t)) return undefined;
  let total = 0;
  for (const m of t.matchAll(/(\d+)([smhd])/g)) total += Number(m[1]) * UNITS[m[2]!]!;
  return total > 0 ? total : undefined;
}

/** `1h 30m`, `45m`, `20s`: a remaining time for a person. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 === 0 ? `${h}h` : `${h}h ${m % 60}m`;
  return `${Math.round(h / 24)}d`;
}
