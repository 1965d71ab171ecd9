import { ConfigError } from "../config/mod.ts";
import { IndexLockedError } from "../reconcile/mod.ts";
import { JournalError } from "../store/mod.ts";
import { EXIT, type ExitCode } from "./exit_codes.ts";

/** The command line was wrong; the message says what and how to fix it. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Maps an error to its exit code and a message for a person. */
export function describeError(e: unknown): { code: ExitCode; message: string } {
  if (e instanceof UsageError) return { code: EXIT.usage, message: e.message };
  if (e instanceof ConfigError) return { code: EXIT.usage, message: e.message };
  if (e instanceof IndexLockedError) return { code: EXIT.env, message: e.message };
  if (e instanceof JournalError) return { code: EXIT.env, message: e.message };
  if (e instanceof Deno.errors.PermissionDenied) {
    return { code: EXIT.env, message: `Permission denied: ${e.message}` };
  }
  const err = e instanceof Error ? e : new Error(String(e));
  return { code: EXIT.env, message: `${err.message}\n${err.stack ?? ""}` };
}
