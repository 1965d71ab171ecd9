/**
 * The vector store's health, for `status` and `doctor`: vectors per
 * embedding model, and a fault when the store mixes models (a model switch
 * still re-embedding, or left half done) or one model's rows disagree on
 * their dimension. Two counts and one GROUP BY: cheap at any size.
 */
import type { Journal } from "../store/mod.ts";
import { loadFailure, type ModelCount, vectorCounts } from "./store.ts";

/** What `status` and `doctor` print about vectors. */
export interface VectorStoreHealth {
  /** Vectors per model, most first. */
  models: ModelCount[];
  /** Vectors in all. */
  total: number;
  /** Chunks in the journal. */
  chunks: number;
  /** The active model, when given, and how many chunks still lack one of its vectors. */
  active: { model: string; vectors: number; missing: number } | null;
  /** Null when healthy; else what is wrong, with the count of each model. */
  fault: string | null;
}

/**
 * Counts vectors per embedding model and judges the mix. `active` is the
 * model searches use (none: no model installed); then `missing` counts the
 * chunks without its vector (an estimate: chunks minus its vectors).
 */
export function vectorStoreHealth(j: Journal, active?: string): VectorStoreHealth {
  const models = vectorCounts(j);
  const total = models.reduce((a, m) => a + m.count, 0);
  const chunks = j.get<{ n: number }>("SELECT count(*) AS n FROM chunks")!.n;
  const faults: string[] = [];
  if (models.length > 1) {
    faults.push(
      `vectors of ${models.length} models mixed: ${
        models.map((m) => `${m.model} (${m.count})`).join(", ")
      }${active ? `; the daemon re-embeds with ${active} and drops the others when done` : ""}`,
    );
  }
  for (const m of models) {
    if (m.dims.length > 1) {
      faults.push(`model ${m.model} has vectors of ${m.dims.join(" and ")} dimensions`);
    }
  }
  let activeInfo: VectorStoreHealth["active"] = null;
  if (active !== undefined) {
    const failed = loadFailure(j, active);
    if (failed !== undefined) faults.push(`the writer cannot embed: ${failed}`);
    const vectors = models.find((m) => m.model === active)?.count ?? 0;
    activeInfo = { model: active, vectors, missing: Math.max(0, chunks - vectors) };
  }
  return {
    models,
    total,
    chunks,
    active: activeInfo,
    fault: faults.length ? faults.join("; ") : null,
  };
}
