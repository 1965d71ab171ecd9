/**
 * The SentencePiece unigram model: the most probable segmentation of a word
 * into vocabulary pieces (Viterbi over piece log-probabilities).
 *
 * Follows SentencePiece's optimised encoder (and `tokenizers`' port of it):
 * at each character position every piece that starts there is tried; a
 * position where no single-character piece exists gets the unknown piece,
 * scored `min score - 10`; ties keep the first (shorter) piece; consecutive
 * unknown pieces fuse into one. Path scores are summed in float32, as
 * SentencePiece sums them, so two segmentations of equal score (`ff`+`f` and
 * `f`+`ff`) break the same way `spm_encode` breaks them. With `byte_fallback` an unknown character
 * becomes its UTF-8 bytes as `<0xXX>` pieces instead. Special tokens (added
 * tokens marked `special`) never match text: literal `<s>` in a code chunk is
 * three ordinary characters, as in `spm_encode`.
 *
 * Pieces live in a trie kept in typed arrays: an open-addressing hash from
 * (node, UTF-16 code unit) to child node, so a 250,000-piece vocabulary costs
 * a few tens of megabytes and each step of the search is one probe.
 */
import { TokenizerConfigError } from "./normalizer.ts";

const UNK_PENALTY = 10;

/** A piece trie over UTF-16 code units. */
class PieceTrie {
  /** Parent node of each slot, or -1 when the slot is empty. */
  #parent: Int32Array;
  #unit: Uint16Array;
  #child: Int32Array;
  #mask: number;
  #used = 0;
  /** Piece id ending at each node, or -1. */
  #ids: Int32Array;
  #nodes = 1;

  constructor(capacity: number) {
    let size = 1024;
    while (size < capacity * 2) size *= 2;
    this.#parent = new Int32Array(size).fill(-1);
    this.#unit = new Uint16Array(size);
    this.#child = new Int32Array(size);
    this.#mask = size - 1;
    this.#ids = new Int32Array(capacity + 1).fill(-1);
  }

