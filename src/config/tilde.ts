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

/**
 * `path` under `home` written from it, `~` or `~/rest` with `/` between
 * its parts, the inverse of {@link expandTilde}; any other path, and any
 * path when `home` is unset, unchanged (pure). What leaves this machine
 * names a file of the user's home so, not by the home's own path (which
 * holds the user's login name, and differs on every teammate's machine).
 *
 * @example
 * ```ts
 * import { tildeOf } from "./tilde.ts";
 * console.assert(tildeOf("/home/ada/notes/db.md", "/home/ada") === "~/notes/db.md");
 * console.assert(tildeOf("/home/ada", "/home/ada/") === "~");
 * console.assert(tildeOf("/home/adam/x", "/home/ada") === "/home/adam/x");
 * console.assert(tildeOf("/etc/hosts", "/home/ada") === "/etc/hosts");
 * ```
 */
export function tildeOf(path: string, home: string | undefined, sep = "/"): string {
  const top = home?.replace(/[\\/]+$/, "");
  if (!top) return path;
  if (path === top) return "~";
  if (!path.startsWith(top + sep)) return path;
  return "~/" + path.slice(top.length + 1).split(sep).join("/");
}
