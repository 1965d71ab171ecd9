import type { Journal } from "./journal.ts";
import type { VocabSet } from "./types.ts";

/**
 * Changes to the learned vocabulary's counts, gathered over the commits of one
 * transaction and written by {@link flushVocab} in a few statements: adding a
 * path's symbols and subtracting its old ones meet here first, so what an
 * edit left unchanged costs no write.
 */
export class VocabDelta {
  /** prose stem → code stem → change of its pair count. */
  readonly pairs = new Map<string, Map<string, number>>();
  /** "p" + prose stem or "c" + code stem → change of its symbol count. */
  readonly words = new Map<string, number>();
  /** Change of the number of documented symbols. */
  symbols = 0;

  /** Counts (sign 1) or uncounts (sign -1) the symbols of `sets`. */
  addSets(sets: readonly VocabSet[], sign: 1 | -1): void {
    for (const s of sets) this.#add(s.prose, s.code, sign);
  }

  /** Like {@link addSets} for the text {@link encodeVocabSets} made of them. */
  addEncoded(text: string, sign: 1 | -1): void {
    if (text === "") return;
    for (const line of text.split("\n")) {
      const tab = line.indexOf("\t");
      this.#add(line.slice(0, tab).split(" "), line.slice(tab + 1).split(" "), sign);
    }
  }

  /** The number of distinct counts this delta would write. */
  get size(): number {
    let n = this.words.size;
    for (const m of this.pairs.values()) n += m.size;
    return n;
  }

  #add(prose: readonly string[], code: readonly string[], sign: 1 | -1): void {
    this.symbols += sign;
    for (const c of code) this.words.set("c" + c, (this.words.get("c" + c) ?? 0) + sign);
    for (const p of prose) {
      this.words.set("p" + p, (this.words.get("p" + p) ?? 0) + sign);
      let m = this.pairs.get(p);
      if (!m) this.pairs.set(p, m = new Map());
      for (const c of code) if (c !== p) m.set(c, (m.get(c) ?? 0) + sign);
    }
  }
}

/** One line per symbol: its prose stems, a tab, its code stems, each list space-separated. */
export function encodeVocabSets(sets: readonly VocabSet[]): string {
  return sets.map((s) => `${s.prose.join(" ")}\t${s.code.join(" ")}`).join("\n");
}

/** The inverse of {@link encodeVocabSets}. */
export function decodeVocabSets(text: string): VocabSet[] {
  if (text === "") return [];
  return text.split("\n").map((line) => {
    const tab = line.indexOf("\t");
    return { prose: line.slice(0, tab).split(" "), code: line.slice(tab + 1).split(" ") };
  });
}

/** Records what a path's symbols contribute and counts it. Inside the commit's transaction. */
export function addPathVocab(
  j: Journal,
  pathId: number,
  sets: readonly VocabSet[] | undefined,
  delta: VocabDelta,
): void {
  if (!sets || sets.length === 0) return;
  j.run("INSERT INTO vocab_sets (path_id, sets) VALUES (?, ?)", pathId, encodeVocabSets(sets));
  delta.addSets(sets, 1);
}

/** Uncounts and deletes what a path's symbols contributed (exactly what was added). */
export function removePathVocab(j: Journal, pathId: number, delta: VocabDelta): void {
  const row = j.get<{ sets: string }>("SELECT sets FROM vocab_sets WHERE path_id = ?", pathId);
  if (!row) return;
  delta.addEncoded(row.sets, -1);
  j.run("DELETE FROM vocab_sets WHERE path_id = ?", pathId);
}

/** Flush a root's removal every this many paths, so its delta stays small. */
const ROOT_FLUSH_PATHS = 500;

/**
 * Uncounts and deletes what every path of a root contributed, in slices of
 * paths so memory stays bounded however large the root. When no path has
 * anything left, any count still standing is drift and goes too.
 */
export function removeRootVocab(j: Journal, rootId: number): void {
  let delta = new VocabDelta();
  let paths = 0;
  for (
    const row of j.stmt(
      `SELECT v.sets FROM vocab_sets v JOIN paths p ON p.id = v.path_id WHERE p.root_id = ?`,
    ).iterate(rootId) as Iterable<{ sets: string }>
  ) {
    delta.addEncoded(row.sets, -1);
    if (++paths % ROOT_FLUSH_PATHS === 0) {
      flushVocab(j, delta);
      delta = new VocabDelta();
    }
  }
  flushVocab(j, delta);
  j.run("DELETE FROM vocab_sets WHERE path_id IN (SELECT id FROM paths WHERE root_id = ?)", rootId);
  if (j.get("SELECT 1 FROM vocab_sets LIMIT 1") === undefined) {
    j.run("DELETE FROM vocab_pairs");
    j.run("DELETE FROM vocab_words");
  }
}

