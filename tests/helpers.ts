/** Shared test helpers: real temp folders, real subprocesses of the real CLI. */
import { join } from "node:path";

export const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** A five-line TypeScript function that tests copy into several files (`same_code`). */
export const SLUGIFY = [
  "export function slugify(title: string): string {",
  "  return title.toLowerCase().trim()",
  '    .replace(/[^a-z0-9]+/g, "-")',
  '    .replace(/^-|-$/g, "");',
  "}",
].join("\n");
const DENO = Deno.execPath();
/** The permissions the tests run the CLI with. */
export const PERMS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  "--v8-flags=--expose-gc,--max-semi-space-size=4",
];

/** Every folder {@link tempDir} made in this process, removed when it ends. */
const made: string[] = [];
globalThis.addEventListener("unload", () => {
  for (const dir of made) {
    try {
      removeTree(dir);
    } catch {
      // A daemon a test left running may still be writing there; the OS's tmp cleaner has it.
    }
  }
});

/**
 * Removes a test's folder now. A hook call may have started a warm hook
 * server in a home inside it, which keeps writing there (its port file, its
 * log) until it notices the home is gone: each server found by its
 * `hookd.pid` is stopped first, and the removal is retried while a server
 * still starting up adds files.
 */
export function removeTree(dir: string): void {
  for (let attempt = 0;; attempt++) {
    stopHookServers(dir);
    try {
      Deno.removeSync(dir, { recursive: true });
      return;
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return;
      if (attempt === 30) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}

/**
 * SIGTERMs the hook server of every home up to `depth` folders below `dir`
 * whose process is still that server: a `hookd.pid` can outlive its server,
 * and its number may by now be another test's daemon.
 */
function stopHookServers(top: string, dir = top, depth = 2): void {
  try {
    const pid = Number(Deno.readTextFileSync(join(dir, "hookd.pid")).trim());
    if (pid > 0 && servesHomeUnder(pid, top)) Deno.kill(pid, "SIGTERM");
  } catch {
    // No server here, or it has already gone.
  }
  if (depth === 0) return;
  try {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) stopHookServers(top, join(dir, e.name), depth - 1);
    }
  } catch {
    // Removed meanwhile.
  }
}

/** True when process `pid` is a hook server (`hook --serve`) of a home inside `top` (Linux /proc, read by a shell). */
function servesHomeUnder(pid: number, top: string): boolean {
  const out = new Deno.Command("sh", {
    args: [
      "-c",
      'tr "\\0" "\\n" < /proc/$0/cmdline && tr "\\0" "\\n" < /proc/$0/environ',
      String(pid),
    ],
    stderr: "null",
  }).outputSync();
  if (!out.success) return false;
  const lines = new TextDecoder().decode(out.stdout).split("\n");
  const home = lines.find((l) => l.startsWith("HEIMDALL_HOME="))?.slice("HEIMDALL_HOME=".length);
  return lines.includes("--serve") && home !== undefined &&
    (home === top || home.startsWith(top + "/"));
}

/**
 * The files held open by the Heimdall process serving `home` whose command
 * is `command` (`mcp`, `ui`): Linux only, read from /proc by a shell (Deno
 * reads /proc only with every permission).
 */
export async function openFilesOf(home: string, command: string): Promise<string[]> {
  const script = `for p in /proc/[0-9]*; do
    if tr '\\0' '\\n' < "$p/environ" 2>/dev/null | grep -qxF "HEIMDALL_HOME=$1" &&
       tr '\\0' '\\n' < "$p/cmdline" 2>/dev/null | grep -qxF "$2"; then
      for fd in "$p"/fd/*; do readlink "$fd"; done; exit 0
    fi
  done; exit 1`;
  const out = await new Deno.Command("bash", { args: ["-c", script, "bash", home, command] })
    .output();
  if (!out.success) throw new Error(`no "${command}" process serving ${home} found in /proc`);
  return new TextDecoder().decode(out.stdout).split("\n").filter((l) => l !== "");
}

let cachedDenoDir: string | undefined;

/** The real Deno cache, so CLI runs with a temporary HOME do not fetch npm packages again. */
export function denoDir(): string {
  return cachedDenoDir ??= Deno.env.get("DENO_DIR") ??
    JSON.parse(
      new TextDecoder().decode(
        new Deno.Command(DENO, { args: ["info", "--json"], stderr: "null" }).outputSync().stdout,
      ),
    ).denoDir as string;
}

/** A fresh temporary folder, removed when the test process ends. */
export function tempDir(prefix = "heimdall-test-"): string {
  const dir = Deno.makeTempDirSync({ prefix });
  made.push(dir);
  return dir;
}

/**
 * Runs `fn` in a fresh temporary folder (named with `prefix`, when given)
 * and removes the folder after, pass or fail.
 */
