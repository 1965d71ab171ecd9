import type { Journal } from "./journal.ts";

const OWNED_TABLES: readonly [string, string][] = [
  ["roots", "SELECT * FROM roots ORDER BY path"],
  ["paths", "SELECT * FROM paths ORDER BY path"],
  ["nodes", "SELECT * FROM nodes ORDER BY id"],
  ["edges", "SELECT * FROM edges ORDER BY owner_id, src, dst, kind, line"],
  ["pending_edges", "SELECT * FROM pending_edges ORDER BY owner_id, src, kind, target, line"],
];

/**
 * A canonical text of every index row (not the queue or meta), for tests and
 * `verify`: two journals holding the same index dump to the same string.
 */
export function dumpIndex(j: Journal): string {
  const out: string[] = [];
  for (const [name, sql] of OWNED_TABLES) {
    out.push(`# ${name}`);
    for (const row of j.all<Record<string, unknown>>(sql)) out.push(JSON.stringify(row));
  }
  return out.join("\n");
}
