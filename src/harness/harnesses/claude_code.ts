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
import { join } from "../../files/mod.ts";
import { hookSpecificContext, hookSpecificDeny } from "../answers.ts";
import { inScope } from "../install/context.ts";
import { claudeTool, failedWith, field, outcomeOf, s } from "../payload.ts";
import type {
  BeforeToolRow,
  HarnessSpec,
  PayloadShape,
  SessionStartRow,
  StopRow,
} from "../spec.ts";

const EDIT = "Edit|MultiEdit|Write|NotebookEdit";

/** Where Claude Code's hook payloads say the event, session and folder (Codex's say it alike). */
export const CLAUDE_PAYLOAD: PayloadShape = {
  event: field("hook_event_name"),
  session: field("session_id"),
  cwd: field("cwd"),
};

/** Claude Code's session start (Codex's is alike). */
export const CLAUDE_SESSION_START: SessionStartRow = {
  kind: "session_start",
  source: field("source"),
  say: hookSpecificContext,
};

/** Claude Code's PreToolUse: its tool, context, a deny to pause (Codex's is alike). */
export const CLAUDE_BEFORE_TOOL: BeforeToolRow = {
  kind: "before_tool",
  tool: claudeTool,
  say: hookSpecificContext,
  pause: hookSpecificDeny,
};

/** A stop: the last message and the transcript; `final` at the session's end (Codex's is alike). */
export const claudeStop = (final: boolean): StopRow => ({
  kind: "stop",
  final,
  said: field("last_assistant_message"),
  transcript: field("transcript_path"),
});

/** Claude Code, described. */
export const claudeCode: HarnessSpec<"claude-code"> = {
  name: "claude-code",
  payload: CLAUDE_PAYLOAD,
  events: {
    SessionStart: CLAUDE_SESSION_START,
    UserPromptSubmit: {
      kind: "prompt",
      prompt: (p) => s(p, "prompt") ?? s(p, "user_prompt") ?? "",
      say: hookSpecificContext,
    },
    PreToolUse: CLAUDE_BEFORE_TOOL,
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
    Stop: claudeStop(false),
    SubagentStop: claudeStop(false),
    SessionEnd: claudeStop(true),
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
