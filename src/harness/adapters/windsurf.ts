/**
 * Windsurf (Cascade hooks): `hooks.json` with snake_case actions. Every payload
 * is `{agent_action_name, trajectory_id, execution_id, timestamp, tool_info}`;
 * `pre_write_code`/`post_write_code` carry `tool_info.file_path` + `edits[]`,
 * `pre_run_command`/`post_run_command` carry `command_line` and `cwd`, and
 * `pre_user_prompt` carries `user_prompt`. Cascade does not pass hook output
 * to the model; with `show_output` it shows stdout to the person, so the
 * answer is plain text.
 */
import type { HookEvent } from "../event.ts";
import { record, toolCall } from "../tools.ts";
import { type Adapter, base, ignored, n, s, withWarning } from "./common.ts";

export const windsurf: Adapter = {
  name: "windsurf",
  parse(payload, env): HookEvent {
    const p = record(payload) ?? {};
    const info = record(p.tool_info) ?? {};
    const native = s(p, "agent_action_name") ?? env.event ?? "";
    const b = base("windsurf", native, s(p, "trajectory_id"), s(info, "cwd"), env);
    const edit = () =>
      toolCall("Edit", { file_path: s(info, "file_path"), edits: info.edits }, b.cwd);
    const shell = () => toolCall("Shell", { command: s(info, "command_line") }, b.cwd);
    switch (native) {
      case "pre_user_prompt":
        return { ...b, kind: "prompt", prompt: s(info, "user_prompt") ?? "" };
      case "pre_write_code":
        return { ...b, kind: "before_tool", tool: edit() };
      case "post_write_code":
        return {
          ...b,
          kind: "after_tool",
          tool: edit(),
          outcome: { ok: true, exitCode: null, output: "" },
        };
      case "pre_run_command":
        return { ...b, kind: "before_tool", tool: shell() };
      case "post_run_command": {
        const exitCode = n(info, "exit_code") ?? n(info, "exitCode");
        return {
          ...b,
          kind: "after_tool",
          tool: shell(),
          outcome: {
            ok: exitCode === null ? null : exitCode === 0,
            exitCode,
            output: s(info, "output") ?? "",
          },
        };
      }
      case "post_cascade_response":
        return { ...b, kind: "stop", final: false, said: s(info, "response") };
      default:
        return ignored(b);
    }
  },
  render(_event, context, deny) {
    // No JSON way to deny here: the pause reason is a warning in the context.
    context = withWarning(context, deny);
    return context;
  },
};
