/**
 * The embedding pass: gives every chunk a vector of the active model, after
 * its symbol rows have landed, in bounded batches. It runs in the writer
 * process (the daemon between drains, `heimdall index` after its pass), so
 * its writes follow the single-writer rule.
 *
 * Order of work, each step taking one batch:
 * 1. chunks of paths the reconciler just committed (an edit's vectors follow
 *    it within one step);
 * 2. notes and memories (written by other processes, found by a cheap query);
 * 3. the backlog, root by root, most recently touched root first (the newest
 *    file modification time in it), each root in chunk order with a cursor,
 *    so a step costs one batch, never a scan of everything done.
 *
 * A path-owned chunk's text is read from disk by line range, from bytes whose
 * hash must equal the path's content hash; a file that changed since its
 * commit is skipped (its next commit replaces the chunks). Switching the
 * active model restarts the backlog: each chunk's vector is replaced in turn,
 * and once a round finds nothing to do, vectors of other models are dropped.
 */
import type { Journal } from "../store/mod.ts";
// Types only: a search, which loads this folder for its semantic leg, never loads the reconciler.
import type { Follower, Logger, Reconciler } from "../reconcile/mod.ts";
import { contentHash, decodeText } from "../files/mod.ts";
import type { EmbedderSource, TextEmbedder } from "./embedder.ts";
import { type ChunkToEmbed, embedText } from "./embed_text.ts";
import { EmbedQueue } from "./embed_queue.ts";
import type { Quant } from "./kernel.ts";
import { encodeVector } from "./quantize.ts";
import {
  adoptInstall,
  forgetOtherInstalls,
  type NewVector,
  pruneGoneLog,
  putVectors,
  setLoadFailure,
} from "./store.ts";

/** Most chunks per embedding call. */
export const EMBED_BATCH = 32;
/**
 * A step aims to take about this long: the batch size follows the encoder's
 * measured speed, so a new edit never waits long behind a background batch,
 * whatever the model's size.
 */
const STEP_TARGET_MS = 400;
/** After the encoder fails, wait this long before trying again. */
const FAILURE_BACKOFF_MS = 30_000;
/** Deletion-log entries older than this are pruned (a scan cache older than that reloads). */
const GONE_LOG_KEEP_MS = 3_600_000;

/** Progress of a bulk pass, for a progress bar. */
export interface EmbedProgress {
  /** The model being embedded for. */
  model: string;
  /** Chunks embedded so far. */
  done: number;
  /** Chunks to embed in all. */
  total: number;
  /** Milliseconds left at the rate so far, once there is a rate. */
  etaMs: number | null;
}

/** What the pass says in `status`. */
export interface EmbedPassStatus {
  /** True when a model is active and the pass runs. */
  on: boolean;
  /** The active model; null when none. */
  model: string | null;
  /** Why it is off, or the last failure. */
  reason: string | null;
  /** Chunks embedded by this process. */
  embedded: number;
  /** Chunks skipped because their file changed after its commit. */
  skipped: number;
}

/** One step's outcome. */
interface StepResult {
  embedded: number;
  skipped: number;
  /** True when this step found work (more may remain). */
  worked: boolean;
}

/**
 * See the module comment. One instance per writer process, registered with
 * its reconciler as a follower: told of every commit, and the daemon's
 * background work.
 */
export class EmbedPass implements Follower {
  /** Its name in the writer's log. */
  readonly name = "embedding";
  readonly #log: Logger;
  readonly #batch: number;
  /** The current batch size, adapted to the encoder's speed. */
  #size = 4;
  readonly #quant: Quant;
  readonly #queue: EmbedQueue;
  /** The model the queue's round is for. */
  #model: string | undefined;
  /** The install of it (fingerprint) the journal's vectors were checked against. */
  #install: string | undefined;
  /** The load failure this pass recorded in the journal (model and reason), or null. */
  #failure: { model: string; reason: string } | null = null;
  /** Models this pass loaded and cleared any recorded load failure of. */
  readonly #loaded = new Set<string>();
  /** Paths whose bytes did not match their hash, with that hash: skipped until it changes. */
  readonly #stale = new Map<number, string>();
  #backoffUntil = 0;
  #status: EmbedPassStatus = { on: false, model: null, reason: null, embedded: 0, skipped: 0 };

  /**
   * The pass over `journal`, embedding with the model `source` gives, `batch` chunks at most per
   * step.
   */
  constructor(
    readonly journal: Journal,
    readonly source: EmbedderSource,
    options: { batch?: number; quant?: Quant; log?: Logger } = {},
  ) {
    this.#log = options.log ?? { info() {}, warn() {} };
    this.#batch = options.batch ?? EMBED_BATCH;
    this.#size = Math.min(this.#size, this.#batch);
    this.#quant = options.quant ?? "i8";
    this.#queue = new EmbedQueue(journal);
  }

