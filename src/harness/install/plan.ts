/**
 * What `heimdall init` writes for each harness, where (pure: file contents
 * in, file contents out; the caller reads, backs up and writes).
 *
 * | harness     | hooks (user / project)                                   | MCP server (user / project)                        |
 * | ----------- | -------------------------------------------------------- | -------------------------------------------------- |
 * | claude-code | ~/.claude/settings.json / .claude/settings.json          | ~/.claude.json / .mcp.json                         |
 * | codex       | $CODEX_HOME/hooks.json / .codex/hooks.json               | $CODEX_HOME/config.toml / .codex/config.toml       |
 * | cursor      | ~/.cursor/hooks.json / .cursor/hooks.json                | ~/.cursor/mcp.json / .cursor/mcp.json              |
 * | windsurf    | ~/.codeium/windsurf/hooks.json / .windsurf/hooks.json    | ~/.codeium/windsurf/mcp_config.json (user only)    |
 * | kiro        | ~/.kiro/hooks/heimdall.json / .kiro/hooks/heimdall.json  | ~/.kiro/settings/mcp.json / .kiro/settings/mcp.json|
 * | pi          | ~/.pi/agent/extensions/heimdall.ts / .pi/extensions/…    | none (pi has no MCP)                               |
 * | gemini      | ~/.gemini/settings.json / .gemini/settings.json          | the same file, `mcpServers`                        |
 */
import { join } from "node:path";
import type { HarnessName } from "../event.ts";
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
import { PI_MARKER, piExtension } from "./pi_extension.ts";
import { shellLine, shellQuote } from "./command.ts";
import { readServer, removeServer, setServer } from "./toml_edit.ts";

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
  const c = containers(known ? new Set(known.containers) : null);
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
  const after = uninstall && known?.created && emptyShape(doc.value) ? null : formatJsonDoc(doc);
  if (before === null && after === null) return null;
  const record = uninstall ? null : {
    created: before === null || (known?.created ?? false),
    containers: [...new Set([...(known?.containers ?? []), ...c.created])],
  };
  return { path, before, after, what, record };
}

const CLAUDE_EDIT = "Edit|MultiEdit|Write|NotebookEdit";
const CLAUDE: [string, string | null][] = [
  ["SessionStart", null],
  ["UserPromptSubmit", null],
  ["PreToolUse", CLAUDE_EDIT],
  ["PostToolUse", `${CLAUDE_EDIT}|Bash|Grep|Glob|LS`],
  ["PostToolUseFailure", `${CLAUDE_EDIT}|Bash`],
  ["Stop", null],
  ["SessionEnd", null],
];
const CODEX: [string, string | null][] = [
  ["SessionStart", null],
  ["UserPromptSubmit", null],
  ["PreToolUse", "apply_patch|Edit|Write"],
  ["PostToolUse", "apply_patch|Edit|Write|Bash"],
  ["Stop", null],
];
const GEMINI: [string, string | null][] = [
  ["SessionStart", null],
  ["BeforeAgent", null],
  ["BeforeTool", "write_file|replace"],
  [
    "AfterTool",
    "write_file|replace|run_shell_command|search_file_content|grep_search|glob|list_directory",
  ],
  ["AfterAgent", null],
  ["SessionEnd", null],
];
const CURSOR = [
  "sessionStart",
  "beforeSubmitPrompt",
  "preToolUse",
  "postToolUse",
  "postToolUseFailure",
  "stop",
  "sessionEnd",
];
const WINDSURF: [string, boolean][] = [
  ["pre_user_prompt", true],
  ["pre_write_code", true],
  ["post_write_code", false],
  ["post_run_command", false],
  ["post_cascade_response", false],
];
const KIRO: [string, string | null][] = [
  ["SessionStart", null],
  ["UserPromptSubmit", null],
  ["PreToolUse", "fs_write|write|str_replace"],
  ["PostToolUse", "fs_write|write|str_replace|execute_bash|shell|grep|glob"],
  ["Stop", null],
];

function base(ctx: InstallContext, userDir: string, projectDir: string): string {
  return ctx.scope === "user" ? join(ctx.userHome, userDir) : join(ctx.project, projectDir);
}

/** Where a harness keeps Heimdall's hooks and MCP server, for a scope. */
export interface HarnessFiles {
  hooks: string;
  /** The MCP config file; null where the harness has none for this scope. */
  mcp: string | null;
}

