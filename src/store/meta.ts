import type { Journal } from "./journal.ts";

/** A value from the `meta` table. */
export function getMeta(j: Journal, key: string): string | undefined {
  return j.get<{ value: string }>("SELECT value FROM meta WHERE key = ?", key)?.value;
}

/** Sets a value in the `meta` table. */
export function setMeta(j: Journal, key: string, value: string): void {
  j.run(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    key,
    value,
  );
}

/** Removes a key from the `meta` table. */
export function deleteMeta(j: Journal, key: string): void {
  j.run("DELETE FROM meta WHERE key = ?", key);
}

/** Removes every key of the `meta` table that starts with `prefix`, except `keep`. */
export function deleteMetaPrefixed(j: Journal, prefix: string, keep: string): void {
  // A range, not LIKE: a prefix may hold `_` or `%`.
  j.run(
    "DELETE FROM meta WHERE key >= ? AND key < ? AND key != ?",
    prefix,
    prefix + "\u{10FFFF}",
    keep,
  );
}