export function withTempDir(fn: (dir: string) => void | Promise<void>): Promise<void>;
export function withTempDir(
  prefix: string,
  fn: (dir: string) => void | Promise<void>,
): Promise<void>;
export async function withTempDir(
  first: string | ((dir: string) => void | Promise<void>),
  second?: (dir: string) => void | Promise<void>,
): Promise<void> {
  const [prefix, fn] = typeof first === "string" ? [first, second!] : [undefined, first];
  const dir = tempDir(prefix);
  try {
    await fn(dir);
  } finally {
    removeTree(dir);
  }
}

/** The environment `heimdall mcp` runs with in the tests: this home, this author, no colour, no update check. */
export function mcpEnv(home: string, author = "ada"): Record<string, string> {
  return {
    HEIMDALL_HOME: home,
    HEIMDALL_AUTHOR: author,
    DENO_NO_UPDATE_CHECK: "1",
    NO_COLOR: "1",
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? "",
  };
}

/** Copies a folder tree, folders made as needed (a fixture into a test's temp folder). */
export function copyDir(from: string, to: string): void {
  Deno.mkdirSync(to, { recursive: true });
  for (const e of Deno.readDirSync(from)) {
    if (e.isDirectory) copyDir(join(from, e.name), join(to, e.name));
    else Deno.copyFileSync(join(from, e.name), join(to, e.name));
  }
}

/**
 * A copy of this checkout's code at `dir` (its `src/`, `main.ts`, `deno.json`
 * and `deno.lock`; its grammars and wasm linked), for a process whose code an
 * "upgrade" then changes ({@link upgradeCheckout}). Returns `dir`.
 */
export function checkoutCopy(dir: string): string {
  const root = new URL("../", import.meta.url).pathname;
  copyDir(join(root, "src"), join(dir, "src"));
  for (const f of ["main.ts", "deno.json", "deno.lock"]) {
    Deno.copyFileSync(join(root, f), join(dir, f));
  }
  for (const d of ["grammars", "wasm"]) Deno.symlinkSync(join(root, d), join(dir, d));
  return dir;
}

/** An upgrade of the checkout copy at `code`: its module `rel` rewritten, newer than any before. */
export function upgradeCheckout(code: string, rel: string): void {
  const changed = join(code, rel);
  Deno.writeTextFileSync(changed, "// upgraded\n", { append: true });
  const later = new Date(Date.now() + 5000);
  Deno.utimeSync(changed, later, later);
}

/** Writes files (path → content) under `root`, creating folders. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(root, rel);
    Deno.mkdirSync(join(abs, ".."), { recursive: true });
    Deno.writeTextFileSync(abs, content);
  }
}

/**
 * `files` written to a fresh repository `base/repo` and indexed into a fresh
 * home `base/home`; the repository by its real path (as the index holds it).
 */
export async function indexedTree(
  files: Record<string, string>,
): Promise<{ base: string; repo: string; home: string }> {
  const base = tempDir();
  const repo = join(base, "repo");
  const home = join(base, "home");
  writeTree(repo, files);
  const r = await cli(home, ["index", repo]);
  if (r.code !== 0) throw new Error(`heimdall index ${repo} exited ${r.code}: ${r.stderr}`);
  return { base, repo: Deno.realPathSync(repo), home };
}

/** Result of one CLI run. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `heimdall ARGS` in a subprocess with HEIMDALL_HOME set; `main` runs
 * another checkout's entry point, `extraPerms` adds permissions (a loopback
 * PostgreSQL's network).
 */
export async function cli(
  home: string,
  args: string[],
  options: {
    stdin?: string;
    cwd?: string;
    env?: Record<string, string>;
    main?: string;
    extraPerms?: readonly string[];
    /** Kills the command when aborted (a bound on a command that may hang). */
    signal?: AbortSignal;
  } = {},
): Promise<CliResult> {
  const child = new Deno.Command(DENO, {
    args: ["run", ...PERMS, ...(options.extraPerms ?? []), options.main ?? MAIN, ...args],
    env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1", ...options.env },
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  }).spawn();
  if (options.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(options.stdin));
    await w.close();
  }
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/** A running `heimdall daemon` subprocess. */
export interface DaemonProcess {
  child: Deno.ChildProcess;
  pid: number;
  /** SIGTERM, then wait for exit; returns the exit code. */
  stop(): Promise<number>;
  /** SIGKILL, then wait. */
  kill(): Promise<void>;
}

