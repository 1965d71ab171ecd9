import { parseFlags } from "./flags.ts";
import { dirname, isAbsolute, join, resolve } from "../files/mod.ts";
import {
  denoRunArgv,
  lastingBinaryPath,
  runningUnderDeno,
  transientProgram,
} from "../harness/install/command.ts";
import {
  disableService,
  enableService,
  forgetService,
  servedHome,
  serviceDefinition,
  serviceFilePath,
  type ServicePlatform,
  serviceState,
  SYSTEMD_UNIT_NAME,
} from "../service/mod.ts";
import { ensurePrivateDir } from "../config/private_files.ts";
import type { Context } from "./context.ts";
import { UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";
import { shellQuote } from "../present/shell.ts";

export const HELP =
  `heimdall service install|uninstall|status [--binary PATH] [--platform linux|macos]
  Runs \`heimdall daemon\` as your user's service, started at login and
  restarted when it fails: a systemd user unit on Linux
  (~/.config/systemd/user/heimdall.service), a launchd agent on macOS
  (~/Library/LaunchAgents/dev.heimdall.daemon.plist). Its output goes to
  $HEIMDALL_HOME/logs/service.log, the daemon's own log to
  $HEIMDALL_HOME/logs/daemon.log; \`status\` shows where, and the last lines
  of both (a daemon that fails at start says why in the service output).
  install: exit 0 when enabled and started; 3 when the file is written but
  the service manager cannot be reached (no user systemd in a container):
  the message says what to run; 3 too when the daemon stops at start (its
  last output is shown). uninstall: stops it, removes the file, exit 0.
  status: 0 running, 1 not installed, not running or serving another
  HEIMDALL_HOME, 3 manager unreachable.
  --binary runs that heimdall (default: this one); --platform writes the
  other platform's file (to inspect it).`;

/** How long after starting the service install looks whether the daemon still runs, ms. */
const SETTLE_MS = 2000;

/** The permissions of the compiled binary (scripts/compile.ts), for the daemon under `deno run`. */
const DAEMON_PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  "--allow-ffi",
  "--allow-net",
  "--v8-flags=--expose-gc,--max-semi-space-size=4",
];

/**
 * The argv that runs this Heimdall's daemon: the binary, or Deno with this
 * checkout's main.ts. A Homebrew binary is named by its `opt` link, which
 * survives `brew upgrade`; the versioned Cellar path would not.
 */
export function daemonArgv(execPath = Deno.execPath()): string[] {
  if (!runningUnderDeno(execPath)) return [lastingBinaryPath(execPath), "daemon"];
  return [...denoRunArgv(execPath, DAEMON_PERMISSIONS), "daemon"];
}

function thisPlatform(): ServicePlatform {
  if (Deno.build.os === "linux") return "linux";
  if (Deno.build.os === "darwin") return "macos";
  throw new UsageError(
    `heimdall service supports Linux (systemd) and macOS (launchd), not "${Deno.build.os}"; run \`heimdall daemon\` at login with your system's scheduler instead`,
  );
}

/** `heimdall service install|uninstall|status`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, { string: ["platform", "binary"] });
  const action = positionals[0];
  if (positionals.length !== 1 || !["install", "uninstall", "status"].includes(action ?? "")) {
    throw new UsageError(
      `Expected one of install, uninstall, status${
        action ? `, not "${positionals.join(" ")}"` : ""
      }; \`heimdall help service\` explains them`,
    );
  }
  const p = values.platform;
  if (p !== undefined && p !== "linux" && p !== "macos") {
    throw new UsageError(`--platform "${p}" is not one of linux, macos`);
  }
  const platform: ServicePlatform = p ?? thisPlatform();
  const userHome = Deno.env.get("HOME");
  if (!userHome) {
    throw new UsageError("HOME is not set: a user service lives under it; set HOME and retry");
  }
  const file = serviceFilePath(platform, userHome, Deno.env.get("XDG_CONFIG_HOME"));
  const logs = {
    service: join(ctx.home.logs, "service.log"),
    daemon: join(ctx.home.logs, "daemon.log"),
  };
  const manager = platform === "linux" ? "systemctl --user" : "launchctl";
  if (values.binary !== undefined && !isAbsolute(values.binary)) {
    throw new UsageError(`--binary "${values.binary}" must be an absolute path to heimdall`);
  }
  if (action === "install") {
    if (values.binary !== undefined) checkBinary(values.binary);
    const argv = values.binary ? [values.binary, "daemon"] : daemonArgv();
    return await install(ctx, platform, file, logs, manager, argv);
  }
  if (action === "uninstall") return await uninstall(ctx, platform, file, manager);
  return await status(ctx, platform, file, logs, manager);
}

/**
 * Refuses a --binary the service manager could not start: missing, a folder,
 * or without an execute bit. Written into the unit as it was, it made the
 * daemon fail at every start and restart until the manager gave up, with the
 * install reporting success.
 */
