/** The one table of exit codes every command uses. */
export const EXIT = {
  /** Success. */
  ok: 0,
  /** Nothing found (search), or drift (verify, map check). */
  none: 1,
  /** Usage error or bad input: the message names the value and the fix. */
  usage: 2,
  /** Environment: lock held, permission denied, missing model or journal. */
  env: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
