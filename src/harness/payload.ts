/**
 * Reading hook payloads (pure): typed fields, a tool's text output and exit
 * status, and the readers harness modules put in their event tables. Never
 * throws on odd input: a missing or mistyped field reads as null.
 */
import type { ToolCall, ToolOutcome } from "./event.ts";
import type { Payload, Read } from "./spec.ts";
import { record, toolCall } from "./tools.ts";

/** A string field, or null. */
export function s(o: Payload | null, key: string): string | null {
  const v = o?.[key];
  return typeof v === "string" ? v : null;
}

/** A number field (or a numeric string), or null. */
export function n(o: Payload | null, key: string): number | null {
  const v = o?.[key];
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  return null;
}

/** A reader of one top-level string field (null when absent or not a string). */
export function field(key: string): (p: Payload) => string | null {
  return (p) => s(p, key);
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

/**
 * The outcome of a tool from a Claude-shaped `tool_response` (object or
 * string). `failed` is what the event itself says (true: a failure event;
 * null: it does not say); an exit status in the response decides over it.
 */
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

/** The outcome of a failure event whose error text may name the exit status. */
export function failedWith(error: string): ToolOutcome {
  return { ok: false, exitCode: exitCodeIn(error), output: error };
}

/** A shell command's outcome from its exit status (null: unknown) and output. */
export function exitedWith(exitCode: number | null, output: string): ToolOutcome {
  return { ok: exitCode === null ? null : exitCode === 0, exitCode, output };
}

/** A tool call from Claude-shaped `tool_name`/`tool_input` (Claude Code, Codex, Cursor, Gemini, Kiro). */
export const claudeTool: Read<ToolCall> = (p, at) =>
  toolCall(s(p, "tool_name") ?? "", p.tool_input, at.cwd);
