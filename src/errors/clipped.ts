/** The longest value an error quotes whole; a longer one is cut, with its length said. */
const SHOWN = 120;

/**
 * `value` as an error quotes it (pure): whole up to 120 characters, else
 * its first 120 and its length, so that a pasted file or a runaway shell
 * expansion gives a one-line error a person can read, not the value again.
 *
 * @example
 * ```ts
 * import { clipped } from "./clipped.ts";
 * console.assert(clipped("alpha") === "alpha");
 * console.assert(clipped("a".repeat(500)) === `${"a".repeat(120)}… (500 characters)`);
 * ```
 */
export function clipped(value: string): string {
  return value.length <= SHOWN ? value : `${value.slice(0, SHOWN)}… (${value.length} characters)`;
}
