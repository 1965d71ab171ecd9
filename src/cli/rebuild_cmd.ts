/** `heimdall rebuild`: re-derive the whole code index from disk, keeping every memory. */
import { parseFlags } from "./flags.ts";
import { memoryCounts, memoryLedger, memoryLost, syncAllSearch } from "../memory/mod.ts";
import { reindexNotes } from "../search/mod.ts";
import { InternalError } from "../errors/mod.ts";
import {
  backupJournal,
  clearDamage,
  headerDamage,
  isCorruption,
  Journal,
  journalCounts,
  knownDamage,
  quickCheck,
  salvageJournal,
  type SalvageReport,
} from "../store/mod.ts";
import type { Context } from "./context.ts";
import { EXIT } from "./exit_codes.ts";
import { fileStamp, plural, seconds } from "../present/fmt.ts";
import { exists, join } from "../files/mod.ts";
import { progressBar } from "./progress.ts";
import { withWriter } from "./writer.ts";

export const HELP = `heimdall rebuild [--json]
  Re-derives the whole code index from disk: backs the journal up first (and
  names the backup; the newest 3 backups are kept, older ones deleted once the
  rebuild succeeded), drops every row a path owns, then indexes every root
  again as the single writer. Memories and notes are kept and re-anchored.
  A damaged journal (bad header, truncated, pages SQLite cannot read) is
  moved aside, never deleted, and every readable memory, note, decision,
  attempt, claim and task is salvaged row by row into a fresh journal; the
  output names what could not be read. Stop the daemon first (it holds the
  writer lock).`;

/** What the damage check and salvage did, when the journal was damaged. */
interface Repair {
  damage: string;
  /** Where the damaged journal was moved (with its -wal and -shm). */
  kept: string;
  salvage: SalvageReport;
}

/**
 * The journal's damage, or undefined when it is sound: its header, the
 * marker of damage found earlier, then SQLite's quick_check (a full read,
 * 1.6–6 ms per MiB; a rebuild re-reads every file anyway).
 */
function damageOf(file: string): string | undefined {
  const found = headerDamage(file) ?? knownDamage(file);
  if (found !== undefined) return found;
  try {
    Deno.statSync(file);
  } catch {
    return undefined;
  }
  let j: Journal | undefined;
  try {
    j = Journal.open(file, { readOnly: true });
    return quickCheck(j.db);
  } catch (e) {
    if (isCorruption(e)) return (e as Error).message;
    throw e;
  } finally {
    j?.close();
  }
}

/**
 * Salvages a damaged journal's memory into a fresh one, then moves the
 * damaged one aside and the fresh one into its place; returns undefined when
 * the journal is sound. Runs holding the writer lock, before the journal is
 * opened for the rebuild. The fresh journal is built under another name and
 * renamed into place only when complete, so an interrupted rebuild leaves the
 * damaged journal where it was (and the next rebuild starts again).
 */
function repairIfDamaged(file: string, when: string): Repair | undefined {
  const next = `${file}.salvaged`;
  // Interrupted between the two renames below: finish the second one.
  if (!exists(file) && exists(next)) moveFiles(next, file);
  const damage = damageOf(file);
  if (damage === undefined) return undefined;
  const kept = `${file}.damaged-${when}`;
  // Derived rows of an interrupted salvage: the damaged journal still holds them.
  for (const suffix of ["", "-wal", "-shm", "-wait"]) {
    try {
      Deno.removeSync(next + suffix);
    } catch { /* none */ }
  }
  let salvage: SalvageReport;
  const fresh = Journal.open(next);
  try {
    salvage = salvageJournal(file, fresh, `${kept}.salvage`);
    fresh.tx(() => {
      syncAllSearch(fresh);
      reindexNotes(fresh);
    });
  } finally {
    fresh.close();
    try {
      Deno.removeSync(`${next}-wait`);
    } catch { /* none */ }
  }
  // Never deleted: the damaged file, its WAL and shared memory move together
  // (SQLite finds a WAL by the database's name).
  moveFiles(file, kept);
  moveFiles(next, file);
  clearDamage(file);
  return { damage, kept, salvage };
}

/** How many of rebuild's backups are kept: each is a whole copy of the journal. */
const KEEP_BACKUPS = 3;

/**
 * Deletes all but the newest {@link KEEP_BACKUPS} of the journal's backups
 * (`journal.db.<time>.backup`, with any -wal, -shm or -journal SQLite left
 * beside one) and the scratch copies of a salvage killed before it could
 * delete its own (`journal.db.damaged-<time>.salvage`); returns the backups
 * deleted. Damaged journals kept aside are never touched. Runs holding the
 * writer lock, after a rebuild succeeded: every memory is in the journal.
 */
