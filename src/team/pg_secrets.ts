/**
 * Secrets an older build pushed to the shared PostgreSQL before a rule of
 * the screen existed, in one person's own rows there: the memories they
 * wrote (text, tests, fix), the text of the tasks they hold or started, the
 * notes of the task events they made (hand-offs) and the task text their
 * claims, and the claims on the tasks they started, carry. Found
 * and redacted in place, as `heimdall redact` does the journal's copies:
 * only the secret-shaped spans change; ids, owners and times stay. A
 * memory changed takes the next revision of the store's feed, so every
 * machine's next pull copies the redacted text over its own.
 */
import { screenRecord, type StoredSecret } from "../files/mod.ts";
import { bumpRevision } from "./pg_memory.ts";
import type { PgTeamStore } from "./pg_store.ts";

/** The tasks `$1` started: their text is theirs, whoever holds the task now. */
const STARTED = "SELECT task_id FROM heimdall.task_events WHERE actor = $1 AND kind = 'start'";

/**
 * Each table with the rows that are the person's (`$1`), its free-text
 * columns and its first id (ids sort after it).
 */
const TABLES = [
  { table: "memories", mine: "author = $1", columns: ["text", "tests", "fix"], first: "" },
  { table: "tasks", mine: `(owner = $1 OR id IN (${STARTED}))`, columns: ["text"], first: "" },
  { table: "task_events", mine: "actor = $1", columns: ["note"], first: 0 },
  {
    table: "claims",
    mine: `(developer = $1 OR task_id IN (${STARTED}))`,
    columns: ["task_text"],
    first: 0,
  },
] as const;

/** Rows read per round trip. */
const PAGE = 500;

/**
 * The rows of `developer` in the shared store that hold a secret-shaped
 * value, each named `team <table> <id>` (never a value). With `apply`, each
 * is rewritten with only those spans redacted (a memory's `tests`, a JSON
 * list, item by item), and the memories changed take the next revision,
 * all in one transaction: all or nothing. One round trip per
 * {@link PAGE} rows and one per row changed; throws TeamStoreError when
 * the store is lost (nothing applied).
 */
export function redactTeamStoreRows(
  store: PgTeamStore,
  developer: string,
  apply: boolean,
): Promise<StoredSecret[]> {
  return store.transaction(async () => {
    const out: StoredSecret[] = [];
    const memories: string[] = [];
    for (const { table, mine, columns, first } of TABLES) {
      const list = columns.join(", ");
      for (let last: string | number = first;;) {
        const rows = await store.query<Record<string, string | null> & { id: string }>(
          `SELECT id, ${list} FROM heimdall.${table} WHERE ${mine} AND id > $2
           ORDER BY id LIMIT ${PAGE}`,
          [developer, last],
        );
        for (const r of rows) {
          const fields: Record<string, string | string[] | null> = {};
          for (const c of columns) fields[c] = c === "tests" ? testsOf(r[c] ?? null) : r[c] ?? null;
          const hit = screenRecord(`team ${table}`, r.id, fields);
          if (hit === undefined) continue;
          out.push(hit.found);
          if (!apply) continue;
          const set = Object.entries(hit.redacted);
          await store.query(
            `UPDATE heimdall.${table} SET ${
              set.map(([c], i) => `${c} = $${i + 2}`).join(", ")
            } WHERE id = $1`,
            [r.id, ...set.map(([, v]) => Array.isArray(v) ? JSON.stringify(v) : v)],
          );
          if (table === "memories") memories.push(r.id);
        }
        if (rows.length < PAGE) break;
        last = rows[rows.length - 1]!.id;
      }
    }
    // Last, as every memory write does: the feed's lock is held until the commit.
    if (memories.length > 0) await bumpRevision(store, memories);
    return out;
  });
}

/** A memory's `tests` (a JSON list of names) as its items; a value that is no list, as one text. */
function testsOf(value: string | null): string[] | string | null {
  if (value === null) return null;
  try {
    const v: unknown = JSON.parse(value);
    if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v;
  } catch { /* not JSON */ }
  return value;
}
