import {
  type Config,
  type HomePaths,
  homePaths,
  loadConfig,
  resolveHome,
  tightenHome,
} from "../config/mod.ts";
import type { Extractor } from "../extract/mod.ts";
import { stderrLine, stdoutLine } from "./std_lines.ts";

/** What every command gets: where data lives, the config, the extractor, output. */
export interface Context {
  home: HomePaths;
  config(): Config;
  /**
   * The extractor, loaded on first use: tree-sitter and the grammars' code
   * are loaded only by the commands that parse (a search never does).
   */
  extractor(): Promise<Extractor>;
  out(text: string): void;
  err(text: string): void;
  /** True when stdout is a terminal (colour, progress bars). */
  tty: boolean;
}

/**
 * The real context: `$HEIMDALL_HOME`, stdout and stderr. A home left
 * readable by others (by an older version) is made private first. What goes
 * to stderr is for a person: a control character in it (an escape sequence
 * in a file name, a map's glob or a config value an error quotes) shows as
 * an escape (`printableLines`) and never drives the terminal.
 */
export function defaultContext(): Context {
  const home = homePaths(resolveHome());
  tightenHome(home.home);
  let extractor: Promise<Extractor> | undefined;
  return {
    home,
    config: () => loadConfig(home.config),
    extractor: () => (extractor ??= import("../extract/mod.ts").then((m) => m.createExtractor())),
    out: stdoutLine,
    err: stderrLine,
    tty: Deno.stdout.isTerminal(),
  };
}
