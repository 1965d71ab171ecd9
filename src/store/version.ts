/**
 * Whether what a reader built from the journal is still exact.
 */
import type { Journal } from "./journal.ts";

/**
 * `PRAGMA data_version` with this connection's change count: it moves
 * whenever any connection (this one included) commits a change, so an
 * unchanged value means a cache built from the journal is still exact.
 */
export function journalVersion(j: Journal): string {
  const dv = j.get<{ data_version: number }>("PRAGMA data_version")!.data_version;
  const tc = j.get<{ n: number }>("SELECT total_changes() AS n")!.n;
  return `${dv}:${tc}`;
}
