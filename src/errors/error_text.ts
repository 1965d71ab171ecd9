/**
 * The message of `e` for a sentence that reports it: an Error's message,
 * anything else thrown as text (pure).
 *
 * @example
 * ```ts
 * import { errorText } from "./error_text.ts";
 * console.assert(errorText(new Error("disk full")) === "disk full");
 * console.assert(errorText("gone") === "gone");
 * ```
 */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
