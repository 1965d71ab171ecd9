/**
 * The in-memory scan cache: per embedding model, every vector packed into one
 * {@link ExactIndex}, kept equal to the journal without re-reading it. Before
 * each search the cache compares the journal's version (`PRAGMA
 * data_version` and this connection's change count); when it moved, it
 * removes what the deletion log lists and appends the rows with higher ids.
 *
 * A first load reads the model's snapshot file when there is a valid one
 * (one sequential read) and catches up from the journal; otherwise it reads
 * every row, then writes a snapshot for the next process. A sync rewrites
 * the snapshot when much has changed since (see {@link SNAPSHOT_CHANGES}).
 */
import { type Journal, journalVersion } from "../store/mod.ts";
import { ScanPool } from "./scan_pool.ts";
import { journalIdentity, loadSnapshot, saveSnapshot, snapshotFile } from "./snapshot.ts";
import { goneLogPosition, iterateVectors, type StoredVector, vectorsGoneSince } from "./store.ts";
import { ExactIndex, type VectorHit } from "./vector_index.ts";

/** Changes since the snapshot (added + removed) that make the cache write a new one: this many, or 5% of the vectors. */
export const SNAPSHOT_CHANGES = 10_000;

/** What one sync did. */
export interface SyncReport {
  /** The model synced. */
  model: string;
  /** How the cache was built: already loaded, from a snapshot, or by reading every row. */
  from: "cache" | "snapshot" | "journal";
  /** Vectors added to the index by this sync. */
  added: number;
  /** Vectors removed from the index by this sync. */
  removed: number;
  /** Rows skipped because their dimension or encoding differs from the model's first row. */
  mismatched: number;
  /** How long the sync took, in ms. */
  ms: number;
  /** Present when the sync wrote a new snapshot: how long that took. */
  snapshotMs?: number;
}

interface Entry {
  index: ExactIndex | undefined;
  version: string;
  maxId: number;
  goneSeq: number;
  mismatched: number;
  /** Rows added or removed since the snapshot file was last written or read. */
  sinceSnapshot: number;
  /** True when no snapshot file matches this entry. */
  snapshotStale: boolean;
  lastLoad: SyncReport;
}

/** A cache of packed vectors per model over one open journal. */
export class VectorCache {
  readonly #entries = new Map<string, Entry>();
  readonly #pool: ScanPool;
  readonly #snapshotDir: string | undefined;
  /** Syncs, searches and snapshot writes run one at a time. */
  #queue: Promise<unknown> = Promise.resolve();

  /**
   * A cache over `journal`; scans run on `pool`'s Workers once an index is large, and snapshots are
   * kept in `snapshotDir` when given.
   */
  constructor(
    readonly journal: Journal,
    options: { pool?: ScanPool; snapshotDir?: string } = {},
  ) {
    // Workers start only when an index grows past PARALLEL_MIN.
    this.#pool = options.pool ?? new ScanPool();
    this.#snapshotDir = options.snapshotDir;
  }

  /**
   * Brings `model`'s index up to date with the journal. Cheap when nothing
   * changed (two pragmas); otherwise costs the rows that changed, or a
   * first load.
   */
  sync(model: string): Promise<SyncReport> {
    return this.#serial(() => this.#sync(model));
  }

