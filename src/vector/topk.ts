/**
 * Top-k selection with a bounded heap (pure): keeps the k best of a stream of
 * (score, id) in O(n log k), never sorting the stream. Higher scores win;
 * equal scores go to the lower id, so a result never depends on scan order.
 */

/** One selected item. */
export interface Scored {
  id: number;
  score: number;
}

/** A bounded min-heap of the k best items seen so far. */
export class TopK {
  readonly #scores: Float64Array;
  readonly #ids: Float64Array;
  #size = 0;

  constructor(readonly k: number) {
    this.#scores = new Float64Array(Math.max(0, k));
    this.#ids = new Float64Array(Math.max(0, k));
  }

  /** How many items are held (≤ k). */
  get size(): number {
    return this.#size;
  }

  /**
   * The score an item must reach to be considered: -Infinity until the heap
   * is full, then the worst held score. A NaN score never passes.
   */
  get threshold(): number {
    return this.#size < this.k ? -Infinity : this.#scores[0]!;
  }

  /** Offers one item; returns true when it was kept. NaN scores are refused. */
  push(score: number, id: number): boolean {
    if (!(score >= -Infinity) || this.k <= 0) return false;
    if (this.#size < this.k) {
      this.#siftUp(this.#size++, score, id);
      return true;
    }
    if (!this.#worse(this.#scores[0]!, this.#ids[0]!, score, id)) return false;
    this.#siftDown(score, id);
    return true;
  }

  /** Puts the item in the free slot `i`, the worst item rising to the root. */
  #siftUp(i: number, score: number, id: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#worse(score, id, this.#scores[parent]!, this.#ids[parent]!)) break;
      this.#move(parent, i);
      i = parent;
    }
    this.#set(i, score, id);
  }

  /** Puts the item in place of the root, which it beats, and sifts it down. */
  #siftDown(score: number, id: number): void {
    let i = 0;
    const n = this.#size;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && this.#worse(this.#scores[r]!, this.#ids[r]!, this.#scores[l]!, this.#ids[l]!)) {
        c = r;
      }
      if (!this.#worse(this.#scores[c]!, this.#ids[c]!, score, id)) break;
      this.#move(c, i);
      i = c;
    }
    this.#set(i, score, id);
  }

  /** Copies the item in slot `from` to slot `to`. */
  #move(from: number, to: number): void {
    this.#scores[to] = this.#scores[from]!;
    this.#ids[to] = this.#ids[from]!;
  }

  /** Writes the item into slot `i`. */
  #set(i: number, score: number, id: number): void {
    this.#scores[i] = score;
    this.#ids[i] = id;
  }

  /** The held items, best first. */
  sorted(): Scored[] {
    const out: Scored[] = [];
    for (let i = 0; i < this.#size; i++) out.push({ id: this.#ids[i]!, score: this.#scores[i]! });
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  /** True when (s1, id1) ranks below (s2, id2). */
  #worse(s1: number, id1: number, s2: number, id2: number): boolean {
    return s1 < s2 || (s1 === s2 && id1 > id2);
  }
}

/** The k best of several already-selected lists with distinct ids (merging shards), best first. */
export function mergeTopK<T extends Scored>(lists: readonly (readonly T[])[], k: number): T[] {
  const top = new TopK(k);
  const byId = new Map<number, T>();
  for (const list of lists) {
    for (const s of list) {
      top.push(s.score, s.id);
      byId.set(s.id, s);
    }
  }
  return top.sorted().map((s) => byId.get(s.id)!);
}
