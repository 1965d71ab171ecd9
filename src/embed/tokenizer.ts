/**
 * Text → token ids for an embedding model, from its Hugging Face
 * `tokenizer.json`: normalizer → pre-tokenizer → model (SentencePiece
 * unigram as in XLM-R/bge-m3/multilingual-e5, or BERT WordPiece as in
 * bge-small-en/gte-small) → special tokens around the sequence → truncation.
 *
 * Checked against SentencePiece's own `spm_encode` in `tests/embed_test.ts`.
 * Deliberate differences from Hugging Face's `tokenizers`: added tokens are
 * not split out of the text (a literal `<s>` in code stays text, as in
 * `spm_encode`), and the precompiled charsmap applies SentencePiece's
 * longest-match rule (see `precompiled.ts`).
 */
import { buildNormalizer, type Normalize, TokenizerConfigError } from "./normalizer.ts";
import { buildPreTokenizer, type PreTokenize } from "./pre_tokenizer.ts";
import { UnigramModel } from "./unigram.ts";
import { WordPieceModel } from "./wordpiece.ts";

export { TokenizerConfigError } from "./normalizer.ts";

/** The default truncation: 512 tokens, special tokens included. */
export const DEFAULT_MAX_TOKENS = 512;

/** The ids of one text, ready for the model. */
export interface Encoding {
  /** Special tokens included: `<s> … </s>` for XLM-R, `[CLS] … [SEP]` for BERT. */
  ids: number[];
  /** True when the text had more tokens than fit and the tail was dropped. */
  truncated: boolean;
}

const CACHE_LIMIT = 100_000;

/** A loaded tokenizer. Pure after construction; safe to share. */
export class Tokenizer {
  /** The number of pieces in the vocabulary. */
  readonly vocabSize: number;
  /** The number of pieces text can become (the vocabulary without added tokens): ids below it. */
  readonly pieces: number;
  /** The id of the unknown piece. */
  readonly unkId: number;
  /** The id used to pad a batch. */
  readonly padId: number;
  /** Special ids before the text (`<s>`). */
  readonly prefix: readonly number[];
  /** Special ids after the text (`</s>`). */
  readonly suffix: readonly number[];
  /** SentencePiece unigram (XLM-R, bge-m3, e5) or BERT WordPiece (bge-small, gte). */
  readonly kind: "unigram" | "wordpiece";
  readonly #normalize: Normalize;
  readonly #preTokenize: PreTokenize;
  readonly #model: UnigramModel | WordPieceModel;
  #cache = new Map<string, number[]>();

  private constructor(json: Record<string, unknown>) {
    const added = (json.added_tokens as { id: number; content: string; special?: boolean }[]) ??
      [];
    const special = new Set(added.filter((t) => t.special !== false).map((t) => t.id));
    const model = json.model as Record<string, unknown> | undefined;
    if (model?.type === "Unigram") {
      this.#model = new UnigramModel(model, special);
      this.kind = "unigram";
    } else if (model?.type === "WordPiece" || (model && model.type === undefined && model.vocab)) {
      this.#model = new WordPieceModel(model);
      this.kind = "wordpiece";
    } else {
      throw new TokenizerConfigError(
        `Unsupported tokenizer model type ${
          JSON.stringify(model?.type)
        }: expected Unigram (SentencePiece) or WordPiece`,
      );
    }
    this.vocabSize = Math.max(this.#model.vocabSize, ...added.map((t) => t.id + 1));
    this.pieces = this.#model.vocabSize;
    this.unkId = this.#model.unkId;
    this.#normalize = buildNormalizer(json.normalizer);
    this.#preTokenize = buildPreTokenizer(json.pre_tokenizer);
    [this.prefix, this.suffix] = specialsAround(json.post_processor);
    const padding = json.padding as { pad_id?: number } | null | undefined;
    const namedPad = added.find((t) => t.content === "<pad>" || t.content === "[PAD]");
    this.padId = padding?.pad_id ?? namedPad?.id ?? 0;
  }

  /**
   * Parses a tokenizer.json value. Throws {@link TokenizerConfigError} naming
   * the unsupported part (model, normalizer or pre-tokenizer type).
   */
  static fromJSON(json: unknown): Tokenizer {
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      throw new TokenizerConfigError("tokenizer.json must hold one JSON object");
    }
    return new Tokenizer(json as Record<string, unknown>);
  }

