/**
 * Vectors: the embedding index behind the semantic leg of search.
 *
 * Owns the `vectors` table's queries (one vector per chunk and model, owned
 * like its chunk), int8/float32 encodings, the WASM SIMD scan kernel and its
 * exact index (behind {@link VectorIndex}, so an ANN index can replace it),
 * the in-memory scan cache, the embedding pass the writer runs after its
 * commits, the semantic leg, and the store's health for `status`/`doctor`.
 *
 * Never loads a model itself (it is handed a {@link TextEmbedder}), never
 * takes the writer lock, and writes only from the writer's process.
 */
export type { EmbedderSource, EmbedderState, TextEmbedder } from "./embedder.ts";
export { type ActiveModel, activeModel } from "./active.ts";
export { attachEmbedPass, EMBED_BATCH, EmbedPass } from "./embed_pass.ts";
export type { EmbedPassStatus, EmbedProgress } from "./embed_pass.ts";
export { embedText } from "./embed_text.ts";
export { vectorStoreHealth } from "./health.ts";
export type { VectorStoreHealth } from "./health.ts";
export {
  earlierInstall,
  type ModelStatus,
  semanticLegFactory,
  VectorSemanticLeg,
} from "./semantic_leg.ts";
export { type SyncReport, VectorCache } from "./cache.ts";
export { ExactIndex, PARALLEL_MIN, type VectorHit, type VectorIndex } from "./vector_index.ts";
export {
  decodeVector,
  type EncodedVector,
  encodeVector,
  normalize,
  quantizeI8,
} from "./quantize.ts";
export type { Quant } from "./kernel.ts";
export { type ModelCount, vectorCounts } from "./store.ts";
