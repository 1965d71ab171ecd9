/**
 * Salvage: copies every readable row of memory (memories and their anchors,
 * notes, claims, tasks and their hand-offs) out of a damaged journal into a
 * fresh one, row by row, stepping over the pages SQLite cannot read. Derived
 * rows (the code index, chunks, vectors) are not copied: re-indexing makes
 * them again. Works on a scratch copy, so the damaged file stays byte for byte
 * as it was found.
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { exists } from "../files/mod.ts";
import { corruptionDetail, isCorruption } from "./corruption.ts";
import type { Journal } from "./journal.ts";

/**
 * The tables that hold memory, parents before children (the fresh journal
 * enforces foreign keys: an anchor whose memory was lost is refused, not
 * kept dangling).
 */
export const MEMORY_TABLES = [
  "memories",
  "memory_anchors",
  "memory_shared",
  "notes",
  "note_paths",
  "tasks",
  "task_events",
  "claims",
  "acks",
] as const;

/** What was salvaged of one table. */
export interface TableSalvage {
  /** The table's name. */
  table: string;
  /** Rows copied into the fresh journal. */
  copied: number;
  /** Rowid ranges that could not be read (each `[from, to]`, inclusive). */
  unreadable: [number, number][];
  /** Rows read but refused by the fresh journal (bad values, a lost parent). */
  refused: number;
  /** Why the whole table could not be read, when it could not. */
  lost?: string;
}

/** What {@link salvageJournal} did. */
export interface SalvageReport {
  /** What had to be mended in the scratch copy's header before SQLite would read it. */
  header: string[];
  /** One entry per table of {@link MEMORY_TABLES}, in its order. */
  tables: TableSalvage[];
  /** Memory ids whose search text survived but whose row did not. */
  lostMemories: { id: string; title: string }[];
  /** Note ids (likewise). */
  lostNotes: { id: number; title: string }[];
}

const MAGIC = new TextEncoder().encode("SQLite format 3\0");

/**
 * Copies every readable memory row of the damaged SQLite file `damaged` (its
 * `-wal` too, when there is one) into `fresh`, a migrated empty journal.
 * Reads a scratch copy (`scratch`, deleted afterwards) so the damaged file is
 * never written to; mends the scratch copy's header when it is bad (magic,
 * page size, page count). Reads each table in rowid order; where a read fails
 * on a bad page, finds where readable rows resume (probing each rowid up to
 * the table's last, one B-tree seek each) and records the skipped range. Never throws for damage: a table it cannot read at all is reported
 * `lost`. Costs one pass over the memory tables plus the file copy.
 */
export function salvageJournal(damaged: string, fresh: Journal, scratch: string): SalvageReport {
  const report: SalvageReport = { header: [], tables: [], lostMemories: [], lostNotes: [] };
  Deno.copyFileSync(damaged, scratch);
  const wal = exists(`${damaged}-wal`);
  if (wal) Deno.copyFileSync(`${damaged}-wal`, `${scratch}-wal`);
  let db: DatabaseSync | undefined;
  try {
    report.header = mendHeader(scratch);
    try {
      db = new DatabaseSync(scratch);
      db.exec("PRAGMA busy_timeout = 5000");
    } catch (e) {
      for (const table of MEMORY_TABLES) {
        report.tables.push({ table, copied: 0, unreadable: [], refused: 0, lost: message(e) });
      }
      return report;
    }
    for (const table of MEMORY_TABLES) report.tables.push(salvageTable(db, fresh, table));
    report.lostMemories = lostLoose(db, fresh, "memory", "memories", "id") as {
      id: string;
      title: string;
    }[];
    report.lostNotes = lostLoose(db, fresh, "notes", "notes", "id") as {
      id: number;
      title: string;
    }[];
    return report;
  } finally {
    try {
      db?.close();
    } catch { /* a damaged file may refuse even this */ }
    for (const suffix of ["", "-wal", "-shm", "-journal"]) {
      try {
        Deno.removeSync(scratch + suffix);
      } catch { /* not there */ }
    }
  }
}

