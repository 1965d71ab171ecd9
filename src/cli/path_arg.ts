/** A path typed on the command line, as a command takes it. */
import { UsageError } from "../errors/mod.ts";
import { resolve } from "../files/mod.ts";

/**
 * The absolute path `typed` names from the current folder. An empty one
 * (`heimdall roots remove "$DIR"` with DIR unset) throws a UsageError
 * naming `what` (`--path`, `DIR`) and `remedy` (by default: . for the
 * current folder): resolved, it would be the current folder, and the
 * command would index, remove or attach to a folder nobody named.
 *
 * @example
 * ```ts
 * import { typedPath } from "./path_arg.ts";
 * console.assert(typedPath("/tmp/x", "DIR") === "/tmp/x");
 * ```
 */
export function typedPath(
  typed: string,
  what: string,
  remedy = "write . for the current folder",
): string {
  if (typed.trim() === "") {
    throw new UsageError(
      `Empty ${what} ${
        JSON.stringify(typed)
      }: it names no folder or file (an unset shell variable?); ${remedy}`,
    );
  }
  return resolve(typed);
}