/**
 * Writes a delta to the counts: one upsert statement per table, then the
 * counts it brought to zero are deleted. Inside the caller's transaction.
 * Costs one B-tree write per distinct changed count.
 */
export function flushVocab(j: Journal, delta: VocabDelta): void {
  const pairs: [string, string, number][] = [];
  const gone: [string, string][] = [];
  for (const [p, m] of delta.pairs) {
    for (const [c, n] of m) {
      if (n === 0) continue;
      pairs.push([p, c, n]);
      if (n < 0) gone.push([p, c]);
    }
  }
  const words: [string, string, number][] = [];
  const wordsGone: [string, string][] = [];
  for (const [key, n] of delta.words) {
    if (n === 0) continue;
    const side = key[0] === "p" ? "prose" : "code";
    words.push([side, key.slice(1), n]);
    if (n < 0) wordsGone.push([side, key.slice(1)]);
  }
  if (delta.symbols !== 0) {
    words.push(["symbols", "", delta.symbols]);
    if (delta.symbols < 0) wordsGone.push(["symbols", ""]);
  }
  if (pairs.length > 0) {
    j.run(
      `INSERT INTO vocab_pairs (prose, code, n)
       SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?) WHERE true ORDER BY 1, 2
       ON CONFLICT (prose, code) DO UPDATE SET n = n + excluded.n`,
      JSON.stringify(pairs),
    );
  }
  if (gone.length > 0) {
    j.run(
      `DELETE FROM vocab_pairs WHERE n <= 0
       AND (prose, code) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))`,
      JSON.stringify(gone),
    );
  }
  if (words.length > 0) {
    j.run(
      `INSERT INTO vocab_words (side, word, n)
       SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?) WHERE true ORDER BY 1, 2
       ON CONFLICT (side, word) DO UPDATE SET n = n + excluded.n`,
      JSON.stringify(words),
    );
  }
  if (wordsGone.length > 0) {
    j.run(
      `DELETE FROM vocab_words WHERE n <= 0
       AND (side, word) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))`,
      JSON.stringify(wordsGone),
    );
  }
}

/**
 * Where the learned vocabulary's counts differ from the sum over every path's
 * stored sets (empty when they agree): a sentence per table. The word and
 * symbol counts are compared exactly; the pair counts by their total and an
 * order-free checksum of (pair, count), which misses a drift only by a 2⁻³²
 * chance. Reads every set and every count once, in bounded memory: the
 * distinct words, never the pairs.
 */
export function vocabDrift(j: Journal): string[] {
  const words = new Map<string, number>();
  let pairs = 0;
  let sum = 0;
  for (
    const { sets } of j.stmt("SELECT sets FROM vocab_sets").iterate() as Iterable<{ sets: string }>
  ) {
    for (const s of decodeVocabSets(sets)) {
      words.set("symbols\t", (words.get("symbols\t") ?? 0) + 1);
      for (const c of s.code) words.set(`code\t${c}`, (words.get(`code\t${c}`) ?? 0) + 1);
      for (const p of s.prose) {
        words.set(`prose\t${p}`, (words.get(`prose\t${p}`) ?? 0) + 1);
        const hp = fnv(p + "\t", FNV_OFFSET);
        for (const c of s.code) {
          if (c === p) continue;
          pairs++;
          sum = (sum + fnv(c, hp)) % 2 ** 32;
        }
      }
    }
  }
  const out: string[] = [];
  let storedPairs = 0;
  let storedSum = 0;
  for (
    const r of j.stmt("SELECT prose, code, n FROM vocab_pairs").iterate() as Iterable<
      { prose: string; code: string; n: number }
    >
  ) {
    storedPairs += r.n;
    storedSum = (storedSum + r.n * fnv(r.code, fnv(r.prose + "\t", FNV_OFFSET))) % 2 ** 32;
  }
  if (storedPairs !== pairs || storedSum !== sum) {
    out.push(
      `vocab_pairs counts ${storedPairs} pair(s) (checksum ${storedSum}), the paths' sets make ${pairs} (checksum ${sum})`,
    );
  }
  let wrong = 0;
  let example = "";
  for (
    const r of j.stmt("SELECT side, word, n FROM vocab_words").iterate() as Iterable<
      { side: string; word: string; n: number }
    >
  ) {
    const key = `${r.side}\t${r.word}`;
    const want = words.get(key) ?? 0;
    words.delete(key);
    if (want !== r.n) {
      wrong++;
      example ||= `${r.side} "${r.word}" counted ${r.n}, the sets make ${want}`;
    }
  }
  for (const [key, n] of words) {
    wrong++;
    example ||= `${key.replace("\t", ' "')}" counted 0, the sets make ${n}`;
  }
  if (wrong > 0) out.push(`vocab_words has ${wrong} wrong count(s), e.g. ${example}`);
  return out;
}

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a (32 bits) of `text`, continuing from `h`. */
function fnv(text: string, h: number): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
