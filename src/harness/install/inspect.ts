/**
 * What is wired where (pure over file texts): the Heimdall hook commands and
 * MCP server a harness's config files hold, and which of the events `init`
 * wires are missing, for `heimdall doctor`.
 */
import { type HarnessName, harnessSpec } from "../harnesses/mod.ts";
import { hookMarker, isOurServer } from "./edit_json.ts";
import { harnessFiles, type InstallContext, ownedText, type ReadText } from "./plan.ts";
import { readServer } from "./toml_edit.ts";

/** Heimdall's wiring in one harness and scope. */
export interface Wiring {
  harness: HarnessName;
  scope: "user" | "project";
  hooksFile: string;
  /** Distinct hook command lines found (shell lines). */
  hookCommands: string[];
  /** The events `init` wires for this harness, in its order. */
  events: string[];
  /** Those of `events` with no Heimdall hook in the file (all of them when none is there). */
  missingEvents: string[];
  mcpFile: string | null;
  /** The MCP server's argv, when registered. */
  mcp: string[] | null;
}

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? v as Obj : null;
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

/**
 * The events a file of Heimdall's own wires: those its hook commands name
 * (`--event NAME`, Kiro) and those its code subscribes to (`.on("NAME"`,
 * pi's extension).
 */
function ownedEvents(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/--event\s+["']?([\w-]+)|\.on\(\s*["']([\w-]+)["']/g)) {
    out.add(m[1] ?? m[2]!);
  }
  return [...out];
}

/**
 * The events of a `hooks` object (grouped or flat) that hold a Heimdall
 * command, at any depth of their entries.
 */
function hookedEvents(root: unknown, marker: RegExp): Set<string> {
  const out = new Set<string>();
  const hooks = obj(obj(root)?.hooks);
  for (const [event, list] of Object.entries(hooks ?? {})) {
    const found = new Set<string>();
    collect(list, marker, found);
    if (found.size > 0) out.add(event);
  }
  return out;
}

/**
 * The events `init` wires for `harness`, and which of them `text` (its
 * hooks file) lacks.
 */
function eventsOf(
  harness: HarnessName,
  ctx: InstallContext,
  text: string | null,
): { events: string[]; missing: string[] } {
  const hooks = harnessSpec(harness).install.hooks;
  const marker = hookMarker(harness);
  let events: string[];
  let wired: Set<string>;
  switch (hooks.shape) {
    case "grouped":
      events = [...new Set(hooks.rows.map(([event]) => event))];
      wired = hookedEvents(parse(text), marker);
      break;
    case "flat":
      events = [...hooks.events];
      wired = hookedEvents(parse(text), marker);
      break;
    case "owned": {
      events = ownedEvents(ownedText(harness, ctx) ?? "");
      const ours = hooks.ours ?? ((t: string) => marker.test(t));
      wired = new Set(text !== null && ours(text) ? ownedEvents(text) : []);
      break;
    }
  }
  return { events, missing: events.filter((e) => !wired.has(e)) };
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
      let s: ReturnType<typeof readServer> = null;
      try {
        s = readServer(files.mcp, mtext, "heimdall");
      } catch { /* not TOML: nothing wired that a harness could read */ }
      if (s?.command) mcp = [s.command, ...s.args ?? []];
    } else {
      const root = parse(mtext) as Record<string, Record<string, Record<string, unknown>>> | null;
      const entry = root?.mcpServers?.heimdall;
      if (entry && isOurServer(entry) && typeof entry.command === "string") {
        mcp = [entry.command, ...(Array.isArray(entry.args) ? entry.args.map(String) : [])];
      }
    }
  }
  const { events, missing } = eventsOf(harness, ctx, text);
  return {
    harness,
    scope: ctx.scope,
    hooksFile: files.hooks,
    hookCommands: [...hooks],
    events,
    missingEvents: missing,
    mcpFile: files.mcp,
    mcp,
  };
}
