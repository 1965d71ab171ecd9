/**
 * A line to stdout or stderr, as every command prints it (light: the search
 * client prints with these before the CLI is loaded, if it ever is).
 */
import { printableLines } from "../present/printable.ts";

const enc = new TextEncoder();

/** Writes `text` and a newline to stdout; a reader that went away (`| head`) ends the process quietly, like SIGPIPE. */
export function stdoutLine(text: string): void {
  try {
    Deno.stdout.writeSync(enc.encode(text + "\n"));
  } catch (e) {
    if (e instanceof Deno.errors.BrokenPipe) Deno.exit(0);
    throw e;
  }
}

/**
 * Writes `text` and a newline to stderr, for a person: a control character
 * in it shows as an escape ({@link printableLines}) and never drives the
 * terminal.
 */
export function stderrLine(text: string): void {
  Deno.stderr.writeSync(enc.encode(printableLines(text) + "\n"));
}
