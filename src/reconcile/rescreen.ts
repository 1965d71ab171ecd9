/**
 * Indexed files that an older build's secret screen let in and this one
 * refuses: the stat screen never reads an unchanged file again, so without
 * this they stayed indexed (their words searchable, their lines shown)
 * after an upgrade taught the screen their kind.
 */
import { decodeText, isSecretName, sniffSecret } from "../files/mod.ts";
import { isBinary } from "../extract/mod.ts";
import {
  enqueuePaths,
  iteratePathStats,
  type Journal,
  listRoots,
  type PathStat,
  touchPath,
} from "../store/mod.ts";

/** Rows marked per transaction: a writer's transactions stay short. */
const BATCH = 200;

/**
 * Reads every indexed file again and returns those whose name or content
 * the secret screen now refuses (`sniffSecret`, `isSecretName`); each is
 * marked racy (so that no stat screen settles it) and queued, and the next
 * pass reads it and retracts its rows, counted as a secret skipped. A file
 * gone or unreadable is left to the audit. Costs one read of every indexed
 * file: run once per change of the screen's rules.
 */
export function rescreenIndexed(j: Journal): string[] {
  const hits: PathStat[] = [];
  for (const root of listRoots(j)) {
    for (const row of iteratePathStats(j, root)) {
      if (row.state !== "indexed") continue;
      if (isSecretName(row.rel) !== undefined) {
        hits.push(row);
        continue;
      }
      let bytes: Uint8Array;
      try {
        bytes = Deno.readFileSync(row.path);
      } catch {
        continue; // gone or unreadable: the audit retracts or records it
      }
      if (!isBinary(bytes) && sniffSecret(decodeText(bytes)) !== undefined) hits.push(row);
    }
  }
  for (let i = 0; i < hits.length; i += BATCH) {
    const batch = hits.slice(i, i + BATCH);
    j.tx(() => {
      for (const row of batch) {
        touchPath(j, row.path, row.generation, {
          size: row.size,
          mtime_ms: row.mtime_ms,
          ctime_ms: row.ctime_ms ?? 0,
          racy: 1,
        });
      }
      enqueuePaths(j, batch.map((r) => r.path), "the secret screen changed");
    });
  }
  return hits.map((r) => r.path);
}
