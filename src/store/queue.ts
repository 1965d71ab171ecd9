import type { Journal } from "./journal.ts";
import type { QueueRow } from "./types.ts";

/**
 * Adds paths to the work queue, one row per path. A path already queued keeps
 * its row; its `seq` moves so that a pass already running on it is followed by
 * exactly one more. Returns how many paths were new to the queue.
 */
export function enqueuePaths(
  j: Journal,
  paths: Iterable<string>,
  reason: string,
  now = Date.now(),
): number {
  const seq = nextSeq(j);
  let added = 0;
  const st = j.stmt(
    `INSERT INTO queue (path, reason, seq, enqueued_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT(path) DO UPDATE SET seq = excluded.seq, reason = excluded.reason, not_before = 0`,
  );
  const exists = j.stmt("SELECT 1 FROM queue WHERE path = ?");
  for (const p of paths) {
    if (!exists.get(p)) added++;
    st.run(p, reason, seq, now);
  }
  return added;
}

function nextSeq(j: Journal): number {
  const row = j.get<{ value: string }>("SELECT value FROM meta WHERE key = 'queue_seq'");
  const seq = Number(row?.value ?? 0) + 1;
  j.run(
    "INSERT INTO meta (key, value) VALUES ('queue_seq', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    String(seq),
  );
  return seq;
}

/** Up to `limit` queued paths that are due, oldest first. Reading only. */
export function dueQueue(j: Journal, limit: number, now = Date.now()): QueueRow[] {
  return j.all<QueueRow>(
    "SELECT * FROM queue WHERE not_before <= ? ORDER BY enqueued_ms, path LIMIT ?",
    now,
    limit,
  );
}

/**
 * Removes a path's row if no enqueue happened since `seq` was read; otherwise
 * the row stays for one more pass. Returns true when the row was removed.
 */
export function completeQueued(j: Journal, path: string, seq: number): boolean {
  return j.run("DELETE FROM queue WHERE path = ? AND seq = ?", path, seq) > 0;
}

/** The queued paths that were last queued for `reason`, with their `seq`. Reading only. */
export function queuedFor(j: Journal, reason: string): QueueRow[] {
  return j.all<QueueRow>("SELECT * FROM queue WHERE reason = ? ORDER BY path", reason);
}

/** Puts a queued path back with a back-off delay; counts the attempt. */
export function deferQueued(j: Journal, path: string, delayMs: number, now = Date.now()): void {
  j.run(
    "UPDATE queue SET attempts = attempts + 1, not_before = ? WHERE path = ?",
    now + delayMs,
    path,
  );
}

/** How many paths wait in the queue, and the earliest time one becomes due. */
export function queueStats(j: Journal): { length: number; nextDue: number | null } {
  const r = j.get<{ n: number; due: number | null }>(
    "SELECT count(*) AS n, min(not_before) AS due FROM queue",
  )!;
  return { length: r.n, nextDue: r.due };
}