  /**
   * The reconciler committed these paths (their chunks are new): they go
   * first. A bulk commit (many paths) restarts the backlog round instead.
   */
  noteCommitted(pathIds: readonly number[]): void {
    this.#queue.noteCommitted(pathIds);
  }

  /** As a follower: the reconciler committed these paths (see {@link noteCommitted}). */
  committed(pathIds: readonly number[]): void {
    this.noteCommitted(pathIds);
  }

  /** What the pass is doing, for `status`. */
  status(): EmbedPassStatus {
    return { ...this.#status };
  }

  /**
   * Embeds one batch. Returns true when it did work (call again soon), false
   * when there is nothing to do, no model, or the encoder just failed (it
   * backs off; the reason is in {@link status}).
   */
  async step(): Promise<boolean> {
    return (await this.#step()).worked;
  }

  /**
   * Embeds everything missing, batch by batch, reporting progress (with an
   * ETA) after each. Returns what it did; `model` is null when there is no
   * model (then nothing was done, and `status().reason` says why).
   */
  async runAll(
    onProgress?: (p: EmbedProgress) => void,
  ): Promise<{ model: string | null; embedded: number; skipped: number; ms: number }> {
    const t0 = performance.now();
    const state = await this.source();
    if (!state.on) {
      this.#off(state.reason);
      if (state.failed !== undefined) this.#recordFailure(state.failed, state.reason);
      return { model: null, embedded: 0, skipped: 0, ms: 0 };
    }
    const model = state.embedder.model;
    this.#queue.restart();
    const total = this.pendingCount(model);
    let done = 0, embedded = 0, skipped = 0;
    for (;;) {
      const r = await this.#step();
      if (!r.worked) break;
      done += r.embedded + r.skipped;
      embedded += r.embedded;
      skipped += r.skipped;
      const elapsed = performance.now() - t0;
      const left = Math.max(0, total - done);
      onProgress?.({
        model,
        done,
        total: Math.max(total, done),
        etaMs: done > 0 ? (elapsed / done) * left : null,
      });
    }
    return { model, embedded, skipped, ms: performance.now() - t0 };
  }

  /** Chunks without a vector of `model` for their current text. */
  pendingCount(model: string): number {
    return this.#queue.pendingCount(model);
  }

  async #step(): Promise<StepResult> {
    const none: StepResult = { embedded: 0, skipped: 0, worked: false };
    if (Date.now() < this.#backoffUntil) return none;
    const state = await this.source();
    if (!state.on) {
      this.#off(state.reason);
      if (state.failed !== undefined) this.#recordFailure(state.failed, state.reason);
      return none;
    }
    const embedder = state.embedder;
    if (!this.#loaded.has(embedder.model)) {
      this.journal.tx(() => setLoadFailure(this.journal, embedder.model, null));
      this.#loaded.add(embedder.model);
      if (this.#failure?.model === embedder.model) this.#failure = null;
    }
    if (embedder.model !== this.#model) {
      if (this.#model !== undefined) {
        this.#log.info(`embedding model is now ${embedder.model}: re-embedding in the background`);
      }
      this.#model = embedder.model;
      this.#install = undefined;
      this.#queue.restart();
    }
    if (embedder.fingerprint !== undefined && embedder.fingerprint !== this.#install) {
      const fingerprint = embedder.fingerprint;
      const dropped = this.journal.tx(() =>
        adoptInstall(this.journal, embedder.model, fingerprint)
      );
      if (dropped > 0) {
        this.#log.info(
          `model ${embedder.model} was installed again with other files: dropped its ${dropped} vectors, re-embedding`,
        );
        this.#queue.restart();
      }
      this.#install = fingerprint;
    }
    this.#status = { ...this.#status, on: true, model: embedder.model, reason: null };
    const chunks = this.#queue.take(embedder.model, this.#size, (c) => this.#isStale(c));
    if (chunks.length === 0) {
      if (this.#queue.roundEnded()) this.#finishRound(embedder.model);
      return none;
    }
    return await this.#embed(embedder, chunks);
  }

  /** Reads texts, embeds them, stores the vectors in one transaction. */
  async #embed(embedder: TextEmbedder, chunks: ChunkToEmbed[]): Promise<StepResult> {
    const texts: string[] = [];
    const ready: ChunkToEmbed[] = [];
    let skipped = 0;
    const files = new Map<number, string[] | null>();
    for (const c of chunks) {
      let lines: string[] | null = [];
      if (c.path_id !== null) {
        if (!files.has(c.path_id)) files.set(c.path_id, this.#readLines(c));
        lines = files.get(c.path_id)!;
      }
      if (lines === null) {
        skipped++;
        continue;
      }
      texts.push(embedText(c, lines, c.kind === "file" ? this.#topLevel(c) : []));
      ready.push(c);
    }
    this.#status.skipped += skipped;
    if (ready.length === 0) return { embedded: 0, skipped, worked: true };
    let vectors: Float32Array[];
    const t0 = performance.now();
    try {
      vectors = await embedder.embed(texts, "passage");
      if (vectors.length !== texts.length) {
        throw new Error(`returned ${vectors.length} vectors for ${texts.length} texts`);
      }
    } catch (e) {
      const why = `embedding with ${embedder.model} failed: ${(e as Error).message}`;
      this.#log.warn(`${why}; retrying in ${FAILURE_BACKOFF_MS / 1000}s`);
      this.#status.reason = why;
      this.#backoffUntil = Date.now() + FAILURE_BACKOFF_MS;
      // The batch stays missing; a later step takes it again.
      this.#queue.restart();
      return { embedded: 0, skipped, worked: false };
    }
    const perChunk = (performance.now() - t0) / texts.length;
    this.#size = Math.max(
      1,
      Math.min(this.#batch, Math.floor(STEP_TARGET_MS / Math.max(perChunk, 0.01))),
    );
    const rows: NewVector[] = ready.map((c, i) => ({
      chunkId: c.id,
      pathId: c.path_id,
      textHash: c.text_hash,
      vector: encodeVector(vectors[i]!, this.#quant),
    }));
    const stored = this.journal.tx(() => putVectors(this.journal, embedder.model, rows));
    this.#status.embedded += stored;
    return { embedded: stored, skipped: skipped + (ready.length - stored), worked: true };
  }

  /** A path's lines, from bytes matching its content hash; null (and remembered) when they do not. */
  #readLines(c: ChunkToEmbed): string[] | null {
    let bytes: Uint8Array;
    try {
      bytes = Deno.readFileSync(c.path!);
    } catch {
      this.#stale.set(c.path_id!, c.hash ?? "");
      return null;
    }
    if (contentHash(bytes) !== c.hash) {
      this.#stale.set(c.path_id!, c.hash ?? "");
      return null;
    }
    this.#stale.delete(c.path_id!);
    return decodeText(bytes).split("\n");
  }

  /** Line ranges of a file's top-level symbols (children of its file node). */
  #topLevel(c: ChunkToEmbed): [number, number][] {
    return this.journal.all<{ s: number; e: number }>(
      `SELECT start_line AS s, coalesce(end_line, start_line) AS e FROM nodes
       WHERE path_id = ? AND parent_id = ? AND start_line IS NOT NULL ORDER BY start_line`,
      c.path_id,
      c.node_id,
    ).map((r) => [r.s, r.e]);
  }

  /** Says in the journal, once per reason, that `model` does not load (for status, doctor and search). */
  #recordFailure(model: string, reason: string): void {
    if (this.#failure?.model === model && this.#failure.reason === reason) return;
    this.journal.tx(() => setLoadFailure(this.journal, model, reason));
    this.#failure = { model, reason };
    this.#loaded.delete(model);
    this.#log.warn(reason);
  }

  #isStale(c: ChunkToEmbed): boolean {
    return c.path_id !== null && this.#stale.get(c.path_id) === (c.hash ?? "");
  }

  /**
   * A round found nothing left: drop other models' vectors, vectors whose
   * chunk is gone, and old deletion-log entries.
   */
  #finishRound(model: string): void {
    const j = this.journal;
    j.tx(() => {
      const dropped = j.run("DELETE FROM vectors WHERE embedding_model != ?", model);
      if (dropped > 0) this.#log.info(`dropped ${dropped} vectors of models other than ${model}`);
      forgetOtherInstalls(j, model);
      // A chunk deleted by a connection without foreign keys leaves its vector behind.
      const orphans = j.run(
        "DELETE FROM vectors WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = vectors.chunk_id)",
      );
      if (orphans > 0) this.#log.warn(`dropped ${orphans} vectors whose chunk was gone`);
      pruneGoneLog(j, Date.now() - GONE_LOG_KEEP_MS);
    });
  }

  /** Nothing to free: the encoder belongs to its source. Present for the daemon's BackgroundWork. */
  close(): void {}

  #off(reason: string): void {
    this.#status = { ...this.#status, on: false, reason };
  }
}

/**
 * An embedding pass for a writer: hooked to the reconciler's commits (their
 * paths go first) and ready to be the daemon's background work or to run
 * after a one-shot index.
 */
export function attachEmbedPass(
  reconciler: Reconciler,
  source: EmbedderSource,
  options: { batch?: number; quant?: Quant; log?: Logger } = {},
): EmbedPass {
  const pass = new EmbedPass(reconciler.journal, source, options);
  reconciler.follow(pass);
  return pass;
}
