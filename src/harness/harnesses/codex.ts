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
import { join } from "../../files/mod.ts";
import { hookSpecificContext } from "../answers.ts";
import { claudeTool, outcomeOf, s } from "../payload.ts";
import type { HarnessSpec } from "../spec.ts";
import {
  CLAUDE_BEFORE_TOOL,
  CLAUDE_PAYLOAD,
  CLAUDE_SESSION_START,
  claudeStop,
} from "./claude_code.ts";

/** Codex, described. */
export const codex: HarnessSpec<"codex"> = {
  name: "codex",
  payload: CLAUDE_PAYLOAD,
  events: {
    SessionStart: CLAUDE_SESSION_START,
    UserPromptSubmit: {
      kind: "prompt",
      prompt: (p) => s(p, "prompt") ?? "",
      say: hookSpecificContext,
    },
    PreToolUse: CLAUDE_BEFORE_TOOL,
    PostToolUse: {
      kind: "after_tool",
      tool: claudeTool,
      outcome: (p) => outcomeOf(p.tool_response, null),
      say: hookSpecificContext,
    },
    Stop: claudeStop(false),
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