function pruneBackups(home: string): string[] {
  const backups: string[] = [];
  const litter: string[] = [];
  for (const e of Deno.readDirSync(home)) {
    if (!e.isFile) continue;
    if (/^journal\.db\.\d{8}T\d{6}Z\.backup$/.test(e.name)) backups.push(e.name);
    else if (/^journal\.db\.damaged-\d{8}T\d{6}Z\.salvage(-wal|-shm|-journal)?$/.test(e.name)) {
      litter.push(e.name);
    }
  }
  // The time stamp in the name sorts as the time does.
  const pruned = backups.sort().slice(0, Math.max(0, backups.length - KEEP_BACKUPS));
  for (const name of [...pruned.flatMap((b) => SQLITE_FILES.map((x) => b + x)), ...litter]) {
    try {
      Deno.removeSync(join(home, name));
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }
  return pruned.map((b) => join(home, b));
}

const SQLITE_FILES = ["", "-wal", "-shm", "-journal"];

/** Renames a SQLite file with its -wal and -shm, whichever exist. */
function moveFiles(from: string, to: string): void {
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      Deno.renameSync(from + suffix, to + suffix);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }
}

/** One line per table that lost something, and the lost notes and memories by name. */
function repairLines(r: Repair): string[] {
  const lines = [
    `damaged  ${r.damage}`,
    `kept     the damaged journal at ${r.kept} (never deleted)`,
  ];
  if (r.salvage.header.length > 0) {
    lines.push(`mended   header of a scratch copy: ${r.salvage.header.join(", ")}`);
  }
  const copied = Object.fromEntries(r.salvage.tables.map((t) => [t.table, t.copied]));
  lines.push(
    `salvaged ${plural(copied.memories ?? 0, "memory", "memories")}, ${
      plural(copied.notes ?? 0, "note")
    }, ${plural(copied.claims ?? 0, "claim")}, ${plural(copied.tasks ?? 0, "task")}`,
  );
  for (const t of r.salvage.tables) {
    const lost = [
      ...(t.lost ? [`unreadable: ${t.lost}`] : []),
      ...t.unreadable.map(([a, b]) =>
        b === Number.MAX_SAFE_INTEGER
          ? `rowids from ${a} on`
          : a === b
          ? `rowid ${a}`
          : `rowids ${a}–${b}`
      ),
      ...(t.refused > 0
        ? [`${plural(t.refused, "row")} refused (bad values or a lost parent)`]
        : []),
    ];
    if (lost.length > 0) lines.push(`lost     ${t.table}: ${lost.join("; ")}`);
  }
  for (const m of r.salvage.lostMemories) lines.push(`lost     memory ${m.id}: ${m.title}`);
  for (const n of r.salvage.lostNotes) lines.push(`lost     note #${n.id}: ${n.title}`);
  return lines;
}

/** `heimdall rebuild`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values } = parseFlags(args, { boolean: ["json"], positionals: false });
  const t0 = performance.now();
  const bar = progressBar("rebuilding");
  const when = fileStamp();
  let repair: Repair | undefined;
  const result = await withWriter(ctx, async (r, followers) => {
    const j = r.journal;
    const backup = join(ctx.home.home, `journal.db.${when}.backup`);
    // A consistent copy of the whole journal (WAL included) while we hold the writer lock.
    await backupJournal(j, backup);
    const before = memoryLedger(j);
    // The reconciler drops every row a path owns, then indexes every root
    // again; memory is re-anchored once, after the pass.
    const pass = await r.pass({ fresh: true, audit: true, onProgress: (p) => bar.update(p) });
    const anchors = followers.memory.last!;
    const after = memoryCounts(j);
    // Another process may record memories meanwhile (the pass yields the
    // lock to short writers): only a memory that was there and is not, or
    // lost anchors while unchanged, is a loss.
    const lost = memoryLost(before, memoryLedger(j));
    if (lost.length > 0) {
      throw new InternalError(
        `Rebuild lost ${plural(lost.length, "memory", "memories")} (${
          lost.slice(0, 5).join(", ")
        }); export what the journal holds now (\`heimdall export --out FILE\`: memories recorded since hold only there), then restore the backup "${backup}" and import that export`,
      );
    }
    return {
      backup,
      pruned: pruneBackups(ctx.home.home),
      dropped: pass.dropped,
      stats: pass.audit!,
      counts: journalCounts(j),
      kept: after,
      anchors,
    };
  }, { beforeOpen: () => void (repair = repairIfDamaged(ctx.home.journal, when)) });
  bar.done();
  const ms = performance.now() - t0;
  const files = Object.values(result.counts.paths).reduce((a, b) => a + b, 0);
  if (values.json) ctx.out(JSON.stringify({ ms: Math.round(ms), ...result, repair }));
  else {
    if (repair) { for (const line of repairLines(repair)) ctx.out(line); }
    ctx.out(`backup   ${result.backup}`);
    if (result.pruned.length > 0) {
      ctx.out(
        `pruned   ${
          plural(result.pruned.length, "older backup")
        } (the newest ${KEEP_BACKUPS} are kept): ${result.pruned.join(", ")}`,
      );
    }
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
