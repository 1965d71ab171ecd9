/**
 * Claude Code: `hooks` in settings.json; payloads carry `hook_event_name`,
 * `session_id`, `cwd`, `tool_name`, `tool_input`, `tool_response`. A Bash
 * command that exits non-zero fires `PostToolUseFailure` with `error`
 * ("Exit code 1\n<output>") instead of `PostToolUse`. Context goes back as
 * `hookSpecificOutput.additionalContext`. The only permission decision ever
 * set is a PreToolUse "deny" that pauses an edit once for a teammate's claim.
 *
 * Hooks: ~/.claude/settings.json or .claude/settings.json; MCP server:
 * ~/.claude.json or .mcp.json.
 */
import { join } from "node:path";
import { hookSpecificContext, hookSpecificDeny } from "../answers.ts";
import { inScope } from "../install/context.ts";
import { claudeTool, failedWith, field, outcomeOf, s } from "../payload.ts";
import type { HarnessSpec, StopRow } from "../spec.ts";

const EDIT = "Edit|MultiEdit|Write|NotebookEdit";

const stop = (final: boolean): StopRow => ({
  kind: "stop",
  final,
  said: field("last_assistant_message"),
  transcript: field("transcript_path"),
});

/** Claude Code, described. */
export const claudeCode: HarnessSpec<"claude-code"> = {
  name: "claude-code",
  payload: { event: field("hook_event_name"), session: field("session_id"), cwd: field("cwd") },
  events: {
    SessionStart: { kind: "session_start", source: field("source"), say: hookSpecificContext },
    UserPromptSubmit: {
      kind: "prompt",
      prompt: (p) => s(p, "prompt") ?? s(p, "user_prompt") ?? "",
      say: hookSpecificContext,
    },
    PreToolUse: {
      kind: "before_tool",
      tool: claudeTool,
      say: hookSpecificContext,
      pause: hookSpecificDeny,
    },
    PostToolUse: {
      kind: "after_tool",
      tool: claudeTool,
      outcome: (p) => outcomeOf(p.tool_response, false),
      say: hookSpecificContext,
    },
    PostToolUseFailure: {
      kind: "after_tool",
      tool: claudeTool,
      outcome: (p) => failedWith(s(p, "error") ?? ""),
      say: hookSpecificContext,
    },
    Stop: stop(false),
    SubagentStop: stop(false),
    SessionEnd: stop(true),
  },
  answers: { silent: null, pauseAsWarning: false },
  install: {
    files: (ctx) => ({
      hooks: inScope(ctx, ".claude/settings.json", ".claude/settings.json"),
      mcp: ctx.scope === "user"
        ? join(ctx.userHome, ".claude.json")
        : join(ctx.project, ".mcp.json"),
    }),
    hooks: {
      shape: "grouped",
      rows: [
        ["SessionStart", null],
        ["UserPromptSubmit", null],
        ["PreToolUse", EDIT],
        ["PostToolUse", `${EDIT}|Bash|Grep|Glob|LS`],
        ["PostToolUseFailure", `${EDIT}|Bash`],
        ["Stop", null],
        ["SessionEnd", null],
      ],
      handler: (command) => ({ type: "command", command, timeout: 10 }),
    },
    mcp: { format: "json", stdioType: true },
    signs: { commands: ["claude"], dirs: [".claude"] },
  },
};
