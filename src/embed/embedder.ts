/**
 * The embedder: texts in, unit vectors out, for one installed model.
 *
 *     const e = await Embedder.open(dir, { libDir });
 *     const [q] = await e.embed(["retry with backoff"], "query");
 *
 * Each text gets the model's query or passage prefix, is tokenized and cut
 * to `maxTokens` (special tokens included), and texts of similar length are
 * batched together so padding stays small; the graph runs on the native
 * backend when it loads, else on WASM (see `runtime.ts`); token vectors are
 * pooled (CLS or mean over real tokens, per the manifest) and L2-normalised.
 * A graph whose output is already one vector per text (`[batch, dim]`) is
 * only normalised. Results come back in input order.
 */
import { EnvironmentError } from "../errors/mod.ts";
import { join } from "../files/mod.ts";
import { fileWithRole, modelFingerprint, type ModelManifest, parseManifest } from "./manifest.ts";
import { normalizeL2, pool, rows } from "./pool.ts";
import {
  type BackendName,
  type Int64Input,
  openSession,
  type RuntimeOptions,
  type Session,
} from "./runtime.ts";
import { installCommand } from "./registry.ts";
import { Tokenizer } from "./tokenizer.ts";

/** Which side of a search a text is on: models like e5 and bge prefix them differently. */
export type EmbedKind = "query" | "passage";

/** How to open an embedder. */
export interface EmbedderOptions extends RuntimeOptions {
  /** Truncation, special tokens included; default the manifest's `maxTokens`. */
  maxTokens?: number;
  /** Most token slots (rows × padded length) per graph run; default 8192. */
  batchTokens?: number;
  /** Most texts per graph run; default 32. */
  maxBatch?: number;
}

/** The model folder or its files cannot be used; the message names the file and the remedy. */
export class ModelLoadError extends EnvironmentError {
  /** The model could not be loaded, as `message` says (naming the file and the remedy). */
  constructor(message: string) {
    super(message);
    this.name = "ModelLoadError";
  }
}

const FEEDABLE = ["input_ids", "attention_mask", "token_type_ids", "position_ids"];

/** A loaded model. Methods may be called concurrently; graph runs are serialised. */
export class Embedder {
  /** The model's manifest. */
  readonly manifest: ModelManifest;
  /** The model's own tokenizer. */
  readonly tokenizer: Tokenizer;
  /** Texts are cut to this many tokens, special tokens included. */
  readonly maxTokens: number;
  readonly #session: Session;
  readonly #output: string;
  readonly #batchTokens: number;
  readonly #maxBatch: number;

  private constructor(
    manifest: ModelManifest,
    tokenizer: Tokenizer,
    session: Session,
    output: string,
    options: EmbedderOptions,
  ) {
    this.manifest = manifest;
    this.tokenizer = tokenizer;
    this.#session = session;
    this.#output = output;
    this.maxTokens = options.maxTokens ?? manifest.maxTokens;
    this.#batchTokens = options.batchTokens ?? 8192;
    this.#maxBatch = options.maxBatch ?? 32;
  }

  /** The model's name, as in its manifest. */
  get name(): string {
    return this.manifest.name;
  }
  /** The same as {@link name}: what the vector store records as `embedding_model`. */
  get model(): string {
    return this.manifest.name;
  }
  /**
   * Which install of the model this is ({@link modelFingerprint}): a model
   * imported again under its name with other files has another.
   */
  get fingerprint(): string {
    return modelFingerprint(this.manifest);
  }
  /** Width of every vector {@link embed} returns. */
  get dims(): number {
    return this.manifest.dims;
  }
  /** `native` (onnxruntime-node) or `wasm` (onnxruntime-web). */
  get backend(): BackendName {
    return this.#session.backend;
  }
  /** Intra-op threads the backend was set up with. */
  get threads(): number {
    return this.#session.threads;
  }
  /** Runtime, version and how it was loaded, for `doctor`. */
  get backendDetail(): string {
    return this.#session.detail;
  }
  /** Why the native backend is not the one running (null when it is, or was not tried). */
  get fallbackReason(): string | null {
    return this.#session.fallback;
  }

