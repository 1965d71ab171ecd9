/**
 * The top-level `"id"` of a JSON object read in pieces, without keeping the
 * object (pure). A message too large to hold is still answered with an error
 * carrying its request's id, so that the client that sent it stops waiting;
 * the SDK's client writes `id` last, after the params that made it large.
 */
import { isRequestId, type RequestId } from "./jsonrpc.ts";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** The most bytes of a key or of an id's value worth keeping (an id longer than this is not read). */
const KEEP_BYTES = 256;

/**
 * Feeds on the bytes of one JSON text and finds its top-level `"id"`
 * (the last one, as `JSON.parse` keeps it), when it is a string or an
 * integer. Costs one pass over the bytes and at most a few hundred bytes of
 * memory, whatever the text's size. Tolerates a text that is cut short or is
 * not JSON: {@link id} is then whatever was read, or null.
 *
 * @example
 * ```ts
 * import { TopLevelId } from "./message_id.ts";
 * const scan = new TopLevelId();
 * const bytes = new TextEncoder().encode('{"params":{"id":1,"q":"zz"},"id":7}');
 * scan.feed(bytes.subarray(0, 10));
 * scan.feed(bytes.subarray(10));
 * console.assert(scan.id === 7);
 * ```
 */
export class TopLevelId {
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** Where the scan stands in the top-level object. */
  #at: "start" | "key" | "colon" | "value" | "done" = "start";
  /** The top-level key being read (its raw bytes), or the last one read. */
  #key: number[] = [];
  /** The raw bytes of the top-level id's value being read; null when not reading one. */
  #value: number[] | null = null;
  #found: RequestId | null = null;

  /** The id found so far, or null. */
  get id(): RequestId | null {
    return this.#found;
  }

  /** Reads the next piece of the text. */
  feed(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length && this.#at !== "done"; i++) this.#step(bytes[i]!);
  }

  #step(b: number): void {
    const top = this.#depth === 1;
    if (this.#inString) {
      if (top) this.#keep(b);
      if (this.#escaped) this.#escaped = false;
      else if (b === BACKSLASH) this.#escaped = true;
      else if (b === QUOTE) {
        this.#inString = false;
        if (top && this.#at === "key") this.#at = "colon";
      }
      return;
    }
    if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) return;
    if (this.#at === "start") {
      this.#at = b === OPEN_BRACE ? "key" : "done";
      this.#depth = 1;
      return;
    }
    if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      if (top) this.#value = null; // an object or an array is no id
      this.#depth++;
      return;
    }
    if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      this.#depth--;
      if (this.#depth === 0) {
        this.#settle();
        this.#at = "done";
      }
      return;
    }
    if (!top) {
      if (b === QUOTE) this.#inString = true;
      return;
    }
    if (b === QUOTE) {
      this.#inString = true;
      if (this.#at === "key") this.#key = [];
      this.#keep(b);
    } else if (b === COLON && this.#at === "colon") {
      this.#at = "value";
      this.#value = isId(this.#key) ? [] : null;
    } else if (b === COMMA) {
      this.#settle();
      this.#at = "key";
    } else {
      this.#keep(b);
    }
  }

  /** Keeps byte `b` of the key or of the id's value being read. */
  #keep(b: number): void {
    const into = this.#at === "key" ? this.#key : this.#at === "value" ? this.#value : null;
    if (into === null) return;
    if (into.length < KEEP_BYTES) into.push(b);
    else if (into === this.#value) this.#value = null; // too long to be an id worth reading
  }

  /** At the end of a top-level member: the id, if that member was one. */
  #settle(): void {
    if (this.#at === "value" && this.#value !== null && this.#value.length > 0) {
      try {
        const v: unknown = JSON.parse(new TextDecoder().decode(new Uint8Array(this.#value)));
        this.#found = isRequestId(v) ? v : null;
      } catch {
        this.#found = null;
      }
    }
    this.#value = null;
  }
}

/** True when the raw key bytes are `"id"`. */
function isId(key: number[]): boolean {
  return key.length === 4 && key[0] === QUOTE && key[1] === 0x69 && key[2] === 0x64 &&
    key[3] === QUOTE;
}