/** Copies the readable rows of one table; see {@link salvageJournal}. */
function salvageTable(db: DatabaseSync, fresh: Journal, table: string): TableSalvage {
  const result: TableSalvage = { table, copied: 0, unreadable: [], refused: 0 };
  let columns: string[];
  try {
    const have = new Set(
      (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name),
    );
    const want = fresh.all<{ name: string }>(`PRAGMA table_info("${table}")`).map((c) => c.name);
    columns = want.filter((c) => have.has(c));
    if (have.size === 0) {
      result.lost = "the damaged journal has no such table (or its schema is unreadable)";
      return result;
    }
  } catch (e) {
    result.lost = message(e);
    return result;
  }
  const list = columns.map((c) => `"${c}"`).join(", ");
  // Batches with all(), never iterate(): node:sqlite's iterate() ends quietly
  // on SQLITE_CORRUPT, which would pass a bad page off as the end of the table.
  const scan = db.prepare(
    `SELECT rowid AS __rowid, ${list} FROM "${table}" WHERE rowid >= ? ORDER BY rowid LIMIT ?`,
  );
  const insert = fresh.stmt(
    `INSERT INTO "${table}" (${list}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  /** Rows from rowid `from` on (at most `limit`), or undefined on a bad page. */
  const read = (from: number, limit: number): Record<string, SQLInputValue>[] | undefined => {
    try {
      return scan.all(from, limit) as Record<string, SQLInputValue>[];
    } catch (e) {
      if (isCorruption(e)) return undefined;
      throw e;
    }
  };
  const take = (rows: Record<string, SQLInputValue>[]): number => {
    for (const row of rows) copy(insert, columns.map((c) => row[c] ?? null), result);
    return Number(rows.at(-1)!.__rowid) + 1;
  };
  fresh.tx(() => {
    let from = Number.MIN_SAFE_INTEGER;
    for (;;) {
      const rows = read(from, BATCH);
      if (rows !== undefined) {
        if (rows.length === 0) return;
        from = take(rows);
        if (rows.length < BATCH) return;
        continue;
      }
      // Somewhere in this batch a page is bad: take its good rows one at a
      // time, then find the first rowid from which rows read again (a bad
      // page's key range is contiguous).
      let one = read(from, 1);
      while (one !== undefined && one.length > 0) {
        from = take(one);
        one = read(from, 1);
      }
      if (one !== undefined) return;
      const failAt = from;
      const resume = resumeAfter(failAt, (x) => read(x, 1) !== undefined, lastRowid(db, table));
      if (resume === undefined) {
        result.unreadable.push([failAt, Number.MAX_SAFE_INTEGER]);
        return;
      }
      result.unreadable.push([failAt, resume - 1]);
      from = resume;
    }
  });
  return result;
}

/** Rows read per query while no page is bad. */
const BATCH = 256;

/**
 * The first rowid after `failAt` from which rows read again, or undefined when
 * none does. Up to `last` (the table's highest rowid, when known) every rowid
 * is probed: leaves are not stored in rowid order, so a readable page may sit
 * between two bad ones, and a probe is one B-tree seek (~1 µs; ~2 s for a
 * million). Past a million rowids, or with `last` unknown, it doubles the
 * step until a probe succeeds and bisects back (which may jump over such an
 * island).
 */
function resumeAfter(
  failAt: number,
  readable: (from: number) => boolean,
  last: number | undefined,
): number | undefined {
  if (last !== undefined && last - failAt <= LINEAR_PROBES) {
    for (let x = failAt + 1; x <= last; x++) if (readable(x)) return x;
    return undefined;
  }
  let bad = failAt;
  let good: number | undefined;
  for (let step = 1; failAt + step <= Number.MAX_SAFE_INTEGER; step *= 2) {
    if (readable(failAt + step)) {
      good = failAt + step;
      break;
    }
    bad = failAt + step;
  }
  if (good === undefined) return undefined;
  while (good - bad > 1) {
    const mid: number = bad + Math.floor((good - bad) / 2);
    if (readable(mid)) good = mid;
    else bad = mid;
  }
  return good;
}

/** Up to this many rowids past a bad page are probed one by one. */
const LINEAR_PROBES = 1 << 20;

/**
 * The highest rowid of `table`, from the table itself or, when its rightmost
 * page is bad, from any of its full indexes (an index holds every rowid);
 * undefined when none can tell.
 */
function lastRowid(db: DatabaseSync, table: string): number | undefined {
  const tries = [`SELECT max(rowid) AS m FROM "${table}"`];
  try {
    const indexes = db.prepare(`PRAGMA index_list("${table}")`).all() as {
      name: string;
      partial: number;
    }[];
    for (const ix of indexes) {
      if (ix.partial === 0) {
        tries.push(`SELECT max(rowid) AS m FROM "${table}" INDEXED BY "${ix.name}"`);
      }
    }
  } catch { /* schema unreadable: the table's own max is all there is */ }
  let best: number | undefined;
  for (const sql of tries) {
    try {
      const m = (db.prepare(sql).get() as { m: number | null } | undefined)?.m;
      if (typeof m === "number") best = Math.max(best ?? m, m);
    } catch { /* this one is damaged too */ }
  }
  return best;
}

function copy(insert: StatementSync, row: SQLInputValue[], result: TableSalvage): void {
  try {
    insert.run(...row);
    result.copied++;
  } catch {
    // A CHECK, type or foreign-key failure: garbage that SQLite read as a row,
    // or a child whose parent was on a lost page.
    result.refused++;
  }
}

/**
 * Loose search chunks (they keep a note's or memory's title) whose row did
 * not make it into `fresh`: names what was lost. Empty when the chunks table
 * is itself unreadable.
 */
function lostLoose(
  db: DatabaseSync,
  fresh: Journal,
  source: string,
  table: string,
  key: string,
): { id: string | number; title: string }[] {
  let rows: { id: string | number; title: string }[];
  try {
    rows = db.prepare(
      "SELECT ref_id AS id, title FROM chunks WHERE source = ? AND ref_id IS NOT NULL ORDER BY id",
    ).all(source) as { id: string | number; title: string }[];
  } catch {
    return [];
  }
  const have = fresh.stmt(`SELECT 1 FROM "${table}" WHERE "${key}" = ?`);
  return rows.filter((r) => have.get(r.id) === undefined);
}

/**
 * Mends what would stop SQLite from reading the scratch copy at all: a bad
 * magic string, an impossible page size (SQLite's default, 4096, is what
 * Heimdall creates), a page count beyond the end of a truncated file, a size
 * that is not a whole number of pages. Returns what it mended.
 */
function mendHeader(file: string): string[] {
  const mended: string[] = [];
  const bytes = Deno.readFileSync(file);
  if (bytes.length < 100) return ["the file is shorter than a header: nothing to read"];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!MAGIC.every((b, i) => bytes[i] === b)) {
    bytes.set(MAGIC, 0);
    mended.push("magic string");
  }
  const raw = view.getUint16(16);
  let pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) {
    pageSize = 4096;
    view.setUint16(16, pageSize);
    mended.push("page size");
  }
  // File format, reserved bytes and payload fractions have fixed values.
  const fixed: [number, number][] = [[18, 2], [19, 2], [20, 0], [21, 64], [22, 32], [23, 32]];
  if (fixed.some(([at, v]) => bytes[at] !== v && !(at < 20 && bytes[at] === 1))) {
    for (const [at, v] of fixed) bytes[at] = v;
    mended.push("format bytes");
  }
  let out = bytes;
  if (bytes.length % pageSize !== 0) {
    out = new Uint8Array(Math.ceil(bytes.length / pageSize) * pageSize);
    out.set(bytes);
    mended.push("a partial last page");
  }
  const pages = out.length / pageSize;
  const outView = new DataView(out.buffer, out.byteOffset, out.byteLength);
  if (outView.getUint32(28) > pages) {
    outView.setUint32(28, pages);
    mended.push(`page count (${view.getUint32(28)} claimed, ${pages} present)`);
  }
  if (mended.length > 0) Deno.writeFileSync(file, out);
  return mended;
}

function message(e: unknown): string {
  return isCorruption(e) ? corruptionDetail(e) : (e as Error).message ?? String(e);
}
