/**
 * The grep guard (pure): on the third grep/find/ls-style look-up since the
 * last Heimdall search, remind the agent that `heimdall search` answers across
 * every repository. Only a Heimdall search (the CLI, the MCP tool, or results
 * the prompt hook injected) starts the count again; reading, listing a file,
 * editing or running tests leave it as it is. One reminder per count.
 */

/** The guard's state, kept in the session file. */
export interface GuardState {
  streak: number;
  reminded: boolean;
}

/** Calls in a row that trigger the reminder. */
export const GUARD_STREAK = 3;

/** The reminder's text. */
export const GUARD_TEXT =
  'That is the third grep/find/ls-style look-up without a Heimdall search. `heimdall search "<what you are looking for>"` ' +
  "answers in one call across every indexed repository and notes, ranked and checked against the disk " +
  "(also the `search` tool of the heimdall MCP server).";

/** What a tool call is to the guard: a grep-like look-up, a Heimdall search, or neither. */
export type LookUp = "grep" | "heimdall" | "other";

/** The state of a count started afresh (a Heimdall search was made). */
export const FRESH_GUARD: GuardState = { streak: 0, reminded: false };

/** The next state after one tool call, and whether to remind now. */
export function stepGuard(
  state: GuardState,
  call: LookUp,
): { state: GuardState; remind: boolean } {
  if (call === "heimdall") return { state: FRESH_GUARD, remind: false };
  if (call === "other") return { state, remind: false };
  const streak = state.streak + 1;
  const remind = streak >= GUARD_STREAK && !state.reminded;
  return { state: { streak, reminded: state.reminded || remind }, remind };
}
