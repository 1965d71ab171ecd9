/**
 * BERT's WordPiece model (bge-small-en, gte-small): greedy longest match
 * from the start of each word, continuation pieces prefixed `##`; a word with
 * any part that matches nothing, or longer than `max_input_chars_per_word`
 * characters, is one unknown token.
 */
import { TokenizerConfigError } from "./normalizer.ts";

/** A WordPiece model built from a tokenizer.json `model` of type `WordPiece`. */
export class WordPieceModel {
  readonly vocabSize: number;
  readonly unkId: number;
  readonly #vocab: Map<string, number>;
  readonly #prefix: string;
  readonly #maxChars: number;
  readonly #maxPieceLength: number;

  constructor(spec: Record<string, unknown>) {
    const vocab = spec.vocab as Record<string, number> | undefined;
    if (!vocab || typeof vocab !== "object") {
      throw new TokenizerConfigError("WordPiece model without a vocab in tokenizer.json");
    }
    this.#vocab = new Map(Object.entries(vocab));
    this.vocabSize = this.#vocab.size;
    const unk = this.#vocab.get(String(spec.unk_token ?? "[UNK]"));
    if (unk === undefined) {
      throw new TokenizerConfigError(
        `WordPiece unk_token ${JSON.stringify(spec.unk_token)} is not in the vocab`,
      );
    }
    this.unkId = unk;
    this.#prefix = String(spec.continuing_subword_prefix ?? "##");
    this.#maxChars = Number(spec.max_input_chars_per_word ?? 100);
    let longest = 0;
    for (const k of this.#vocab.keys()) longest = Math.max(longest, k.length);
    this.#maxPieceLength = longest;
  }

  /** Appends the ids of `word` to `out`. */
  encodeWord(word: string, out: number[]): void {
    if ([...word].length > this.#maxChars) {
      out.push(this.unkId);
      return;
    }
    const ids: number[] = [];
    let start = 0;
    while (start < word.length) {
      let end = Math.min(word.length, start + this.#maxPieceLength);
      let found = -1;
      while (end > start) {
        // Never end inside a surrogate pair.
        const last = word.charCodeAt(end - 1);
        if (!(last >= 0xd800 && last < 0xdc00)) {
          const sub = (start > 0 ? this.#prefix : "") + word.slice(start, end);
          const id = this.#vocab.get(sub);
          if (id !== undefined) {
            found = id;
            break;
          }
        }
        end--;
      }
      if (found < 0) {
        out.push(this.unkId);
        return;
      }
      ids.push(found);
      start = end;
    }
    for (const id of ids) out.push(id);
  }
}
