import { dirname } from "node:path";
import type { HomePaths } from "../config/mod.ts";
import { ensurePrivateDir, openPrivateFile, writePrivateFile } from "../config/private_files.ts";

/** Another process holds the writer lock. Carries the holder's pid when known. */
export class IndexLockedError extends Error {
  constructor(readonly pid: number | undefined, readonly lockFile: string) {
    super(
      `Cannot write the index: the writer lock "${lockFile}" is held by ${
        pid ? `pid ${pid}` : "another process"
      }; stop that process (\`heimdall daemon\` stops on Ctrl-C or SIGTERM) or hand it work with \`heimdall hint PATH\``,
    );
    this.name = "IndexLockedError";
  }
}

/**
 * The single writer's OS-level lock (flock on `writer.lock`). The kernel frees
 * it when the process dies, however it dies, so a killed writer never leaves a
 * lock behind. `writer.pid` is only a label for error messages, never the lock.
 */
export class WriterLock {
  private constructor(readonly file: Deno.FsFile, readonly paths: HomePaths) {}

  /**
   * Takes the lock or throws {@link IndexLockedError} naming the holder. Retries
   * for `waitMs` (default 300 ms) to ride out a `status` probe holding it shared.
   */
  static async acquire(paths: HomePaths, waitMs = 300): Promise<WriterLock> {
    ensurePrivateDir(dirname(paths.lock));
    const file = await openPrivateFile(paths.lock, { create: true, read: true, write: true });
    const deadline = Date.now() + waitMs;
    for (;;) {
      if (await file.tryLock(true)) break;
      if (Date.now() >= deadline) {
        file.close();
        throw new IndexLockedError(readPid(paths), paths.lock);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    const tmp = `${paths.lockPid}.${Deno.pid}.tmp`;
    writePrivateFile(tmp, `${Deno.pid}\n`);
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
  let file: Deno.FsFile;
  try {
    file = await Deno.open(paths.lock, { read: true });
  } catch {
    return null;
  }
  try {
    const free = await file.tryLock(false);
    if (free) return null;
    return readPid(paths) ?? "unknown";
  } finally {
    file.close();
  }
}

function readPid(paths: HomePaths): number | undefined {
  try {
    const pid = Number(Deno.readTextFileSync(paths.lockPid).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
