/**
 * Command-line parsing for the scripts under scripts/: node:util's parseArgs,
 * with a wrong option turned into one line naming it and the script's usage
 * (exit 2) instead of an uncaught TypeError and its stack trace.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

/** The first line of a parseArgs complaint, shortened where it says more than the option. */
export function argsComplaint(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const unknown = /Unknown option '([^']+)'/.exec(message)?.[1];
  if (unknown) return `unknown option "${unknown}"`;
  const positional = /Unexpected argument '([^']+)'/.exec(message)?.[1];
  if (positional) return `unexpected argument "${positional}"`;
  return (message.split("\n")[0] ?? message).replace(/\.$/, "");
}

/**
 * Parses `config.args` as parseArgs does; on a wrong option prints
 * `SCRIPT: WHAT; usage: USAGE` to stderr and exits 2.
 */
export function parseScriptArgs<T extends ParseArgsConfig>(
  script: string,
  usage: string,
  config: T,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (e) {
    console.error(`${script}: ${argsComplaint(e)}; usage: ${usage}`);
    Deno.exit(2);
  }
}
