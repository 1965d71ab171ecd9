/** Small output helpers shared by commands. */

/** Seconds with one decimal. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)}s`;
}

/** `1 file`, `2 files`. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** How long ago a timestamp was, for a person. */
export function ago(ms: number | null | undefined, now = Date.now()): string {
  if (ms === null || ms === undefined) return "never";
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}

/** Stable JSON for `--json` output. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

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
