/**
 * Talks to the user's service manager: `systemctl --user` on Linux,
 * `launchctl` on macOS. Every call returns what happened (ran, failed with
 * its message, or the tool is missing); nothing here throws for a manager
 * that cannot be reached, so the caller can say what to run instead.
 */
import { errorText } from "../errors/mod.ts";
import { SERVICE_LABEL, type ServicePlatform, SYSTEMD_UNIT_NAME } from "./unit.ts";

/** One manager command's outcome. */
export interface ManagerStep {
  /** The command line, as a person would type it. */
  command: string;
  /** True when it ran and succeeded. */
  ok: boolean;
  /** What it printed (stdout, then stderr), trimmed; or why it could not run. */
  detail: string;
  /** The program is not installed (not on PATH). */
  missing: boolean;
  /** A failure of this step is a failure of the whole action. */
  required: boolean;
}

/** Runs one manager command; never throws. */
async function step(program: string, args: string[], required = true): Promise<ManagerStep> {
  const command = [program, ...args].join(" ");
  try {
    const out = await new Deno.Command(program, {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    const detail = [dec.decode(out.stdout).trim(), dec.decode(out.stderr).trim()]
      .filter((s) => s !== "").join("\n");
    return { command, ok: out.success, detail, missing: false, required };
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      return { command, ok: false, detail: `${program} is not on PATH`, missing: true, required };
    }
    return { command, ok: false, detail: errorText(e), missing: false, required };
  }
}

/** The launchd domain of this user's login session. */
function guiDomain(): string {
  return `gui/${Deno.uid() ?? 0}`;
}

/**
 * Loads the written definition and starts it now and at every login. Stops
 * at the first failed step; returns the steps run.
 */
export async function enableService(
  platform: ServicePlatform,
  file: string,
  timing: LaunchdTiming = LAUNCHD_TIMING,
): Promise<ManagerStep[]> {
  if (platform === "linux") {
    return await runPlan([
      ["systemctl", ["--user", "daemon-reload"], true],
      ["systemctl", ["--user", "enable", SYSTEMD_UNIT_NAME], true],
      // restart, not start: a daemon already running picks up the new definition.
      ["systemctl", ["--user", "restart", SYSTEMD_UNIT_NAME], true],
    ]);
  }
  const target = `${guiDomain()}/${SERVICE_LABEL}`;
  // A loaded older definition must go first; failing here means none was loaded.
  const out = await step("launchctl", ["bootout", target], false);
  if (out.missing) return [out];
  // bootout returns before launchd has let the job go (it drains it, up to 5 s after its
  // SIGTERM); a bootstrap in that window fails with "5: Input/output error", and the
  // reinstall of an upgrade left the daemon stopped. Wait for the label to leave, then
  // retry a bootstrap that still meets it.
  const until = Date.now() + timing.drainMs;
  while (out.ok && Date.now() < until) {
    if (!(await step("launchctl", ["print", target], false)).ok) break;
    await sleep(timing.pollMs);
  }
  let load: ManagerStep;
  for (let attempt = 1;; attempt++) {
    load = await step("launchctl", ["bootstrap", guiDomain(), file]);
    if (load.ok || attempt >= timing.attempts || !/\b(5|37):/.test(load.detail)) break;
    await sleep(timing.pollMs * 4);
  }
  return [out, load];
}

/** How long a launchd reinstall waits for the old job to go, and retries its load. */
export interface LaunchdTiming {
  /** Most ms to wait for the booted-out label to leave the domain. */
  drainMs: number;
  /** Between two looks, ms (a bootstrap is retried after four of these). */
  pollMs: number;
  /** Bootstrap attempts while launchd still answers 5 (I/O error) or 37 (in progress). */
  attempts: number;
}

/** launchd drains for up to 5 s after its SIGTERM, longer for a job slow to stop. */
const LAUNCHD_TIMING: LaunchdTiming = { drainMs: 30_000, pollMs: 250, attempts: 10 };

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Stops the service and unloads it (the file is the caller's to remove). */
export async function disableService(platform: ServicePlatform): Promise<ManagerStep[]> {
  return await runPlan(
    platform === "linux"
      ? [["systemctl", ["--user", "disable", "--now", SYSTEMD_UNIT_NAME], true]]
      : [["launchctl", ["bootout", `${guiDomain()}/${SERVICE_LABEL}`], true]],
  );
}

/**
 * After the file is gone: systemd forgets it (launchd needs nothing). A unit
 * that had failed stays listed as failed until reset-failed, file or not.
 */
export async function forgetService(platform: ServicePlatform): Promise<ManagerStep[]> {
  return platform === "linux"
    ? await runPlan([
      ["systemctl", ["--user", "daemon-reload"], true],
      ["systemctl", ["--user", "reset-failed", SYSTEMD_UNIT_NAME], false],
    ])
    : [];
}

async function runPlan(plan: [string, string[], boolean][]): Promise<ManagerStep[]> {
  const done: ManagerStep[] = [];
  for (const [program, args, mustSucceed] of plan) {
    const s = await step(program, args, mustSucceed);
    done.push(s);
    if (s.missing || (mustSucceed && !s.ok)) break;
  }
  return done;
}

/** What the manager says of the service. */
export interface ServiceState {
  /** `active`, `inactive`, `failed`, `running`, `not loaded`…; undefined when unknown. */
  state?: string;
  /** Set when the manager could not be asked. */
  unreachable?: ManagerStep;
}

/** Asks the manager whether the service runs. */
export async function serviceState(platform: ServicePlatform): Promise<ServiceState> {
  if (platform === "linux") {
    const s = await step("systemctl", ["--user", "is-active", SYSTEMD_UNIT_NAME]);
    // is-active prints the state and exits non-zero unless active; no state word means no bus.
    const word = s.detail.split("\n")[0]?.trim() ?? "";
    if (/^(active|inactive|failed|activating|deactivating|reloading|unknown)$/.test(word)) {
      return { state: word };
    }
    return { unreachable: s };
  }
  const s = await step("launchctl", ["print", `${guiDomain()}/${SERVICE_LABEL}`]);
  if (s.missing) return { unreachable: s };
  if (!s.ok) return { state: "not loaded" };
  const m = /^\s*state = (.+)$/m.exec(s.detail);
  return { state: m?.[1]?.trim() ?? "loaded" };
}
