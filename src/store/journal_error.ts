import { EnvironmentError } from "../errors/mod.ts";

/** The journal cannot be opened, is damaged, or is from a newer Heimdall. */
export class JournalError extends EnvironmentError {
  /** `file` cannot be used, as `message` says. */
  constructor(message: string, readonly file: string) {
    super(message);
    this.name = "JournalError";
  }
}
