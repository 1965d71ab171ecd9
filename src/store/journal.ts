import {
  DatabaseSync,
  type SQLInputValue,
  type SQLOutputValue,
  type StatementSync,
} from "node:sqlite";
import { dirname } from "../files/mod.ts";
import { MIGRATIONS } from "./schema.ts";
import { ensurePrivateDir, tightenPrivate } from "../config/private_files.ts";
import { JournalError, JournalMissingError } from "./journal_error.ts";
import { emptyHolds, recordHold, type WriteHolds, WriteIntent } from "./write_lock.ts";
import { journalFile } from "./journal_file.ts";
import {
  corruptionDetail,
  headerDamage,
  isCorruption,
  JournalCorruptError,
  knownDamage,
  markDamaged,
} from "./corruption.ts";

export { JournalError, JournalMissingError };

let busyTimeoutMs = 5000;

/**
 * Connections this isolate has open, by their file (`journalFile`): how
 * many. Closing any descriptor of a file drops every POSIX lock the process
 * holds on it, so the header check's own read of a journal already open
 * here would leave that connection with no lock on the main file; an older
 * SQLite (the sqlite3 3.40 of Debian 12, Python's `sqlite3` built on it)
 * closing the journal then takes itself for its last connection and deletes
 * the WAL and the shared memory under it: what the open connection commits
 * afterwards goes to a file nobody else reads, lost when it is not the one
 * to checkpoint last.
 */
const openHere = new Map<string, number>();

