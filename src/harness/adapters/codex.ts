/**
 * Codex CLI: hooks.json (or `[hooks]` in config.toml) in Claude Code's shape.
 * `apply_patch` arrives as `tool_name: "apply_patch"` with the patch body in
 * `tool_input.command`; a shell call is `Bash` with `tool_input.command`.
 * `tool_response` may be an object or the model-facing text ("Process exited
 * with code 7…"); Codex has no failure event, so the exit status is read from
 * it. Context goes back as `hookSpecificOutput.additionalContext`.
 */
import type { HookEvent } from "../event.ts";
import { record } from "../tools.ts";
import {
  type Adapter,
  base,
  claudeTool,
  hookSpecificContext,
  hookSpecificDeny,
  ignored,
  outcomeOf,
  s,
} from "./common.ts";

const CONTEXT_EVENTS = new Set(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse"]);

export const codex: Adapter = {
  name: "codex",
  parse(payload, env): HookEvent {
    const p = record(payload) ?? {};
    const native = s(p, "hook_event_name") ?? env.event ?? "";
    const b = base("codex", native, s(p, "session_id"), s(p, "cwd"), env);
    switch (native) {
      case "SessionStart":
        return { ...b, kind: "session_start", source: s(p, "source") };
      case "UserPromptSubmit":
        return { ...b, kind: "prompt", prompt: s(p, "prompt") ?? "" };
      case "PreToolUse":
        return { ...b, kind: "before_tool", tool: claudeTool(p, b.cwd) };
      case "PostToolUse":
        return {
          ...b,
          kind: "after_tool",
          tool: claudeTool(p, b.cwd),
          outcome: outcomeOf(p.tool_response, null),
        };
      case "Stop":
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
