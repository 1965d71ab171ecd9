import type { Journal } from "./journal.ts";
import type { VocabRows, VocabSet } from "./types.ts";
import { JournalCorruptError } from "./corruption.ts";

/**
 * Changes to the learned vocabulary, gathered over the commits of one
 * transaction and written by {@link flushVocab}: word counts in one
 * statement (a path's new symbols and its old ones meet here first, so what
 * an edit left unchanged costs no write), new postings in key order (cheaper
 * for the B-tree than in commit order).
 */
export class VocabDelta {
  /** "p" + prose stem or "c" + code stem → change of its symbol count. */
  readonly words = new Map<string, number>();
  /** Change of the number of documented symbols. */
  symbols = 0;
  /** Postings to insert: prose stem, mix, path id, codes. */
  readonly inserts: [string, number, number, string][] = [];
  /** Paths whose postings wait in {@link inserts}. */
  readonly pending = new Set<number>();

  /** Counts the words of a path's prepared rows. */
  addRows(rows: VocabRows): void {
    this.symbols += rows.symbols;
    for (const [key, n] of rows.words) this.words.set(key, (this.words.get(key) ?? 0) + n);
  }

  /** Uncounts the symbols of `sets`. */
  removeSets(sets: readonly VocabSet[]): void {
    for (const s of sets) {
      this.symbols--;
      for (const p of s.prose) this.words.set("p" + p, (this.words.get("p" + p) ?? 0) - 1);
      for (const c of s.code) this.words.set("c" + c, (this.words.get("c" + c) ?? 0) - 1);
    }
  }
}

/**
 * Everything a commit writes for a path's documented symbols, prepared where
 * the path is prepared (pure; on a Worker) so the writer only inserts: the
 * encoded sets, the postings, and the path's word counts. Undefined when no
 * symbol is documented.
 */
export function vocabRows(sets: readonly VocabSet[]): VocabRows | undefined {
  if (sets.length === 0) return undefined;
  const words = new Map<string, number>();
  for (const s of sets) {
    for (const p of s.prose) words.set("p" + p, (words.get("p" + p) ?? 0) + 1);
    for (const c of s.code) words.set("c" + c, (words.get("c" + c) ?? 0) + 1);
  }
  return {
    sets: encodeVocabSets(sets),
    postings: [...vocabPostings(sets)],
    words: [...words],
    symbols: sets.length,
  };
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

/**
 * Where a path's postings sort among those of the same prose stem: a hash of
 * its root-relative path (16 bits), so the first postings of a common word
 * are a sample spread over the tree, the same whatever order the paths were
 * indexed in and wherever the tree sits.
 */
export function vocabMix(rel: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < rel.length; i++) h = Math.imul(h ^ rel.charCodeAt(i), 0x01000193);
  return (h >>> 16) & 0xffff;
}

/**
 * A path's postings: for each prose stem, the code stems of each of its
 * symbols whose first sentence has it (one line per symbol, in order).
 */
export function vocabPostings(sets: readonly VocabSet[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of sets) {
    const code = s.code.join(" ");
    for (const p of s.prose) {
      const had = out.get(p);
      out.set(p, had === undefined ? code : `${had}\n${code}`);
    }
  }
  return out;
}

/**
 * Writes a path's sets and counts its words into `delta`, whose flush
 * inserts its postings. Inside the commit's transaction.
 */
export function addPathVocab(
  j: Journal,
  pathId: number,
  rel: string,
  rows: VocabRows | undefined,
  delta: VocabDelta,
): void {
  if (!rows) return;
  const mix = vocabMix(rel);
  j.run("INSERT INTO vocab_sets (path_id, mix, sets) VALUES (?, ?, ?)", pathId, mix, rows.sets);
  for (const [p, codes] of rows.postings) delta.inserts.push([p, mix, pathId, codes]);
  delta.pending.add(pathId);
  delta.addRows(rows);
}

/** Deletes what a path's symbols taught and uncounts exactly the words that were counted. */
export function removePathVocab(j: Journal, pathId: number, delta: VocabDelta): void {
  const row = j.get<{ mix: number; sets: string }>(
    "SELECT mix, sets FROM vocab_sets WHERE path_id = ?",
    pathId,
  );
  if (!row) return;
  const sets = decodeVocabSets(row.sets);
  if (delta.pending.delete(pathId)) {
    // Added earlier in this transaction: its postings were never written.
    const keep = delta.inserts.filter((r) => r[2] !== pathId);
    delta.inserts.splice(0, delta.inserts.length, ...keep);
  } else {
    const del = j.stmt("DELETE FROM vocab_postings WHERE prose = ? AND mix = ? AND path_id = ?");
    for (const p of vocabPostings(sets).keys()) del.run(p, row.mix, pathId);
  }
  j.run("DELETE FROM vocab_sets WHERE path_id = ?", pathId);
  delta.removeSets(sets);
}

/** Flush a root's removal every this many paths, so its delta stays small. */
const ROOT_FLUSH_PATHS = 500;

/**
 * Deletes and uncounts what every path of a root taught, flushing every few
 * hundred paths so memory stays bounded however large the root. When no path
 * has anything left, any row still standing is drift and goes too.
 */
