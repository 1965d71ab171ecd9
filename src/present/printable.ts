/** Text from the disk (file names, summaries) made safe for one line of output (pure). */
/**
 * A file name or other untrusted text made safe for one line of output:
 * control characters (a newline in a file name, an escape sequence) and the
 * Unicode line separators become visible escapes (`\n`, `\t`, `\x1b`,
 * `\u2028`), and a backslash that could be mistaken for one is doubled.
 * Text without any of them comes back unchanged.
 */
export function printable(text: string): string {
  // deno-lint-ignore no-control-regex
  if (!/[\x00-\x1f\x7f\u0080-\u009f\u2028\u2029]/.test(text)) return text;
  // deno-lint-ignore no-control-regex
  return text.replace(/[\\\x00-\x1f\x7f\u0080-\u009f\u2028\u2029]/g, (c) => {
    switch (c) {
      case "\\":
        return "\\\\";
      case "\n":
        return "\\n";
      case "\r":
        return "\\r";
      case "\t":
        return "\\t";
    }
    const code = c.charCodeAt(0);
    return code < 0x100
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/**
 * Text meant to span lines (a message, a report) made safe for a terminal:
 * each line is made {@link printable}, the line breaks between them kept.
 * An escape sequence from a file's name or content shows as `\x1b…` instead
 * of driving the terminal; text without control characters comes back
 * unchanged.
 *
 * @example
 * ```ts
 * import { printableLines } from "./printable.ts";
 * import assert from "node:assert/strict";
 * assert.equal(printableLines("bad glob \"a\x1b[31m\"\nfix it"), 'bad glob "a\\x1b[31m"\nfix it');
 * ```
 */
export function printableLines(text: string): string {
  return text.split("\n").map(printable).join("\n");
}
