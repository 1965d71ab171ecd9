/**
 * Leaving no copy of rewritten text in the journal's files: SQLite keeps
 * what an UPDATE replaced in the free space of its pages, the full-text
 * index keeps a deleted row's terms until its segments merge, and the WAL
 * keeps old pages until a checkpoint. For redacting a secret stored before
 * the screen knew it.
 */
import type { Journal } from "./journal.ts";
import { mergeFullTextSteps } from "./full_text.ts";

/**
 * Runs `fn` with content that a write frees (a rewritten row's old text, a
 * merged segment) overwritten with zeros (`PRAGMA secure_delete`), then
 * sets the connection back as it was. Costs more I/O per write: for a
 * redaction only.
 */
export function eraseFreedSpace<T>(j: Journal, fn: () => T): T {
  const was = j.get<{ secure_delete: number }>("PRAGMA secure_delete")?.secure_delete ?? 0;
  j.run("PRAGMA secure_delete = ON");
  try {
    return fn();
  } finally {
    j.run(`PRAGMA secure_delete = ${was === 1 ? "ON" : "OFF"}`);
  }
}

/**
 * After rows were rewritten, inside {@link eraseFreedSpace}: merges the
 * full-text index into one segment (the terms of deleted rows leave with
 * it), in short transactions, then checkpoints the WAL and truncates it.
 * Returns false when a reader or writer kept the checkpoint from finishing
 * (the WAL keeps the old pages until a later checkpoint). Costs a rewrite of
 * the full-text index: seconds on a large journal.
 */
export function purgeRewritten(j: Journal): boolean {
  const steps = mergeFullTextSteps(j);
  // One merge step per transaction: another writer waits one step at most.
  while (j.tx(() => !steps.next().done));
  const r = j.get<{ busy: number }>("PRAGMA wal_checkpoint(TRUNCATE)");
  return r === undefined || r.busy === 0;
}
