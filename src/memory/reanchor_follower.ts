import type { Follower } from "../reconcile/mod.ts";
import type { Journal } from "../store/mod.ts";
import { reanchorMemories, type ReanchorReport } from "./reanchor.ts";

/**
 * Memory follows the code it is attached to, and is never deleted by
 * re-indexing: registered with every writer, this re-anchors every memory
 * after a pass that changed the index (and after the writer's first pass).
 * Costs what {@link reanchorMemories} costs; a failure is the pass's to
 * report (the daemon logs it, a one-shot command fails with it).
 */
export class ReanchorFollower implements Follower {
  /** Its name in the writer's log. */
  readonly name = "memory re-anchoring";
  /** What the last run did; undefined before the first. */
  last: ReanchorReport | undefined;

  /** A follower re-anchoring the memories of `journal`. */
  constructor(readonly journal: Journal) {}

  /** Re-anchors every memory now. */
  afterPass(): void {
    this.last = reanchorMemories(this.journal);
  }
}
