/**
 * Kiro CLI: hooks in agent configs (`agentSpawn`, `userPromptSubmit`,
 * `preToolUse`, `postToolUse`, `stop`) or v3 hook files (`SessionStart`,
 * `UserPromptSubmit`, `PreToolUse`, `PostToolUse`, `Stop`), so event names
 * are read in any case. Payloads are `{hook_event_name, cwd, tool_name,
 * tool_input, tool_response}`; `fs_write` edits (`command: create |
 * str_replace | insert | append`, `path`, `old_str`, `new_str`, `file_text`),
 * `execute_bash` runs `command`, and `tool_response` is `{success, result:
 * [...]}` with `execute_bash`'s `exit_status`, `stdout` and `stderr` in
 * `result[0]`. There is no session id: the session is the working directory.
 * Stdout of session start and prompt hooks is added to the agent's context,
 * so the answer is plain text there; a pause is a warning in it.
 *
 * Hooks: a v3 hook file of Heimdall's own, ~/.kiro/hooks/heimdall.json or
 * .kiro/hooks/heimdall.json; MCP server: settings/mcp.json beside it.
 */
import { join } from "../../files/mod.ts";
import { plain } from "../answers.ts";
import type { ToolOutcome } from "../event.ts";
import { inScope } from "../install/context.ts";
import { claudeTool, field, n, s, textOf } from "../payload.ts";
import type { HarnessSpec, Payload } from "../spec.ts";
import { record } from "../tools.ts";

/** `execute_bash`'s exit status in `result[0]`, else `success`. */
function outcome(p: Payload): ToolOutcome {
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
  return { ok, exitCode, output: textOf(result) };
}

/** The v3 triggers Heimdall's hook file registers, with their tool matchers. */
const TRIGGERS: readonly (readonly [string, string | null])[] = [
  ["SessionStart", null],
  ["UserPromptSubmit", null],
  ["PreToolUse", "fs_write|write|str_replace"],
  ["PostToolUse", "fs_write|write|str_replace|execute_bash|shell|grep|glob"],
  ["Stop", null],
];

/** Kiro, described (event keys in lower case: see `anyCase`). */
export const kiro: HarnessSpec<"kiro"> = {
  name: "kiro",
  payload: {
    event: field("hook_event_name"),
    session: (p, env) => s(p, "session_id") ?? `cwd:${s(p, "cwd") ?? env.cwd}`,
    cwd: field("cwd"),
    anyCase: true,
  },
  events: {
    // Every start is a new session: Kiro sends no session id, so its session is the folder
    // and a start must not carry on the last one's (what it was told, its task).
    agentspawn: { kind: "session_start", source: () => "new", say: plain },
    sessionstart: { kind: "session_start", source: () => "new", say: plain },
    userpromptsubmit: { kind: "prompt", prompt: (p) => s(p, "prompt") ?? "", say: plain },
    pretooluse: { kind: "before_tool", tool: claudeTool },
    posttooluse: { kind: "after_tool", tool: claudeTool, outcome },
    stop: { kind: "stop", final: false },
  },
  answers: { silent: null, pauseAsWarning: true },
  install: {
    files: (ctx) => {
      const dir = inScope(ctx, ".kiro", ".kiro");
      return { hooks: join(dir, "hooks", "heimdall.json"), mcp: join(dir, "settings", "mcp.json") };
    },
    hooks: {
      shape: "owned",
      what: "hooks",
      text: ({ command }) =>
        JSON.stringify(
          {
            version: "v1",
            hooks: TRIGGERS.map(([trigger, matcher]) => ({
              name: `heimdall-${
                trigger.replace(/[A-Z]/g, (c, i) => (i ? "-" : "") + c.toLowerCase())
              }`,
              trigger,
              ...(matcher ? { matcher } : {}),
              action: { type: "command", command: command(trigger) },
              timeout: 10,
              enabled: true,
            })),
          },
          null,
          2,
        ) + "\n",
    },
    mcp: { format: "json", stdioType: false },
    signs: { commands: ["kiro-cli", "kiro"], dirs: [".kiro"] },
  },
};
