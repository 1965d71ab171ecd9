/**
 * What `heimdall init` writes for a harness, where (pure: file contents in,
 * file contents out; the caller reads, backs up and writes). The one engine
 * of every harness's install description (`install` in its module under
 * `harnesses/`): its files for the scope, its hooks in one of three shapes
 * (Claude-shaped groups, flat entries, a file of Heimdall's own), and its MCP
 * server in JSON `mcpServers` or Codex's TOML.
 */
import { type HarnessName, harnessSpec } from "../harnesses/mod.ts";
import type { HookFile, McpConfig } from "../spec.ts";
import { shellLine, shellQuote } from "./command.ts";
import { type HarnessFiles, type InstallContext, scopedContext } from "./context.ts";
import {
  type Containers,
  containers,
  hookMarker,
  type HookWant,
  setFlatHooks,
  setGroupedHooks,
  setMcpServer,
} from "./edit_json.ts";
import { ConfigEditError, formatJsonDoc, parseJsonDoc } from "./json_file.ts";
import { readServer, removeServer, setServer } from "./toml_edit.ts";

export type { HarnessFiles, InstallContext, Scope } from "./context.ts";

/** What an install added to one file, so an uninstall takes out exactly that. */
export interface FileRecord {
  /** Heimdall created the file. */
  created: boolean;
  /** Containers Heimdall created in it (`hooks`, `hooks.SessionStart`, `mcpServers`…). */
  containers: string[];
}

/** The install records of every file, by absolute path (kept in `$HEIMDALL_HOME/init.json`). */
export type Manifest = Record<string, FileRecord>;

/** One file to change: its text before and after (null: absent / delete). */
export interface FileChange {
  path: string;
  before: string | null;
  after: string | null;
  /** What the change is, for a person (`hooks`, `MCP server`). */
  what: string;
  /** For an install, the file's record to keep; null for an uninstall. */
  record: FileRecord | null;
}

/** The changes for one harness, and what a person should know. */
export interface Plan {
  harness: HarnessName;
  changes: FileChange[];
  notes: string[];
}

/** Reads a file's text, or null when it does not exist. */
export type ReadText = (path: string) => string | null;

function hookCommand(ctx: InstallContext, harness: HarnessName, event: string | null): string {
  const words = [...ctx.hookArgv, "hook", "--harness", harness];
  if (ctx.budget !== null) words.push("--budget", String(ctx.budget));
  if (event !== null) words.push("--event", event);
  const line = shellLine(words);
  return ctx.heimdallHome ? `HEIMDALL_HOME=${shellQuote(ctx.heimdallHome)} ${line}` : line;
}

function serverEnv(ctx: InstallContext): Record<string, string> {
  return ctx.heimdallHome ? { HEIMDALL_HOME: ctx.heimdallHome } : {};
}

/** The MCP server entry of JSON configs (`type` only where the harness wants it). */
function serverEntry(ctx: InstallContext, withType: boolean): Record<string, unknown> {
  const env = serverEnv(ctx);
  return {
    ...(withType ? { type: "stdio" } : {}),
    command: ctx.argv[0]!,
    args: [...ctx.argv.slice(1), "mcp"],
    ...(Object.keys(env).length > 0 ? { env } : {}),
  };
}

/**
 * Edits a JSON file through `edit`; no change when the object comes out
 * equal. An uninstall removes the file only when Heimdall created it and
 * nothing else is left in it.
 */
function jsonChange(
  path: string,
  read: ReadText,
  what: string,
  uninstall: boolean,
  manifest: Manifest,
  edit: (root: Record<string, unknown>, c: Containers) => void,
  emptyShape: (root: Record<string, unknown>) => boolean = (r) => Object.keys(r).length === 0,
): FileChange | null {
  const before = read(path);
  let doc;
  try {
    doc = parseJsonDoc(path, before);
  } catch (e) {
    if (e instanceof ConfigEditError) throw new ConfigEditError(path, e.message);
    throw e;
  }
  const known = manifest[path];
  const c = containers(known ? new Set(known.containers) : uninstall ? "emptied" : null);
  const old = JSON.stringify(doc.value);
  try {
    edit(doc.value, c);
  } catch (e) {
    if (e instanceof ConfigEditError) {
      throw new ConfigEditError(path, e.message.replace('""', `"${path}"`));
    }
    throw e;
  }
  if (JSON.stringify(doc.value) === old) return null;
  // With no record, a file left with nothing but what Heimdall put there was Heimdall's.
  const after = uninstall && (known?.created || !known) && emptyShape(doc.value)
    ? null
    : formatJsonDoc(doc);
  if (before === null && after === null) return null;
  const record = uninstall ? null : {
    created: before === null || (known?.created ?? false),
    containers: [...new Set([...(known?.containers ?? []), ...c.created])],
  };
  return { path, before, after, what, record };
}

