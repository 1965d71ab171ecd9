/**
 * The one default embedding model, named the same by `status`, `doctor`, the
 * "semantic leg off" reason and the docs: 12 × 384 int8, multilingual,
 * about 25× cheaper per chunk than bge-m3 float32, so a 100,000-symbol tree
 * embeds in an afternoon on two cores (`docs/models.md`, Decision).
 * No imports: the search leg names it without loading the model registry.
 */
export const DEFAULT_MODEL = "multilingual-e5-small-int8";

/** What every "no model" message says to do. */
export const NO_MODEL_REASON = `no model; run heimdall model pull ${DEFAULT_MODEL}`;
