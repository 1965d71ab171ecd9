/**
 * Gemini CLI: `hooks` in settings.json with Claude-like payloads under its own
 * event names (`BeforeAgent` carries the prompt, `BeforeTool`/`AfterTool` the
 * tool, `AfterAgent` ends a turn). `run_shell_command`'s response text holds
 * "Exit Code: N". Context goes back as `hookSpecificOutput.additionalContext`.
 */
import type { HookEvent } from "../event.ts";
import { record } from "../tools.ts";
import {
  type Adapter,
  base,
  claudeTool,
  hookSpecificContext,
  ignored,
  outcomeOf,
  s,
} from "./common.ts";

const CONTEXT_EVENTS = new Set(["SessionStart", "BeforeAgent", "BeforeTool", "AfterTool"]);

export const gemini: Adapter = {
  name: "gemini",
  parse(payload, env): HookEvent {
    const p = record(payload) ?? {};
    const native = s(p, "hook_event_name") ?? env.event ?? "";
    const b = base(
      "gemini",
      native,
      s(p, "session_id") ?? env.env("GEMINI_SESSION_ID") ?? null,
      s(p, "cwd"),
      env,
    );
    switch (native) {
      case "SessionStart":
        return { ...b, kind: "session_start", source: s(p, "source") };
      case "BeforeAgent":
        return { ...b, kind: "prompt", prompt: s(p, "prompt") ?? "" };
      case "BeforeTool":
        return { ...b, kind: "before_tool", tool: claudeTool(p, b.cwd) };
      case "AfterTool": {
        const r = record(p.tool_response);
        const failed = r && r.error !== undefined && r.error !== null && r.error !== ""
          ? true
          : null;
        return {
          ...b,
          kind: "after_tool",
          tool: claudeTool(p, b.cwd),
          outcome: outcomeOf(p.tool_response, failed),
        };
      }
      case "AfterAgent":
      case "SessionEnd":
        return {
          ...b,
          kind: "stop",
          final: native === "SessionEnd",
          said: s(p, "prompt_response"),
          transcript: s(p, "transcript_path"),
        };
      default:
        return ignored(b);
    }
  },
  render(event, context, deny) {
    // BeforeTool: "decision": "deny" blocks the call and shows the reason to the agent.
    if (deny && event.native === "BeforeTool") {
      return JSON.stringify({
        decision: "deny",
        reason: deny,
        ...(context
          ? { hookSpecificOutput: { hookEventName: event.native, additionalContext: context } }
          : {}),
      });
    }
    if (context === null || !CONTEXT_EVENTS.has(event.native)) return null;
    return hookSpecificContext(event.native, context);
  },
};
