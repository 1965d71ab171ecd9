import { backup } from "node:sqlite";
import { tightenPrivate, writePrivateFile } from "../config/private_files.ts";
import { isCorruption } from "./corruption.ts";
import type { Journal } from "./journal.ts";
import { JournalError } from "./journal_error.ts";

/**
 * Copies the whole journal (its WAL included) to a new SQLite file `file`
 * with SQLite's online backup, a consistent snapshot even while other
 * processes read. (`VACUUM INTO` needs ATTACH, which Deno allows only with
 * every permission granted.) The copy holds everything the journal holds,
 * so it is created 0600 before SQLite writes to it (SQLite gives any side
 * file it makes the same mode). When the copy cannot be written (a full
 * disk, a read-only folder) it throws a {@link JournalError} naming `file`
 * and the journal's size, and deletes what it wrote: a partial copy left
 * under a backup's name would pass for a backup. Damage met while reading
 * the journal is rethrown as SQLite reported it.
 */
export async function backupJournal(j: Journal, file: string): Promise<void> {
  const sides = [`${file}-wal`, `${file}-shm`, `${file}-journal`];
  try {
    writePrivateFile(file, new Uint8Array(0));
    await backup(j.db, file);
  } catch (e) {
    for (const f of [file, ...sides]) {
      try {
        if (Deno.lstatSync(f).isFile) Deno.removeSync(f);
      } catch { /* not made, or not ours to remove */ }
    }
    if (isCorruption(e)) throw e;
    throw new JournalError(
      `Cannot back the journal up to "${file}": ${(e as Error).message}; it needs about ${
        mib(j.file)
      } MiB free in that folder: free some space (or fix the folder's permissions) and retry`,
      j.file,
    );
  }
  for (const f of [file, ...sides]) tightenPrivate(f);
}

function mib(file: string): string {
  let bytes = 0;
  for (const f of [file, `${file}-wal`]) {
    try {
      bytes += Deno.statSync(f).size;
    } catch { /* none */ }
  }
  return (bytes / 1048576).toFixed(1);
}
