/**
 * Tool calls, normalised (pure): what kind a harness's tool is, which files it
 * edits and with what text, and which command line it runs.
 *
 * Tool names differ by harness (`Edit`, `replace`, `fs_write`, `apply_patch`,
 * `edit`…) but the inputs share a handful of key spellings; one table covers
 * them all. Paths resolve against the event's working directory.
 */
import { isAbsolute, resolve } from "../files/mod.ts";
import type { FileEdit, ToolCall, ToolKind } from "./event.ts";
import { HOOK_PATH_KEYS, parsePatch } from "../hints/mod.ts";
import type { LookUp } from "./grep_guard.ts";

const KINDS: Record<string, ToolKind> = {};
const add = (kind: ToolKind, names: string[]) => names.forEach((n) => (KINDS[n] = kind));
add("edit", [
  "edit",
  "multiedit",
  "multi_edit",
  "notebookedit",
  "replace",
  "str_replace",
  "strreplace",
  "str_replace_editor",
  "search_replace",
  "edit_file",
  "fs_write",
  "fswrite",
]);
add("write", ["write", "write_file", "writefile", "create_file", "createfile", "fs_create"]);
add("patch", ["apply_patch", "applypatch", "patch"]);
add("shell", [
  "bash",
  "shell",
  "run_shell_command",
  "execute_bash",
  "executebash",
  "exec_command",
  "local_shell",
  "run_terminal_cmd",
  "run_command",
  "terminal",
  "execute_command",
]);
add("search", [
  "grep",
  "glob",
  "ls",
  "find",
  "list_directory",
  "list_dir",
  "search_file_content",
  "grep_search",
  "file_search",
  "codebase_search",
  "fs_list",
]);
add("read", ["read", "read_file", "readfile", "read_many_files", "fs_read", "fsread", "view"]);

/** The kind of a tool by its name (case-insensitive); MCP tools are `other`. */
export function toolKind(name: string): ToolKind {
  const n = name.trim().toLowerCase();
  if (n.startsWith("mcp__") || n.startsWith("mcp:") || n.startsWith("@")) return "other";
  return KINDS[n] ?? "other";
}

const PATH_KEYS = HOOK_PATH_KEYS;
const OLD_KEYS = ["old_string", "old_str", "oldText", "old_text", "oldString"];
const NEW_KEYS = [
  "new_string",
  "new_str",
  "newText",
  "new_text",
  "newString",
  "content",
  "file_text",
  "new_source",
];

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

function first(o: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const k of keys) {
    const v = str(o[k]);
    if (v !== null) return v;
  }
  return null;
}

/** A plain object, or null. */
export function record(v: unknown): Record<string, unknown> | null {
  return typeof v === "object" && v !== null && !Array.isArray(v)
    ? v as Record<string, unknown>
    : null;
}

/** Absolute form of `p` against `cwd`. */
export function absolute(p: string, cwd: string): string {
  return isAbsolute(p) ? resolve(p) : resolve(cwd, p);
}

/**
 * The shell command line in a tool input: `command` (a string or an argv
 * array), `command_line`, or `cmd`.
 */
export function commandOf(input: unknown): string | null {
  const o = record(input);
  if (!o) return typeof input === "string" ? input : null;
  for (const k of ["command", "command_line", "cmd"]) {
    const v = o[k];
    if (typeof v === "string") return v;
    if (Array.isArray(v) && v.every((x) => typeof x === "string")) {
      // ["bash", "-lc", "pytest -q"] → the script; plain argv → joined.
      const last = v[v.length - 1] as string;
      return v.length >= 3 && /^(ba|z)?sh$/.test(String(v[0]).split("/").pop()!)
        ? last
        : v.join(" ");
    }
  }
  return null;
}

/**
 * The file edits a tool input describes: a path with old/new texts, an
 * `edits[]` list (MultiEdit, Cursor, Windsurf, pi), or an apply_patch body in
 * `command`/`input`/`patch`.
 */
