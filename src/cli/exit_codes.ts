import type { ErrorKind } from "../errors/mod.ts";

/** The one table of exit codes every command uses. */
export const EXIT = {
  /** Success. */
  ok: 0,
  /** Nothing found (search), or drift (verify, map check). */
  none: 1,
  /** Usage error or bad input: the message names the value and the fix. */
  usage: 2,
  /** Environment: lock held, permission denied, disk full, missing model, damaged journal. */
  env: 3,
  /** An internal bug (EX_SOFTWARE): the message asks for `--debug` and a report. */
  software: 70,
  /**
   * The daemon stopped because its code was replaced on disk, an upgrade
   * (EX_TEMPFAIL): it started the new code, or its service manager does.
   */
  codeReplaced: 75,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The exit code of each kind of error: the only place a failure becomes a
 * number. An error that is not a HeimdallError is `internal`.
 */
export const EXIT_FOR_KIND: Readonly<Record<ErrorKind, ExitCode>> = {
  drift: EXIT.none,
  usage: EXIT.usage,
  environment: EXIT.env,
  internal: EXIT.software,
};