  /**
   * Loads the model in `dir` (its `manifest.json` and the files it lists).
   * Throws {@link ModelLoadError} for a missing or unusable file, and the
   * runtime's error when the graph does not load.
   */
  static async open(dir: string, options: EmbedderOptions): Promise<Embedder> {
    const manifestPath = join(dir, "manifest.json");
    let raw: unknown;
    try {
      raw = JSON.parse(await Deno.readTextFile(manifestPath));
    } catch (e) {
      throw new ModelLoadError(
        `Cannot read model manifest "${manifestPath}": ${
          (e as Error).message
        }; reinstall with heimdall model pull or import`,
      );
    }
    return await Embedder.load(dir, parseManifest(raw, `"${manifestPath}"`), options);
  }

  /**
   * Loads the model whose files are in `dir` as `manifest` describes them
   * (`dir` need not hold a `manifest.json`: an install checks a model before
   * writing it). Throws as {@link open}.
   */
  static async load(
    dir: string,
    manifest: ModelManifest,
    options: EmbedderOptions,
  ): Promise<Embedder> {
    const path = (role: "model" | "weights" | "tokenizer") => {
      const f = fileWithRole(manifest, role);
      return f ? join(dir, f.name) : undefined;
    };
    for (const f of manifest.files) {
      try {
        await Deno.stat(join(dir, f.name));
      } catch {
        throw new ModelLoadError(
          `Model "${manifest.name}" is missing "${join(dir, f.name)}"; install it again: ${
            installCommand(manifest.name)
          }`,
        );
      }
    }
    const tokenizer = await Tokenizer.load(path("tokenizer")!);
    const weights = path("weights");
    const session = await openSession(
      { graph: path("model")!, ...(weights ? { weights } : {}) },
      options,
    );
    try {
      const unknown = session.inputNames.filter((n) => !FEEDABLE.includes(n));
      if (unknown.length > 0 || !session.inputNames.includes("input_ids")) {
        throw new ModelLoadError(
          `Model "${manifest.name}" takes inputs [${
            session.inputNames.join(", ")
          }]; Heimdall feeds ${FEEDABLE.join(", ")} and needs input_ids`,
        );
      }
      const output = manifest.output ??
        (session.outputNames.includes("last_hidden_state")
          ? "last_hidden_state"
          : session.outputNames[0]);
      if (output === undefined || !session.outputNames.includes(output)) {
        throw new ModelLoadError(
          `Model "${manifest.name}" has no output "${output}" (it has ${
            session.outputNames.join(", ")
          }); fix "output" in its manifest`,
        );
      }
      const maxTokens = options.maxTokens ?? manifest.maxTokens;
      if (tokenizer.prefix.length + tokenizer.suffix.length >= maxTokens) {
        throw new ModelLoadError(`maxTokens ${maxTokens} leaves no room for text`);
      }
      return new Embedder(manifest, tokenizer, session, output, options);
    } catch (e) {
      await session.close();
      throw e;
    }
  }

  /**
   * Runs the graph once on a probe text and on the highest id its tokenizer
   * can give, and checks that the vectors are {@link dims} wide and finite.
   * Throws {@link ModelLoadError} saying what does not fit: a tokenizer of
   * another model (ids past the graph's vocabulary), a manifest whose `dims`
   * or `output` is not the graph's, a graph that does not run. Costs one
   * graph run of two short texts.
   */
  async check(): Promise<void> {
    const t = this.tokenizer;
    const text = this.encode("retry the journal writer with exponential backoff", "passage");
    const highest = [...t.prefix, t.pieces - 1, ...t.suffix];
    let vectors: Float32Array[];
    try {
      vectors = await this.#run([text, highest], Math.max(text.length, highest.length));
    } catch (e) {
      if (e instanceof ModelLoadError) throw e;
      throw new ModelLoadError(
        `Model "${this.name}" does not run on its tokenizer's ids (${t.pieces} ${t.kind} pieces, ids 0–${
          t.pieces - 1
        }): ${
          (e as Error).message.trim()
        }; its tokenizer.json is probably another model's: use the one published with this model.onnx`,
      );
    }
    if (vectors.length !== 2 || vectors.some((v) => v.some((x) => !Number.isFinite(x)))) {
      throw new ModelLoadError(
        `Model "${this.name}" returned ${
          vectors.length === 2
            ? "vectors that are not finite numbers"
            : `${vectors.length} vectors for 2 texts`
        }; check that "output" in its manifest names the hidden states`,
      );
    }
  }

