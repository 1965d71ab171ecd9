import { EnvironmentError } from "../errors/mod.ts";
import { dirname } from "../files/mod.ts";
import type { HomePaths } from "../config/mod.ts";
import { ensurePrivateDir, openPrivateFile, writePrivateFile } from "../config/private_files.ts";

/**
 * Who holds the writer lock, as its label file says: `daemon` for
 * `heimdall daemon`, else the one-shot command (`index`, `rebuild`, …);
 * undefined for a label written before roles were recorded.
 *
 * @internal
 */
export type WriterRole = string | undefined;

/** Another process holds the writer lock. Carries the holder's pid and role when known. */
export class IndexLockedError extends EnvironmentError {
  /** The lock in `lockFile` is held by `pid` (when known) in the role `role`. */
  constructor(
    readonly pid: number | undefined,
    readonly lockFile: string,
    readonly role: WriterRole = undefined,
  ) {
    super(
      `Cannot write the index: the writer lock "${lockFile}" is held by ${holderText(pid, role)}`,
    );
    this.name = "IndexLockedError";
  }
}

/** "the daemon (pid 4121); stop it …" or "a one-shot `heimdall index` (pid 4121); wait …". */
function holderText(pid: number | undefined, role: WriterRole): string {
  const id = pid ? `pid ${pid}` : "pid unknown";
  if (role === "daemon") {
    return `the daemon (${id}); stop it (Ctrl-C or SIGTERM) or hand it work with \`heimdall hint PATH\``;
  }
  if (role !== undefined) {
    return `a one-shot \`heimdall ${role}\` (${id}); wait for it to finish, then run this again`;
  }
  return `${
    pid ? `pid ${pid}` : "another process"
  } (a daemon or a one-shot command); wait for it or stop it, then run this again`;
}

/** The role this process writes in the lock's label: its command (`daemon`, `index`, …). */
function ownRole(): string {
  const command = Deno.args.find((a) => !a.startsWith("-"));
  return command && /^[a-z][a-z-]*$/.test(command) ? command : "heimdall";
}

/**
 * The single writer's OS-level lock (flock on `writer.lock`). The kernel frees
 * it when the process dies, however it dies, so a killed writer never leaves a
 * lock behind. `writer.pid` is only a label for error messages, never the lock.
 */
export class WriterLock {
  private constructor(readonly file: Deno.FsFile, readonly paths: HomePaths) {}

  /**
   * Takes the lock or throws {@link IndexLockedError} naming the holder (its
   * pid, and whether it is the daemon or a one-shot command). Retries for
   * `waitMs` (default 300 ms) to ride out a `status` probe holding it shared.
   * `role` is written to the label (default: this process's command).
   */
  static async acquire(paths: HomePaths, waitMs = 300, role = ownRole()): Promise<WriterLock> {
    ensurePrivateDir(dirname(paths.lock));
    const file = await openPrivateFile(paths.lock, { create: true, read: true, write: true });
    const deadline = Date.now() + waitMs;
    for (;;) {
      if (await file.tryLock(true)) break;
      if (Date.now() >= deadline) {
        file.close();
        const label = readLabel(paths);
        throw new IndexLockedError(label?.pid, paths.lock, label?.role);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    const tmp = `${paths.lockPid}.${Deno.pid}.tmp`;
    writePrivateFile(tmp, `${Deno.pid} ${role}\n`);
    Deno.renameSync(tmp, paths.lockPid);
    return new WriterLock(file, paths);
  }

  /** Releases the lock. Safe to call twice. */
  release(): void {
    try {
      if (readPid(this.paths) === Deno.pid) Deno.removeSync(this.paths.lockPid);
    } catch { /* already gone */ }
    try {
      this.file.close();
    } catch { /* already closed */ }
  }
}

/**
 * The pid of the process holding the writer lock, or null when nobody does.
 * Probes with a shared lock that is released at once; never blocks.
 */
export async function writerHolder(paths: HomePaths): Promise<number | null | "unknown"> {
  const info = await writerHolderInfo(paths);
  return info === null ? null : info.pid ?? "unknown";
}

/**
 * Who holds the writer lock (pid and role from its label), or null when
 * nobody does. Probes with a shared lock released at once; never blocks.
 */
export function writerHolderInfo(
  paths: HomePaths,
): Promise<{ pid: number | undefined; role: WriterRole } | null> {
  return whileHeld(paths.lock, () => readLabel(paths) ?? { pid: undefined, role: undefined });
}

/**
 * What `read` says while another process holds an flock on `lockFile`, or
 * null when nobody does or the file is missing. Probes with a shared lock
 * released at once; never blocks.
 */
async function whileHeld<T>(lockFile: string, read: () => T): Promise<T | null> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(lockFile, { read: true });
  } catch {
    return null;
  }
  try {
    if (await file.tryLock(false)) return null;
    return read();
  } finally {
    file.close();
  }
}

function readPid(paths: HomePaths): number | undefined {
  return readLabel(paths)?.pid;
}

/** `writer.pid`: "PID ROLE" (or just "PID", as older versions wrote it). */
function readLabel(paths: HomePaths): { pid: number | undefined; role: WriterRole } | undefined {
  let text: string;
  try {
    text = Deno.readTextFileSync(paths.lockPid).trim();
  } catch {
    return undefined;
  }
  const [first, role] = text.split(/\s+/, 2);
  const pid = Number(first);
  return { pid: Number.isInteger(pid) && pid > 0 ? pid : undefined, role: role || undefined };
}

/**
 * Marks this process as a daemon waiting for the writer lock, for `status`
 * to see: an flock on `daemon.wait` with its pid inside, held until the
 * file is closed. Undefined when another waiting daemon holds it already.
 */
export async function markWaiting(paths: HomePaths): Promise<Deno.FsFile | undefined> {
  const file = await openPrivateFile(paths.waitLock, { create: true, read: true, write: true });
  if (!(await file.tryLock(true))) {
    file.close();
    return undefined;
  }
  await file.truncate(0);
  await file.write(new TextEncoder().encode(`${Deno.pid}\n`));
  return file;
}

/**
 * The pid of a daemon waiting for the writer lock (see {@link markWaiting}),
 * `unknown` when it cannot be read, or null when none waits. Probes with a
 * shared lock released at once; never blocks.
 */
export function waitingDaemon(paths: HomePaths): Promise<number | "unknown" | null> {
  return whileHeld(paths.waitLock, () => {
    const pid = Number(Deno.readTextFileSync(paths.waitLock).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : "unknown";
  });
}
