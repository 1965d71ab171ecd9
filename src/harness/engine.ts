/**
 * The one reading of every harness's payloads and the one writing of its
 * answers (pure), driven by the harness's description (`spec.ts`): its
 * event table says what each of its events becomes and how each is answered.
 * Never throws on odd input: a payload that is not an object, or an event
 * not in the table, is an `ignored` event.
 */
import type { EventBase, HookEvent } from "./event.ts";
import type { EventRow, HarnessSpec, PayloadEnv } from "./spec.ts";
import { record } from "./tools.ts";

function nonBlank(v: string | null): string | null {
  return v !== null && v.trim() !== "" ? v : null;
}

/** The table row for a native event name, or null when the harness has no such event. */
export function rowOf(h: HarnessSpec, native: string): EventRow | null {
  const key = h.payload.anyCase ? native.toLowerCase() : native;
  // Own keys only: an event named "constructor" is not in any table.
  return Object.hasOwn(h.events, key) ? h.events[key]! : null;
}

/** Turns a harness's JSON payload into the normalised event. */
export function parseEvent(h: HarnessSpec, payload: unknown, env: PayloadEnv): HookEvent {
  const p = record(payload) ?? {};
  const native = h.payload.event(p) ?? env.event ?? "";
  const at: EventBase = {
    harness: h.name,
    native,
    sessionId: nonBlank(h.payload.session(p, env)) ?? "unknown",
    cwd: nonBlank(h.payload.cwd(p, env)) ?? env.cwd,
  };
  const row = rowOf(h, native);
  if (row === null) return { ...at, kind: "ignored" };
  switch (row.kind) {
    case "session_start":
      return { ...at, kind: "session_start", source: row.source?.(p, at) ?? null };
    case "prompt":
      return { ...at, kind: "prompt", prompt: row.prompt(p, at) };
    case "before_tool":
      return { ...at, kind: "before_tool", tool: row.tool(p, at) };
    case "after_tool":
      return { ...at, kind: "after_tool", tool: row.tool(p, at), outcome: row.outcome(p, at) };
    case "stop":
      return {
        ...at,
        kind: "stop",
        final: row.final,
        ...(row.said ? { said: row.said(p, at) } : {}),
        ...(row.transcript ? { transcript: row.transcript(p, at) } : {}),
      };
  }
}

/**
 * Whether anything Heimdall says to `event` reaches the agent or the person:
 * false when the harness shows nothing for it (its row has no way to say
 * context and none to pause), so nothing should be counted as told.
 */
export function answered(h: HarnessSpec, event: HookEvent): boolean {
  const row = rowOf(h, event.native);
  return row?.say !== undefined || (row?.kind === "before_tool" && row.pause !== undefined);
}

/**
 * The answer to print for `event`, given the context Heimdall wants the
 * agent to see (null: nothing to say) and, before a tool call, `deny`: the
 * reason to pause it once (a teammate's claim within reach). Returns null
 * to print nothing at all. Never grants a permission: where the event has no
 * way to deny, a harness that takes warnings gets the reason first in the
 * context, and any other drops it.
 */
export function renderAnswer(
  h: HarnessSpec,
  event: HookEvent,
  context: string | null,
  deny: string | null = null,
): string | null {
  const row = rowOf(h, event.native);
  if (deny && row?.kind === "before_tool" && row.pause) {
    return row.pause(deny, context, event.native);
  }
  if (deny && h.answers.pauseAsWarning) context = context ? `${deny}\n\n${context}` : deny;
  if (context === null || !row?.say) return h.answers.silent;
  return row.say(context, event.native);
}