  /**
   * The `k` vectors of `model` nearest to `query` (cosine), after a sync;
   * `key` is the chunk id. Empty when the model has no vectors. `chunkIds`
   * restricts the answer to those chunks.
   */
  search(
    model: string,
    query: ArrayLike<number>,
    k: number,
    chunkIds?: ReadonlySet<number>,
  ): Promise<VectorHit[]> {
    return this.#serial(async () => {
      await this.#sync(model);
      const e = this.#entries.get(model);
      const index = e?.index;
      if (!e || !index || index.size === 0) return [];
      return await index.search(query, k, chunkIds ? { keys: chunkIds } : {});
    });
  }

  /** What the cache holds for `model`: live vectors, bytes, and its last first load. */
  stats(model: string): { vectors: number; bytes: number; lastLoad: SyncReport | undefined } {
    const e = this.#entries.get(model);
    return { vectors: e?.index?.size ?? 0, bytes: e?.index?.bytes ?? 0, lastLoad: e?.lastLoad };
  }

  /** Frees every index and ends the scan Workers. */
  close(): void {
    for (const e of this.#entries.values()) e.index?.close();
    this.#entries.clear();
    this.#pool.close();
  }

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn);
    this.#queue = run.catch(() => {});
    return run;
  }

  async #sync(model: string): Promise<SyncReport> {
    const t0 = performance.now();
    const j = this.journal;
    const version = journalVersion(j);
    let e = this.#entries.get(model);
    if (e && e.version === version) {
      return { model, from: "cache", added: 0, removed: 0, mismatched: e.mismatched, ms: 0 };
    }
    let from: SyncReport["from"] = "cache";
    let removed = 0;
    if (e) {
      const gone = vectorsGoneSince(j, model, e.goneSeq);
      if (!gone.complete) {
        e.index?.close();
        this.#entries.delete(model);
        e = undefined;
      } else {
        for (const id of gone.ids) if (e.index?.remove(id)) removed++;
        e.goneSeq = gone.last;
      }
    }
    if (!e) {
      e = await this.#fromSnapshot(model, version);
      if (e) {
        from = "snapshot";
        removed = e.sinceSnapshot;
      } else {
        from = "journal";
        // The log position first: a deletion during the load is replayed next time.
        e = this.#empty(model, version, goneLogPosition(j));
      }
      this.#entries.set(model, e);
    }
    let added = 0;
    for (const row of iterateVectors(j, model, e.maxId)) {
      e.maxId = row.id;
      e.index ??= new ExactIndex(row.quant, row.dims, { pool: this.#pool });
      if (!fits(e.index, row)) {
        e.mismatched++;
        continue;
      }
      e.index.add(
        row.id,
        { quant: row.quant, dims: row.dims, scale: row.scale, data: row.data },
        row.chunk_id,
      );
      added++;
    }
    e.version = version;
    e.sinceSnapshot += added + (from === "snapshot" ? 0 : removed);
    const ms = performance.now() - t0;
    const t1 = performance.now();
    const saved = e.index ? await this.#maybeSnapshot(model, e, e.index) : false;
    const report: SyncReport = { model, from, added, removed, mismatched: e.mismatched, ms };
    if (saved) report.snapshotMs = performance.now() - t1;
    if (from !== "cache") e.lastLoad = report;
    return report;
  }

  #empty(model: string, version: string, goneSeq: number): Entry {
    return {
      index: undefined,
      version,
      maxId: 0,
      goneSeq,
      mismatched: 0,
      sinceSnapshot: 0,
      snapshotStale: true,
      lastLoad: { model, from: "journal", added: 0, removed: 0, mismatched: 0, ms: 0 },
    };
  }

  /**
   * The entry a valid snapshot gives, caught up with the deletion log (rows
   * added since are read by the caller); undefined when there is none, or it
   * is for another journal, or the log was pruned past it, or a sample of
   * its ids does not match the journal's rows.
   */
  async #fromSnapshot(model: string, version: string): Promise<Entry | undefined> {
    if (this.#snapshotDir === undefined) return undefined;
    const j = this.journal;
    const snap = await loadSnapshot(
      snapshotFile(this.#snapshotDir, model),
      { model, journal: journalIdentity(j) },
      { pool: this.#pool },
    );
    if (!snap) return undefined;
    const { index, meta } = snap;
    const sequence = j.get<{ seq: number }>(
      "SELECT seq FROM sqlite_sequence WHERE name = 'vectors'",
    )?.seq ?? 0;
    const gone = vectorsGoneSince(j, model, meta.goneSeq);
    const sample = index.sample(32);
    const rows = new Map(
      j.all<{ id: number; chunk_id: number }>(
        `SELECT id, chunk_id FROM vectors WHERE id IN (${sample.map(() => "?").join(",")})`,
        ...sample.map((s) => s.id),
      ).map((r) => [r.id, r.chunk_id]),
    );
    const matches = sample.every((s) => !rows.has(s.id) || rows.get(s.id) === s.key);
    if (!gone.complete || sequence < meta.maxId || !matches) {
      index.close();
      return undefined;
    }
    let removed = 0;
    for (const id of gone.ids) if (index.remove(id)) removed++;
    return {
      index,
      version,
      maxId: meta.maxId,
      goneSeq: gone.last,
      mismatched: 0,
      sinceSnapshot: removed,
      snapshotStale: false,
      lastLoad: { model, from: "snapshot", added: 0, removed, mismatched: 0, ms: 0 },
    };
  }

  /**
   * Writes a new snapshot after a full read, or once enough changed since
   * the last one; true when it wrote one.
   */
  async #maybeSnapshot(model: string, e: Entry, index: ExactIndex): Promise<boolean> {
    if (this.#snapshotDir === undefined) return false;
    const due = e.snapshotStale ||
      e.sinceSnapshot >= Math.max(SNAPSHOT_CHANGES, Math.ceil(index.size * 0.05));
    if (!due) return false;
    try {
      await index.exclusive(() =>
        saveSnapshot(snapshotFile(this.#snapshotDir!, model), index, {
          model,
          maxId: e.maxId,
          goneSeq: e.goneSeq,
          journal: journalIdentity(this.journal),
        })
      );
      e.sinceSnapshot = 0;
      e.snapshotStale = false;
      return true;
    } catch {
      // A snapshot is only a cache: a read-only or full home costs the next
      // process a full read, nothing more. Try again after as many changes.
      e.sinceSnapshot = 0;
      e.snapshotStale = false;
      return false;
    }
  }
}

function fits(index: ExactIndex, row: StoredVector): boolean {
  const bytes = row.quant === "i8" ? row.dims : row.dims * 4;
  return row.quant === index.quant && row.dims === index.dims && row.data.byteLength === bytes;
}