type Obj = Record<string, unknown>;

/** How a JSON hooks file is edited: the edit, and the shape of a file with nothing else left. */
interface JsonHookEdit {
  edit(root: Obj, c: Containers): void;
  empty?(root: Obj): boolean;
}

/**
 * Puts `header`'s keys first in `root` where absent (noting them created),
 * or on an uninstall that left no hooks, removes those Heimdall created.
 */
function keepHeader(root: Obj, header: Obj, uninstall: boolean, c: Containers): void {
  if (uninstall) {
    if (root.hooks !== undefined) return;
    // Unknown ("emptied"): the header stays, and the file goes when nothing else is left.
    const record = c.removable === "emptied" ? null : c.removable;
    for (const k of Object.keys(header)) if (record?.has(k)) delete root[k];
    return;
  }
  const missing = Object.entries(header).filter(([k]) => root[k] === undefined);
  if (missing.length === 0) return;
  const { hooks, ...rest } = root;
  for (const k of Object.keys(root)) delete root[k];
  Object.assign(root, Object.fromEntries(missing), rest, { hooks });
  for (const [k] of missing) c.created.add(k);
}

/** The edit of a grouped or flat hooks file; null for a file of Heimdall's own. */
function jsonHookEdit(
  hooks: HookFile,
  command: string,
  marker: RegExp,
  uninstall: boolean,
): JsonHookEdit | null {
  switch (hooks.shape) {
    case "grouped": {
      const wants = uninstall ? [] : hooks.rows.map(([event, matcher]): HookWant => ({
        event,
        matcher,
        entry: hooks.handler(command, event),
      }));
      return { edit: (r, c) => setGroupedHooks(r, wants, marker, c) };
    }
    case "flat": {
      const wants = uninstall ? [] : hooks.events.map((event): HookWant => ({
        event,
        matcher: null,
        entry: hooks.entry(command, event),
      }));
      const header = hooks.header;
      if (!header) return { edit: (r, c) => setFlatHooks(r, wants, marker, c) };
      return {
        edit: (r, c) => {
          setFlatHooks(r, wants, marker, c);
          keepHeader(r, header, uninstall, c);
        },
        empty: (r) => Object.keys(r).every((k) => k in header),
      };
    }
    case "owned":
      return null;
  }
}

/** Codex's `[mcp_servers.heimdall]`, set or removed in place (see `toml_edit.ts`). */
function tomlChange(
  path: string,
  ctx: InstallContext,
  read: ReadText,
  uninstall: boolean,
  manifest: Manifest,
): FileChange | null {
  const before = read(path);
  const existing = readServer(path, before, "heimdall");
  if (
    existing &&
    !/(?:heimdall|main\.ts)/.test([existing.command ?? "", ...existing.args ?? []].join(" "))
  ) {
    throw new ConfigEditError(
      path,
      `"${path}" already has [mcp_servers.heimdall] that does not run Heimdall; rename or remove it first`,
    );
  }
  let after: string | null = uninstall
    ? removeServer(path, before, "heimdall")
    : setServer(path, before, "heimdall", {
      command: ctx.argv[0]!,
      args: [...ctx.argv.slice(1), "mcp"],
      env: serverEnv(ctx),
    });
  const known = manifest[path];
  // With no record, a file that held nothing but Heimdall's table was Heimdall's.
  if (uninstall && after === "" && (known?.created || (!known && before !== ""))) after = null;
  if (after === before) return null;
  return {
    path,
    before,
    after,
    what: "MCP server",
    record: uninstall
      ? null
      : { created: before === null || (manifest[path]?.created ?? false), containers: [] },
  };
}

