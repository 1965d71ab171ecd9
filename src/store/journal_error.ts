import { EnvironmentError } from "../errors/mod.ts";

/** The journal cannot be opened, is damaged, or is from a newer Heimdall. */
export class JournalError extends EnvironmentError {
  /** `file` cannot be used, as `message` says. */
  constructor(message: string, readonly file: string) {
    super(message);
    this.name = "JournalError";
  }
}

/** No journal exists yet (nothing was ever indexed or remembered here): a state, not a fault. */
export class JournalMissingError extends JournalError {
  /** No journal at `file`. */
  constructor(file: string) {
    super(`No journal at "${file}": nothing is indexed yet; run \`heimdall index DIR\``, file);
    this.name = "JournalMissingError";
  }
}
