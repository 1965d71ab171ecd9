/**
 * The text of the service definitions that run `heimdall daemon`: a systemd
 * user unit (Linux) and a launchd agent (macOS). Pure: no I/O, no `Deno.*`.
 */

import { UsageError } from "../errors/mod.ts";
/** The launchd label, and the systemd unit's name without `.service`. */
export const SERVICE_LABEL = "dev.heimdall.daemon";
/** The systemd unit's file name. */
export const SYSTEMD_UNIT_NAME = "heimdall.service";

/**
 * Set in the daemon's environment by the service definitions, to the
 * manager's name: a daemon whose code an upgrade replaced exits for its
 * manager to start the new one, rather than start it itself.
 */
export const SUPERVISOR_ENV = "HEIMDALL_SUPERVISOR";

/** Which service manager a definition is for. */
export type ServicePlatform = "linux" | "macos";

/** What the service runs and where its output goes. */
export interface ServiceSpec {
  /** Program and arguments, absolute program path first; ends with `daemon`. */
  argv: readonly string[];
  /** `$HEIMDALL_HOME` the daemon serves (absolute). */
  home: string;
  /** The file the service's stdout and stderr are appended to (absolute). */
  logFile: string;
  /** Environment passed to the daemon besides HEIMDALL_HOME (PATH, so it finds git). */
  env: Readonly<Record<string, string>>;
}

/** A value a service definition cannot carry; the message names it and the remedy. */
export class ServiceSpecError extends UsageError {
  /** `value` cannot go into a service definition, because of `why`. */
  constructor(readonly value: string, readonly why: string) {
    super(`Cannot write a service definition for "${value}": ${why}`);
    this.name = "ServiceSpecError";
  }
}

/** Where the definition lives, from the user's home and XDG_CONFIG_HOME. */
export function serviceFilePath(
  platform: ServicePlatform,
  userHome: string,
  xdgConfigHome?: string,
): string {
  if (platform === "macos") return `${userHome}/Library/LaunchAgents/${SERVICE_LABEL}.plist`;
  const config = xdgConfigHome && xdgConfigHome.startsWith("/")
    ? xdgConfigHome
    : `${userHome}/.config`;
  return `${config}/systemd/user/${SYSTEMD_UNIT_NAME}`;
}

/** The definition's text for the platform. Throws ServiceSpecError on a value it cannot carry. */
export function serviceDefinition(platform: ServicePlatform, spec: ServiceSpec): string {
  return platform === "macos" ? launchdPlist(spec) : systemdUnit(spec);
}

/** Rejects what neither format can carry: control characters, relative paths. */
function checkSpec(spec: ServiceSpec): void {
  const words = [...spec.argv, spec.home, spec.logFile, ...Object.entries(spec.env).flat()];
  for (const w of words) {
    // deno-lint-ignore no-control-regex
    if (/[\x00-\x1f\x7f]/.test(w)) {
      throw new ServiceSpecError(w, "it holds a control character (a newline?); remove it");
    }
  }
  for (const p of [spec.argv[0] ?? "", spec.home, spec.logFile]) {
    if (!p.startsWith("/")) {
      throw new ServiceSpecError(p, "a service needs an absolute path; pass one");
    }
  }
}

/** systemd specifiers (`%`) are literal in what we write. */
function systemdLiteral(s: string): string {
  return s.replaceAll("%", "%%");
}

/**
 * One word of ExecStart= or Environment=: quoted when it holds anything but
 * plain characters. `expands`: systemd would expand `$VAR` here (ExecStart's
 * arguments, not its program nor Environment=), so `$` is doubled.
 */
