/**
 * Claude Code: `hooks` in settings.json; payloads carry `hook_event_name`,
 * `session_id`, `cwd`, `tool_name`, `tool_input`, `tool_response`. A Bash
 * command that exits non-zero fires `PostToolUseFailure` with `error`
 * ("Exit code 1\n<output>") instead of `PostToolUse`. Context goes back as
 * `hookSpecificOutput.additionalContext`. The only permission decision ever
 * set is a PreToolUse "deny" that pauses an edit once for a teammate's claim.
 */
import type { HookEvent } from "../event.ts";
import { record } from "../tools.ts";
import {
  type Adapter,
  base,
  claudeTool,
  exitCodeIn,
  hookSpecificContext,
  hookSpecificDeny,
  ignored,
  outcomeOf,
  s,
} from "./common.ts";

const CONTEXT_EVENTS = new Set([
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
]);

export const claudeCode: Adapter = {
  name: "claude-code",
  parse(payload, env): HookEvent {
    const p = record(payload) ?? {};
    const native = s(p, "hook_event_name") ?? env.event ?? "";
    const b = base("claude-code", native, s(p, "session_id"), s(p, "cwd"), env);
    switch (native) {
      case "SessionStart":
        return { ...b, kind: "session_start", source: s(p, "source") };
      case "UserPromptSubmit":
        return { ...b, kind: "prompt", prompt: s(p, "prompt") ?? s(p, "user_prompt") ?? "" };
      case "PreToolUse":
        return { ...b, kind: "before_tool", tool: claudeTool(p, b.cwd) };
      case "PostToolUse":
        return {
          ...b,
          kind: "after_tool",
          tool: claudeTool(p, b.cwd),
          outcome: outcomeOf(p.tool_response, false),
        };
      case "PostToolUseFailure": {
        const error = s(p, "error") ?? "";
        return {
          ...b,
          kind: "after_tool",
          tool: claudeTool(p, b.cwd),
          outcome: { ok: false, exitCode: exitCodeIn(error), output: error },
        };
      }
      case "Stop":
      case "SubagentStop":
      case "SessionEnd":
        return {
          ...b,
          kind: "stop",
          final: native === "SessionEnd",
          said: s(p, "last_assistant_message"),
          transcript: s(p, "transcript_path"),
        };
      default:
        return ignored(b);
    }
  },
  render(event, context, deny) {
    if (deny && event.native === "PreToolUse") return hookSpecificDeny(event.native, context, deny);
    if (context === null || !CONTEXT_EVENTS.has(event.native)) return null;
    return hookSpecificContext(event.native, context);
  },
};
