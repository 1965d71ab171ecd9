/** The shared store's address: validated and shown without its password (pure). */

import { teamUrlProblem } from "../config/mod.ts";
import { EnvironmentError, UsageError } from "../errors/mod.ts";

/** The team store cannot be reached or used; the message says what failed and what to do. */
export class TeamStoreError extends EnvironmentError {}

/** A team URL that cannot be used; the message names the value (password hidden) and the fix. */
export class TeamUrlError extends UsageError {}

/**
 * Checks that `text` is a PostgreSQL URL (`postgres://` or `postgresql://`
 * with a host, parsing as a URL) and returns it unchanged; throws
 * {@link TeamUrlError} otherwise, with the password hidden. The same check
 * as `config.json`'s `teamUrl` and `HEIMDALL_TEAM_URL` get.
 */
export function parseTeamUrl(text: string): string {
  const problem = teamUrlProblem(text);
  if (problem !== null) {
    throw new TeamUrlError(
      `Invalid team URL "${
        redactUrl(text)
      }": ${problem}; expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`,
    );
  }
  return text;
}

/** A password given as a query parameter (`?password=…`, `&sslpassword=…`), which the driver reads too. */
const QUERY_PASSWORD = /([?&](?:ssl)?password=)[^&#]*/gi;

/**
 * `text` with any password replaced by `***`, also when it is not a valid
 * URL: everything between the user name's ":" and the last "@" is hidden
 * (a password may hold ":", "/", "#" or "@" unencoded), and the value of a
 * `password` or `sslpassword` query parameter.
 *
 * @example
 * ```ts
 * import { redactUrl } from "./team_url.ts";
 * redactUrl("postgres://ann:top:secret/pw@db.example/team"); // "postgres://ann:***@db.example/team"
 * redactUrl("postgres://ann@db.example/team?password=s3cret"); // "postgres://ann@db.example/team?password=***"
 * ```
 */
export function redactUrl(url: string): string {
  // The query first: an "@" in its value must not be taken for the user's.
  const text = url.replace(QUERY_PASSWORD, "$1***");
  const at = text.lastIndexOf("@");
  if (at < 0) return text;
  const scheme = text.indexOf("://");
  const colon = text.indexOf(":", scheme < 0 ? 0 : scheme + 3);
  if (colon < 0 || colon > at) return text;
  return `${text.slice(0, colon)}:***${text.slice(at)}`;
}
