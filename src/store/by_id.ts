/**
 * Reading a table page by page in id order, so that a scan of every note,
 * memory or candidate never holds the table whole.
 */
import type { Journal } from "./journal.ts";

/** Rows read per query. */
export const ID_PAGE = 500;

/**
 * The rows of `select` (a query with one `?` for the last id read, as in
 * `… WHERE id > ? ORDER BY id LIMIT ${ID_PAGE}`), a page at a time, from
 * the first id above `from` (0 for integer ids, "" for text ones).
 */
export function* pagesById<T extends { id: number | string }>(
  j: Journal,
  select: string,
  from: number | string,
): Generator<T[]> {
  for (let last = from;;) {
    const rows = j.all<T>(select, last);
    if (rows.length > 0) yield rows;
    if (rows.length < ID_PAGE) return;
    last = rows[rows.length - 1]!.id;
  }
}
