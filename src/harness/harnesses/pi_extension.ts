/**
 * The pi extension Heimdall installs (pi has command hooks only through
 * extensions, and no MCP). It forwards pi's events to `heimdall hook
 * --harness pi` and feeds the answer back: a message before the agent starts,
 * and text appended to a tool's result (context gathered before an edit is
 * delivered with that edit's result, since pi's `tool_call` can only block).
 * It blocks a tool call only when Heimdall says so: an edit paused once for a
 * teammate's claim within reach. The command is baked in as an argv array.
 */

/** Marks the file as Heimdall's (uninstall removes only a file that carries it). */
export const PI_MARKER = "// heimdall:pi-extension v1";

/** The extension's source for running `argv` (+ `hook --harness pi`) with `env`. */
export function piExtension(argv: readonly string[], env: Record<string, string>): string {
  return `${PI_MARKER}
// Installed by \`heimdall init --harness pi\`; removed by \`heimdall init --harness pi --uninstall\`.
// Forwards pi's events to Heimdall and adds what it answers to the conversation. Blocks a tool
// call only when Heimdall pauses an edit once for a teammate's claim.
import { spawnSync } from "node:child_process";

const ARGV: string[] = ${JSON.stringify([...argv, "hook", "--harness", "pi"])};
const ENV: Record<string, string> = ${JSON.stringify(env)};

function answer(payload: Record<string, unknown>): { context?: unknown; block?: unknown; reason?: unknown } {
  try {
    const r = spawnSync(ARGV[0]!, ARGV.slice(1), {
      input: JSON.stringify(payload),
      encoding: "utf8",
      timeout: 10_000,
      env: { ...process.env, ...ENV },
    });
    if (r.status !== 0 || !r.stdout) return {};
    return JSON.parse(r.stdout);
  } catch {
    return {};
  }
}

function ask(payload: Record<string, unknown>): string | null {
  const context = answer(payload).context;
  return typeof context === "string" && context !== "" ? context : null;
}

function text(content: unknown): string {
  if (!Array.isArray(content)) return typeof content === "string" ? content : "";
  return content.map((c: { type?: string; text?: string }) => (c?.type === "text" ? c.text ?? "" : "")).join("\\n");
}

// deno-lint-ignore no-explicit-any
export default function (pi: any) {
  const pending = new Map<string, string>();
  // deno-lint-ignore no-explicit-any
  const session = (ctx: any): string => {
    try {
      return String(ctx.sessionManager.getSessionFile() ?? ctx.sessionManager.getSessionId?.() ?? "pi");
    } catch {
      return "pi";
    }
  };
  // deno-lint-ignore no-explicit-any
  pi.on("session_start", (event: any, ctx: any) => {
    const context = ask({ event: "session_start", reason: event?.reason, session_id: session(ctx), cwd: ctx.cwd });
    return context ? { systemPromptAppend: context } : undefined;
  });
  // deno-lint-ignore no-explicit-any
  pi.on("before_agent_start", (event: any, ctx: any) => {
    const context = ask({ event: "before_agent_start", prompt: event?.prompt ?? "", session_id: session(ctx), cwd: ctx.cwd });
    return context ? { message: { customType: "heimdall", content: context, display: false } } : undefined;
  });
  // deno-lint-ignore no-explicit-any
  pi.on("tool_call", (event: any, ctx: any) => {
    const said = answer({
      event: "tool_call",
      tool_name: event?.toolName,
      input: event?.input,
      session_id: session(ctx),
      cwd: ctx.cwd,
    });
    // Heimdall pauses an edit once when a teammate's claim is within reach.
    if (said.block === true && typeof said.reason === "string") return { block: true, reason: said.reason };
    const context = typeof said.context === "string" && said.context !== "" ? said.context : null;
    if (context && event?.toolCallId) pending.set(event.toolCallId, context);
    return undefined;
  });
  // deno-lint-ignore no-explicit-any
  pi.on("tool_result", (event: any, ctx: any) => {
    const before = pending.get(event?.toolCallId);
    pending.delete(event?.toolCallId);
    const after = ask({
      event: "tool_result",
      tool_name: event?.toolName,
      input: event?.input,
      is_error: event?.isError === true,
      content: text(event?.content),
      session_id: session(ctx),
      cwd: ctx.cwd,
    });
    const extra = [before, after].filter((t) => t).join("\\n\\n");
    if (!extra) return undefined;
    return { content: [...(Array.isArray(event?.content) ? event.content : []), { type: "text", text: extra }] };
  });
  // deno-lint-ignore no-explicit-any
  pi.on("agent_end", (_event: any, ctx: any) => {
    ask({ event: "agent_end", session_id: session(ctx), cwd: ctx.cwd });
  });
  // deno-lint-ignore no-explicit-any
  pi.on("session_shutdown", (_event: any, ctx: any) => {
    ask({ event: "session_shutdown", session_id: session(ctx), cwd: ctx.cwd });
  });
}
`;
}
