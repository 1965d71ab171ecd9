/** Applying a plan's file changes: a backup of every file changed, atomic writes. */
import { dirname, exists } from "../../files/mod.ts";
import { fileStamp } from "../../present/fmt.ts";
import type { FileChange } from "./plan.ts";

/**
 * Writes one change: copies the existing file to `FILE.heimdall-backup-STAMP`
 * first (never overwriting an earlier backup), then writes through a
 * temporary file and a rename, keeping the file's permissions; or removes the
 * file when `after` is null. Returns the backup's path, if one was made.
 */
export function applyChange(change: FileChange, when = fileStamp()): string | null {
  let backup: string | null = null;
  let mode: number | null = null;
  if (change.before !== null) {
    backup = `${change.path}.heimdall-backup-${when}`;
    for (let n = 1; exists(backup); n++) backup = `${change.path}.heimdall-backup-${when}-${n}`;
    Deno.copyFileSync(change.path, backup);
    mode = Deno.statSync(change.path).mode;
  }
  if (change.after === null) {
    Deno.removeSync(change.path);
    return backup;
  }
  Deno.mkdirSync(dirname(change.path), { recursive: true });
  const tmp = `${change.path}.heimdall-${Deno.pid}.tmp`;
  Deno.writeTextFileSync(tmp, change.after);
  if (mode !== null) Deno.chmodSync(tmp, mode & 0o777);
  Deno.renameSync(tmp, change.path);
  return backup;
}
