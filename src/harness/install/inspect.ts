/**
 * What is wired where (pure over file texts): the Heimdall hook commands and
 * MCP server a harness's config files hold, for `heimdall doctor`.
 */
import { type HarnessName, harnessSpec } from "../harnesses/mod.ts";
import { hookMarker, isOurServer } from "./edit_json.ts";
import { harnessFiles, type InstallContext, type ReadText } from "./plan.ts";
import { readServer } from "./toml_edit.ts";

/** Heimdall's wiring in one harness and scope. */
export interface Wiring {
  harness: HarnessName;
  scope: "user" | "project";
  hooksFile: string;
  /** Distinct hook command lines found (shell lines). */
  hookCommands: string[];
  mcpFile: string | null;
  /** The MCP server's argv, when registered. */
  mcp: string[] | null;
}

function collect(v: unknown, marker: RegExp, out: Set<string>, depth = 0): void {
  if (depth > 8 || v === null || typeof v !== "object") return;
  if (Array.isArray(v)) {
    for (const x of v) collect(x, marker, out, depth + 1);
    return;
  }
  for (const [k, x] of Object.entries(v)) {
    if (k === "command" && typeof x === "string" && marker.test(x)) out.add(x);
    else collect(x, marker, out, depth + 1);
  }
}

function parse(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Reads Heimdall's hooks and MCP server from one harness's files. */
export function inspectWiring(harness: HarnessName, ctx: InstallContext, read: ReadText): Wiring {
  const spec = harnessSpec(harness).install;
  const files = harnessFiles(harness, ctx);
  const hooks = new Set<string>();
  const text = read(files.hooks);
  const owned = spec.hooks.shape === "owned" ? spec.hooks : null;
  if (owned?.commands) {
    // A file of our own that is not JSON (pi's extension) names its command its own way.
    const ours = owned.ours ?? ((t: string) => hookMarker(harness).test(t));
    if (text !== null && ours(text)) {
      for (const line of owned.commands(text)) hooks.add(line);
    }
  } else collect(parse(text), hookMarker(harness), hooks);
  let mcp: string[] | null = null;
  if (files.mcp !== null && spec.mcp !== null) {
    const mtext = read(files.mcp);
    if (spec.mcp.format === "toml") {
      const s = readServer(mtext, "heimdall");
      if (s?.command) {
        let args: string[] = [];
        try {
          args = JSON.parse(s.args);
        } catch { /* unusual TOML array: shown without args */ }
        mcp = [JSON.parse(`"${s.command}"`), ...args];
      }
    } else {
      const root = parse(mtext) as Record<string, Record<string, Record<string, unknown>>> | null;
      const entry = root?.mcpServers?.heimdall;
      if (entry && isOurServer(entry) && typeof entry.command === "string") {
        mcp = [entry.command, ...(Array.isArray(entry.args) ? entry.args.map(String) : [])];
      }
    }
  }
  return {
    harness,
    scope: ctx.scope,
    hooksFile: files.hooks,
    hookCommands: [...hooks],
    mcpFile: files.mcp,
    mcp,
  };
}
