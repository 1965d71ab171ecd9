import {
  type Config,
  type HomePaths,
  homePaths,
  loadConfig,
  resolveHome,
  tightenHome,
} from "../config/mod.ts";
import { createExtractor, type Extractor } from "../extract/mod.ts";

/** What every command gets: where data lives, the config, the extractor, output. */
export interface Context {
  home: HomePaths;
  config(): Config;
  extractor(): Extractor;
  out(text: string): void;
  err(text: string): void;
  /** True when stdout is a terminal (colour, progress bars). */
  tty: boolean;
}

/**
 * The real context: `$HEIMDALL_HOME`, stdout and stderr. A home left
 * readable by others (by an older version) is made private first.
 */
export function defaultContext(): Context {
  const home = homePaths(resolveHome());
  tightenHome(home.home);
  const enc = new TextEncoder();
  let extractor: Extractor | undefined;
  return {
    home,
    config: () => loadConfig(home.config),
    extractor: () => (extractor ??= createExtractor()),
    out: (t) => {
      try {
        Deno.stdout.writeSync(enc.encode(t + "\n"));
      } catch (e) {
        // The reader went away (`heimdall search … | head`): stop quietly, like SIGPIPE.
        if (e instanceof Deno.errors.BrokenPipe) Deno.exit(0);
        throw e;
      }
    },
    err: (t) => Deno.stderr.writeSync(enc.encode(t + "\n")),
    tty: Deno.stdout.isTerminal(),
  };
}
