/** Helpers the harness adapters share (pure). */
import type { EventBase, HarnessName, HookEvent, ToolCall, ToolOutcome } from "../event.ts";
import { record, toolCall } from "../tools.ts";

/** How an adapter reads a payload and writes an answer. */
export interface Adapter {
  name: HarnessName;
  /** Turns the harness's JSON into an event; never throws on odd input (it is `ignored`). */
  parse(payload: unknown, env: AdapterEnv): HookEvent;
  /**
   * The answer to print for `event` given the context Heimdall wants the agent
   * to see (null: nothing to say) and, before a tool call, `deny`: the reason
   * to pause it once (a teammate's claim within reach). Returns null to print
   * nothing at all. Never grants a permission; a harness with no way to deny
   * gets the reason as context (a warning).
   */
  render(event: HookEvent, context: string | null, deny?: string | null): string | null;
}

/** What an adapter may need besides the payload. */
export interface AdapterEnv {
  /** The hook process's working directory (harnesses run hooks in the project). */
  cwd: string;
  /** Environment variables (e.g. `CLAUDE_PROJECT_DIR`). */
  env: (name: string) => string | undefined;
  /** The event name from the command line (`--event`), for payloads that do not carry one. */
  event: string | null;
}

/** A string field, or null. */
export function s(o: Record<string, unknown> | null, key: string): string | null {
  const v = o?.[key];
  return typeof v === "string" ? v : null;
}

/** A number field (or a numeric string), or null. */
export function n(o: Record<string, unknown> | null, key: string): number | null {
  const v = o?.[key];
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  return null;
}

/** The event fields every kind shares. */
export function base(
  harness: HarnessName,
  native: string,
  sessionId: string | null,
  cwd: string | null,
  env: AdapterEnv,
): EventBase {
  return {
    harness,
    native,
    sessionId: sessionId && sessionId.trim() !== "" ? sessionId : "unknown",
    cwd: cwd && cwd.trim() !== "" ? cwd : env.cwd,
  };
}

/** An event Heimdall does nothing for. */
export function ignored(b: EventBase): HookEvent {
  return { ...b, kind: "ignored" };
}

const EXIT_PATTERNS = [
  /exited with code (-?\d+)/i,
  /^exit code:?\s*(-?\d+)/im,
  /\bexit(?: status| code)[:=]?\s*(-?\d+)/i,
];

/** An exit status written in a tool's text output ("Exit code 1", "Process exited with code 7"). */
export function exitCodeIn(text: string): number | null {
  for (const re of EXIT_PATTERNS) {
    const m = re.exec(text);
    if (m) return Number(m[1]);
  }
  return null;
}

/** Flattens a tool response (string, {stdout, stderr}, {output}, content parts…) to text. */
export function textOf(v: unknown, depth = 0): string {
  if (depth > 4 || v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) {
    return v.map((x) => textOf(x, depth + 1)).filter((t) => t !== "").join("\n");
  }
  const o = record(v)!;
  const parts: string[] = [];
  for (
    const k of [
      "stdout",
      "stderr",
      "output",
      "text",
      "content",
      "result",
      "llmContent",
      "error",
      "message",
    ]
  ) {
    if (k in o) {
      const t = textOf(o[k], depth + 1);
      if (t !== "") parts.push(t);
    }
  }
  return parts.join("\n");
}

/** The outcome of a tool from a Claude-shaped `tool_response` (object or string). */
export function outcomeOf(response: unknown, failed: boolean | null): ToolOutcome {
  const o = record(response);
  let exitCode = n(o, "exit_code") ?? n(o, "exitCode") ?? n(o, "exit_status") ?? n(o, "returncode");
  const output = textOf(response);
  // Codex may send the model-facing text; Gemini's shell response holds "Exit Code: N".
  const said = typeof response === "string"
    ? response
    : typeof o?.llmContent === "string"
    ? o.llmContent
    : null;
  if (exitCode === null && said !== null) exitCode = exitCodeIn(said);
  let ok = failed === null ? null : !failed;
  if (exitCode !== null) ok = exitCode === 0;
  else if (o && (o.success === false || o.is_error === true || o.isError === true)) ok = false;
  else if (o && o.interrupted === true) ok = false;
  return { ok, exitCode, output };
}

/** A tool call from Claude-shaped `tool_name`/`tool_input`. */
export function claudeTool(p: Record<string, unknown>, cwd: string): ToolCall {
  return toolCall(s(p, "tool_name") ?? "", p.tool_input, cwd);
}

/** `{"hookSpecificOutput": {"hookEventName", "additionalContext"}}`: Claude Code, Codex, Gemini. */
export function hookSpecificContext(native: string, context: string): string {
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: native, additionalContext: context },
  });
}

/**
 * Claude Code's and Codex's PreToolUse answer that pauses the call:
 * `permissionDecision: "deny"` with the reason the agent is shown, and the
 * context beside it. Never "allow".
 */
export function hookSpecificDeny(native: string, context: string | null, reason: string): string {
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: native,
      permissionDecision: "deny",
      permissionDecisionReason: reason,
      ...(context ? { additionalContext: context } : {}),
    },
  });
}

/** Context with a pause reason that the harness cannot act on put first, as a warning. */
export function withWarning(
  context: string | null,
  deny: string | null | undefined,
): string | null {
  if (!deny) return context;
  return context ? `${deny}\n\n${context}` : deny;
}
