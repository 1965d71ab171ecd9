import type { Depth } from "../config/mod.ts";
import type { Extractor } from "../extract/mod.ts";
import {
  iteratePathStats,
  type Journal,
  listRoots,
  type PathStat,
  queueStats,
  vocabDrift,
} from "../store/mod.ts";
import { contentHash, decodeText, isFolderGone } from "../files/mod.ts";
import { homeDirs, walkExclusions } from "./owners.ts";
import { PARSE_TRIES, parseTry, UNREADABLE } from "./plan.ts";
import { sniffSecret } from "../files/secrets.ts";
import { NOT_UTF8, walkRoot } from "../files/walk.ts";

/** One way the journal differs from the disk. */
export interface Drift {
  /**
   * What differs: `missing` (on disk, not in the journal), `ghost` (in the journal, gone or
   * excluded), `stat`, `content` (with `deep`), `shallow` (below the depth this build reaches),
   * `orphan` (rows owned by no path), `unreadable`, `vocabulary` (learned-vocabulary counts),
   * `graph` (with `deep`: a file's references resolved otherwise than a fresh index resolves them).
   */
  kind:
    | "missing"
    | "ghost"
    | "stat"
    | "content"
    | "shallow"
    | "orphan"
    | "unreadable"
    | "vocabulary"
    | "graph";
  /** The path it is about (for `orphan`, the table; for `vocabulary`, the count that is off). */
  path: string;
  /** What was found, in words. */
  reason: string;
}

/**
 * A path that is not (fully) indexed for a reason a reconcile cannot fix
 * now: a file that cannot be read, a name that is not valid UTF-8, a file
 * over the size cap, a parse over its time budget. Not drift.
 *
 * @internal
 */
export interface Skipped {
  path: string;
  reason: string;
}

/** What verify found. `drift` empty means the journal equals the disk. */
export interface VerifyReport {
  /** Roots compared. */
  roots: number;
  /** Files on disk compared with their rows. */
  checked: number;
  /** True when every file was re-hashed. */
  deep: boolean;
  /** Paths waiting in the reconciler's queue when verify ran. */
  queued: number;
  /** Every difference found; empty when the journal equals the disk. */
  drift: Drift[];
  /** Paths passed over with their reason (not drift), in walk order. */
  skipped: Skipped[];
}

/**
 * Compares the journal with the disk without writing anything and without the
 * writer lock: files on disk missing from the journal, rows whose file is gone
 * or now excluded, stat mismatches, rows below the depth this build reaches,
 * rows owned by no path, and learned-vocabulary counts that are not the sum
 * of what the paths' symbols taught. With `deep`, every file is re-hashed,
 * which catches a rewrite that kept size and mtime. Walks as the reconciler
 * does: `home` (`$HEIMDALL_HOME`) is never entered, and a root nested in
 * another is walked only as itself. Files recorded as unreadable, too large
 * or over the parse budget, and names that are not valid UTF-8, are listed
 * in `skipped` with their reason, not as drift.
 */