function checkBinary(binary: string): void {
  const remedy = "pass the absolute path of a heimdall binary (`command -v heimdall`)";
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(binary);
  } catch (e) {
    const why = e instanceof Deno.errors.NotFound ? "no such file" : String(e);
    throw new UsageError(`--binary "${binary}": ${why}; ${remedy}`);
  }
  if (!info.isFile) throw new UsageError(`--binary "${binary}" is not a file; ${remedy}`);
  if (info.mode !== null && (info.mode & 0o111) === 0) {
    throw new UsageError(
      `--binary "${binary}" is not executable; run \`chmod +x ${shellQuote(binary)}\` or ${remedy}`,
    );
  }
}

async function install(
  ctx: Context,
  platform: ServicePlatform,
  file: string,
  logs: { service: string; daemon: string },
  manager: string,
  argv: string[],
): Promise<number> {
  const env: Record<string, string> = {};
  const path = Deno.env.get("PATH");
  if (path) env.PATH = path;
  // Under `deno run` the daemon loads this clone's modules from Deno's cache.
  // A DENO_DIR set in this shell is unknown to the service manager: without
  // it the daemon looked in the default cache, downloading every module at
  // its first start, or failing to start at all offline.
  const denoDir = Deno.env.get("DENO_DIR");
  if (denoDir && runningUnderDeno(argv[0] ?? "")) env.DENO_DIR = resolve(denoDir);
  const text = serviceDefinition(platform, {
    argv,
    home: ctx.home.home,
    logFile: logs.service,
    env,
  });
  // One service per user: a definition for another home is replaced, and that home's
  // daemon stops with it; say so, or its index silently stops following the code.
  let before: string | undefined;
  try {
    before = servedHome(platform, Deno.readTextFileSync(file));
  } catch {
    before = undefined; // none yet, or unreadable (overwritten below all the same)
  }
  ensurePrivateDir(ctx.home.logs);
  Deno.mkdirSync(dirname(file), { recursive: true });
  Deno.writeTextFileSync(file, text);
  ctx.out(`Wrote ${file}`);
  const transient = transientProgram(argv[0]);
  if (transient !== null) ctx.err(`heimdall service install: note: ${transient}`);
  if (before !== undefined && before !== ctx.home.home) {
    ctx.out(
      `This service replaces the one for HEIMDALL_HOME "${before}" (a user has one Heimdall service): that home is no longer kept current; run \`heimdall daemon\` with HEIMDALL_HOME=${
        shellQuote(before)
      } for it yourself`,
    );
  }
  const steps = await enableService(platform, file);
  const failed = steps.find((s) => !s.ok && (s.required || s.missing));
  if (failed) {
    const todo = platform === "linux"
      ? `systemctl --user daemon-reload && systemctl --user enable --now ${SYSTEMD_UNIT_NAME}`
      : `launchctl bootstrap gui/$(id -u) ${shellQuote(file)}`;
    // Only a failure to reach the manager means there is none here; one that answered and
    // refused (a unit it cannot find) was told "no manager is reachable" all the same.
    const unreachable = failed.missing ||
      /bus|connect|No medium|not been booted|XDG_RUNTIME_DIR/i.test(failed.detail);
    const why = platform === "macos"
      ? "launchd did not load the agent."
      : unreachable
      ? "No systemd user manager is reachable here (a container, or a shell outside a login session?)."
      : /does not exist|not found/i.test(failed.detail)
      ? "systemd did not find the unit: its user manager reads ~/.config/systemd/user, or the XDG_CONFIG_HOME of its own environment (`systemctl --user show-environment`), which may not be this shell's."
      : "systemd refused it.";
    ctx.err(
      [
        `heimdall service install: wrote ${file}, but could not start it: \`${failed.command}\` ${
          failed.missing ? "cannot run" : "failed"
        }: ${oneLine(failed.detail).replace(/\.$/, "")}.`,
        `  ${why} In your login session run:`,
        `    ${todo}`,
        `  or run the daemon yourself: heimdall daemon`,
      ].join("\n"),
    );
    return EXIT.env;
  }
  // The manager says "started" once the process exists (systemd's Type=simple, launchd):
  // a daemon that fails at start (a damaged journal, another daemon holding the lock)
  // was reported started while it failed at every restart. Look again a moment later.
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const now = (await serviceState(platform)).state;
  if (now !== undefined && (platform === "linux" ? now !== "active" : now === "not running")) {
    const tail = lastLines(logs.service, 5);
    ctx.err(
      [
        `heimdall service install: ${manager} started the daemon, but it is ${now} ${
          SETTLE_MS / 1000
        } s later: it stops at start${
          tail.length > 0 ? "; its last output:" : ` and said nothing in ${logs.service}`
        }`,
        ...tail.map((l) => "  " + l),
        `  Fix that, then \`heimdall service install\` again (\`heimdall service status\` shows where it stands).`,
      ].join("\n"),
    );
    return EXIT.env;
  }
  ctx.out(
    `Started the Heimdall daemon with ${manager}; it starts at login and restarts when it fails.`,
  );
  ctx.out(`Logs: ${logs.service} (service output), ${logs.daemon} (daemon log)`);
  return EXIT.ok;
}

