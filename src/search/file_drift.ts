/**
 * The files a graph answer (an outline, callers, callees, a blast radius)
 * points at that changed or went away since they were indexed: its lines
 * come from the journal, so `heimdall symbols|callers|…` and the MCP tools
 * of the same names say which may have moved, and what brings them back.
 */
import { shellPath } from "../present/shell.ts";
import { getPath, type Journal, type PathRow } from "../store/mod.ts";

/** How a file the journal answers from stands on disk now. */
export type Drift = "gone" | "changed";

/** A file an answer points at, and how it moved on since it was indexed. */
export interface DriftedFile {
  /** Its absolute path. */
  path: string;
  /** Gone from disk, or changed since it was indexed. */
  drift: Drift;
}

/**
 * How a file the journal answers from stands on disk now (pure): `gone`, or
 * `changed` when its size or modification time is not what was indexed (its
 * lines may have moved); null when it is as indexed.
 */
export function fileDrift(
  row: Pick<PathRow, "size" | "mtime_ms">,
  now: Pick<Deno.FileInfo, "isFile" | "size" | "mtime"> | undefined,
): Drift | null {
  if (now === undefined || !now.isFile) return "gone";
  return now.size === row.size && (now.mtime?.getTime() ?? 0) === row.mtime_ms ? null : "changed";
}

/**
 * Each of `paths` (once, in order) the journal holds that changed or went
 * away since it was indexed. One look-up and one stat a file.
 */
export function driftedFiles(j: Journal, paths: Iterable<string>): DriftedFile[] {
  const out: DriftedFile[] = [];
  for (const path of new Set(paths)) {
    const row = getPath(j, path);
    if (!row) continue;
    let now: Deno.FileInfo | undefined;
    try {
      now = Deno.statSync(path);
    } catch { /* gone */ }
    const drift = fileDrift(row, now);
    if (drift !== null) out.push({ path, drift });
  }
  return out;
}

/** At most this many drift notes; the rest are counted. */
const DRIFT_NOTES = 5;

/**
 * One note a drifted file, with the remedy, for at most the first five;
 * one more counts the rest. `shown` gives a path as the answer prints it.
 *
 * @example
 * ```ts
 * import { driftNotes } from "./file_drift.ts";
 * const [note] = driftNotes([{ path: "/r/a.ts", drift: "gone" }], (p) => p);
 * console.assert(note!.startsWith("/r/a.ts is gone from disk since it was indexed"));
 * ```
 */
export function driftNotes(
  drifted: readonly DriftedFile[],
  shown: (path: string) => string,
): string[] {
  const notes = drifted.slice(0, DRIFT_NOTES).map(({ path, drift }) =>
    `${shown(path)} ${
      drift === "gone"
        ? "is gone from disk since it was indexed"
        : "changed since it was indexed: its lines may have moved"
    }; \`heimdall reconcile ${shellPath(shown(path))}\` brings the index up to date`
  );
  if (drifted.length > DRIFT_NOTES) {
    notes.push(
      `${
        drifted.length - DRIFT_NOTES
      } more file(s) changed or gone since indexed; \`heimdall reconcile --all\``,
    );
  }
  return notes;
}
