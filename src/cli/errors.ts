import { describeFault, firstLine } from "../store/mod.ts";
import { EXIT_FOR_KIND, type ExitCode } from "./exit_codes.ts";

/** How an error is reported: its exit code, one message, and whether it is a bug. */
export interface Described {
  code: ExitCode;
  message: string;
  /** A bug in Heimdall (exit 70): the caller prints the stack only when debugging. */
  bug: boolean;
}

/**
 * Maps an error to its exit code and a one-line message for a person. A
 * HeimdallError's code is its kind's, from `EXIT_FOR_KIND` (usage → 2,
 * environment → 3, drift → 1, internal → 70), with its own message. An error
 * from outside Heimdall is environment (3) only when its code or class says
 * so: a SQLite result code for busy, read-only, I/O, full or corrupt (`journal`
 * names the journal in that message), an errno such as ENOSPC, or a
 * `Deno.errors` class. Anything else is a bug in Heimdall → 70, with a hint to
 * rerun with `--debug` and report it; the stack is appended only when `debug`
 * is set. Never decided by the text of a message.
 */
export function describeError(
  e: unknown,
  options: { journal?: string; debug?: boolean } = {},
): Described {
  const { kind, message } = describeFault(e, options.journal ?? "journal.db");
  if (kind !== "internal") return { code: EXIT_FOR_KIND[kind], message, bug: false };
  const err = e instanceof Error ? e : new Error(String(e));
  const stack = options.debug && err.stack ? `\n${err.stack}` : "";
  return {
    code: EXIT_FOR_KIND.internal,
    message: `internal error: ${firstLine(err)}. This is a bug in heimdall: rerun with --debug ` +
      `(or HEIMDALL_DEBUG=1) for the stack, and report it with the command line that failed${stack}`,
    bug: true,
  };
}
