/**
 * Secrets an older build stored in this journal's team rows before a rule of
 * the screen existed: a task's text, a hand-off's note, the task text a
 * claim carries (the people's words that `task`, `claim` and hand-offs
 * redact on write now). Found where they are and redacted in place; ids,
 * owners and times stay as they were.
 */
import { screenRecord, type StoredSecret } from "../files/mod.ts";
import type { Journal } from "../store/mod.ts";

/** Each table with its free-text column: how to read it, and how to write it back. */
const TEXTS = [
  {
    table: "tasks",
    column: "text",
    read: "SELECT id, text AS value FROM tasks WHERE id > ? ORDER BY id LIMIT 500",
    write: "UPDATE tasks SET text = ? WHERE id = ?",
    first: "",
  },
  {
    table: "task_events",
    column: "note",
    read:
      "SELECT id, note AS value FROM task_events WHERE note IS NOT NULL AND id > ? ORDER BY id LIMIT 500",
    write: "UPDATE task_events SET note = ? WHERE id = ?",
    first: 0,
  },
  {
    table: "claims",
    column: "task_text",
    read:
      "SELECT id, task_text AS value FROM claims WHERE task_text IS NOT NULL AND id > ? ORDER BY id LIMIT 500",
    write: "UPDATE claims SET task_text = ? WHERE id = ?",
    first: 0,
  },
] as const;

/**
 * The team rows of this journal that hold a secret-shaped value (see the
 * module comment). With `apply`, each is rewritten with only those spans
 * redacted, inside the caller's transaction. Returns where they were, never
 * a value; one `screenRecord` per row.
 */
export function redactStoredTeamRows(j: Journal, apply: boolean): StoredSecret[] {
  const out: StoredSecret[] = [];
  for (const { table, column, read, write, first } of TEXTS) {
    // Paged by id, the hits kept aside: never a whole table in memory.
    const fixes: { id: string | number; value: string }[] = [];
    for (let last: string | number = first;;) {
      const rows = j.all<{ id: string | number; value: string }>(read, last);
      for (const r of rows) {
        const hit = screenRecord(table, r.id, { [column]: r.value });
        if (hit === undefined) continue;
        out.push(hit.found);
        fixes.push({ id: r.id, value: hit.redacted[column] as string });
      }
      if (rows.length < 500) break;
      last = rows[rows.length - 1]!.id;
    }
    if (apply) { for (const f of fixes) j.run(write, f.value, f.id); }
  }
  return out;
}