  #slot(node: number, unit: number): number {
    let i = ((Math.imul(node, 0x9e3779b1) ^ Math.imul(unit, 0x85ebca6b)) >>> 0) & this.#mask;
    for (;;) {
      const p = this.#parent[i]!;
      if (p === -1 || (p === node && this.#unit[i] === unit)) return i;
      i = (i + 1) & this.#mask;
    }
  }

  /** The child of `node` through `unit`, or -1. */
  child(node: number, unit: number): number {
    const parent = this.#parent;
    const mask = this.#mask;
    let i = ((Math.imul(node, 0x9e3779b1) ^ Math.imul(unit, 0x85ebca6b)) >>> 0) & mask;
    for (;;) {
      const p = parent[i]!;
      if (p === -1) return -1;
      if (p === node && this.#unit[i] === unit) return this.#child[i]!;
      i = (i + 1) & mask;
    }
  }

  id(node: number): number {
    return this.#ids[node]!;
  }

  insert(piece: string, id: number): void {
    let node = 0;
    for (let i = 0; i < piece.length; i++) {
      const unit = piece.charCodeAt(i);
      const slot = this.#slot(node, unit);
      if (this.#parent[slot] === -1) {
        this.#parent[slot] = node;
        this.#unit[slot] = unit;
        const next = this.#nodes++;
        this.#child[slot] = next;
        if (++this.#used * 2 > this.#parent.length) this.#grow();
        node = next;
      } else node = this.#child[slot]!;
      if (node >= this.#ids.length) {
        const ids = new Int32Array(this.#ids.length * 2).fill(-1);
        ids.set(this.#ids);
        this.#ids = ids;
      }
    }
    if (this.#ids[node] === -1) this.#ids[node] = id;
  }

  #grow(): void {
    const [parent, unit, child] = [this.#parent, this.#unit, this.#child];
    const size = parent.length * 2;
    this.#parent = new Int32Array(size).fill(-1);
    this.#unit = new Uint16Array(size);
    this.#child = new Int32Array(size);
    this.#mask = size - 1;
    for (let i = 0; i < parent.length; i++) {
      if (parent[i] === -1) continue;
      const slot = this.#slot(parent[i]!, unit[i]!);
      this.#parent[slot] = parent[i]!;
      this.#unit[slot] = unit[i]!;
      this.#child[slot] = child[i]!;
    }
  }
}

/** A unigram model built from a tokenizer.json `model` of type `Unigram`. */
export class UnigramModel {
  readonly vocabSize: number;
  readonly unkId: number;
  readonly #scores: Float64Array;
  readonly #trie: PieceTrie;
  readonly #unkScore: number;
  readonly #byteIds: Int32Array | undefined;
  readonly #pieces: string[];
  // Search buffers, reused from word to word (a model is used by one caller at a time).
  #score = new Float64Array(64);
  #from = new Int32Array(64);
  #id = new Int32Array(64);

  constructor(spec: Record<string, unknown>, special: ReadonlySet<number>) {
    const vocab = spec.vocab as [string, number][] | undefined;
    if (!Array.isArray(vocab) || vocab.length === 0) {
      throw new TokenizerConfigError("Unigram model without a vocab in tokenizer.json");
    }
    this.vocabSize = vocab.length;
    const unk = spec.unk_id;
    if (typeof unk !== "number" || unk < 0 || unk >= vocab.length) {
      throw new TokenizerConfigError(
        `Unigram unk_id ${JSON.stringify(unk)} is not an id of the ${vocab.length}-piece vocab`,
      );
    }
    this.unkId = unk;
    this.#scores = new Float64Array(vocab.length);
    this.#pieces = new Array(vocab.length);
    this.#trie = new PieceTrie(vocab.length * 4);
    let min = Infinity;
    vocab.forEach(([piece, score], id) => {
      this.#scores[id] = Math.fround(score);
      this.#pieces[id] = piece;
      if (score < min) min = score;
      if (!special.has(id) && id !== unk && piece !== "") this.#trie.insert(piece, id);
    });
    this.#unkScore = Math.fround(min - UNK_PENALTY);
    if (spec.byte_fallback === true) {
      const bytes = new Int32Array(256).fill(-1);
      vocab.forEach(([piece], id) => {
        const m = /^<0x([0-9A-F]{2})>$/.exec(piece);
        if (m) bytes[parseInt(m[1]!, 16)] = id;
      });
      this.#byteIds = bytes.includes(-1) ? undefined : bytes;
    }
  }

  /** The piece text of an id (for debugging and tests). */
  piece(id: number): string {
    return this.#pieces[id] ?? "";
  }

  /**
   * Appends the ids of `word`'s best segmentation to `out` and returns the
   * path score at its end. `base` is the score of the sentence so far: the
   * search continues from it, as SentencePiece's does over a whole sentence,
   * because float32 rounding at that magnitude decides exact ties.
   */
  encodeWord(word: string, out: number[], base = 0): number {
    const n = word.length;
    if (n === 0) return base;
    if (this.#score.length < n + 1) {
      this.#score = new Float64Array(2 * n + 2);
      this.#from = new Int32Array(2 * n + 2);
      this.#id = new Int32Array(2 * n + 2);
    }
    const score = this.#score;
    const from = this.#from;
    const id = this.#id;
    from.fill(-1, 0, n + 1);
    score[0] = base;
    const scores = this.#scores;
    const trie = this.#trie;
    for (let pos = 0; pos < n; pos++) {
      if (pos > 0 && from[pos] === -1) continue; // inside a surrogate pair
      const here = score[pos]!;
      const c = word.charCodeAt(pos);
      const charLen = c >= 0xd800 && c < 0xdc00 && pos + 1 < n ? 2 : 1;
      let hasSingle = false;
      let node = 0;
      for (let end = pos; end < n; end++) {
        node = trie.child(node, word.charCodeAt(end));
        if (node < 0) break;
        const pid = trie.id(node);
        if (pid < 0) continue;
        // Summed in double, compared with and stored as float32: spm_encode's exact arithmetic.
        const s = here + scores[pid]!;
        const e = end + 1;
        if (from[e] === -1 || s > score[e]!) {
          score[e] = Math.fround(s);
          from[e] = pos;
          id[e] = pid;
        }
        if (e - pos === charLen) hasSingle = true;
      }
      if (!hasSingle) {
        const e = pos + charLen;
        const s = Math.fround(here + this.#unkScore);
        if (from[e] === -1 || s > score[e]!) {
          score[e] = s;
          from[e] = pos;
          id[e] = this.unkId;
        }
      }
    }
    // Backtrack, then emit in order, fusing runs of unknown pieces.
    const ends: number[] = [];
    for (let e = n; e > 0; e = from[e]!) ends.push(e);
    let prevUnk = false;
    for (let k = ends.length - 1; k >= 0; k--) {
      const e = ends[k]!;
      const pid = id[e]!;
      if (pid !== this.unkId) {
        out.push(pid);
        prevUnk = false;
      } else if (this.#byteIds) {
        for (const b of new TextEncoder().encode(word.slice(from[e]!, e))) {
          out.push(this.#byteIds[b]!);
        }
      } else if (!prevUnk) {
        out.push(pid);
        prevUnk = true;
      }
    }
    return score[n]!;
  }
}
