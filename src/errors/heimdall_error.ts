/**
 * The kind of a failure: what a person has to do about it, and so (through
 * the one table in `src/cli/exit_codes.ts`) the exit code it gets.
 *
 * - `usage`: a value given to Heimdall is wrong (an argument, an option, a
 *   config or map file, a name that matches nothing); the message names the
 *   value and the fix.
 * - `environment`: the machine is not as Heimdall needs it (a lock held, a
 *   permission, the disk, a missing or damaged journal or model, the network,
 *   an unreachable team store); the message names what and the remedy.
 * - `drift`: the index or a map disagrees with the disk.
 * - `internal`: a bug in Heimdall; the person can only report it.
 */
export type ErrorKind = "usage" | "environment" | "drift" | "internal";

/** Every kind, in the order of the exit-code table. */
export const ERROR_KINDS: readonly ErrorKind[] = ["drift", "usage", "environment", "internal"];

/**
 * The base of every error Heimdall throws on purpose. A subclass names the
 * failure and carries its data (`IndexLockedError { pid }`); its `kind` is
 * fixed by the kind base it extends, never read from the message. An error
 * that is not a HeimdallError is, by that alone, a bug in Heimdall.
 */
export abstract class HeimdallError extends Error {
  /** What a person has to do about it; decides the exit code. */
  abstract readonly kind: ErrorKind;

  /** `message` follows the house rule: what failed, the value quoted, then the remedy. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A value given to Heimdall is wrong; the message says which and how to fix it. */
export class UsageError extends HeimdallError {
  /** Always `usage`. */
  readonly kind = "usage";
}

/** The machine is not as Heimdall needs it; the message says what and the remedy. */
export class EnvironmentError extends HeimdallError {
  /** Always `environment`. */
  readonly kind = "environment";
}

/** The index or a map disagrees with the disk; the message says where and how to converge. */
export class DriftError extends HeimdallError {
  /** Always `drift`. */
  readonly kind = "drift";
}

/** An invariant Heimdall checks itself was broken: a bug, reported as one. */
export class InternalError extends HeimdallError {
  /** Always `internal`. */
  readonly kind = "internal";
}
