/**
 * Codex CLI: hooks.json (or `[hooks]` in config.toml) in Claude Code's shape.
 * `apply_patch` arrives as `tool_name: "apply_patch"` with the patch body in
 * `tool_input.command`; a shell call is `Bash` with `tool_input.command`.
 * `tool_response` may be an object or the model-facing text ("Process exited
 * with code 7…"); Codex has no failure event, so the exit status is read from
 * it. Context goes back as `hookSpecificOutput.additionalContext`.
 *
 * Hooks: $CODEX_HOME/hooks.json or .codex/hooks.json; MCP server:
 * `[mcp_servers.heimdall]` in the config.toml beside it.
 */
import { join } from "node:path";
import { hookSpecificContext, hookSpecificDeny } from "../answers.ts";
import { claudeTool, field, outcomeOf, s } from "../payload.ts";
import type { HarnessSpec } from "../spec.ts";

/** Codex, described. */
export const codex: HarnessSpec<"codex"> = {
  name: "codex",
  payload: { event: field("hook_event_name"), session: field("session_id"), cwd: field("cwd") },
  events: {
    SessionStart: { kind: "session_start", source: field("source"), say: hookSpecificContext },
    UserPromptSubmit: {
      kind: "prompt",
      prompt: (p) => s(p, "prompt") ?? "",
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
      outcome: (p) => outcomeOf(p.tool_response, null),
      say: hookSpecificContext,
    },
    Stop: {
      kind: "stop",
      final: false,
      said: field("last_assistant_message"),
      transcript: field("transcript_path"),
    },
  },
  answers: { silent: null, pauseAsWarning: false },
  install: {
    files: (ctx) => {
      const home = ctx.scope === "user"
        ? ctx.env("CODEX_HOME") || join(ctx.userHome, ".codex")
        : join(ctx.project, ".codex");
      return { hooks: join(home, "hooks.json"), mcp: join(home, "config.toml") };
    },
    hooks: {
      shape: "grouped",
      rows: [
        ["SessionStart", null],
        ["UserPromptSubmit", null],
        ["PreToolUse", "apply_patch|Edit|Write"],
        ["PostToolUse", "apply_patch|Edit|Write|Bash"],
        ["Stop", null],
      ],
      handler: (command) => ({ type: "command", command, timeout: 10 }),
    },
    mcp: { format: "toml" },
    notes: (ctx) => [
      "Codex runs a new or changed hook only after you trust it: open /hooks in Codex and trust Heimdall's.",
      ...(ctx.scope === "project"
        ? ["Codex loads a project's .codex/ config only in a trusted project."]
        : []),
    ],
    signs: { commands: ["codex"], dirs: [".codex"] },
  },
};