/** The `heimdall` entry in JSON `mcpServers`, set or removed. */
function mcpEdit(ctx: InstallContext, mcp: McpConfig, file: string, uninstall: boolean) {
  return (r: Obj, c: Containers) =>
    setMcpServer(
      r,
      "mcpServers",
      uninstall ? null : serverEntry(ctx, mcp.format === "json" && mcp.stdioType),
      file,
      c,
    );
}

/** The text init writes for a hooks file of Heimdall's own (pi, Kiro); null for other shapes. */
export function ownedText(harness: HarnessName, scoped: InstallContext): string | null {
  const ctx = scopedContext(scoped);
  const hooks = harnessSpec(harness).install.hooks;
  if (hooks.shape !== "owned") return null;
  return hooks.text({
    ctx,
    command: (event) => hookCommand(ctx, harness, event),
    hookArgv: ctx.hookArgv,
    env: serverEnv(ctx),
  });
}

/** The files {@link planHarness} edits for `harness` in `ctx.scope`. */
export function harnessFiles(harness: HarnessName, ctx: InstallContext): HarnessFiles {
  return harnessSpec(harness).install.files(ctx);
}

/**
 * The plan for one harness: install (or, with `uninstall`, remove exactly)
 * Heimdall's hooks and MCP server, at project scope with the portable
 * command of {@link scopedContext} (a project's files are committed). Throws {@link ConfigEditError} for a file
 * that cannot be edited safely (comments, invalid JSON or TOML, a changed
 * JSON object with a key twice, a foreign `heimdall` server, a TOML form that
 * cannot be edited in place, a file in the place of one of Heimdall's own).
 */
export function planHarness(
  harness: HarnessName,
  ctx: InstallContext,
  read: ReadText,
  uninstall: boolean,
  manifest: Manifest = {},
): Plan {
  ctx = scopedContext(ctx);
  const spec = harnessSpec(harness).install;
  const files = harnessFiles(harness, ctx);
  const marker = hookMarker(harness);
  const changes: (FileChange | null)[] = [];
  const hooks = jsonHookEdit(spec.hooks, hookCommand(ctx, harness, null), marker, uninstall);
  const mcp = spec.mcp;
  if (hooks && mcp?.format === "json" && files.mcp === files.hooks) {
    // One file holds both (Gemini CLI's settings.json): one change.
    const both = mcpEdit(ctx, mcp, files.hooks, uninstall);
    changes.push(
      jsonChange(files.hooks, read, "hooks and MCP server", uninstall, manifest, (r, c) => {
        hooks.edit(r, c);
        both(r, c);
      }),
    );
  } else {
    if (hooks) {
      changes.push(
        jsonChange(files.hooks, read, "hooks", uninstall, manifest, hooks.edit, hooks.empty),
      );
    } else if (spec.hooks.shape === "owned") {
      const owned = spec.hooks;
      const before = read(files.hooks);
      const ours = owned.ours ?? ((text: string) => marker.test(text));
      if (before !== null && !ours(before)) {
        throw new ConfigEditError(
          files.hooks,
          `"${files.hooks}" exists and is not Heimdall's; move it aside first`,
        );
      }
      const after = uninstall ? null : ownedText(harness, ctx)!;
      if (after !== before) {
        changes.push({
          path: files.hooks,
          before,
          after,
          what: owned.what,
          record: uninstall ? null : { created: true, containers: [] },
        });
      }
    }
    if (mcp !== null && files.mcp !== null) {
      const file = files.mcp;
      changes.push(
        mcp.format === "toml" ? tomlChange(file, ctx, read, uninstall, manifest) : jsonChange(
          file,
          read,
          "MCP server",
          uninstall,
          manifest,
          mcpEdit(ctx, mcp, file, uninstall),
        ),
      );
    }
  }
  const notes = uninstall ? [] : spec.notes?.(ctx) ?? [];
  return { harness, changes: changes.filter((c): c is FileChange => c !== null), notes };
}
