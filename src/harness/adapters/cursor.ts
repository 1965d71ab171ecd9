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
 */
import type { HookEvent } from "../event.ts";
import { record, toolCall } from "../tools.ts";
import {
  type Adapter,
  base,
  claudeTool,
  exitCodeIn,
  ignored,
  n,
  outcomeOf,
  s,
  textOf,
} from "./common.ts";

export const cursor: Adapter = {
  name: "cursor",
  parse(payload, env): HookEvent {
    const p = record(payload) ?? {};
    const native = s(p, "hook_event_name") ?? env.event ?? "";
    const roots = Array.isArray(p.workspace_roots) ? p.workspace_roots : [];
    const cwd = s(p, "cwd") || (typeof roots[0] === "string" ? roots[0] : null);
    const session = s(p, "session_id") ?? s(p, "conversation_id");
    const b = base("cursor", native, session, cwd, env);
    switch (native) {
      case "sessionStart":
        return { ...b, kind: "session_start", source: s(p, "source") };
      case "beforeSubmitPrompt":
        return { ...b, kind: "prompt", prompt: s(p, "prompt") ?? "" };
      case "preToolUse":
        return { ...b, kind: "before_tool", tool: claudeTool(p, b.cwd) };
      case "beforeShellExecution":
        return {
          ...b,
          kind: "before_tool",
          tool: toolCall("Shell", { command: s(p, "command") }, b.cwd),
        };
      case "postToolUse":
        return {
          ...b,
          kind: "after_tool",
          tool: claudeTool(p, b.cwd),
          outcome: outcomeOf(p.tool_output ?? p.tool_response, false),
        };
      case "postToolUseFailure": {
        const error = s(p, "error_message") ?? s(p, "error") ?? textOf(p.error);
        return {
          ...b,
          kind: "after_tool",
          tool: claudeTool(p, b.cwd),
          outcome: { ok: false, exitCode: exitCodeIn(error), output: error },
        };
      }
      case "afterFileEdit":
        return {
          ...b,
          kind: "after_tool",
          tool: toolCall("Edit", { file_path: s(p, "file_path"), edits: p.edits }, b.cwd),
          outcome: { ok: true, exitCode: null, output: "" },
        };
      case "afterShellExecution": {
        const exitCode = n(p, "exit_code") ?? n(p, "exitCode");
        return {
          ...b,
          kind: "after_tool",
          tool: toolCall("Shell", { command: s(p, "command") }, b.cwd),
          outcome: {
            ok: exitCode === null ? null : exitCode === 0,
            exitCode,
            output: s(p, "output") ?? "",
          },
        };
      }
      case "stop":
      case "sessionEnd":
        return {
          ...b,
          kind: "stop",
          final: native === "sessionEnd",
          transcript: s(p, "transcript_path"),
        };
      default:
        return ignored(b);
    }
  },
  render(event, context, deny) {
    // preToolUse: "permission": "deny" stops the call; the agent reads agent_message.
    if (deny && event.native === "preToolUse") {
      return JSON.stringify({
        permission: "deny",
        user_message: deny,
        agent_message: context ? `${deny}\n\n${context}` : deny,
      });
    }
    if (context === null) return "{}";
    switch (event.native) {
      case "sessionStart":
      case "postToolUse":
      case "postToolUseFailure":
        return JSON.stringify({ additional_context: context });
      case "preToolUse":
      case "beforeShellExecution":
        return JSON.stringify({ agent_message: context });
      default:
        return "{}";
    }
  },
};
