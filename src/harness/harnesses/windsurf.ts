/**
 * Windsurf (Cascade hooks): `hooks.json` with snake_case actions. Every payload
 * is `{agent_action_name, trajectory_id, execution_id, timestamp, tool_info}`;
 * `pre_write_code`/`post_write_code` carry `tool_info.file_path` + `edits[]`,
 * `pre_run_command`/`post_run_command` carry `command_line` and `cwd`, and
 * `pre_user_prompt` carries `user_prompt`. Cascade does not pass hook output
 * to the model; with `show_output` it shows stdout to the person, so the
 * answer is plain text, and a pause is a warning in it.
 *
 * Hooks: ~/.codeium/windsurf/hooks.json or .windsurf/hooks.json; MCP server:
 * ~/.codeium/windsurf/mcp_config.json (user scope only).
 */
import { join } from "../../files/mod.ts";
import { plain } from "../answers.ts";
import { inScope } from "../install/context.ts";
import { exitedWith, n, s } from "../payload.ts";
import type { ToolCall } from "../event.ts";
import type { HarnessSpec, Payload, Read } from "../spec.ts";
import { record, toolCall } from "../tools.ts";

const info = (p: Payload): Payload => record(p.tool_info) ?? {};

const edit: Read<ToolCall> = (p, at) =>
  toolCall("Edit", { file_path: s(info(p), "file_path"), edits: info(p).edits }, at.cwd);
const shell: Read<ToolCall> = (p, at) =>
  toolCall("Shell", { command: s(info(p), "command_line") }, at.cwd);

/** Actions whose hook output Cascade shows the person (before an edit, before a prompt). */
const SHOWN = new Set(["pre_user_prompt", "pre_write_code"]);

/** Windsurf, described. */
export const windsurf: HarnessSpec<"windsurf"> = {
  name: "windsurf",
  payload: {
    event: (p) => s(p, "agent_action_name"),
    session: (p) => s(p, "trajectory_id"),
    cwd: (p) => s(info(p), "cwd"),
  },
  events: {
    pre_user_prompt: {
      kind: "prompt",
      prompt: (p) => s(info(p), "user_prompt") ?? "",
      say: plain,
    },
    pre_write_code: { kind: "before_tool", tool: edit, say: plain },
    post_write_code: {
      kind: "after_tool",
      tool: edit,
      outcome: () => ({ ok: true, exitCode: null, output: "" }),
      say: plain,
    },
    pre_run_command: { kind: "before_tool", tool: shell, say: plain },
    post_run_command: {
      kind: "after_tool",
      tool: shell,
      outcome: (p) =>
        exitedWith(n(info(p), "exit_code") ?? n(info(p), "exitCode"), s(info(p), "output") ?? ""),
      say: plain,
    },
    post_cascade_response: {
      kind: "stop",
      final: false,
      said: (p) => s(info(p), "response"),
      say: plain,
    },
  },
  answers: { silent: null, pauseAsWarning: true },
  install: {
    files: (ctx) => ({
      hooks: inScope(ctx, ".codeium/windsurf/hooks.json", ".windsurf/hooks.json"),
      mcp: ctx.scope === "user" ? join(ctx.userHome, ".codeium/windsurf/mcp_config.json") : null,
    }),
    hooks: {
      shape: "flat",
      events: [
        "pre_user_prompt",
        "pre_write_code",
        "post_write_code",
        "post_run_command",
        "post_cascade_response",
      ],
      entry: (command, event) => ({ command, show_output: SHOWN.has(event) }),
    },
    mcp: { format: "json", stdioType: false },
    notes: (ctx) => [
      ...(ctx.scope === "project"
        ? [
          "Windsurf reads MCP servers from ~/.codeium/windsurf/mcp_config.json only: run with --scope user for the MCP server.",
        ]
        : []),
      "Cascade does not pass hook output to the model; it shows it to you (show_output) before edits and prompts.",
    ],
    signs: { commands: ["windsurf"], dirs: [".codeium/windsurf"] },
  },
};
