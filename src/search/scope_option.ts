/**
 * A search's `repo` and `path` filters as the asker wrote them, resolved
 * from the asker's folder: the command line's (`--repo`, `--path`) and the
 * MCP server's (`repo`, `path_prefix`), so one question asked from one
 * folder filters the same way through either. Light on purpose (no journal,
 * no ranking code): `heimdall search`'s start imports it.
 */
import { canonicalPath } from "../files/canonical.ts";
import { resolve } from "../files/path.ts";

/**
 * A repository written as a path (`.`, `./app`, `../lib`, `/abs`, or
 * `app/lib` when it is a folder under `cwd`) is the folder it names from
 * `cwd`, through any linked folder (roots are recorded by their real path);
 * a name (`app`), or a relative path not under `cwd` (`app/lib`: under
 * every root), is left as it is. Costs a stat or two.
 *
 * @example
 * ```ts
 * import { repoOption } from "./scope_option.ts";
 * console.assert(repoOption("app", "/tmp") === "app");
 * ```
 */
export function repoOption(r: string, cwd: string): string {
  const path = r === "." || r === ".." || r.startsWith("./") || r.startsWith("../") ||
    r.startsWith("/");
  if (path) return canonicalPath(resolve(cwd, r));
  if (!r.replace(/\/+$/, "").includes("/")) return r;
  try {
    return Deno.statSync(resolve(cwd, r)).isDirectory ? canonicalPath(resolve(cwd, r)) : r;
  } catch {
    return r;
  }
}

/**
 * A path filter: an absolute path, or one that exists under `cwd`, is taken
 * as it is (through any linked folder); anything else is left relative, to
 * be looked for under every root. Costs a stat.
 */
export function pathOption(p: string, cwd: string): string {
  if (p.startsWith("/")) return canonicalPath(resolve(p));
  const abs = resolve(cwd, p);
  try {
    Deno.statSync(abs);
    return canonicalPath(abs);
  } catch {
    return p;
  }
}