/** Starts the daemon and waits until its startup audit is done ("ready" in its log). */
export async function startDaemon(
  home: string,
  timeoutMs = 30_000,
  options: { prefix?: string[] } = {},
): Promise<DaemonProcess> {
  // `prefix` runs the daemon under another command (e.g. `unshare`), which execs it.
  const [cmd, ...pre] = [...(options.prefix ?? []), DENO];
  const child = new Deno.Command(cmd!, {
    args: [...pre, "run", ...PERMS, MAIN, "daemon"],
    env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const log = join(home, "logs", "daemon.log");
  await waitFor(
    () => {
      try {
        return Deno.readTextFileSync(log).includes(`daemon pid ${child.pid} watching`) &&
          Deno.readTextFileSync(log).split(`daemon pid ${child.pid} watching`)[1]!.includes(
            "ready",
          );
      } catch {
        return false;
      }
    },
    timeoutMs,
    "daemon ready",
  );
  return {
    child,
    pid: child.pid,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      return (await child.status).code;
    },
    async kill() {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
      await child.status;
    },
  };
}

/** The warm server of `home`, started as a hook would start it (its port file written); `stop` ends it. */
export async function warmServer(home: string): Promise<{ pid: number; stop(): Promise<void> }> {
  const child = new Deno.Command(DENO, {
    args: ["run", "-A", MAIN, "hook", "--serve"],
    env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const port = join(home, "hookd.port");
  await waitFor(
    () => {
      try {
        return Deno.statSync(port).isFile;
      } catch {
        return false;
      }
    },
    30_000,
    "the warm server's port file",
  );
  return {
    pid: child.pid,
    async stop() {
      try {
        child.kill("SIGCONT");
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
    },
  };
}

/** Polls `check` every 25 ms until true; throws naming `what` after `timeoutMs`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
}

/**
 * Waits until the clock is in a later whole second. Deno gives a file's ctime
 * in whole seconds, so a change the stat screen must see by its ctime is made
 * after this, not within the second of the index's read.
 */
export async function nextSecond(): Promise<void> {
  await new Promise((done) => setTimeout(done, 1000 - Date.now() % 1000 + 20));
}

/** Runs a shell command line and returns its exit code (throws on non-zero unless allowed). */
export async function sh(cmd: string, cwd?: string): Promise<string> {
  const out = await new Deno.Command("bash", {
    args: ["-c", cmd],
    stdout: "piped",
    stderr: "piped",
    ...(cwd ? { cwd } : {}),
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (out.code !== 0) {
    throw new Error(`${cmd} failed (${out.code}): ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

/**
 * Whether a test that needs an optional system tool is ignored on this
 * machine: outside CI a missing tool prints one line naming it and the
 * command that installs it, and the test is reported as ignored; under
 * `CI=true` nothing is ignored (`.ci/run` installs every tool), so a missing
 * tool fails the run.
 */
export function withoutTool(tool: string, present: boolean, install: string): boolean {
  if (present || Deno.env.get("CI") === "true") return false;
  console.error(`ignored: ${tool} is not installed here; install it with \`${install}\``);
  return true;
}

/**
 * Whether `tool` runs (as `tool ...probe`), for the checks a test makes only
 * where it does; when it does not, says how to install it, and under
 * `CI=true` (where `.ci/run` installs every tool) throws instead.
 */
export function needTool(tool: string, probe: string[], install: string): boolean {
  try {
    new Deno.Command(tool, { args: probe, stdout: "null", stderr: "null" }).outputSync();
    return true;
  } catch {
    const msg = `${tool} is not installed; install it with: ${install}`;
    if (Deno.env.get("CI") === "true") throw new Error(`${msg} (CI needs it: .ci/run installs it)`);
    console.error(`ignored: ${msg}`);
    return false;
  }
}

/** True when `name` runs as a command from the PATH. */
export function hasCommand(name: string): boolean {
  try {
    return new Deno.Command("sh", {
      args: ["-c", `command -v '${name.replaceAll("'", "")}'`],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

/**
 * What each thread of process `pid` is doing, one line each (Linux /proc):
 * name, state (R running, S sleeping, T stopped) and CPU ticks so far. For a
 * test's failure message when a subprocess stops answering.
 */
export function processThreads(pid: number): string {
  try {
    return [...Deno.readDirSync(`/proc/${pid}/task`)].map((t) => {
      const stat = Deno.readTextFileSync(`/proc/${pid}/task/${t.name}/stat`);
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return `${t.name} ${name}: state ${f[0]}, ${Number(f[11]) + Number(f[12])} ticks`;
    }).join("\n");
  } catch (e) {
    return `(no threads of ${pid}: ${(e as Error).message})`;
  }
}

/**
 * The command prefix under which this process is not the owner of its own
 * files, so chmod stops it (a folder chmod 555 cannot be written, a file
 * chmod 000 cannot be read): none for an ordinary user; as root, a user
 * namespace of its own where it is nobody (`unshare -U`); undefined when
 * neither is possible.
 */
export function unprivileged(): string[] | undefined {
  if (Deno.uid() !== 0) return [];
  try {
    const out = new Deno.Command("unshare", { args: ["-U", "true"], stderr: "null" }).outputSync();
    return out.success ? ["unshare", "-U"] : undefined;
  } catch {
    return undefined;
  }
}