  /** Reads and parses a tokenizer.json file. */
  static async load(path: string): Promise<Tokenizer> {
    const text = await Deno.readTextFile(path);
    try {
      return Tokenizer.fromJSON(JSON.parse(text));
    } catch (e) {
      if (e instanceof SyntaxError) {
        throw new TokenizerConfigError(`"${path}" is not JSON: ${e.message}`);
      }
      if (e instanceof TokenizerConfigError) {
        throw new TokenizerConfigError(`"${path}": ${e.message}`);
      }
      throw e;
    }
  }

  /**
   * The model's ids for `text`, without special tokens; words are segmented
   * until `limit` ids are reached (default: all of them).
   */
  tokenize(text: string, limit = Infinity): number[] {
    const ids: number[] = [];
    const words = this.#preTokenize([this.#normalize(text)]);
    const model = this.#model;
    if (model instanceof UnigramModel) {
      // One search across the words, carrying the score (see UnigramModel.encodeWord).
      let score = 0;
      for (const w of words) {
        if (ids.length >= limit) break;
        score = model.encodeWord(w, ids, score);
      }
      return ids;
    }
    for (const w of words) {
      if (ids.length >= limit) break;
      let cached = this.#cache.get(w);
      if (cached === undefined) {
        cached = [];
        model.encodeWord(w, cached);
        if (this.#cache.size >= CACHE_LIMIT) this.#cache = new Map();
        this.#cache.set(w, cached);
      }
      for (const id of cached) ids.push(id);
    }
    return ids;
  }

  /**
   * Ids for the model: special tokens around the text, the text's tokens cut
   * to fit `maxTokens` (specials included; default 512). Reads at most the
   * first `maxTokens × 256` characters; words past the limit are not
   * segmented.
   */
  encode(text: string, maxTokens = DEFAULT_MAX_TOKENS): Encoding {
    const room = maxTokens - this.prefix.length - this.suffix.length;
    if (!Number.isInteger(maxTokens) || room < 1) {
      throw new RangeError(
        `maxTokens ${maxTokens} leaves no room for text beside ${
          this.prefix.length + this.suffix.length
        } special tokens`,
      );
    }
    // Bounded cost for a pathological chunk: no token spans 256 characters of real text.
    const body = this.tokenize(
      text.length > maxTokens * 256 ? text.slice(0, maxTokens * 256) : text,
      room + 1,
    );
    const truncated = body.length > room;
    return {
      ids: [...this.prefix, ...(truncated ? body.slice(0, room) : body), ...this.suffix],
      truncated,
    };
  }
}

/** The special ids a post_processor puts before and after a single sequence. */
function specialsAround(spec: unknown): [number[], number[]] {
  if (spec === null || spec === undefined) return [[], []];
  const s = spec as Record<string, unknown>;
  switch (s.type) {
    case "RobertaProcessing":
    case "BertProcessing": {
      const cls = s.cls as [string, number];
      const sep = s.sep as [string, number];
      return [[cls[1]], [sep[1]]];
    }
    case "TemplateProcessing": {
      const single = s.single as Record<string, { id: string }>[];
      const specials = s.special_tokens as Record<string, { ids: number[] }>;
      const before: number[] = [];
      const after: number[] = [];
      let seen = false;
      for (const item of single) {
        if (item.Sequence) seen = true;
        else if (item.SpecialToken) {
          const ids = specials[item.SpecialToken.id]?.ids;
          if (!ids) {
            throw new TokenizerConfigError(
              `TemplateProcessing names special token ${
                JSON.stringify(item.SpecialToken.id)
              } without ids`,
            );
          }
          (seen ? after : before).push(...ids);
        }
      }
      return [before, after];
    }
    case "Sequence": {
      const steps = (s.processors as unknown[]) ?? [];
      for (const step of steps) {
        const [b, a] = specialsAround(step);
        if (b.length || a.length) return [b, a];
      }
      return [[], []];
    }
    case "ByteLevel":
      return [[], []];
    default:
      throw new TokenizerConfigError(
        `Unsupported post_processor type ${JSON.stringify(s.type)} in tokenizer.json`,
      );
  }
}
