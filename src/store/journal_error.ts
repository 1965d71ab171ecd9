import { EnvironmentError } from "../errors/mod.ts";

/** The journal cannot be opened, is damaged, or is from a newer Heimdall. */
export class JournalError extends EnvironmentError {
  constructor(message: string, readonly file: string) {
    super(message);
    this.name = "JournalError";
  }
}
