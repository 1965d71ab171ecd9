/**
 * pi (the pi coding agent): pi has no command hooks, so `heimdall init
 * --harness pi` installs a small extension (`pi_extension.ts`) that forwards
 * pi's events to `heimdall hook --harness pi` as `{event, session_id, cwd,
 * prompt, tool_name, input, is_error, content}` and reads back
 * `{"context": "…"}`, which it adds to the conversation (a message before the
 * agent starts, text appended to a tool's result), or `{"block": true,
 * "reason"}`, which stops a tool call.
 *
 * Extension: ~/.pi/agent/extensions/heimdall.ts or .pi/extensions/heimdall.ts;
 * no MCP server (pi has no MCP).
 */
import { join } from "../../files/mod.ts";
import type { ToolCall, ToolOutcome } from "../event.ts";
import { shellLine } from "../install/command.ts";
import { exitCodeIn, field, s, textOf } from "../payload.ts";
import type { HarnessSpec, Payload, Read, Say } from "../spec.ts";
import { toolCall } from "../tools.ts";
import { PI_MARKER, piExtension } from "./pi_extension.ts";

const tool: Read<ToolCall> = (p, at) => toolCall(s(p, "tool_name") ?? "", p.input, at.cwd);

/** `is_error` decides; else an exit status in the text; else pi does not say. */
function outcome(p: Payload): ToolOutcome {
  const output = textOf(p.content);
  const exitCode = exitCodeIn(output);
  const ok = p.is_error === true
    ? false
    : exitCode !== null
    ? exitCode === 0
    : p.is_error === false
    ? true
    : null;
  return { ok, exitCode, output };
}

const context: Say = (text) => JSON.stringify({ context: text });

/** pi, described. */
export const pi: HarnessSpec<"pi"> = {
  name: "pi",
  payload: { event: field("event"), session: field("session_id"), cwd: field("cwd") },
  events: {
    session_start: { kind: "session_start", source: field("reason"), say: context },
    before_agent_start: { kind: "prompt", prompt: (p) => s(p, "prompt") ?? "", say: context },
    tool_call: {
      kind: "before_tool",
      tool,
      say: context,
      // The extension blocks a tool_call whose answer says so, with the reason.
      pause: (reason, ctx) =>
        JSON.stringify({ block: true, reason, ...(ctx ? { context: ctx } : {}) }),
    },
    tool_result: { kind: "after_tool", tool, outcome, say: context },
    agent_end: {
      kind: "stop",
      final: false,
      // pi's session id is its session file (JSONL): the transcript.
      transcript: (p) => {
        const file = s(p, "session_id");
        return file?.endsWith(".jsonl") ? file : null;
      },
      say: context,
    },
    session_shutdown: { kind: "stop", final: true, say: context },
  },
  answers: { silent: null, pauseAsWarning: false },
  install: {
    files: (ctx) => ({
      hooks: ctx.scope === "user"
        ? join(ctx.userHome, ".pi", "agent", "extensions", "heimdall.ts")
        : join(ctx.project, ".pi", "extensions", "heimdall.ts"),
      mcp: null,
    }),
    hooks: {
      shape: "owned",
      what: "extension",
      text: ({ hookArgv, env }) => piExtension(hookArgv, env),
      ours: (text) => text.startsWith(PI_MARKER),
      commands: (text) => {
        const m = /const ARGV: string\[\] = (\[.*\]);/.exec(text);
        return m ? [shellLine(JSON.parse(m[1]!) as string[])] : [];
      },
    },
    mcp: null,
    notes: () => [
      "pi has no MCP support: its agent reaches Heimdall through the extension and the `heimdall` CLI.",
    ],
    signs: { commands: ["pi"], dirs: [".pi/agent"] },
  },
};