async function uninstall(
  ctx: Context,
  platform: ServicePlatform,
  file: string,
  manager: string,
): Promise<number> {
  // One service per user: it may serve another home than this shell's.
  let served: string | undefined;
  try {
    served = servedHome(platform, Deno.readTextFileSync(file));
  } catch {
    served = undefined; // none, or unreadable (removed below all the same)
  }
  const steps = await disableService(platform);
  const unreachable = steps.find((s) => s.missing || /bus|connect/i.test(s.detail));
  let existed = true;
  try {
    Deno.removeSync(file);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    existed = false;
  }
  if (existed) await forgetService(platform);
  ctx.out(existed ? `Removed ${file}` : `Nothing to remove: ${file} does not exist`);
  if (existed && served !== undefined && served !== ctx.home.home) {
    ctx.out(
      `It served HEIMDALL_HOME "${served}", not this one ("${ctx.home.home}"): that home is no longer kept current; \`heimdall service install\` with HEIMDALL_HOME=${
        shellQuote(served)
      } puts it back`,
    );
  }
  if (unreachable) {
    ctx.out(
      `${manager} could not be reached (${
        oneLine(unreachable.detail)
      }); if the service still runs in a login session, stop it there with: ${
        platform === "linux"
          ? `systemctl --user disable --now ${SYSTEMD_UNIT_NAME}`
          : "launchctl bootout gui/$(id -u)/dev.heimdall.daemon"
      }`,
    );
  } else if (steps.every((s) => s.ok)) {
    ctx.out("Stopped the Heimdall daemon service.");
  }
  return EXIT.ok;
}

async function status(
  ctx: Context,
  platform: ServicePlatform,
  file: string,
  logs: { service: string; daemon: string },
  manager: string,
): Promise<number> {
  let installed = true;
  let served: string | undefined;
  try {
    served = servedHome(platform, Deno.readTextFileSync(file));
  } catch (e) {
    installed = !(e instanceof Deno.errors.NotFound);
  }
  // One service per user: running, it may serve another home than this one.
  const elsewhere = served !== undefined && served !== ctx.home.home;
  const kind = platform === "linux" ? "systemd user unit" : "launchd agent";
  ctx.out(
    !installed
      ? `Service: not installed (\`heimdall service install\` writes ${file})`
      : elsewhere
      ? `Service: ${kind} ${file}, which serves HEIMDALL_HOME "${served}", not this one ("${ctx.home.home}"); \`heimdall service install\` here moves it`
      : `Service: ${kind} ${file}`,
  );
  const state = await serviceState(platform);
  ctx.out(
    state.state !== undefined
      ? `State: ${state.state} (${manager})`
      : `State: unknown: \`${state.unreachable?.command}\` ${
        oneLine(state.unreachable?.detail ?? "")
      }`,
  );
  ctx.out(`Logs: ${logs.service} (service output), ${logs.daemon} (daemon log)`);
  // A daemon that fails at start says why on stderr, which the manager appends to
  // service.log; daemon.log may not have a line of it (or none at all).
  const tails: [string, string][] = [
    ["daemon log", logs.daemon],
    ["service output", logs.service],
  ];
  for (const [what, file] of tails) {
    const tail = lastLines(file, 5);
    if (tail.length > 0) {
      ctx.out([`Last lines of the ${what}:`, ...tail.map((l) => "  " + l)].join("\n"));
    }
  }
  if (!installed || elsewhere) return EXIT.none;
  if (state.state === undefined) return EXIT.env;
  return state.state === "active" || state.state === "running" ? EXIT.ok : EXIT.none;
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, "; ").trim() || "no message";
}

/** The last `n` lines of a log file (reads at most its last 64 KiB); none if absent. */
function lastLines(path: string, n: number): string[] {
  let f: Deno.FsFile;
  try {
    f = Deno.openSync(path);
  } catch {
    return [];
  }
  try {
    const size = f.statSync().size;
    const want = Math.min(size, 64 * 1024);
    f.seekSync(size - want, Deno.SeekMode.Start);
    const buf = new Uint8Array(want);
    let got = 0;
    while (got < want) {
      const r = f.readSync(buf.subarray(got));
      if (r === null || r === 0) break;
      got += r;
    }
    return new TextDecoder().decode(buf.subarray(0, got)).split("\n").filter((l) => l !== "")
      .slice(-n);
  } finally {
    f.close();
  }
}
