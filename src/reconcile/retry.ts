/**
 * Which files the end of a pass parses again: those whose parse missed the
 * time budget and have tries left (see `PARSE_TRIES` in plan.ts). Reads the
 * journal only.
 */
import type { Journal } from "../store/mod.ts";
import { PARSE_TRIES, parseTry } from "./plan.ts";

/**
 * The absolute paths of indexed files whose last parse missed the time
 * budget with tries left, in path order. Cost: one scan of `paths` (the
 * reasons are few; a missed parse is rare on an idle machine).
 */
export function timeMissesToRetry(journal: Journal): string[] {
  const rows = journal.all<{ path: string; depth_reason: string }>(
    `SELECT path, depth_reason FROM paths
     WHERE state = 'indexed' AND depth_reason LIKE 'parse budget exceeded: % took longer than %'
     ORDER BY path`,
  );
  return rows.filter((r) => (parseTry(r.depth_reason) ?? PARSE_TRIES) < PARSE_TRIES)
    .map((r) => r.path);
}