export function verifyJournal(
  journal: Journal,
  options: { deep: boolean; extractor: Extractor; globalIgnore: string; home?: string },
): VerifyReport {
  const report: VerifyReport = {
    roots: 0,
    checked: 0,
    deep: options.deep,
    queued: queueStats(journal).length,
    drift: [],
    skipped: [],
  };
  const add = (kind: Drift["kind"], path: string, reason: string) =>
    report.drift.push({ kind, path, reason });
  const skip = (path: string, reason: string) => report.skipped.push({ path, reason });
  const roots = listRoots(journal);
  const home = options.home === undefined ? [] : homeDirs(options.home);
  for (const root of roots) {
    report.roots++;
    const indexed = new Map<string, PathStat>();
    for (const row of iteratePathStats(journal, root)) indexed.set(row.rel, row);
    const requested: Depth = root.depth === "max" ? 3 : (Number(root.depth) as Depth);
    const exclude = walkExclusions(root.path, roots.map((r) => r.path), home);
    const base = root.path.endsWith("/") ? root.path : root.path + "/";
    for (
      const ev of walkRoot({ root: root.path, globalIgnore: options.globalIgnore, exclude })
    ) {
      if (ev.type === "skip") {
        if (ev.reason === "unreadable" && ev.rel === "" && isFolderGone(root.path)) {
          skip(
            base,
            "the root is gone from disk; `heimdall roots remove` it (its memories stay), or put the folder back",
          );
        } else if (ev.reason === "unreadable") {
          const detail = ev.detail ?? "cannot be listed or stat'ed";
          skip(
            base + ev.rel,
            `${UNREADABLE}: ${detail}` +
              (detail === NOT_UTF8 ? "" : "; fix its permissions, then `heimdall reconcile --all`"),
          );
        }
        continue;
      }
      report.checked++;
      const row = indexed.get(ev.rel);
      indexed.delete(ev.rel);
      if (!row) {
        if (!isSecretFile(ev.path)) add("missing", ev.path, "on disk, not in the journal");
        continue;
      }
      if (row.size !== ev.size || row.mtime_ms !== ev.mtimeMs) {
        add(
          "stat",
          ev.path,
          `journal has size ${row.size} mtime ${
            iso(row.mtime_ms)
          }, disk has size ${ev.size} mtime ${iso(ev.mtimeMs)}`,
        );
        continue;
      }
      // A row from before ctimes were recorded is not drift: the next pass records it.
      if (row.ctime_ms != null && row.ctime_ms !== ev.ctimeMs) {
        add(
          "stat",
          ev.path,
          `same size and mtime, but changed since it was indexed (ctime ${iso(row.ctime_ms)}, ` +
            `disk ${iso(ev.ctimeMs)}): rewritten with its size and mtime kept, or its mode changed`,
        );
        continue;
      }
      if (row.state === "error" || row.reason === "too large") {
        skip(ev.path, row.reason ?? "error");
        continue;
      }
      if (options.deep && row.hash !== null) {
        try {
          const hash = contentHash(Deno.readFileSync(ev.path));
          if (hash !== row.hash) {
            add(
              "content",
              ev.path,
              `same size and mtime, but content hash ${hash.slice(0, 12)} ≠ journal ${
                row.hash.slice(0, 12)
              }`,
            );
            continue;
          }
        } catch (e) {
          // Indexed, but unreadable now (a chmod keeps the mtime, so no stat screen sees it).
          add(
            "unreadable",
            ev.path,
            `${(e as Error).message}; \`heimdall reconcile --deep PATH\` records why`,
          );
          continue;
        }
      }
      const want = Math.min(
        requested,
        options.extractor.capability(row.language ?? undefined).depth,
      );
      if (row.state === "indexed" && row.effective_depth < want && row.target_depth !== want) {
        add("shallow", ev.path, `at L${row.effective_depth}, this build reaches L${want}`);
      } else if (row.state === "indexed" && row.effective_depth < want && row.depth_reason) {
        // Tried at this depth and degraded (over the parse budget, minified, grammar failure).
        const t = parseTry(row.depth_reason);
        skip(
          ev.path,
          `at L${row.effective_depth}: ${row.depth_reason}` +
            (t !== undefined && t < PARSE_TRIES ? "; `heimdall reconcile --all` tries again" : ""),
        );
      }
    }
    for (const row of indexed.values()) {
      const owner = [...exclude.keys()].find((d) => row.path.startsWith(d + "/"));
      add(
        "ghost",
        row.path,
        owner === undefined
          ? "in the journal, but gone from disk or now excluded"
          : `in the journal under root "${root.path}", but ${exclude.get(owner)}`,
      );
    }
  }
  for (
    const r of journal.all<{ table: string; n: number }>(
      `SELECT 'nodes' AS "table", count(*) AS n FROM nodes WHERE path_id NOT IN (SELECT id FROM paths)
       UNION ALL SELECT 'edges', count(*) FROM edges WHERE owner_id NOT IN (SELECT id FROM paths)
       UNION ALL SELECT 'pending_edges', count(*) FROM pending_edges WHERE owner_id NOT IN (SELECT id FROM paths)
       UNION ALL SELECT 'vocab_sets', count(*) FROM vocab_sets WHERE path_id NOT IN (SELECT id FROM paths)
       UNION ALL SELECT 'paths', count(*) FROM paths WHERE root_id NOT IN (SELECT id FROM roots)`,
    )
  ) {
    if (r.n > 0) add("orphan", r.table, `${r.n} row(s) owned by no path`);
  }
  for (const reason of vocabDrift(journal)) {
    add("vocabulary", reason.slice(0, reason.indexOf(" ")), `${reason}; run heimdall rebuild`);
  }
  return report;
}

function isSecretFile(path: string): boolean {
  try {
    const bytes = Deno.readFileSync(path);
    return sniffSecret(decodeText(bytes)) !== undefined; // the whole file, as prepare reads it
  } catch {
    return false;
  }
}

/** True when nothing is at `path` now (not when it is there but unreadable). */
function iso(ms: number): string {
  return new Date(ms).toISOString();
}
