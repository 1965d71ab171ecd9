/**
 * What the vector code needs of an embedding model. The model runtime
 * (src/embed) provides it; the vector code only ever sees this shape, so it
 * can be tested with any encoder and never loads a model itself.
 */

/** An encoder of texts into vectors of one model. */
export interface TextEmbedder {
  /** The model's name: stored as `embedding_model` on every vector it makes. */
  readonly model: string;
  /** The length of its vectors. */
  readonly dims: number;
  /**
   * Which install of the model this is (a digest of its files). When it is
   * not the one the model's stored vectors were made by (the model was
   * imported again under its name with other files), those vectors are
   * dropped and made again. Absent: vectors follow the name alone.
   */
  readonly fingerprint?: string | undefined;
  /** One vector per text; `query` and `passage` may differ by the model's prefixes. */
  embed(texts: string[], kind: "query" | "passage"): Promise<Float32Array[]>;
}

/** The active model, or why there is none ("no model; run heimdall model pull multilingual-e5-small-int8"). */
export type EmbedderState =
  | { on: true; embedder: TextEmbedder }
  /** `failed`: the installed model that did not load, when that is why. */
  | { on: false; reason: string; failed?: string | undefined };

/** Resolves the active model when asked (cheap after the first call; may change between calls). */
export type EmbedderSource = () => Promise<EmbedderState>;
