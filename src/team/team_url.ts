/** The shared store's address: validated and shown without its password (pure). */

import { EnvironmentError, UsageError } from "../errors/mod.ts";

/** The team store cannot be reached or used; the message says what failed and what to do. */
export class TeamStoreError extends EnvironmentError {}

/** A team URL that cannot be used; the message names the value (password hidden) and the fix. */
export class TeamUrlError extends UsageError {}

/**
 * Checks that `text` is a PostgreSQL URL (`postgres://` or `postgresql://`
 * with a host) and returns it unchanged; throws {@link TeamUrlError} otherwise.
 */
export function parseTeamUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TeamUrlError(
      `Invalid team URL "${
        redactUrl(text)
      }": expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`,
    );
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new TeamUrlError(
      `Invalid team URL "${
        redactUrl(text)
      }": the scheme must be postgres:// (PostgreSQL is the only shared store)`,
    );
  }
  if (url.hostname === "") {
    throw new TeamUrlError(
      `Invalid team URL "${
        redactUrl(text)
      }": no host; expected postgres://USER@HOST[:PORT]/DATABASE`,
    );
  }
  return text;
}

/** `text` with any password replaced by `***` (also when it is not a valid URL). */
export function redactUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.password !== "") url.password = "***";
    return url.toString();
  } catch {
    // Not parseable: hide whatever sits between a ":" and the last "@".
    return text.replace(/:[^:]*@(?!.*@)/, ":***@");
  }
}
