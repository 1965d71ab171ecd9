/**
 * What the graph tests share: a reconciler over one root, the graph as
 * lines, and the comparison of a live index with a fresh one of the same
 * tree (the invariant that incremental equals fresh).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultConfig, homePaths } from "../src/config/mod.ts";
import { createExtractor } from "../src/extract/mod.ts";
import { Reconciler } from "../src/reconcile/mod.ts";
import { Journal } from "../src/store/mod.ts";
import { removeTree } from "./helpers.ts";

/** A journal in `home` and its reconciler over `root` at full depth. */
export interface Indexed {
  journal: Journal;
  r: Reconciler;
}

/** Opens (or creates) the journal in `home` with a reconciler over `root`, at full depth. */
export function indexer(home: string, root: string): Indexed {
  const paths = homePaths(home);
  const journal = Journal.open(paths.journal);
  const config = { ...defaultConfig(), roots: [{ path: root, depth: "max" as const }] };
  const r = new Reconciler(journal, paths, config, createExtractor());
  r.syncRoots();
  return { journal, r };
}

/** Every edge (with its target's line) and every pending reference (with its argument count), sorted. */
export function graph(journal: Journal): string[] {
  return [
    ...journal.all<{ l: string }>(
      `SELECT ps.rel || ':' || s.qualname || ' -' || e.kind || '-> ' || pd.rel || ':' || d.qualname
         || ':' || d.start_line || ' (' || e.how || ')' AS l
       FROM edges e JOIN nodes s ON s.id = e.src JOIN nodes d ON d.id = e.dst
       JOIN paths ps ON ps.id = s.path_id JOIN paths pd ON pd.id = d.path_id`,
    ).map((r) => r.l),
    ...journal.all<{ l: string }>(
      `SELECT 'pending ' || p.rel || ' ' || pe.kind || ' ' || pe.target
         || coalesce('/' || pe.args, '') AS l
       FROM pending_edges pe JOIN paths p ON p.id = pe.owner_id`,
    ).map((r) => r.l),
  ].sort();
}

/**
 * A comparison to run after each round of edits: audits `live`, indexes
 * `root` afresh in a new home under `base`, asserts that `view` of both is
 * equal (labelled `what`) and returns the live one.
 */
export function freshComparer(
  base: string,
  root: string,
  live: Indexed,
  view: (journal: Journal) => string[] = graph,
): (what: string) => Promise<string[]> {
  let round = 0;
  return async (what) => {
    await live.r.audit();
    const freshHome = join(base, `fresh-${round++}`);
    const fresh = indexer(freshHome, root);
    try {
      await fresh.r.audit();
      const seen = view(live.journal);
      assert.deepEqual(seen, view(fresh.journal), what);
      return seen;
    } finally {
      fresh.journal.close();
      removeTree(freshHome);
    }
  };
}
