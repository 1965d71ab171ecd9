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
