/**
 * `HEIMDALL_HOME` as a person writes it in an agent's settings (pure). A
 * JSON file's `env` block is no shell: `"HEIMDALL_HOME": "~/.heimdall"`
 * reaches the process with its tilde, which read as a relative path made a
 * folder named `~` in whatever folder the agent started the server in, a
 * journal per project.
 */

/**
 * `value` with a leading `~` (alone, or before a slash) replaced by `home`,
 * as a shell would; anything else, and any value when `home` is unset,
 * unchanged. `~user` is left alone (no user database is read).
 *
 * @example
 * ```ts
 * import { expandTilde } from "./tilde.ts";
 * console.assert(expandTilde("~/.heimdall", "/home/ada") === "/home/ada/.heimdall");
 * console.assert(expandTilde("~", "/home/ada") === "/home/ada");
 * console.assert(expandTilde("/srv/h", "/home/ada") === "/srv/h");
 * console.assert(expandTilde("~bob/h", "/home/ada") === "~bob/h");
 * ```
 */
export function expandTilde(value: string, home: string | undefined): string {
  if (home === undefined || home === "") return value;
  if (value === "~") return home;
  if (value.startsWith("~/")) return home.replace(/\/+$/, "") + value.slice(1);
  return value;
}
