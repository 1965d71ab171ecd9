/**
 * The semantic leg of search: embeds the query with the active model (query
 * kind) and ranks chunks by cosine similarity over that model's vectors only.
 * Registered with search through `setSemanticLeg(semanticLegFactory(...))`.
 */
import type { Journal } from "../store/mod.ts";
import type { LegFilter, LegHit, LegStatus, SemanticLeg } from "../search/mod.ts";
import { VectorCache } from "./cache.ts";
import type { EmbedderSource } from "./embedder.ts";
import { decodeVector, normalize } from "./quantize.ts";
import { loadFailure, type StoredVector, vectorsInstall } from "./store.ts";

/**
 * The active model as cheaply known (installed or not), without loading it;
 * `fingerprint`, when given, is which install of it is there (see
 * `TextEmbedder.fingerprint`).
 */
export type ModelStatus = () =>
  | { on: true; model: string; fingerprint?: string }
  | { on: false; reason: string };

/**
 * Why the stored vectors of `model` are not usable by its install
 * `fingerprint` (another install of the same name made them: another space),
 * or undefined when they are (or no install was recorded). What search, status
 * and doctor say while the writer embeds the chunks again.
 */
export function earlierInstall(
  j: Journal,
  model: string,
  fingerprint: string | undefined,
): string | undefined {
  if (fingerprint === undefined) return undefined;
  const made = vectorsInstall(j, model);
  if (made === undefined || made === fingerprint) return undefined;
  return `the vectors of ${model} were made by an earlier install of it; the daemon (or heimdall index) embeds the chunks again`;
}

/** Below this many allowed chunks, their vectors are read and scored directly instead of scanned. */
const DIRECT_MAX = 4096;

/**
 * A semantic leg over one journal. `status()` is off, with the reason, when no
 * model is installed or the model has no vectors yet; `search()` returns
 * chunk ids with cosine scores (higher is better), best first.
 */
export class VectorSemanticLeg implements SemanticLeg {
  readonly name = "semantic";
  readonly #cache: VectorCache;

  /** `snapshotDir`: where the scan cache keeps its snapshots (`$HEIMDALL_HOME/vectors`). */
  constructor(
    readonly journal: Journal,
    readonly source: EmbedderSource,
    readonly modelStatus: ModelStatus,
    options: { snapshotDir?: string } = {},
  ) {
    this.#cache = new VectorCache(journal, options);
  }

  status(): LegStatus {
    const s = this.modelStatus();
    if (!s.on) return s;
    const failed = loadFailure(this.journal, s.model);
    if (failed !== undefined) return { on: false, reason: failed };
    const earlier = earlierInstall(this.journal, s.model, s.fingerprint);
    if (earlier !== undefined) return { on: false, reason: earlier };
    const n = this.journal.get<{ n: number }>(
      "SELECT count(*) AS n FROM vectors WHERE embedding_model = ?",
      s.model,
    )!.n;
    if (n === 0) {
      return {
        on: false,
        reason:
          `no vectors of ${s.model} yet; the daemon (or heimdall index) embeds the indexed chunks`,
      };
    }
    return s;
  }

  async search(query: string, limit: number, filter: LegFilter): Promise<LegHit[]> {
    const state = await this.source();
    if (!state.on) return [];
    const { embedder } = state;
    // Vectors of another install of this name are not in this model's space.
    if (!this.#ownInstall(embedder.model, embedder.fingerprint)) return [];
    const [q] = await embedder.embed([query], "query");
    if (!q) return [];
    const ids = filter.chunkIds;
    if (ids && ids.size <= DIRECT_MAX) return this.#direct(embedder.model, q, limit, ids);
    const hits = await this.#cache.search(embedder.model, q, limit, ids);
    // Only chunks that still exist (the cache is as fresh as the last commit it saw).
    const live = new Set(
      this.journal.all<{ id: number }>(
        `SELECT id FROM chunks WHERE id IN (${hits.map(() => "?").join(",")})`,
        ...hits.map((h) => h.key),
      ).map((r) => r.id),
    );
    return hits.filter((h) => live.has(h.key)).map((h) => ({ chunkId: h.key, score: h.score }));
  }

  /** Load time and size of the scan cache for `model` (for doctor and benchmarks). */
  cacheStats(model: string): ReturnType<VectorCache["stats"]> {
    return this.#cache.stats(model);
  }

  /** Frees the scan cache (and its Workers). */
  close(): void {
    this.#cache.close();
  }

  /** False when `model`'s stored vectors were made by an install other than `fingerprint`. */
  #ownInstall(model: string, fingerprint: string | undefined): boolean {
    return earlierInstall(this.journal, model, fingerprint) === undefined;
  }

  /** Scores the vectors of a few chunks read straight from the journal. */
  #direct(model: string, q: Float32Array, limit: number, ids: ReadonlySet<number>): LegHit[] {
    const unit = normalize(q);
    const hits: LegHit[] = [];
    const all = [...ids];
    for (let i = 0; i < all.length; i += 500) {
      const part = all.slice(i, i + 500);
      const rows = this.journal.all<StoredVector>(
        `SELECT id, chunk_id, dims, quant, scale, data FROM vectors
         WHERE embedding_model = ? AND chunk_id IN (${part.map(() => "?").join(",")})`,
        model,
        ...part,
      );
      for (const r of rows) {
        if (r.dims !== unit.length) continue;
        const v = decodeVector({ quant: r.quant, dims: r.dims, scale: r.scale, data: r.data });
        let dot = 0;
        for (let d = 0; d < v.length; d++) dot += v[d]! * unit[d]!;
        hits.push({ chunkId: r.chunk_id, score: dot });
      }
    }
    return hits.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId).slice(0, limit);
  }
}

/**
 * A factory for `setSemanticLeg`: one leg (and one scan cache) per open
 * journal, so a long-running process (the MCP server) loads its vectors once.
 */
export function semanticLegFactory(
  source: EmbedderSource,
  modelStatus: ModelStatus,
  options: { snapshotDir?: string } = {},
): (j: Journal) => SemanticLeg {
  const legs = new WeakMap<Journal, VectorSemanticLeg>();
  return (j) => {
    let leg = legs.get(j);
    if (!leg) {
      leg = new VectorSemanticLeg(j, source, modelStatus, options);
      legs.set(j, leg);
    }
    return leg;
  };
}
