/**
 * Kiro CLI: hooks in agent configs (`agentSpawn`, `userPromptSubmit`,
 * `preToolUse`, `postToolUse`, `stop`) or v3 hook files (`SessionStart`,
 * `UserPromptSubmit`, `PreToolUse`, `PostToolUse`, `Stop`). Payloads are
 * `{hook_event_name, cwd, tool_name, tool_input, tool_response}`; `fs_write`
 * edits (`command: create | str_replace | insert | append`, `path`,
 * `old_str`, `new_str`, `file_text`), `execute_bash` runs `command`, and
 * `tool_response` is `{success, result: [...]}` with `execute_bash`'s
 * `exit_status`, `stdout` and `stderr` in `result[0]`. There is no session id:
 * the session is the working directory. Stdout of session start and prompt
 * hooks is added to the agent's context, so the answer is plain text there.
 */
import type { HookEvent } from "../event.ts";
import { record } from "../tools.ts";
import { type Adapter, base, claudeTool, ignored, n, s, textOf, withWarning } from "./common.ts";

export const kiro: Adapter = {
  name: "kiro",
  parse(payload, env): HookEvent {
    const p = record(payload) ?? {};
    const native = s(p, "hook_event_name") ?? env.event ?? "";
    const cwd = s(p, "cwd");
    const b = base("kiro", native, s(p, "session_id") ?? `cwd:${cwd ?? env.cwd}`, cwd, env);
    switch (native.toLowerCase()) {
      case "agentspawn":
      case "sessionstart":
        return { ...b, kind: "session_start", source: null };
      case "userpromptsubmit":
        return { ...b, kind: "prompt", prompt: s(p, "prompt") ?? "" };
      case "pretooluse":
        return { ...b, kind: "before_tool", tool: claudeTool(p, b.cwd) };
      case "posttooluse": {
        const r = record(p.tool_response);
        const result = Array.isArray(r?.result) ? r!.result : [];
        const first = record(result[0]);
        const exitCode = n(first, "exit_status") ?? n(first, "exit_code");
        const ok = exitCode !== null
          ? exitCode === 0
          : r?.success === false
          ? false
          : r?.success === true
          ? true
          : null;
        return {
          ...b,
          kind: "after_tool",
          tool: claudeTool(p, b.cwd),
          outcome: { ok, exitCode, output: textOf(result) },
        };
      }
      case "stop":
        return { ...b, kind: "stop", final: false };
      default:
        return ignored(b);
    }
  },
  render(event, context, deny) {
    // No JSON way to deny here: the pause reason is a warning in the context.
    context = withWarning(context, deny);
    return event.kind === "session_start" || event.kind === "prompt" ? context : null;
  },
};
