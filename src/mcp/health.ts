/**
 * How the index stands, for the `status` tool and `heimdall doctor`: the
 * journal, the daemon, freshness (last audit, queue, hints waiting), and the
 * semantic leg's model and vectors. Read-only; never takes the writer lock
 * and never loads the model.
 */
import type { Config, HomePaths } from "../config/mod.ts";
import { writerHolderInfo } from "../reconcile/mod.ts";
import {
  corruptionDetail,
  describeFault,
  filesPerRoot,
  getMeta,
  isCorruption,
  Journal,
  journalCounts,
  JournalMissingError,
  lastAudit,
  listRoots,
  markDamaged,
  queueStats,
} from "../store/mod.ts";
import {
  activeModel,
  earlierInstall,
  type VectorStoreHealth,
  vectorStoreHealth,
} from "../vector/mod.ts";
import { isFolderGone } from "../files/mod.ts";

/**
 * One root as the health report shows it.
 *
 * @internal
 */
export interface RootHealth {
  /** The root's absolute path. */
  path: string;
  /** Paths the journal holds under it. */
  files: number;
  /** When it was last audited in full (ms since the epoch); null if never. */
  last_audit_ms: number | null;
  /** True when its folder is gone from disk (moved, deleted, a file in its place): its files leave the index. */
  gone: boolean;
}

/** The index's health. */
export interface IndexHealth {
  /** The `$HEIMDALL_HOME` reported on. */
  home: string;
  /** Null when there is no journal yet (or it cannot be opened); `journal_error` says why. */
  journal: { paths: Record<string, number>; nodes: number; edges: number } | null;
  /** Why the journal could not be opened or read; null when it could. */
  journal_error: string | null;
  /**
   * True when there is no journal yet (nothing indexed); false when there is
   * one, also one that cannot be used (newer, damaged, not this user's):
   * `journal_error` then names its own remedy, which indexing is not.
   */
  journal_missing: boolean;
  /** Whether the daemon holds the writer lock, and its pid (`unknown` when it cannot be read). */
  daemon: { running: boolean; pid: number | "unknown" | null };
  /**
   * A one-shot writer (`heimdall index`, `rebuild`) holding the lock now,
   * its pid and command; null when none does. It is not the daemon: once it
   * is done, nothing keeps the index in step.
   */
  writer: { pid: number | null; role: string } | null;
  /** Each root the journal holds. */
  roots: RootHealth[];
  /** Roots in config.json that the journal has not seen yet. */
  roots_not_indexed: string[];
  /** Paths waiting in the reconciler's queue. */
  queue: number;
  /** Hint files not yet read by the writer. */
  hints_waiting: number;
  /** When any root was last audited (ms since the epoch); null if never. */
  last_audit_ms: number | null;
  /** True when the index may lag the disk: no daemon, and no audit within twice the audit interval. */
  stale: boolean;
  /** Why the index may lag; null when it is not stale. */
  stale_reason: string | null;
  /** The semantic leg: on with its model, or off and why (with the command that fixes it). */
  semantic: { on: true; model: string } | { on: false; reason: string };
  /** Vectors per model and any fault; null without a journal. */
  vectors: VectorStoreHealth | null;
}

function countHints(dir: string): number {
  let n = 0;
  try {
    for (const e of Deno.readDirSync(dir)) if (e.name.endsWith(".hint")) n++;
  } catch { /* no hints folder yet */ }
  return n;
}

/** `out` for a journal that is not there, or cannot be opened or read (`e` says why). */
function unusable(out: IndexHealth, config: Config, e: unknown, journal: string): IndexHealth {
  out.journal_missing = e instanceof JournalMissingError;
  out.journal_error = describeFault(e, journal).message;
  out.roots_not_indexed = config.roots.map((r) => r.path);
  out.stale = config.roots.length > 0;
  out.stale_reason = !out.stale
    ? null
    : out.journal_missing
    ? "nothing is indexed yet"
    : "the journal cannot be read";
  return out;
}

/** Reads the index's health (opens the journal read-only and closes it). */
export async function indexHealth(
  home: HomePaths,
  config: Config,
  now = Date.now(),
): Promise<IndexHealth> {
  const holder = await writerHolderInfo(home);
  // A label without a role comes from an older build: most likely its daemon (as status reads it).
  const isDaemon = holder !== null && (holder.role === undefined || holder.role === "daemon");
  const semantic = activeModel(home).status();
  const out: IndexHealth = {
    home: home.home,
    journal: null,
    journal_error: null,
    journal_missing: false,
    daemon: { running: isDaemon, pid: isDaemon ? holder.pid ?? "unknown" : null },
    writer: holder !== null && !isDaemon ? { pid: holder.pid ?? null, role: holder.role! } : null,
    roots: [],
    roots_not_indexed: [],
    queue: 0,
    hints_waiting: countHints(home.hints),
    last_audit_ms: null,
    stale: false,
    stale_reason: null,
    semantic,
    vectors: null,
  };
  let j: Journal;
  try {
    j = Journal.open(home.journal, { readOnly: true });
  } catch (e) {
    return unusable(out, config, e, home.journal);
  }
  try {
    const counts = journalCounts(j);
    out.journal = { paths: counts.paths, nodes: counts.nodes, edges: counts.edges };
    const perRoot = filesPerRoot(j);
    const roots = listRoots(j);
    out.roots = roots.map((r) => ({
      path: r.path,
      files: perRoot.get(r.id) ?? 0,
      last_audit_ms: lastAudit(j, r.id),
      gone: isFolderGone(r.path),
    }));
    const known = new Set(roots.map((r) => r.path));
    out.roots_not_indexed = config.roots.map((r) => r.path).filter((p) => !known.has(p));
    out.queue = queueStats(j).length;
    out.last_audit_ms = Number(getMeta(j, "last_audit_ms") ?? 0) ||
      Math.max(0, ...out.roots.map((r) => r.last_audit_ms ?? 0)) || null;
    // Vectors another install of this name made are not searched: say so, as search does.
    const earlier = semantic.on
      ? earlierInstall(j, semantic.model, semantic.fingerprint)
      : undefined;
    if (earlier !== undefined) out.semantic = { on: false, reason: earlier };
    out.vectors = vectorStoreHealth(j, out.semantic.on ? out.semantic.model : undefined);
  } catch (e) {
    // A bad page met by a count: the report says so (and the journal is
    // marked, as any command marks it) instead of failing whole.
    if (!isCorruption(e)) throw e;
    markDamaged(home.journal, corruptionDetail(e));
    out.journal = null;
    out.roots = [];
    return unusable(out, config, e, home.journal);
  } finally {
    j.close();
  }
  const window = 2 * config.auditIntervalSeconds * 1000;
  if (out.roots_not_indexed.length > 0) {
    out.stale = true;
    out.stale_reason = `${out.roots_not_indexed.length} root(s) in config.json not indexed yet`;
  } else if (
    !out.daemon.running && (out.last_audit_ms === null || now - out.last_audit_ms > window)
  ) {
    out.stale = true;
    out.stale_reason = out.last_audit_ms === null
      ? "never audited and no daemon keeps it in step"
      : `last audit ${
        Math.round((now - out.last_audit_ms) / 60000)
      } min ago and no daemon keeps it in step`;
  }
  return out;
}
