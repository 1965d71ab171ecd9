/**
 * Words of a command line a person may paste into a POSIX shell: a path in
 * a remedy (`heimdall reconcile 'my notes/a.md'`) or a hook's command.
 */

/**
 * Quotes one word for a POSIX shell, only when it needs it.
 *
 * @example
 * ```ts
 * import { shellQuote } from "./shell.ts";
 * import assert from "node:assert/strict";
 * assert.equal(shellQuote("src/a.ts"), "src/a.ts");
 * assert.equal(shellQuote("my notes/a.md"), "'my notes/a.md'");
 * assert.equal(shellQuote("it's"), `'it'"'"'s'`);
 * ```
 */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`;
}

/** A shell command line from argv words. */
export function shellLine(argv: readonly string[]): string {
  return argv.map(shellQuote).join(" ");
}

/**
 * A path (or `path:name`) as a word of a heimdall command line a person may
 * paste: quoted for the shell, and one that begins with "-" written `./-…`
 * so the command reads it as a path, not as options.
 *
 * @example
 * ```ts
 * import { shellPath } from "./shell.ts";
 * import assert from "node:assert/strict";
 * assert.equal(shellPath("-notes.md"), "./-notes.md");
 * assert.equal(shellPath("my notes/a.md"), "'my notes/a.md'");
 * ```
 */
export function shellPath(path: string): string {
  return shellQuote(path.startsWith("-") ? `./${path}` : path);
}
