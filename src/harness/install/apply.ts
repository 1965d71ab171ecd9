/** Applying a plan's file changes: a backup of every file changed, atomic writes, links kept. */
import { EnvironmentError } from "../../errors/mod.ts";
import { basename, dirname, exists, isAbsolute, join } from "../../files/mod.ts";
import { fileStamp } from "../../present/fmt.ts";
import type { FileChange } from "./plan.ts";

/** A change that could not be written; nothing of it was left behind. */
export class ConfigWriteError extends EnvironmentError {
  constructor(readonly file: string, readonly target: string, cause: unknown) {
    super(
      `Cannot write "${file}"${target === file ? "" : ` (a link to "${target}")`}: ${
        cause instanceof Error ? cause.message : String(cause)
      }; make it writable (chmod u+w, or chattr -i when it is immutable) and run init again`,
      { cause },
    );
  }
}

/** What applying one change did. */
export interface Applied {
  /** The copy of the file as it was (beside `path`, or where `backupAt` put it); null when there was none. */
  backup: string | null;
  /** The file written or removed: `path`, or where its symbolic link leads. */
  target: string;
}

/**
 * Where a write to `path` must land so a symbolic link stays a link: the
 * file at the end of its links (which need not exist yet), or `path` itself.
 * A relative link is resolved from the real folder of the link. Throws
 * {@link ConfigWriteError} on a loop of links.
 */
export function writeTarget(path: string): string {
  let p = path;
  for (let hops = 0; hops < 40; hops++) {
    let link: string;
    try {
      if (!Deno.lstatSync(p).isSymlink) return p;
      link = Deno.readLinkSync(p);
    } catch {
      return p; // absent: written here
    }
    p = isAbsolute(link) ? link : join(Deno.realPathSync(dirname(p)), link);
  }
  throw new ConfigWriteError(path, p, "more than 40 symbolic links in a row (a loop?)");
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch { /* already gone */ }
}

/**
 * Writes one change: copies the existing file to `FILE.heimdall-backup-STAMP`
 * beside it first, or at `backupAt(FILE)` + `.heimdall-backup-STAMP` (its
 * folders made) when given (never overwriting an earlier backup), then writes through
 * a temporary file beside the target and a rename, keeping the file's
 * permissions; or removes the file when `after` is null. A symbolic link is
 * followed, never replaced: its target is written (or removed) and the link
 * stays. On failure the temporary file and the backup are removed, the file
 * is as it was, and {@link ConfigWriteError} says why.
 */
export function applyChange(
  change: FileChange,
  when = fileStamp(),
  backupAt: (path: string) => string = (path) => path,
): Applied {
  const target = writeTarget(change.path);
  let backup: string | null = null;
  let tmp: string | null = null;
  try {
    let mode: number | null = null;
    if (change.before !== null) {
      const at = backupAt(change.path);
      if (at !== change.path) Deno.mkdirSync(dirname(at), { recursive: true, mode: 0o700 });
      backup = `${at}.heimdall-backup-${when}`;
      for (let n = 1; exists(backup); n++) backup = `${at}.heimdall-backup-${when}-${n}`;
      Deno.copyFileSync(target, backup);
      mode = Deno.statSync(target).mode;
    }
    if (change.after === null) {
      Deno.removeSync(target);
      return { backup, target };
    }
    Deno.mkdirSync(dirname(target), { recursive: true });
    tmp = join(dirname(target), `${basename(target)}.heimdall-${Deno.pid}.tmp`);
    Deno.writeTextFileSync(tmp, change.after);
    if (mode !== null) Deno.chmodSync(tmp, mode & 0o777);
    Deno.renameSync(tmp, target);
    return { backup, target };
  } catch (e) {
    if (tmp !== null) removeQuietly(tmp);
    if (backup !== null) removeQuietly(backup);
    throw new ConfigWriteError(change.path, target, e);
  }
}
