/** What an install plan depends on, and where a harness's files are (pure). */
import { join } from "../../files/mod.ts";

/** Where to install. */
export type Scope = "user" | "project";

/** Everything a plan depends on. */
export interface InstallContext {
  scope: Scope;
  /** The person's home folder (`$HOME`). */
  userHome: string;
  /** The project folder (for project scope). */
  project: string;
  /** The argv that starts Heimdall (see `selfArgv`): the MCP server's command. */
  argv: string[];
  /** The argv that starts a hook (`selfArgv("hook")`). */
  hookArgv: string[];
  /** HEIMDALL_HOME to pass to the hook and server, when not the default. */
  heimdallHome: string | null;
  /** Token budget to pass to the hook, when not the default. */
  budget: number | null;
  /** Environment lookups (`CODEX_HOME`). */
  env: (name: string) => string | undefined;
}

/** Where a harness keeps Heimdall's hooks and MCP server, for a scope. */
export interface HarnessFiles {
  hooks: string;
  /** The MCP config file; null where the harness has none for this scope. */
  mcp: string | null;
}

/** `userPath` under the home for user scope, `projectPath` under the project for project scope. */
export function inScope(ctx: InstallContext, userPath: string, projectPath: string): string {
  return ctx.scope === "user" ? join(ctx.userHome, userPath) : join(ctx.project, projectPath);
}

/**
 * The command a project's files start Heimdall with: `heimdall` from the
 * PATH of whoever runs the agent. Those files are committed and cloned by
 * teammates, whose machines have none of this one's paths.
 */
export const PORTABLE_ARGV: readonly string[] = ["heimdall"];

/**
 * The context a scope's files are written with: at user scope `ctx` as it
 * is (this machine's absolute command and its HEIMDALL_HOME); at project
 * scope {@link PORTABLE_ARGV} and no HEIMDALL_HOME, so the files hold no
 * path of this machine (the agent's own environment names the home).
 */
export function scopedContext(ctx: InstallContext): InstallContext {
  if (ctx.scope === "user") return ctx;
  return { ...ctx, argv: [...PORTABLE_ARGV], hookArgv: [...PORTABLE_ARGV], heimdallHome: null };
}