/** The files {@link planHarness} edits for `harness` in `ctx.scope`. */
export function harnessFiles(harness: HarnessName, ctx: InstallContext): HarnessFiles {
  const user = ctx.scope === "user";
  switch (harness) {
    case "claude-code":
      return {
        hooks: base(ctx, ".claude/settings.json", ".claude/settings.json"),
        mcp: user ? join(ctx.userHome, ".claude.json") : join(ctx.project, ".mcp.json"),
      };
    case "codex": {
      const home = user
        ? ctx.env("CODEX_HOME") || join(ctx.userHome, ".codex")
        : join(ctx.project, ".codex");
      return { hooks: join(home, "hooks.json"), mcp: join(home, "config.toml") };
    }
    case "cursor": {
      const dir = base(ctx, ".cursor", ".cursor");
      return { hooks: join(dir, "hooks.json"), mcp: join(dir, "mcp.json") };
    }
    case "windsurf":
      return {
        hooks: base(ctx, ".codeium/windsurf/hooks.json", ".windsurf/hooks.json"),
        mcp: user ? join(ctx.userHome, ".codeium/windsurf/mcp_config.json") : null,
      };
    case "kiro": {
      const dir = base(ctx, ".kiro", ".kiro");
      return { hooks: join(dir, "hooks", "heimdall.json"), mcp: join(dir, "settings", "mcp.json") };
    }
    case "pi":
      return {
        hooks: user
          ? join(ctx.userHome, ".pi", "agent", "extensions", "heimdall.ts")
          : join(ctx.project, ".pi", "extensions", "heimdall.ts"),
        mcp: null,
      };
    case "gemini": {
      const file = base(ctx, ".gemini/settings.json", ".gemini/settings.json");
      return { hooks: file, mcp: file };
    }
  }
}

/**
 * The plan for one harness: install (or, with `uninstall`, remove exactly)
 * Heimdall's hooks and MCP server. Throws {@link ConfigEditError} for a file
 * that cannot be edited safely (comments, invalid JSON, a foreign `heimdall`
 * server, a TOML form that cannot be edited line by line).
 */
