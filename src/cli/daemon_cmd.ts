import { parseFlags } from "./flags.ts";
import { fileLogger, runDaemon } from "../reconcile/mod.ts";
import type { Context } from "./context.ts";
import { ensurePrivateDir } from "../config/private_files.ts";
import { EXIT } from "./exit_codes.ts";
import { join } from "../files/mod.ts";
import { writerFollowers } from "./writer.ts";

export const HELP = `heimdall daemon [--verbose]
  The single writer, in the foreground: watches every root, takes hints,
  audits on a timer, and stops cleanly on Ctrl-C or SIGTERM. Started while
  a one-shot \`heimdall index\` or \`rebuild\` writes, it waits for that to
  finish; another daemon running makes it exit 3. Logs to
  $HEIMDALL_HOME/logs/daemon.log (and to stderr with --verbose).`;

/** `heimdall daemon`: run the writer until a signal. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values } = parseFlags(args, {
    boolean: ["verbose"],
    short: { v: "verbose" },
    positionals: false,
  });
  ensurePrivateDir(ctx.home.logs);
  const fileLog = fileLogger(join(ctx.home.logs, "daemon.log"));
  const log = values.verbose
    ? {
      info: (m: string) => {
        fileLog.info(m);
        ctx.err(m);
      },
      warn: fileLog.warn,
    }
    : fileLog;
  const extractor = await ctx.extractor();
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  const onSignal = () => stop();
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  let asked = false;
  void stopped.then(() => (asked = true));
  const once = () =>
    runDaemon({
      home: ctx.home,
      extractor,
      log,
      stop: stopped,
      onReady: () => log.info("ready"),
      // In the foreground a silent wait would look hung; --verbose already echoes the log.
      ...(values.verbose ? {} : { onLockWait: (m: string) => ctx.err(m) }),
      // Memory follows every pass that changed the index; embeddings follow
      // the symbol rows, one bounded batch between passes.
      followers: (journal) => {
        const f = writerFollowers(ctx, journal, log);
        return [f.memory, f.embed];
      },
    });
  try {
    // A journal deleted or replaced under the daemon: it starts again on the file there now.
    let end = await once();
    while (end === "journal replaced" && !asked) end = await once();
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
    Deno.removeSignalListener("SIGTERM", onSignal);
  }
  return EXIT.ok;
}
