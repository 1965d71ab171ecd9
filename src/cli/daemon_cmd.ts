import { parseFlags } from "./flags.ts";
import { type DaemonEnd, fileLogger, runDaemon } from "../reconcile/mod.ts";
import type { Context } from "./context.ts";
import { ensurePrivateDir } from "../config/private_files.ts";
import { EXIT } from "./exit_codes.ts";
import { join } from "../files/mod.ts";
import { writerFollowers } from "./writer.ts";
import { daemonArgv } from "./service_cmd.ts";
import { SUPERVISOR_ENV } from "../service/mod.ts";

export const HELP = `heimdall daemon [--verbose]
  The single writer, in the foreground: watches every root, takes hints,
  audits on a timer, and stops cleanly on Ctrl-C or SIGTERM. Started while
  a one-shot \`heimdall index\` or \`rebuild\` writes, it waits for that to
  finish; another daemon running makes it exit 3. When an upgrade replaces
  its code on disk, it stops between passes and starts the new build in its
  place (as a service, its service manager does), exit 75. Logs to
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
  let end: DaemonEnd;
  try {
    // A journal deleted or replaced under the daemon: it starts again on the file there now.
    end = await once();
    while (end === "journal replaced" && !asked) end = await once();
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
    Deno.removeSignalListener("SIGTERM", onSignal);
  }
  if (end === "code replaced" && !asked) return handOver(values.verbose === true, log);
  return EXIT.ok;
}

/**
 * After an upgrade replaced this daemon's code (the writer lock released):
 * under a service manager, exit for it to start the new build (systemd's
 * `Restart=on-failure`, launchd's `SuccessfulExit` false); otherwise start
 * the new build in its place, with the same output. Exits 75 either way: a
 * service written before the manager was named in its environment still
 * restarts, and its manager stops the successor started meanwhile.
 */
function handOver(verbose: boolean, log: { info: (m: string) => void }): number {
  const manager = Deno.env.get(SUPERVISOR_ENV);
  if (manager) {
    log.info(`exiting for ${manager} to start the new build`);
    return EXIT.codeReplaced;
  }
  const [program, ...args] = daemonArgv();
  const child = new Deno.Command(program!, {
    args: [...args, ...(verbose ? ["--verbose"] : [])],
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  child.unref();
  log.info(`started the new build in its place: daemon pid ${child.pid}`);
  return EXIT.codeReplaced;
}
