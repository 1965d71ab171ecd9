/**
 * Reading a whole file's text when it may be missing. Two policies, because
 * callers differ in what an unreadable file means to them:
 *
 * - {@link readTextIfPresent}: missing is an answer (null), anything else is
 *   an error. The installer plans edits to a harness's settings from what it
 *   reads; taking a file it may not read for an absent one would plan to
 *   overwrite it.
 * - {@link readTextOrNull}: any failure is null. For best-effort readers that
 *   do without the text, such as a hook narrowing an edit to the symbols it
 *   touches, which must never fail the agent's tool call. Decoded as the
 *   index decodes a file ({@link decodeText}), so its lines are the index's.
 */
import { decodeText } from "./decode.ts";

/**
 * A file's text, or null when nothing is at `path`; any other failure
 * (permission, a folder, an I/O error) throws Deno's error. One read; the
 * file may change the moment it returns.
 *
 * @example
 * ```ts
 * import { readTextIfPresent } from "./read_text.ts";
 * console.assert(readTextIfPresent(`${Deno.cwd()}/no such file`) === null);
 * ```
 */
export function readTextIfPresent(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

/**
 * A file's text, or null when it cannot be read for any reason (missing,
 * not permitted, a folder). Never throws. One read; the file may change the
 * moment it returns.
 *
 * @example
 * ```ts
 * import { readTextOrNull } from "./read_text.ts";
 * console.assert(readTextOrNull(Deno.cwd()) === null);
 * ```
 */
export function readTextOrNull(path: string): string | null {
  try {
    return decodeText(Deno.readFileSync(path));
  } catch {
    return null;
  }
}
