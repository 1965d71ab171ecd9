import type { Journal } from "./journal.ts";
import { retractPath } from "./owned.ts";
import { deleteRoot, listRoots } from "./roots.ts";

/**
 * Empties the code index for a rebuild, in one transaction: every path's
 * rows go through the deletion a commit uses ({@link retractPath}, so the
 * learned vocabulary's counts follow), then every root, then whatever rows
 * no path owns any more (the drift a rebuild is meant to clear) and the
 * queue. Memory, notes, claims and tasks are untouched. Returns the number
 * of paths dropped. Only the reconciler calls it, holding the writer lock.
 */
export function clearIndex(j: Journal): number {
  return j.tx(() => {
    const dropped = j.all<{ path: string; generation: number }>(
      "SELECT path, generation FROM paths",
    );
    for (const p of dropped) retractPath(j, p.path, p.generation);
    for (const r of listRoots(j)) deleteRoot(j, r.id);
    j.run("DELETE FROM nodes");
    j.run("DELETE FROM edges");
    j.run("DELETE FROM pending_edges");
    j.run("DELETE FROM queue");
    return dropped.length;
  });
}
