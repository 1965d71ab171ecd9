/** `heimdall rebuild`: re-derive the whole code index from disk, keeping every memory. */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { reanchorMemories } from "../memory/mod.ts";
import { backupJournal, type Journal, journalCounts, retractPath } from "../store/mod.ts";
import type { Context } from "./context.ts";
import { EXIT } from "./exit_codes.ts";
import { plural, seconds } from "./fmt.ts";
import { progressBar } from "./progress.ts";
import { withWriter } from "./writer.ts";

export const HELP = `heimdall rebuild [--json]
  Re-derives the whole code index from disk: backs the journal up first (and
  names the backup), drops every row a path owns, then indexes every root
  again as the single writer. Memories and notes are kept and re-anchored.
  Stop the daemon first (it holds the writer lock).`;

/** Counts of what the rebuild must keep. */
function kept(j: Journal): { memories: number; anchors: number } {
  return {
    memories: j.get<{ n: number }>("SELECT count(*) AS n FROM memories")!.n,
    anchors: j.get<{ n: number }>("SELECT count(*) AS n FROM memory_anchors")!.n,
  };
}

/** `backup-20250131T140005Z`: a file-name-safe UTC stamp. */
function stamp(now = new Date()): string {
  return now.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}Z$/, "Z");
}

/** `heimdall rebuild`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: "boolean" } } });
  const t0 = performance.now();
  const bar = progressBar("rebuilding");
  const result = await withWriter(ctx, async (r) => {
    const j = r.journal;
    const backup = join(ctx.home.home, `journal.db.${stamp()}.backup`);
    // A consistent copy of the whole journal (WAL included) while we hold the writer lock.
    await backupJournal(j, backup);
    const before = kept(j);
    const dropped = j.all<{ path: string; generation: number }>(
      "SELECT path, generation FROM paths",
    );
    // Every row a path owns goes through the same deletion a commit uses.
    j.tx(() => {
      for (const p of dropped) retractPath(j, p.path, p.generation);
    });
    // Dropping and re-adding the roots also clears the resolver's caches.
    r.syncRoots({ ...r.config, roots: [] });
    j.tx(() => {
      // Rows no path owns any more (drift the rebuild is meant to clear).
      for (const table of ["nodes", "edges", "pending_edges", "queue"]) {
        j.run(`DELETE FROM ${table}`);
      }
    });
    r.syncRoots(ctx.config());
    const stats = await r.audit({ onProgress: (p) => bar.update(p) });
    r.ingestHints();
    await r.drainQueue();
    const anchors = reanchorMemories(j);
    const after = kept(j);
    if (after.memories !== before.memories || after.anchors !== before.anchors) {
      throw new Error(
        `Rebuild lost memory (${before.memories} memories before, ${after.memories} after); restore the backup "${backup}"`,
      );
    }
    return {
      backup,
      dropped: dropped.length,
      stats,
      counts: journalCounts(j),
      kept: after,
      anchors,
    };
  });
  bar.done();
  const ms = performance.now() - t0;
  const files = Object.values(result.counts.paths).reduce((a, b) => a + b, 0);
  if (values.json) ctx.out(JSON.stringify({ ms: Math.round(ms), ...result }));
  else {
    ctx.out(`backup   ${result.backup}`);
    ctx.out(
      `rebuilt  ${plural(files, "file")}, ${plural(result.counts.symbols, "symbol")} in ${
        seconds(ms)
      } (${plural(result.dropped, "path")} dropped first)`,
    );
    ctx.out(
      `kept     ${
        plural(result.kept.memories, "memory", "memories")
      }; anchors: ${result.anchors.moved} moved, ${result.anchors.orphaned} orphaned, ${result.anchors.restored} restored`,
    );
  }
  return EXIT.ok;
}