export function removeRootVocab(j: Journal, rootId: number): void {
  const ids = j.all<{ id: number }>(
    "SELECT v.path_id AS id FROM vocab_sets v JOIN paths p ON p.id = v.path_id WHERE p.root_id = ?",
    rootId,
  );
  const delta = new VocabDelta();
  ids.forEach(({ id }, i) => {
    removePathVocab(j, id, delta);
    if ((i + 1) % ROOT_FLUSH_PATHS === 0) flushVocab(j, delta);
  });
  flushVocab(j, delta);
  if (j.get("SELECT 1 FROM vocab_sets LIMIT 1") === undefined) {
    j.run("DELETE FROM vocab_postings");
    j.run("DELETE FROM vocab_words");
  }
}

/**
 * Writes a delta: its postings in key order, then the word counts in one
 * upsert statement, then the counts it brought to zero are deleted. Inside
 * the caller's transaction; the delta is empty afterwards. Costs one B-tree
 * write per posting and per distinct changed count.
 */
export function flushVocab(j: Journal, delta: VocabDelta): void {
  if (delta.inserts.length > 0) {
    delta.inserts.sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1] || a[2] - b[2]);
    const ins = j.stmt(
      "INSERT INTO vocab_postings (prose, mix, path_id, codes) VALUES (?, ?, ?, ?)",
    );
    for (const r of delta.inserts) ins.run(...r);
  }
  delta.inserts.length = 0;
  delta.pending.clear();
  const words: [string, string, number][] = [];
  const gone: [string, string][] = [];
  for (const [key, n] of delta.words) {
    if (n === 0) continue;
    const side = key[0] === "p" ? "prose" : "code";
    words.push([side, key.slice(1), n]);
    if (n < 0) gone.push([side, key.slice(1)]);
  }
  if (delta.symbols !== 0) {
    words.push(["symbols", "", delta.symbols]);
    if (delta.symbols < 0) gone.push(["symbols", ""]);
  }
  if (words.length > 0) {
    j.run(
      `INSERT INTO vocab_words (side, word, n)
       SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?) WHERE true ORDER BY 1, 2
       ON CONFLICT (side, word) DO UPDATE SET n = n + excluded.n`,
      JSON.stringify(words),
    );
  }
  if (gone.length > 0) {
    j.run(
      `DELETE FROM vocab_words WHERE n <= 0
       AND (side, word) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))`,
      JSON.stringify(gone),
    );
  }
  delta.words.clear();
  delta.symbols = 0;
}

/**
 * Where the learned vocabulary's derived rows differ from what every path's
 * stored sets make (empty when they agree): one sentence per table. Word and
 * symbol counts are compared exactly; postings by their number and an
 * order-free checksum of their rows, which misses a drift only by a 2⁻³²
 * chance. Reads every set and posting once, in memory bounded by the number
 * of distinct words.
 */
export function vocabDrift(j: Journal): string[] {
  const words = new Map<string, number>();
  let postings = 0;
  let sum = 0;
  for (
    const row of wholeTable<{ path_id: number; mix: number; sets: string }>(
      j,
      "vocab_sets",
      "path_id, mix, sets",
    )
  ) {
    const sets = decodeVocabSets(row.sets);
    for (const s of sets) {
      words.set("symbols\t", (words.get("symbols\t") ?? 0) + 1);
      for (const c of s.code) words.set(`code\t${c}`, (words.get(`code\t${c}`) ?? 0) + 1);
      for (const p of s.prose) words.set(`prose\t${p}`, (words.get(`prose\t${p}`) ?? 0) + 1);
    }
    for (const [p, codes] of vocabPostings(sets)) {
      postings++;
      sum = (sum + postingHash(p, row.mix, row.path_id, codes)) % 2 ** 32;
    }
  }
  const out: string[] = [];
  let stored = 0;
  let storedSum = 0;
  for (
    const r of wholeTable<{ prose: string; mix: number; path_id: number; codes: string }>(
      j,
      "vocab_postings",
      "prose, mix, path_id, codes",
    )
  ) {
    stored++;
    storedSum = (storedSum + postingHash(r.prose, r.mix, r.path_id, r.codes)) % 2 ** 32;
  }
  if (stored !== postings || storedSum !== sum) {
    out.push(
      `vocab_postings has ${stored} row(s) (checksum ${storedSum}), the paths' sets make ${postings} (checksum ${sum})`,
    );
  }
  let wrong = 0;
  let example = "";
  for (
    const r of wholeTable<{ side: string; word: string; n: number }>(
      j,
      "vocab_words",
      "side, word, n",
    )
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

/** FNV-1a (32 bits) of one posting's columns. */
function postingHash(prose: string, mix: number, pathId: number, codes: string): number {
  const text = `${prose}\t${mix}\t${pathId}\t${codes}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Every row of `table`, streamed, and a {@link JournalCorruptError} when the
 * stream ends short of the table's count: in Deno 2.9.6 `iterate()` ends
 * quietly at a damaged page, and a drift check that read half a table would
 * report drift that a rebuild, not a reconcile, fixes.
 */
function* wholeTable<T>(j: Journal, table: string, columns: string): Generator<T> {
  const want = j.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)!.n;
  let seen = 0;
  for (const row of j.stmt(`SELECT ${columns} FROM ${table}`).iterate() as Iterable<T>) {
    seen++;
    yield row;
  }
  if (seen !== want) {
    throw new JournalCorruptError(j.file, `${table}: read ${seen} of its ${want} rows`);
  }
}
