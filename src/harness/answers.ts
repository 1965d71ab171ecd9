/**
 * Answer formats more than one harness reads (pure). A harness's own
 * formats live in its module; none of these ever grants a permission.
 */
import type { Pause, Say } from "./spec.ts";

/** The context as plain text (stdout a harness shows or adds to the conversation). */
export const plain: Say = (context) => context;

/** `{"hookSpecificOutput": {"hookEventName", "additionalContext"}}`: Claude Code, Codex, Gemini CLI. */
export const hookSpecificContext: Say = (context, native) =>
  JSON.stringify({ hookSpecificOutput: { hookEventName: native, additionalContext: context } });

/**
 * Claude Code's and Codex's PreToolUse answer that pauses the call:
 * `permissionDecision: "deny"` with the reason the agent is shown, and the
 * context beside it. Never "allow".
 */
export const hookSpecificDeny: Pause = (reason, context, native) =>
  JSON.stringify({
    hookSpecificOutput: {
      hookEventName: native,
      permissionDecision: "deny",
      permissionDecisionReason: reason,
      ...(context ? { additionalContext: context } : {}),
    },
  });
