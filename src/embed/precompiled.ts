/**
 * SentencePiece's precompiled character map (the `Precompiled` normalizer of
 * a `tokenizer.json`, e.g. XLM-R's and bge-m3's `nmt_nfkc` rules).
 *
 * The map is a Darts-clone double-array trie over UTF-8 byte sequences, each
 * key pointing at a NUL-terminated replacement in a string pool:
 *
 *     uint32 LE trie_size | trie units (uint32 LE × trie_size/4) | pool
 *
 * Normalisation follows SentencePiece's `Normalizer::NormalizePrefix`
 * exactly: at each position take the *longest* key that matches and emit its
 * replacement; when none matches copy one UTF-8 character (a malformed byte
 * becomes U+FFFD). That is what `spm_encode` does and what the tests compare
 * against. (Hugging Face's `tokenizers` applies the same map per grapheme
 * cluster; the two agree except for a cluster under 6 bytes whose first
 * character is itself a key, where `tokenizers` keeps only that shortest
 * match.)
 */

import { EnvironmentError } from "../errors/mod.ts";
/** A malformed charsmap; the message says what is wrong with it. */
export class CharsMapError extends EnvironmentError {
  constructor(message: string) {
    super(message);
    this.name = "CharsMapError";
  }
}

/** A parsed precompiled charsmap, ready to normalise text. */
export class PrecompiledCharsMap {
  readonly #units: Uint32Array;
  readonly #pool: Uint8Array;
  readonly #enc = new TextEncoder();
  readonly #dec = new TextDecoder();
  /** For each ASCII byte: may a key of two or more bytes start with it? */
  readonly #asciiMayExtend = new Uint8Array(128);
  /** For each ASCII byte alone: its replacement's pool offset, or -1 when it maps to itself. */
  readonly #asciiValue = new Int32Array(128).fill(-1);

  constructor(blob: Uint8Array) {
    if (blob.length < 4) throw new CharsMapError(`charsmap too short (${blob.length} bytes)`);
    const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
    const trieSize = view.getUint32(0, true);
    if (trieSize % 4 !== 0 || 4 + trieSize > blob.length) {
      throw new CharsMapError(
        `charsmap trie size ${trieSize} does not fit its ${blob.length}-byte blob`,
      );
    }
    this.#units = new Uint32Array(trieSize / 4);
    for (let i = 0; i < this.#units.length; i++) this.#units[i] = view.getUint32(4 + i * 4, true);
    this.#pool = blob.subarray(4 + trieSize);
    for (let b = 0; b < 128; b++) this.#indexAscii(b);
  }

  /** Decodes the base64 `precompiled_charsmap` of a tokenizer.json. */
  static fromBase64(b64: string): PrecompiledCharsMap {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new PrecompiledCharsMap(bytes);
  }

  #indexAscii(b: number): void {
    if (this.#units.length === 0) return;
    let pos = this.#offset(this.#units[0]!) ^ b;
    const unit = this.#units[pos];
    if (unit === undefined || (unit & 0x800000ff) !== b) return;
    pos ^= this.#offset(unit);
    if ((unit >>> 8) & 1) this.#asciiValue[b] = this.#units[pos]! & 0x7fffffff;
    // Any child other than the leaf means a longer key starts here.
    for (let c = 1; c < 256; c++) {
      const child = this.#units[pos ^ c];
      if (child !== undefined && (child & 0x800000ff) === c) {
        this.#asciiMayExtend[b] = 1;
        return;
      }
    }
  }

  #offset(unit: number): number {
    return (unit >>> 10) << ((unit & (1 << 9)) >>> 6);
  }

  /**
   * The longest key that prefixes `bytes[from..]`: its byte length and pool
   * offset, or length 0 when no key matches.
   */
  #longest(bytes: Uint8Array, from: number): { length: number; value: number } {
    const units = this.#units;
    let best = { length: 0, value: 0 };
    if (units.length === 0) return best;
    let pos = this.#offset(units[0]!);
    for (let i = from; i < bytes.length; i++) {
      const b = bytes[i]!;
      pos ^= b;
      const unit = units[pos];
      if (unit === undefined || (unit & 0x800000ff) !== b) break;
      pos ^= this.#offset(unit);
      if ((unit >>> 8) & 1) best = { length: i - from + 1, value: units[pos]! & 0x7fffffff };
    }
    return best;
  }

  #poolString(at: number): Uint8Array {
    let end = at;
    while (end < this.#pool.length && this.#pool[end] !== 0) end++;
    return this.#pool.subarray(at, end);
  }

  /** Normalises `text` by the map (longest match at each position, SentencePiece's rule). */
  normalize(text: string): string {
    const bytes = this.#enc.encode(text);
    let out = new Uint8Array(bytes.length + 64);
    let o = 0;
    const emit = (chunk: Uint8Array) => {
      if (o + chunk.length > out.length) {
        const grown = new Uint8Array((out.length + chunk.length) * 2);
        grown.set(out.subarray(0, o));
        out = grown;
      }
      out.set(chunk, o);
      o += chunk.length;
    };
    let i = 0;
    while (i < bytes.length) {
      const b = bytes[i]!;
      if (b < 0x80 && !this.#asciiMayExtend[b]) {
        const v = this.#asciiValue[b]!;
        if (v >= 0) emit(this.#poolString(v));
        else if (o < out.length) out[o++] = b;
        else emit(bytes.subarray(i, i + 1));
        i++;
        continue;
      }
      const m = this.#longest(bytes, i);
      if (m.length > 0) {
        emit(this.#poolString(m.value));
        i += m.length;
        continue;
      }
      const len = utf8Length(bytes, i);
      emit(len === 0 ? REPLACEMENT : bytes.subarray(i, i + len));
      i += len === 0 ? 1 : len;
    }
    return this.#dec.decode(out.subarray(0, o));
  }
}

const REPLACEMENT = new Uint8Array([0xef, 0xbf, 0xbd]);

/** Length of the well-formed UTF-8 character at `i`, or 0 when it is malformed. */
function utf8Length(b: Uint8Array, i: number): number {
  const c = b[i]!;
  const n = c < 0x80
    ? 1
    : c >= 0xc2 && c < 0xe0
    ? 2
    : c >= 0xe0 && c < 0xf0
    ? 3
    : c >= 0xf0 && c < 0xf5
    ? 4
    : 0;
  if (n === 0 || i + n > b.length) return 0;
  for (let k = 1; k < n; k++) if ((b[i + k]! & 0xc0) !== 0x80) return 0;
  return n;
}
