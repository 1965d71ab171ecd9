/** How Heimdall shows things to a person or an agent: counts, times, JSON, one-line names. Shared by the CLI, the MCP server and the dashboard. */

// One line per hit, whatever a file name holds (the CLI, the MCP tools and the dashboard).
export { printable, printableLines } from "./printable.ts";

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

/**
 * `20250131T140005Z`: the UTC time of `d` to the second, safe in a file name
 * and sorting as the time does (backups, files moved aside).
 *
 * @example
 * ```ts
 * import { fileStamp } from "./fmt.ts";
 * console.assert(fileStamp(new Date("2025-01-31T14:00:05.123Z")) === "20250131T140005Z");
 * ```
 */
export function fileStamp(d = new Date()): string {
  return d.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}Z$/, "Z");
}

/** Stable JSON for `--json` output. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
