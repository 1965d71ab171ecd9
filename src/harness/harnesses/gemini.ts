/**
 * Gemini CLI: `hooks` in settings.json with Claude-like payloads under its own
 * event names (`BeforeAgent` carries the prompt, `BeforeTool`/`AfterTool` the
 * tool, `AfterAgent` ends a turn). `run_shell_command`'s response text holds
 * "Exit Code: N". Context goes back as `hookSpecificOutput.additionalContext`;
 * a BeforeTool `"decision": "deny"` blocks a call and shows the agent the reason.
 *
 * Hooks and MCP server: one file, ~/.gemini/settings.json or .gemini/settings.json.
 */
import { hookSpecificContext } from "../answers.ts";
import { inScope } from "../install/context.ts";
import { claudeTool, field, outcomeOf, s } from "../payload.ts";
import type { HarnessSpec, StopRow } from "../spec.ts";
import { record } from "../tools.ts";

const stop = (final: boolean): StopRow => ({
  kind: "stop",
  final,
  said: field("prompt_response"),
  transcript: field("transcript_path"),
});

/** Gemini CLI, described. */
export const gemini: HarnessSpec<"gemini"> = {
  name: "gemini",
  payload: {
    event: field("hook_event_name"),
    session: (p, env) => s(p, "session_id") ?? env.env("GEMINI_SESSION_ID") ?? null,
    cwd: field("cwd"),
  },
  events: {
    SessionStart: { kind: "session_start", source: field("source"), say: hookSpecificContext },
    BeforeAgent: { kind: "prompt", prompt: (p) => s(p, "prompt") ?? "", say: hookSpecificContext },
    BeforeTool: {
      kind: "before_tool",
      tool: claudeTool,
      say: hookSpecificContext,
      pause: (reason, context, native) =>
        JSON.stringify({
          decision: "deny",
          reason,
          ...(context
            ? { hookSpecificOutput: { hookEventName: native, additionalContext: context } }
            : {}),
        }),
    },
    AfterTool: {
      kind: "after_tool",
      tool: claudeTool,
      outcome: (p) => {
        const r = record(p.tool_response);
        const failed = r && r.error !== undefined && r.error !== null && r.error !== ""
          ? true
          : null;
        return outcomeOf(p.tool_response, failed);
      },
      say: hookSpecificContext,
    },
    AfterAgent: stop(false),
    SessionEnd: stop(true),
  },
  answers: { silent: null, pauseAsWarning: false },
  install: {
    files: (ctx) => {
      const file = inScope(ctx, ".gemini/settings.json", ".gemini/settings.json");
      return { hooks: file, mcp: file };
    },
    hooks: {
      shape: "grouped",
      rows: [
        ["SessionStart", null],
        ["BeforeAgent", null],
        ["BeforeTool", "write_file|replace"],
        [
          "AfterTool",
          "write_file|replace|run_shell_command|search_file_content|grep_search|glob|list_directory",
        ],
        ["AfterAgent", null],
        ["SessionEnd", null],
      ],
      handler: (command, event) => ({
        name: `heimdall-${event}`,
        type: "command",
        command,
        timeout: 10000,
      }),
    },
    mcp: { format: "json", stdioType: false },
    signs: { commands: ["gemini"], dirs: [".gemini"] },
  },
};
