/**
 * Cursor: `.cursor/hooks.json` (`{"version": 1, "hooks": {event: [{command}]}}`).
 * Payloads carry camelCase `hook_event_name`, `conversation_id` and
 * `workspace_roots`; `preToolUse`/`postToolUse`/`postToolUseFailure` carry
 * `tool_name`/`tool_input` (`Shell`, `Write`, `Read`, `Grep`…), while the older
 * `afterFileEdit` carries `file_path` + `edits[]` and `afterShellExecution`
 * `command` + `output`. Cursor reads a JSON answer on every event: context goes
 * back as `additional_context` (session start, after a tool) or
 * `agent_message` (before a tool); the only `permission` ever given is a
 * preToolUse "deny" that pauses an edit once for a teammate's claim.
 *
 * Hooks: ~/.cursor/hooks.json or .cursor/hooks.json; MCP server: mcp.json beside it.
 */
import { join } from "../../files/mod.ts";
import { inScope } from "../install/context.ts";
import { claudeTool, exitedWith, failedWith, field, n, outcomeOf, s, textOf } from "../payload.ts";
import type { HarnessSpec, Say, StopRow } from "../spec.ts";
import { toolCall } from "../tools.ts";

const additionalContext: Say = (context) => JSON.stringify({ additional_context: context });
const agentMessage: Say = (context) => JSON.stringify({ agent_message: context });

const stop = (final: boolean): StopRow => ({
  kind: "stop",
  final,
  transcript: field("transcript_path"),
});

/** Cursor, described. */
export const cursor: HarnessSpec<"cursor"> = {
  name: "cursor",
  payload: {
    event: field("hook_event_name"),
    session: (p) => s(p, "session_id") ?? s(p, "conversation_id"),
    cwd: (p) => {
      const roots = Array.isArray(p.workspace_roots) ? p.workspace_roots : [];
      return s(p, "cwd") || (typeof roots[0] === "string" ? roots[0] : null);
    },
  },
  events: {
    sessionStart: { kind: "session_start", source: field("source"), say: additionalContext },
    beforeSubmitPrompt: { kind: "prompt", prompt: (p) => s(p, "prompt") ?? "" },
    preToolUse: {
      kind: "before_tool",
      tool: claudeTool,
      say: agentMessage,
      // "permission": "deny" stops the call; the agent reads agent_message.
      pause: (reason, context) =>
        JSON.stringify({
          permission: "deny",
          user_message: reason,
          agent_message: context ? `${reason}\n\n${context}` : reason,
        }),
    },
    beforeShellExecution: {
      kind: "before_tool",
      tool: (p, at) => toolCall("Shell", { command: s(p, "command") }, at.cwd),
      say: agentMessage,
    },
    postToolUse: {
      kind: "after_tool",
      tool: claudeTool,
      outcome: (p) => outcomeOf(p.tool_output ?? p.tool_response, false),
      say: additionalContext,
    },
    postToolUseFailure: {
      kind: "after_tool",
      tool: claudeTool,
      outcome: (p) => failedWith(s(p, "error_message") ?? s(p, "error") ?? textOf(p.error)),
      say: additionalContext,
    },
    afterFileEdit: {
      kind: "after_tool",
      tool: (p, at) => toolCall("Edit", { file_path: s(p, "file_path"), edits: p.edits }, at.cwd),
      outcome: () => ({ ok: true, exitCode: null, output: "" }),
    },
    afterShellExecution: {
      kind: "after_tool",
      tool: (p, at) => toolCall("Shell", { command: s(p, "command") }, at.cwd),
      outcome: (p) => exitedWith(n(p, "exit_code") ?? n(p, "exitCode"), s(p, "output") ?? ""),
    },
    stop: stop(false),
    sessionEnd: stop(true),
  },
  answers: { silent: "{}", pauseAsWarning: false },
  install: {
    files: (ctx) => {
      const dir = inScope(ctx, ".cursor", ".cursor");
      return { hooks: join(dir, "hooks.json"), mcp: join(dir, "mcp.json") };
    },
    hooks: {
      shape: "flat",
      events: [
        "sessionStart",
        "beforeSubmitPrompt",
        "preToolUse",
        "postToolUse",
        "postToolUseFailure",
        "stop",
        "sessionEnd",
      ],
      entry: (command) => ({ command }),
      header: { version: 1 },
    },
    mcp: { format: "json", stdioType: false },
    signs: { commands: ["cursor", "cursor-agent"], dirs: [".cursor"] },
  },
};