function systemdWord(s: string, expands = false): string {
  const lit = expands ? systemdLiteral(s).replaceAll("$", "$$$$") : systemdLiteral(s);
  return /^[A-Za-z0-9_@+=:,./%$-]+$/.test(lit)
    ? lit
    : `"${lit.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/**
 * A systemd user unit: restarts the daemon when it fails (not after a clean
 * stop), appends its output to `logFile`, starts with the user's session.
 * Throws ServiceSpecError for a log path with white space (systemd's
 * `append:` cannot quote one).
 */
export function systemdUnit(spec: ServiceSpec): string {
  checkSpec(spec);
  if (/\s/.test(spec.logFile)) {
    throw new ServiceSpecError(
      spec.logFile,
      "systemd cannot append output to a path with white space; set HEIMDALL_HOME to a folder without spaces",
    );
  }
  const env = { HEIMDALL_HOME: spec.home, [SUPERVISOR_ENV]: "systemd", ...spec.env };
  return [
    "# Written by `heimdall service install`; `heimdall service uninstall` removes it.",
    "[Unit]",
    "Description=Heimdall daemon: keeps the index of your code current",
    "StartLimitIntervalSec=300",
    "StartLimitBurst=5",
    "",
    "[Service]",
    "Type=simple",
    `ExecStart=${spec.argv.map((w, i) => systemdWord(w, i > 0)).join(" ")}`,
    ...Object.entries(env).map(([k, v]) => `Environment=${systemdWord(`${k}=${v}`)}`),
    // A path setting takes the rest of its line as the path: quotes would be part of it.
    `WorkingDirectory=${systemdLiteral(spec.home)}`,
    "Restart=on-failure",
    "RestartSec=5",
    // SIGTERM is the daemon's clean stop; it finishes the file in hand.
    "KillSignal=SIGTERM",
    "TimeoutStopSec=30",
    `StandardOutput=append:${systemdLiteral(spec.logFile)}`,
    `StandardError=append:${systemdLiteral(spec.logFile)}`,
    "",
    "[Install]",
    "WantedBy=default.target",
    "",
  ].join("\n");
}

/**
 * The `$HEIMDALL_HOME` a definition this module wrote serves (its working
 * directory), read back from its text; undefined when the text holds none.
 */
export function servedHome(platform: ServicePlatform, text: string): string | undefined {
  if (platform === "linux") {
    const m = /^WorkingDirectory=(.*)$/m.exec(text);
    return m ? m[1]!.replaceAll("%%", "%") : undefined;
  }
  const m = /<key>WorkingDirectory<\/key>\s*<string>([^<]*)<\/string>/.exec(text);
  return m
    ? m[1]!.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"')
      .replaceAll("&amp;", "&")
    : undefined;
}

function xml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/**
 * A launchd agent: started at login (RunAtLoad), restarted when it exits with
 * a failure (KeepAlive.SuccessfulExit false, at most every 10 s), stdout and
 * stderr appended to `logFile`.
 */
export function launchdPlist(spec: ServiceSpec): string {
  checkSpec(spec);
  const env = { HEIMDALL_HOME: spec.home, [SUPERVISOR_ENV]: "launchd", ...spec.env };
  const str = (s: string) => `<string>${xml(s)}</string>`;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">`,
    `<!-- Written by \`heimdall service install\`; \`heimdall service uninstall\` removes it. -->`,
    `<plist version="1.0">`,
    `<dict>`,
    `  <key>Label</key>`,
    `  ${str(SERVICE_LABEL)}`,
    `  <key>ProgramArguments</key>`,
    `  <array>`,
    ...spec.argv.map((a) => `    ${str(a)}`),
    `  </array>`,
    `  <key>EnvironmentVariables</key>`,
    `  <dict>`,
    ...Object.entries(env).flatMap(([k, v]) => [`    <key>${xml(k)}</key>`, `    ${str(v)}`]),
    `  </dict>`,
    `  <key>WorkingDirectory</key>`,
    `  ${str(spec.home)}`,
    `  <key>RunAtLoad</key>`,
    `  <true/>`,
    `  <key>KeepAlive</key>`,
    `  <dict>`,
    `    <key>SuccessfulExit</key>`,
    `    <false/>`,
    `  </dict>`,
    `  <key>ThrottleInterval</key>`,
    `  <integer>10</integer>`,
    `  <key>ProcessType</key>`,
    `  <string>Background</string>`,
    `  <key>StandardOutPath</key>`,
    `  ${str(spec.logFile)}`,
    `  <key>StandardErrorPath</key>`,
    `  ${str(spec.logFile)}`,
    `</dict>`,
    `</plist>`,
    "",
  ].join("\n");
}