export function editsOf(kind: ToolKind, input: unknown, cwd: string): FileEdit[] {
  const o = record(input);
  if (kind === "patch" || (o === null && typeof input === "string")) {
    const body = typeof input === "string"
      ? input
      : first(o!, ["command", "input", "patch", "patch_text"]) ?? "";
    const out: FileEdit[] = [];
    for (const f of parsePatch(body)) {
      out.push({ path: absolute(f.path, cwd), oldText: f.oldText, newText: f.newText });
      if (f.moveTo) out.push({ path: absolute(f.moveTo, cwd), oldText: null, newText: f.newText });
    }
    return out;
  }
  if (!o) return [];
  const base = first(o, PATH_KEYS);
  const out: FileEdit[] = [];
  if (Array.isArray(o.edits)) {
    for (const item of o.edits) {
      const e = record(item);
      if (!e) continue;
      const p = first(e, PATH_KEYS) ?? base;
      if (p) {
        out.push({
          path: absolute(p, cwd),
          oldText: first(e, OLD_KEYS),
          newText: first(e, NEW_KEYS),
        });
      }
    }
  }
  if (out.length === 0 && base) {
    out.push({
      path: absolute(base, cwd),
      oldText: first(o, OLD_KEYS),
      newText: first(o, NEW_KEYS),
    });
  }
  return out;
}

/**
 * A normalised tool call from a tool name and its input. Kiro's `fs_write`
 * with `command: "create"` is a write, not a shell command.
 */
export function toolCall(name: string, input: unknown, cwd: string): ToolCall {
  let kind = toolKind(name);
  const o = record(input);
  if (kind === "edit" && o && (o.command === "create" || name.toLowerCase() === "fs_create")) {
    kind = "write";
  }
  const edits = kind === "edit" || kind === "write" || kind === "patch" || kind === "read"
    ? editsOf(kind, input, cwd)
    : [];
  const background = kind === "shell" &&
    (o?.run_in_background === true || o?.is_background === true);
  return {
    name,
    kind,
    edits,
    command: kind === "shell" ? commandOf(input) : null,
    ...(background ? { background: true as const } : {}),
  };
}

const SEARCH_PROGRAMS = new Set([
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "ag",
  "ack",
  "find",
  "fd",
  "fdfind",
  "ls",
  "tree",
  "locate",
]);

/**
 * True when a shell command line is a grep/find/ls-style look-up: its first
 * program (after `cd … &&`, environment assignments, `sudo`, `time`) is one
 * of grep, rg, ag, ack, find, fd, ls, tree, locate, or it is `git grep` /
 * `git ls-files`.
 */
export function isSearchCommand(command: string): boolean {
  const segments = command.split(/&&|\|\||;/).map((s) => s.trim()).filter((s) => s !== "");
  for (const seg of segments) {
    const words = seg.split(/\s+/).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
    while (words[0] === "sudo" || words[0] === "time" || words[0] === "command") words.shift();
    const prog = (words[0] ?? "").split("/").pop()!;
    if (prog === "cd" || prog === "pushd") continue;
    if (prog === "git") return words[1] === "grep" || words[1] === "ls-files";
    return SEARCH_PROGRAMS.has(prog);
  }
  return false;
}

/**
 * True when a tool call is a Heimdall search: `heimdall search …` (also
 * through `deno task heimdall search`) or the heimdall MCP server's `search`
 * tool, whatever the harness calls it (`mcp__heimdall__search`, `heimdall.search`).
 */
export function isHeimdallSearch(tool: ToolCall): boolean {
  if (tool.kind === "shell") {
    return tool.command !== null && /(^|[\s/;&|])heimdall\s+(\S+\s+)*?search\b/.test(tool.command);
  }
  return /heimdall[\W_]+search$/i.test(tool.name);
}

/** What the grep guard makes of a tool call (see `grep_guard.ts`). */
export function lookUpOf(tool: ToolCall): LookUp {
  if (isHeimdallSearch(tool)) return "heimdall";
  return isSearchCall(tool) ? "grep" : "other";
}

/** True when a tool call is a grep/find/ls-style look-up (a search tool or such a command). */
export function isSearchCall(tool: ToolCall): boolean {
  if (tool.kind === "search") return true;
  return tool.kind === "shell" && tool.command !== null && isSearchCommand(tool.command);
}
