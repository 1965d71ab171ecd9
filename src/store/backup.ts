import { backup } from "node:sqlite";
import type { Journal } from "./journal.ts";

/**
 * Copies the whole journal (its WAL included) to a new SQLite file `file`
 * with SQLite's online backup, a consistent snapshot even while other
 * processes read. (`VACUUM INTO` needs ATTACH, which Deno allows only with
 * every permission granted.) Throws when `file` cannot be written.
 */
export async function backupJournal(j: Journal, file: string): Promise<void> {
  await backup(j.db, file);
}
