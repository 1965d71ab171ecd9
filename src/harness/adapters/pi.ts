/**
 * pi (the pi coding agent): pi has no command hooks, so `heimdall init
 * --harness pi` installs a small extension that forwards pi's events to
 * `heimdall hook --harness pi` as `{event, session_id, cwd, prompt,
 * tool_name, input, is_error, content}` and reads back `{"context": "…"}`,
 * which it adds to the conversation (a message before the agent starts, text
 * appended to a tool's result).
 */
import type { HookEvent } from "../event.ts";
import { record, toolCall } from "../tools.ts";
import { type Adapter, base, exitCodeIn, ignored, s, textOf } from "./common.ts";

export const pi: Adapter = {
  name: "pi",
  parse(payload, env): HookEvent {
    const p = record(payload) ?? {};
    const native = s(p, "event") ?? env.event ?? "";
    const b = base("pi", native, s(p, "session_id"), s(p, "cwd"), env);
    const tool = () => toolCall(s(p, "tool_name") ?? "", p.input, b.cwd);
    switch (native) {
      case "session_start":
        return { ...b, kind: "session_start", source: s(p, "reason") };
      case "before_agent_start":
        return { ...b, kind: "prompt", prompt: s(p, "prompt") ?? "" };
      case "tool_call":
        return { ...b, kind: "before_tool", tool: tool() };
      case "tool_result": {
        const output = textOf(p.content);
        const exitCode = exitCodeIn(output);
        const ok = p.is_error === true
          ? false
          : exitCode !== null
          ? exitCode === 0
          : p.is_error === false
          ? true
          : null;
        return { ...b, kind: "after_tool", tool: tool(), outcome: { ok, exitCode, output } };
      }
      case "agent_end": {
        // pi's session id is its session file (JSONL): the transcript.
        const file = s(p, "session_id");
        return {
          ...b,
          kind: "stop",
          final: false,
          transcript: file?.endsWith(".jsonl") ? file : null,
        };
      }
      case "session_shutdown":
        return { ...b, kind: "stop", final: true };
      default:
        return ignored(b);
    }
  },
  render(event, context, deny) {
    // The extension blocks a tool_call whose answer says so, with the reason.
    if (deny && event.kind === "before_tool") {
      return JSON.stringify({ block: true, reason: deny, ...(context ? { context } : {}) });
    }
    return context === null ? null : JSON.stringify({ context });
  },
};
