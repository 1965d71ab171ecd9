/** Which file a journal's path names, so a long-lived reader notices the journal replaced under it. */

/**
 * The file at `path` now, as its device and inode (`"2049:1311"`), or null
 * when there is none (or the system gives no inode). A connection opened on
 * a journal keeps reading the file it opened: when the path names another
 * file later (deleted and indexed again, a rebuild's salvage renamed into
 * place), the connection must be opened again or it reads, and writes, a
 * file nobody else sees.
 *
 * @example
 * ```ts
 * import { journalFile } from "./journal_file.ts";
 * import assert from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * assert.equal(journalFile(`${dir}/journal.db`), null);
 * Deno.writeTextFileSync(`${dir}/journal.db`, "");
 * const first = journalFile(`${dir}/journal.db`);
 * Deno.renameSync(`${dir}/journal.db`, `${dir}/old.db`);
 * Deno.writeTextFileSync(`${dir}/journal.db`, "");
 * assert.notEqual(journalFile(`${dir}/journal.db`), first);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function journalFile(path: string): string | null {
  try {
    const s = Deno.statSync(path);
    return s.ino === null ? null : `${s.dev}:${s.ino}`;
  } catch {
    return null;
  }
}
