import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { dirname } from "node:path";
import { MIGRATIONS } from "./schema.ts";
import { ensurePrivateDir, tightenPrivate } from "../config/private_files.ts";
import { JournalError } from "./journal_error.ts";
import {
  corruptionDetail,
  headerDamage,
  isCorruption,
  JournalCorruptError,
  knownDamage,
  markDamaged,
} from "./corruption.ts";

export { JournalError };

let busyTimeoutMs = 5000;

/**
 * How long every journal this process opens from now on waits for another
 * process's lock before a statement fails with SQLITE_BUSY (default 5 s).
 * SQLite waits synchronously, blocking the event loop: a hook lowers it so
 * no wait outlasts its budget. Journals already open keep theirs.
 */
export function setBusyTimeout(ms: number): void {
  busyTimeoutMs = Math.max(0, Math.round(ms));
}

/**
 * An open journal. Statements are prepared once and cached by their SQL text.
 * Readers open with `readOnly` and never take the writer lock; SQLite's WAL lets
 * them read while the one writer commits.
 */
export class Journal {
  readonly #statements = new Map<string, StatementSync>();

  private constructor(
    readonly db: DatabaseSync,
    readonly file: string,
    readonly readOnly: boolean,
    /**
     * Set when the journal is known to be damaged (a reader may still open it):
     * what was found. Whoever answers from this journal must say so.
     */
    readonly damage: string | undefined,
  ) {}

  /**
   * Opens (creating if needed, unless read-only) and migrates the journal.
   * Throws {@link JournalError} for a journal newer than this build or one that
   * does not exist when opened read-only, and {@link JournalCorruptError} (and
   * marks the journal damaged) when its header is bad, it is truncated, or
   * SQLite finds it malformed while opening. A journal already known to be
   * damaged opens read-only with `damage` set; a writer is refused, so that no
   * write lands on a bad page.
   */
  static open(file: string, options: { readOnly?: boolean } = {}): Journal {
    const readOnly = options.readOnly ?? false;
    const header = headerDamage(file);
    if (header !== undefined) {
      markDamaged(file, header);
      throw new JournalCorruptError(file, header);
    }
    const damage = knownDamage(file);
    if (damage !== undefined && !readOnly) throw new JournalCorruptError(file, damage);
    if (readOnly) {
      try {
        Deno.statSync(file);
      } catch {
        throw new JournalError(
          `No journal at "${file}": nothing is indexed yet; run \`heimdall index DIR\``,
          file,
        );
      }
    } else {
      ensurePrivateDir(dirname(file));
    }
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(file, { readOnly, timeout: busyTimeoutMs });
    } catch (e) {
      throw new JournalError(
        `Cannot open journal "${file}": ${
          (e as Error).message
        }; check the file's permissions or move it aside`,
        file,
      );
    }
    // Before SQLite creates the WAL and shared-memory files: it gives them the journal's own mode.
    for (const f of [file, `${file}-wal`, `${file}-shm`]) tightenPrivate(f);
    const journal = new Journal(db, file, readOnly, damage);
    try {
      db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
      if (!readOnly) {
        // A larger checkpoint interval: bulk indexing writes tens of MB, and each
        // checkpoint costs an fsync of both files.
        db.exec(
          "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = 10000",
        );
      }
      journal.#migrate();
    } catch (e) {
      journal.close();
      if (!isCorruption(e)) throw e;
      const detail = corruptionDetail(e);
      markDamaged(file, detail);
      throw new JournalCorruptError(file, detail);
    }
    return journal;
  }

  /** Cached prepared statement for `sql`. */
  stmt(sql: string): StatementSync {
    let s = this.#statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.#statements.set(sql, s);
    }
    return s;
  }

  /** All rows of a query, typed by the caller. */
  all<T>(sql: string, ...params: SQLInputValue[]): T[] {
    return this.stmt(sql).all(...params) as T[];
  }

  /** The first row of a query, or undefined. */
  get<T>(sql: string, ...params: SQLInputValue[]): T | undefined {
    return this.stmt(sql).get(...params) as T | undefined;
  }

  /** Runs a write; returns the number of rows changed. */
  run(sql: string, ...params: SQLInputValue[]): number {
    return Number(this.stmt(sql).run(...params).changes);
  }

  /**
   * Runs `fn` inside one IMMEDIATE transaction: all of it commits or none of it
   * does (an exception rolls back and is rethrown).
   */
  tx<T>(fn: () => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const result = fn();
      this.db.exec("COMMIT");
      return result;
    } catch (e) {
      this.db.exec("ROLLBACK");
      throw e;
    }
  }

  /** Current schema version (`PRAGMA user_version`). */
  version(): number {
    return (this.db.prepare("PRAGMA user_version").get() as { user_version: number })
      .user_version;
  }

  close(): void {
    this.#statements.clear();
    this.db.close();
  }

  #migrate(): void {
    const have = this.version();
    if (have > MIGRATIONS.length) {
      throw new JournalError(
        `Journal "${this.file}" has schema version ${have}, newer than this build knows (${MIGRATIONS.length}); upgrade heimdall`,
        this.file,
      );
    }
    if (have === MIGRATIONS.length) return;
    if (this.readOnly) {
      throw new JournalError(
        `Journal "${this.file}" is at schema version ${have} and needs migrating to ${MIGRATIONS.length}; run any writing command (heimdall reconcile) once`,
        this.file,
      );
    }
    for (let v = have; v < MIGRATIONS.length; v++) {
      this.tx(() => {
        this.db.exec(MIGRATIONS[v]!);
        this.db.exec(`PRAGMA user_version = ${v + 1}`);
      });
    }
  }
}
