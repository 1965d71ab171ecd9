import { backup } from "node:sqlite";
import { tightenPrivate, writePrivateFile } from "../config/private_files.ts";
import type { Journal } from "./journal.ts";

/**
 * Copies the whole journal (its WAL included) to a new SQLite file `file`
 * with SQLite's online backup, a consistent snapshot even while other
 * processes read. (`VACUUM INTO` needs ATTACH, which Deno allows only with
 * every permission granted.) The copy holds everything the journal holds,
 * so it is created 0600 before SQLite writes to it (SQLite gives any side
 * file it makes the same mode). Throws when `file` cannot be written.
 */
export async function backupJournal(j: Journal, file: string): Promise<void> {
  writePrivateFile(file, new Uint8Array(0));
  await backup(j.db, file);
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) tightenPrivate(f);
}