  /** Token ids `text` becomes (prefix, specials and truncation included). */
  encode(text: string, kind: EmbedKind = "passage"): number[] {
    return this.tokenizer.encode(this.manifest.prefixes[kind] + text, this.maxTokens).ids;
  }

  /**
   * One unit vector (length {@link dims}) per text, in input order. Costs a
   * graph run per batch; an empty list costs nothing.
   */
  async embed(texts: readonly string[], kind: EmbedKind = "passage"): Promise<Float32Array[]> {
    const encoded = texts.map((t) => this.encode(t, kind));
    // Longest first, so each batch pads to about its own length.
    const order = encoded.map((_, i) => i).sort((a, b) => encoded[b]!.length - encoded[a]!.length);
    const result: Float32Array[] = new Array(texts.length);
    let at = 0;
    while (at < order.length) {
      const longest = encoded[order[at]!]!.length;
      const size = Math.max(
        1,
        Math.min(this.#maxBatch, Math.floor(this.#batchTokens / longest), order.length - at),
      );
      const batch = order.slice(at, at + size);
      const vectors = await this.#run(batch.map((i) => encoded[i]!), longest);
      batch.forEach((i, k) => (result[i] = vectors[k]!));
      at += size;
    }
    return result;
  }

  async #run(batch: number[][], width: number): Promise<Float32Array[]> {
    const n = batch.length;
    const ids = new BigInt64Array(n * width).fill(BigInt(this.tokenizer.padId));
    const mask = new BigInt64Array(n * width);
    batch.forEach((row, r) => {
      for (let t = 0; t < row.length; t++) {
        ids[r * width + t] = BigInt(row[t]!);
        mask[r * width + t] = 1n;
      }
    });
    const dims = [n, width];
    const feeds: Record<string, Int64Input> = {};
    for (const name of this.#session.inputNames) {
      if (name === "input_ids") feeds[name] = { data: ids, dims };
      else if (name === "attention_mask") feeds[name] = { data: mask, dims };
      else if (name === "token_type_ids") {
        feeds[name] = { data: new BigInt64Array(n * width), dims };
      } else if (name === "position_ids") {
        const pos = new BigInt64Array(n * width);
        for (let i = 0; i < pos.length; i++) pos[i] = BigInt(i % width);
        feeds[name] = { data: pos, dims };
      }
    }
    const out = await this.#session.run(feeds, this.#output);
    const vectors = out.dims.length === 2
      ? rows(out.data, out.dims)
      : pool(out.data, out.dims, batch.map((r) => r.length), this.manifest.pooling);
    if (vectors[0] && vectors[0].length !== this.dims) {
      throw new ModelLoadError(
        `Model "${this.name}" returned ${
          vectors[0].length
        }-wide vectors, its manifest says dims ${this.dims}; fix the manifest`,
      );
    }
    return this.manifest.normalize ? vectors.map(normalizeL2) : vectors;
  }

  /**
   * Measures this backend: embeds `count` texts of about `tokens` words
   * (cut to `maxTokens`) once to warm up, then again timed; returns chunks
   * per second and the tokens per chunk. For `doctor`; costs two graph runs
   * (seconds for bge-m3 on WASM).
   */
  async speed(count = 4, tokens = 128): Promise<{ chunksPerSecond: number; tokens: number }> {
    const words = "retry with exponential backoff while the writer lock is held".split(" ");
    const text = Array.from({ length: tokens }, (_, i) => words[i % words.length]).join(" ");
    const texts = Array.from({ length: count }, (_, i) => `${i} ${text}`);
    const n = this.encode(texts[0]!).length;
    await this.embed(texts);
    const t0 = performance.now();
    await this.embed(texts);
    return { chunksPerSecond: count / ((performance.now() - t0) / 1000), tokens: n };
  }

  /** Releases the session. The embedder cannot be used afterwards. */
  async close(): Promise<void> {
    await this.#session.close();
  }
}