/** How much of its journal a reader maps (SQLite caps it at its build's 2 GiB maximum). */
export const READER_MAP_BYTES = 2 ** 31;

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
  /** Prepared statements of {@link rows} (they return arrays) with their column names. */
  readonly #arrayStatements = new Map<string, { stmt: StatementSync; names: string[] }>();
  /**
   * How long this journal's write transactions held the lock (every
   * {@link tx} and {@link txChunked}); benchmarks and the daemon's log read it.
   */
  readonly holds: WriteHolds = emptyHolds();
  #intent: WriteIntent | undefined;
  /** When the open write transaction began (performance.now()). */
  #began = 0;
  #steps = 0;
  #lastStep = "";
  /** Commits of chunked transactions, across calls: every few, a checkpoint runs between two. */
  #chunkedCommits = 0;
  /** The file this connection opened, counted in {@link openHere} until it closes. */
  #held: string | null = null;

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
   * write lands on a bad page. A journal this user may not write (the file,
   * its -wal or -shm, or, for a reader too, its folder when the -shm must be
   * created) throws a {@link JournalError} naming that file and the remedy.
   *
   * A reader that serves many queries (the MCP server's, the dashboard's)
   * asks for `mapped`: the journal is then mapped into its memory (SQLite's
   * `mmap_size`, up to {@link READER_MAP_BYTES}) and SQLite reads a page in
   * place, with no system call and no copy into its small page cache. On
   * the 31,000-file search benchmark that took a long-lived reader's
   * `search()` from 33 to 31 ms and FTS5's scoring from 11 to 9.6 ms. Every
   * other reader reads: a fresh mapping faults each page it touches once,
   * which cost a one-shot `heimdall search` (and the warm server, which
   * opens the journal per request) 25–30 ms more than reading, 2026-12-04.
   * A writer never maps, nor should a reader inside the indexing process
   * (the resolving Workers): every mapped page it touches counts in the
   * process's resident memory.
   */
  static open(file: string, options: { readOnly?: boolean; mapped?: boolean } = {}): Journal {
    const readOnly = options.readOnly ?? false;
    const notFile = notAFile(file);
    if (notFile !== undefined) {
      throw new JournalError(
        `Journal "${file}" is ${notFile}, not a file: move it aside (\`mv "${file}" "${file}.aside"\`) so that a journal can be made there, or set HEIMDALL_HOME to another folder`,
        file,
      );
    }
    // Not read again where it would drop the locks of a connection this process holds (see
    // openHere): one this isolate opened read it then; a Worker's process (the indexer's
    // resolving Workers) holds the journal open before it starts them.
    const open = openHere.has(journalFile(file) ?? "") || "WorkerGlobalScope" in globalThis;
    const header = open ? undefined : headerDamage(file);
    if (header !== undefined) {
      markDamaged(file, header);
      throw new JournalCorruptError(file, header);
    }
    const damage = knownDamage(file);
    if (damage !== undefined && !readOnly) throw new JournalCorruptError(file, damage);
    if (readOnly) {
      try {
        Deno.statSync(file);
      } catch (e) {
        // HEIMDALL_HOME set to a file: nothing can ever be indexed there.
        if (e instanceof Deno.errors.NotADirectory) ensurePrivateDir(dirname(file));
        throw new JournalMissingError(file);
      }
    } else {
      ensurePrivateDir(dirname(file));
      // A writer would start a fresh journal in its place, and later rebuilds
      // prune the backups that still hold its memories.
      const backup = newestBackupOfEmpty(file);
      if (backup !== undefined) {
        throw new JournalError(
          `Journal "${file}" is empty (0 bytes), and a backup of it is beside it: restore it with \`cp "${backup}" "${file}"\` (the newest), or move the backups aside to start a fresh journal`,
          file,
        );
      }
      // SQLite would open a read-only -shm or journal read-only and refuse
      // only the first write, with no word of which file.
      const blocked = [file, `${file}-wal`, `${file}-shm`].find((f) => !fileWritable(f));
      if (blocked !== undefined) {
        throw new JournalError(
          readOnlyMessage(file, false, new Error("attempt to write a readonly database")),
          file,
        );
      }
    }
    try {
      return Journal.#connect(file, readOnly, options.mapped === true, damage);
    } catch (e) {
      // Even a reader of a WAL journal must create its -shm (SQLite's
      // immutable mode, which would not, needs a URI filename, which Deno
      // allows only with every permission granted). Where the folder cannot
      // be written (a read-only disk), SQLite says only "unable to open".
      if (isReadOnlyError(e) || (readOnly && isCantOpenError(e) && !dirWritable(dirname(file)))) {
        throw new JournalError(readOnlyMessage(file, readOnly, e), file);
      }
      throw e;
    }
  }

  /** Opens the SQLite connection and migrates; see {@link open}. */
  static #connect(
    file: string,
    readOnly: boolean,
    mapped: boolean,
    damage: string | undefined,
  ): Journal {
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
    journal.#held = journalFile(file);
    if (journal.#held !== null) openHere.set(journal.#held, (openHere.get(journal.#held) ?? 0) + 1);
    try {
      statement(db, `PRAGMA busy_timeout = ${busyTimeoutMs}`);
      if (readOnly && mapped) statement(db, `PRAGMA mmap_size = ${READER_MAP_BYTES}`);
      if (!readOnly) {
        // A larger checkpoint interval: bulk indexing writes tens of MB, and each
        // checkpoint costs an fsync of both files. A 64 MiB page cache (used
        // as needed): a large index's B-trees take rows at scattered places,
        // and reading those pages back from the OS for every row cost a cold
        // index of 20,000 files several seconds of the writer's time.
        for (
          const pragma of [
            "journal_mode = WAL",
            "synchronous = NORMAL",
            "foreign_keys = ON",
            "wal_autocheckpoint = 10000",
            "cache_size = -65536",
          ]
        ) statement(db, `PRAGMA ${pragma}`);
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

  /**
   * All rows of a query, as {@link all} returns them (a column named twice
   * keeps its last value) but as plain objects of one shape. node:sqlite's
   * own rows have a null prototype, which V8 keeps as a hash table: each
   * property read is a lookup, and a search reads each of a thousand rows
   * (every unit of the files it scores) a dozen times. For hot reads of many
   * rows; the objects' prototype is `Object.prototype`.
   */
  rows<T>(sql: string, ...params: SQLInputValue[]): T[] {
    let s = this.#arrayStatements.get(sql);
    if (!s) {
      // Deno's node:sqlite has it (Node 24's API), its bundled types not yet.
      const stmt = this.db.prepare(sql) as StatementSync & { setReturnArrays(on: boolean): void };
      stmt.setReturnArrays(true);
      s = { stmt, names: stmt.columns().map((c) => c.name) };
      this.#arrayStatements.set(sql, s);
    }
    const { names } = s;
    return (s.stmt.all(...params) as unknown as SQLOutputValue[][]).map((values) => {
      const row: Record<string, SQLOutputValue> = {};
      for (let i = 0; i < names.length; i++) row[names[i]!] = values[i]!;
      return row as T;
    });
  }

  /** The first row of a query, or undefined. */
  get<T>(sql: string, ...params: SQLInputValue[]): T | undefined {
    return this.stmt(sql).get(...params) as T | undefined;
  }

  /**
   * Runs a write; returns the number of rows changed. Outside a transaction
   * the statement is its own, and waits for the lock as a {@link tx} does.
   */
  run(sql: string, ...params: SQLInputValue[]): number {
    const stmt = this.stmt(sql);
    if (this.readOnly || this.db.isTransaction) return Number(stmt.run(...params).changes);
    return this.#waitIntent().announce(() => Number(stmt.run(...params).changes));
  }

  /**
   * Runs `fn` inside one IMMEDIATE transaction: all of it commits or none of it
   * does (an exception rolls back and is rethrown). While it waits for the
   * lock it tells a bulk writer so (see `write_lock.ts`); the time it holds
   * the lock is added to {@link holds}.
   */
  tx<T>(fn: () => T): T {
    this.#begin();
    try {
      const result = fn();
      this.#commit();
      return result;
    } catch (e) {
      this.#rollback();
      throw e;
    }
  }

  /**
   * Runs a long piece of work as a series of short write transactions, so
   * that other writers never wait out their busy timeout behind it. Each
   * value `steps` yields marks a point where committing leaves the journal
   * consistent; there, once the transaction has held the lock for `maxMs`,
   * it is committed (`beforeCommit` first, to flush what was batched), other
   * waiting writers get their turn, and so does this thread's event loop
   * (a Worker's reply, a timer: a batch's commit of a second or more would
   * otherwise keep the parse Workers from being sent their next files), and
   * a new one begins. A throw rolls back
   * only the open transaction: the caller's work must converge when re-run
   * after any committed prefix (a crash between two transactions is the same).
   */
  async txChunked(
    steps: Iterable<unknown>,
    options: { maxMs?: number; beforeCommit?: () => void } = {},
  ): Promise<void> {
    const maxMs = options.maxMs ?? 100;
    const it = steps[Symbol.iterator]();
    // SQLite's automatic checkpoint runs inside COMMIT: it would count as
    // holding the lock, and stall this writer's commits at random. Here it
    // runs between two transactions instead, every few commits (counted
    // across calls: a bulk writer makes many short ones, and a WAL left to
    // grow would be copied back whole inside the next small transaction's
    // COMMIT).
    const autoPages = this.#pragma("wal_autocheckpoint");
    if (autoPages > 0) statement(this.db, "PRAGMA wal_autocheckpoint = 0");
    const commit = () => {
      options.beforeCommit?.();
      this.#commit();
      if (autoPages > 0 && ++this.#chunkedCommits % CHECKPOINT_EVERY === 0) this.#checkpoint();
    };
    this.#begin();
    let probed = this.#began;
    try {
      for (;;) {
        const t = performance.now();
        const step = it.next();
        if (step.done) break;
        const now = performance.now();
        if (now - t > this.holds.maxStepMs) {
          this.holds.maxStepMs = now - t;
          this.holds.maxStep = String(step.value);
        }
        this.#steps++;
        this.#lastStep = String(step.value);
        // Within its budget the transaction goes on, unless another writer
        // waits: then it commits at this consistent point, so the waiter
        // waits one step, not the rest of the budget (probed every few ms).
        if (now - this.#began < maxMs) {
          if (now - probed < WAIT_PROBE_MS) continue;
          probed = now;
          if (!this.#waitIntent().waiting()) continue;
          this.holds.early++;
        }
        commit();
        await this.yieldToWriters();
        await nextTask();
        this.#begin();
        probed = this.#began;
      }
      commit();
    } catch (e) {
      this.#rollback();
      it.return?.();
      throw e;
    } finally {
      if (autoPages > 0) statement(this.db, `PRAGMA wal_autocheckpoint = ${autoPages}`);
    }
  }

  /** A passive checkpoint (never waits for readers or writers), timed into {@link holds}. */
  #checkpoint(): void {
    const t = performance.now();
    statement(this.db, "PRAGMA wal_checkpoint(PASSIVE)");
    this.holds.checkpoints++;
    this.holds.checkpointMs += performance.now() - t;
  }

  #pragma(name: string): number {
    const row = this.db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown> | undefined;
    return Number(row ? Object.values(row)[0] : 0);
  }

  /**
   * Between two write transactions of a bulk writer: if another writer waits
   * for the lock, lets it take the lock first (at most `maxMs`).
   */
  async yieldToWriters(maxMs = 250): Promise<void> {
    if (this.readOnly) return;
    const ms = await this.#waitIntent().yieldToWaiters(maxMs);
    if (ms > 0) {
      this.holds.yields++;
      this.holds.yieldMs += ms;
    }
  }

  #waitIntent(): WriteIntent {
    return this.#intent ??= new WriteIntent(`${this.file}-wait`);
  }

  #begin(): void {
    if (this.readOnly) this.stmt("BEGIN IMMEDIATE").run();
    else this.#waitIntent().announce(() => this.stmt("BEGIN IMMEDIATE").run());
    this.#began = performance.now();
    this.#steps = 0;
    this.#lastStep = "";
  }

  /** The open transaction's steps so far and the last of them, for {@link holds}. */
  #what(): string {
    return this.#steps === 0
      ? ""
      : `${this.#steps} ${this.#steps === 1 ? "step" : "steps"}, last ${this.#lastStep}`;
  }

  #commit(): void {
    const t = performance.now();
    this.stmt("COMMIT").run();
    this.holds.maxCommitMs = Math.max(this.holds.maxCommitMs, performance.now() - t);
    recordHold(this.holds, performance.now() - this.#began, this.#what());
  }

  #rollback(): void {
    // SQLite may have rolled back already (a full disk, an I/O error): a
    // second ROLLBACK would hide the error that matters behind its own.
    if (this.db.isTransaction) {
      this.stmt("ROLLBACK").run();
      recordHold(this.holds, performance.now() - this.#began, this.#what());
    }
  }

  /** Current schema version (`PRAGMA user_version`). */
  version(): number {
    return (this.db.prepare("PRAGMA user_version").get() as { user_version: number })
      .user_version;
  }

  /** Closes the database; the journal cannot be used afterwards. */
  close(): void {
    this.#intent?.close();
    this.#statements.clear();
    this.#arrayStatements.clear();
    if (this.#held !== null) {
      const n = (openHere.get(this.#held) ?? 1) - 1;
      if (n > 0) openHere.set(this.#held, n);
      else openHere.delete(this.#held);
      this.#held = null;
    }
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
    if (
      this.readOnly && have === 0 && fileSize(this.file) === 0 && fileSize(`${this.file}-wal`) === 0
    ) {
      throw new JournalError(
        `Journal "${this.file}" is empty (0 bytes): whatever it held is gone; restore the newest backup beside it (journal.db.*.backup, made by \`heimdall rebuild\`) if there is one, else any writing command starts a fresh journal`,
        this.file,
      );
    }
    if (this.readOnly) {
      throw new JournalError(
        `Journal "${this.file}" is at schema version ${have} and needs migrating to ${MIGRATIONS.length}; run any writing command (heimdall reconcile) once`,
        this.file,
      );
    }
    for (let v = have; v < MIGRATIONS.length; v++) {
      this.tx(() => {
        this.db.exec(MIGRATIONS[v]!);
        statement(this.db, `PRAGMA user_version = ${v + 1}`);
      });
    }
  }
}

/** True for SQLite's SQLITE_READONLY (8) and its extended codes (CANTINIT: no -shm could be made). */
function isReadOnlyError(e: unknown): boolean {
  return sqliteCode(e) === 8;
}

/** SQLITE_CANTOPEN: a file SQLite needed could be neither opened nor made. */
function isCantOpenError(e: unknown): boolean {
  return sqliteCode(e) === 14;
}

/** The primary result code of a SQLite error (its low byte), if it is one. */
function sqliteCode(e: unknown): number | undefined {
  const code = (e as { errcode?: unknown } | null)?.errcode;
  return typeof code === "number" ? code & 0xff : undefined;
}

/**
 * What SQLite refused to write, for a person: the first of the journal's
 * folder, the journal, its -wal and its -shm that this user may not write
 * (a -shm left 0400 by a journal that was read-only stays so after the
 * journal is made writable again; a reader, too, must create the -shm in
 * the folder), and the remedy.
 */
function readOnlyMessage(file: string, readOnly: boolean, e: unknown): string {
  const dir = dirname(file);
  const blocked = [dir, file, `${file}-wal`, `${file}-shm`].find((p) =>
    p === dir ? !dirWritable(dir) : !fileWritable(p)
  );
  const what = blocked === undefined
    ? `it or its folder "${dir}" is read-only`
    : blocked === dir
    ? `its folder "${dir}" is read-only (SQLite must create "${file}-wal" and "${file}-shm" there)`
    : `"${blocked}" is read-only`;
  const remedy = `make it writable by its owner (chmod u+w "${blocked ?? dir}")`;
  return `Cannot ${readOnly ? "read" : "write"} journal "${file}": ${what} (${
    (e as Error).message
  }); ${remedy}${otherRemedy(file, readOnly, blocked === dir)}`;
}

/**
 * The remedy besides making the journal writable: a writer's user may read
 * instead; a reader kept out by the folder may read a journal that has its
 * -wal and -shm already (SQLite opens them read-only, since 3.22), where the
 * journal is kept read-only on purpose (a read-only disk, a shared copy).
 */
function otherRemedy(file: string, readOnly: boolean, folder: boolean): string {
  if (!readOnly) return ", or use only reading commands (search, status, export)";
  if (!folder) return "";
  return `, or, for a journal kept where it cannot be written (a read-only disk, a shared copy), create its -wal and -shm beside it while it can be (touch "${file}-wal" "${file}-shm"): SQLite then reads it without writing`;
}

/**
 * False when `path` exists and its owner, this user, may not write it (by
 * its mode: opening it would drop the POSIX locks this process holds there).
 * Files of another user, or root's, are left to SQLite.
 */
function fileWritable(path: string): boolean {
  try {
    const st = Deno.statSync(path);
    return Deno.uid() === 0 || st.uid !== Deno.uid() || ((st.mode ?? 0o200) & 0o200) !== 0;
  } catch {
    return true;
  }
}

/**
 * The newest of `heimdall rebuild`'s backups beside `file` (`journal.db.<time>.backup`)
 * when `file` is there but empty (0 bytes, no WAL); otherwise undefined.
 */
function newestBackupOfEmpty(file: string): string | undefined {
  try {
    if (Deno.statSync(file).size !== 0 || fileSize(`${file}-wal`) !== 0) return undefined;
  } catch {
    return undefined; // no journal yet: a fresh one is what is asked for
  }
  const name = file.slice(file.lastIndexOf("/") + 1);
  const backup = new RegExp(
    `^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.\\d{8}T\\d{6}Z\\.backup$`,
  );
  let newest: string | undefined;
  for (const e of Deno.readDirSync(dirname(file))) {
    if (e.isFile && backup.test(e.name) && (newest === undefined || e.name > newest)) {
      newest = e.name;
    }
  }
  return newest === undefined ? undefined : `${dirname(file)}/${newest}`;
}

/**
 * The schema version of the journal at `file` and the one this build
 * migrates it to, when it is behind (written by an older Heimdall, not yet
 * migrated); undefined when it is current, newer, missing, empty or not a
 * readable database (opening it says why). Reads one pragma on a
 * connection of its own, never the file's bytes (see `openHere`).
 */
export function schemaBehind(file: string): { have: number; want: number } | undefined {
  if (fileSize(file) === 0 || notAFile(file) !== undefined) return undefined;
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    const have = (db.prepare("PRAGMA user_version").get() as { user_version: number })
      .user_version;
    return have > 0 && have < MIGRATIONS.length ? { have, want: MIGRATIONS.length } : undefined;
  } catch {
    return undefined;
  } finally {
    db?.close();
  }
}

function fileSize(path: string): number {
  try {
    return Deno.statSync(path).size;
  } catch {
    return 0;
  }
}

/** False when no file can be created in `dir` (a read-only folder or file system). */
function dirWritable(dir: string): boolean {
  try {
    Deno.removeSync(Deno.makeTempFileSync({ dir, prefix: ".heimdall-probe-" }));
    return true;
  } catch (e) {
    return !(e instanceof Deno.errors.PermissionDenied ||
      (e as { code?: unknown }).code === "EROFS");
  }
}

/**
 * Resolves once the event loop has run the tasks already due (a Worker's
 * message among them). Unlike `setTimeout(…, 0)`, which a chain of them
 * clamps to about 2–4 ms, it takes a tenth of a millisecond.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      port2.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

/**
 * Runs one SQL statement through a prepared statement rather than `exec()`:
 * node:sqlite's `exec()` throws without SQLite's result code, and a full
 * disk, a busy lock or a read-only file met by a COMMIT or a PRAGMA must be
 * told apart from a bug by that code (`errcode`).
 */
function statement(db: DatabaseSync, sql: string): void {
  db.prepare(sql).run();
}

/** Chunked commits between two checkpoints (about a second of bulk writing). */
const CHECKPOINT_EVERY = 10;
/** How often a chunked write looks whether another writer waits for the lock, in ms. */
const WAIT_PROBE_MS = 5;

/** What stands at `file` when it is there but no regular file (a folder, a pipe, a device); else undefined. */
function notAFile(file: string): string | undefined {
  let st: Deno.FileInfo;
  try {
    st = Deno.statSync(file);
  } catch {
    return undefined; // missing (made, or reported, below) or unreadable (said where it is read)
  }
  if (st.isFile) return undefined;
  return st.isDirectory ? "a folder" : "not a regular file (a named pipe, a socket or a device)";
}