export function planHarness(
  harness: HarnessName,
  ctx: InstallContext,
  read: ReadText,
  uninstall: boolean,
  manifest: Manifest = {},
): Plan {
  const marker = hookMarker(harness);
  const changes: (FileChange | null)[] = [];
  const notes: string[] = [];
  // Every JSON harness keeps its MCP servers under `mcpServers`.
  const mcpServerChange = (file: string, withType: boolean) =>
    jsonChange(
      file,
      read,
      "MCP server",
      uninstall,
      manifest,
      (r, c) =>
        setMcpServer(r, "mcpServers", uninstall ? null : serverEntry(ctx, withType), file, c),
    );
  const grouped = (
    events: [string, string | null][],
    handler: (cmd: string, event: string) => Record<string, unknown>,
  ) =>
    uninstall ? [] : events.map(([event, matcher]): HookWant => ({
      event,
      matcher,
      entry: handler(hookCommand(ctx, harness, null), event),
    }));
  switch (harness) {
    case "claude-code": {
      const { hooks: hooksFile, mcp } = harnessFiles(harness, ctx);
      const mcpFile = mcp!;
      const wants = grouped(CLAUDE, (command) => ({ type: "command", command, timeout: 10 }));
      changes.push(
        jsonChange(
          hooksFile,
          read,
          "hooks",
          uninstall,
          manifest,
          (r, c) => setGroupedHooks(r, wants, marker, c),
        ),
      );
      changes.push(
        mcpServerChange(mcpFile, true),
      );
      break;
    }
    case "codex": {
      const { hooks: hooksFile, mcp } = harnessFiles(harness, ctx);
      const toml = mcp!;
      const wants = grouped(CODEX, (command) => ({ type: "command", command, timeout: 10 }));
      changes.push(
        jsonChange(
          hooksFile,
          read,
          "hooks",
          uninstall,
          manifest,
          (r, c) => setGroupedHooks(r, wants, marker, c),
        ),
      );
      const before = read(toml);
      const existing = readServer(before, "heimdall");
      if (existing && !/(?:heimdall|main\.ts)/.test(`${existing.command} ${existing.args}`)) {
        throw new ConfigEditError(
          toml,
          `"${toml}" already has [mcp_servers.heimdall] that does not run Heimdall; rename or remove it first`,
        );
      }
      let after: string | null = uninstall
        ? removeServer(toml, before, "heimdall")
        : setServer(toml, before, "heimdall", {
          command: ctx.argv[0]!,
          args: [...ctx.argv.slice(1), "mcp"],
          env: serverEnv(ctx),
        });
      if (uninstall && after === "" && manifest[toml]?.created) after = null;
      if (after !== before) {
        changes.push({
          path: toml,
          before,
          after,
          what: "MCP server",
          record: uninstall
            ? null
            : { created: before === null || (manifest[toml]?.created ?? false), containers: [] },
        });
      }
      if (!uninstall) {
        notes.push(
          "Codex runs a new or changed hook only after you trust it: open /hooks in Codex and trust Heimdall's.",
        );
        if (ctx.scope === "project") {
          notes.push("Codex loads a project's .codex/ config only in a trusted project.");
        }
      }
      break;
    }
    case "cursor": {
      const { hooks: hooksFile, mcp } = harnessFiles(harness, ctx);
      const wants: HookWant[] = uninstall ? [] : CURSOR.map((event) => ({
        event,
        matcher: null,
        entry: { command: hookCommand(ctx, harness, null) },
      }));
      changes.push(
        jsonChange(hooksFile, read, "hooks", uninstall, manifest, (r, c) => {
          setFlatHooks(r, wants, marker, c);
          if (!uninstall && r.version === undefined) {
            const { hooks, ...rest } = r;
            for (const k of Object.keys(r)) delete r[k];
            Object.assign(r, { version: 1, ...rest, hooks });
            c.created.add("version");
          }
          if (uninstall && r.hooks === undefined && c.removable?.has("version")) delete r.version;
        }, (r) => Object.keys(r).every((k) => k === "version")),
      );
      const mcpFile = mcp!;
      changes.push(
        mcpServerChange(mcpFile, false),
      );
      break;
    }
    case "windsurf": {
      const { hooks: hooksFile, mcp } = harnessFiles(harness, ctx);
      const wants: HookWant[] = uninstall ? [] : WINDSURF.map(([event, show]) => ({
        event,
        matcher: null,
        entry: { command: hookCommand(ctx, harness, null), show_output: show },
      }));
      changes.push(
        jsonChange(
          hooksFile,
          read,
          "hooks",
          uninstall,
          manifest,
          (r, c) => setFlatHooks(r, wants, marker, c),
        ),
      );
      if (mcp !== null) {
        const mcpFile = mcp;
        changes.push(
          mcpServerChange(mcpFile, false),
        );
      } else if (!uninstall) {
        notes.push(
          "Windsurf reads MCP servers from ~/.codeium/windsurf/mcp_config.json only: run with --scope user for the MCP server.",
        );
      }
      if (!uninstall) {
        notes.push(
          "Cascade does not pass hook output to the model; it shows it to you (show_output) before edits and prompts.",
        );
      }
      break;
    }
    case "kiro": {
      const { hooks: hooksFile, mcp } = harnessFiles(harness, ctx);
      const before = read(hooksFile);
      if (before !== null && !marker.test(before)) {
        throw new ConfigEditError(
          hooksFile,
          `"${hooksFile}" exists and is not Heimdall's; move it aside first`,
        );
      }
      const after = uninstall ? null : JSON.stringify(
        {
          version: "v1",
          hooks: KIRO.map(([trigger, matcher]) => ({
            name: `heimdall-${
              trigger.replace(/[A-Z]/g, (c, i) => (i ? "-" : "") + c.toLowerCase())
            }`,
            trigger,
            ...(matcher ? { matcher } : {}),
            action: { type: "command", command: hookCommand(ctx, harness, trigger) },
            timeout: 10,
            enabled: true,
          })),
        },
        null,
        2,
      ) + "\n";
      if (after !== before) {
        changes.push({
          path: hooksFile,
          before,
          after,
          what: "hooks",
          record: uninstall ? null : { created: true, containers: [] },
        });
      }
      const mcpFile = mcp!;
      changes.push(
        mcpServerChange(mcpFile, false),
      );
      break;
    }
    case "pi": {
      const file = harnessFiles(harness, ctx).hooks;
      const before = read(file);
      if (before !== null && !before.startsWith(PI_MARKER)) {
        throw new ConfigEditError(
          file,
          `"${file}" exists and is not Heimdall's; move it aside first`,
        );
      }
      const after = uninstall ? null : piExtension(ctx.hookArgv, serverEnv(ctx));
      if (after !== before) {
        changes.push({
          path: file,
          before,
          after,
          what: "extension",
          record: uninstall ? null : { created: true, containers: [] },
        });
      }
      if (!uninstall) {
        notes.push(
          "pi has no MCP support: its agent reaches Heimdall through the extension and the `heimdall` CLI.",
        );
      }
      break;
    }
    case "gemini": {
      const file = harnessFiles(harness, ctx).hooks;
      const wants = grouped(GEMINI, (command, event) => ({
        name: `heimdall-${event}`,
        type: "command",
        command,
        timeout: 10000,
      }));
      changes.push(
        jsonChange(file, read, "hooks and MCP server", uninstall, manifest, (r, c) => {
          setGroupedHooks(r, wants, marker, c);
          setMcpServer(r, "mcpServers", uninstall ? null : serverEntry(ctx, false), file, c);
        }),
      );
      break;
    }
  }
  return { harness, changes: changes.filter((c): c is FileChange => c !== null), notes };
}
