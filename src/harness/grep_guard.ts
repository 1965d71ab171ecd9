/**
 * The grep guard (pure): after the third consecutive grep/find/ls-style call
 * in a session, remind the agent once that `heimdall search` answers across
 * every repository. Any other tool call breaks the streak; the reminder is
 * given at most once per session.
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
  'That is the third grep/find/ls-style look-up in a row. `heimdall search "<what you are looking for>"` ' +
  "answers in one call across every indexed repository and notes, ranked and checked against the disk " +
  "(also the `search` tool of the heimdall MCP server).";

/** The next state after one tool call, and whether to remind now. */
export function stepGuard(
  state: GuardState,
  isSearch: boolean,
): { state: GuardState; remind: boolean } {
  if (!isSearch) return { state: { streak: 0, reminded: state.reminded }, remind: false };
  const streak = state.streak + 1;
  const remind = streak >= GUARD_STREAK && !state.reminded;
  return { state: { streak, reminded: state.reminded || remind }, remind };
}
