/**
 * True when something is at `path` (following links: a link to nothing is
 * not there); false when it cannot be stat'ed for any reason, missing or not
 * permitted. One stat call; true may be stale the moment it returns.
 *
 * @example
 * ```ts
 * import { exists } from "./exists.ts";
 * console.assert(exists(Deno.cwd()));
 * console.assert(!exists(`${Deno.cwd()}/no such file \u0000`));
 * ```
 */
export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
