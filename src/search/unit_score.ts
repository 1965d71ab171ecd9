/**
 * The answer inside a file (pure): every unit a file owns — a symbol, a
 * section, a window of text, the file's own lines — scored against the query
 * with BM25F over its own fields: its name split into words, its enclosing
 * name, signature, doc comment, the words of its own lines (identifiers,
 * string literals and comments; a nested symbol's lines belong to it, not to
 * its container) and the file's path. One model ranks units within a file
 * and, through a file's best unit, files against each other (`focus.ts`).
 */
import { indexText, stem } from "./words.ts";

/** A query term with its inverse document frequency over the index's chunks. */
export interface ScoredTerm {
  /** Porter stem of the word (or of a whole identifier form). */
  stem: string;
  idf: number;
}

/** The weight of each field of a unit in BM25F, and BM25's saturation and length knobs. */
export interface UnitWeights {
  name: number;
  qual: number;
  sig: number;
  doc: number;
  body: number;
  path: number;
  /** BM25's term-frequency saturation. */
  k1: number;
  /** Share of the body's length normalisation (0 none, 1 full). */
  b: number;
  /** The body length (in words) at which normalisation is neutral. */
  avgBody: number;
}

/** What a unit is made of, apart from its body lines. */
export interface UnitInput {
  /** Words of its name (a symbol's name, a section's heading, a file's base name). */
  name: string;
  /** Its enclosing name (class of a method, parent headings of a section). */
  qual: string;
  signature: string;
  doc: string;
  /** 1-based inclusive line range of its own text in the file; null for none (a note's text is `text`). */
  start: number | null;
  end: number | null;
  /** A unit's text when it is not read from the file (notes, memories). */
  text?: string;
  /** True for the unit of the file's own lines (outside every other unit). */
  isFile?: boolean;
}

/** One unit's score and the query words its own text matched. */
export interface UnitScore {
  /** BM25F score divided by the query's total idf: 0 for nothing, approaching 1 for everything. */
  score: number;
  /** How many distinct query terms it matched, in any field. */
  matched: number;
  /** Sum of learned associations of its words, normalised by √(its words). */
  learned: number;
}

/**
 * Scores the units of one file against the query terms (pure). `lines` is
 * the file's text split at newlines (empty for notes); each line belongs to
 * the smallest unit whose range holds it, or to the file unit when no other
 * does. `learned` maps a code-word stem to its learned association with the
 * query (may be empty). Cost: one pass over the file's words plus one over
 * each unit's name, signature and doc.
 *
 * @example
 * ```ts
 * import { scoreUnits, DEFAULT_UNIT_WEIGHTS } from "./unit_score.ts";
 * import assert from "node:assert/strict";
 * const lines = ["def a():", "  return cookie_jar", "def parse_header(raw):", "  return raw.split(';')"];
 * const units = [
 *   { name: "a", qual: "", signature: "def a()", doc: "", start: 1, end: 2 },
 *   { name: "parse_header", qual: "", signature: "def parse_header(raw)", doc: "", start: 3, end: 4 },
 * ];
 * const terms = [{ stem: "pars", idf: 3 }, { stem: "header", idf: 4 }];
 * const [a, p] = scoreUnits(units, lines, "", terms, new Map(), DEFAULT_UNIT_WEIGHTS);
 * assert.ok(p!.score > a!.score);
 * ```
 */
export function scoreUnits(
  units: readonly UnitInput[],
  lines: readonly string[],
  pathWords: string,
  terms: readonly ScoredTerm[],
  learned: ReadonlyMap<string, number>,
  w: UnitWeights,
): UnitScore[] {
  const matcher = new TermMatcher(terms, learned);
  const owner = lineOwners(units, lines.length);
  const bodyTf = units.map(() => new Float64Array(terms.length));
  const bodyLen = new Float64Array(units.length);
  const bodyLearned = units.map(() => new Map<string, number>());
  for (let i = 0; i < lines.length; i++) {
    const u = owner[i]!;
    if (u < 0) continue;
    bodyLen[u]! += matcher.count(lines[i]!, bodyTf[u]!, bodyLearned[u]!);
  }
  units.forEach((unit, u) => {
    if (unit.text !== undefined) {
      bodyLen[u]! += matcher.count(unit.text, bodyTf[u]!, bodyLearned[u]!);
    }
  });
  const pathTf = new Float64Array(terms.length);
  matcher.count(pathWords, pathTf, new Map());
  const totalIdf = terms.reduce((s, t) => s + t.idf, 0) || 1;
  return units.map((unit, u) => {
    const fields: [number, Float64Array][] = [];
    const learnedWords = bodyLearned[u]!;
    for (
      const [weight, text, code] of [
        [w.name, unit.name, true],
        [w.qual, unit.qual, true],
        [w.sig, unit.signature, true],
        [w.doc, unit.doc, false],
      ] as const
    ) {
      if (text === "") continue;
      const tf = new Float64Array(terms.length);
      // A doc comment is prose: its words are the question's side of the vocabulary.
      const n = matcher.count(text, tf, code ? learnedWords : new Map());
      if (n > 0) fields.push([weight, tf]);
    }
    const lengthNorm = 1 - w.b + w.b * (bodyLen[u]! / w.avgBody);
    let score = 0;
    let matched = 0;
    terms.forEach((t, i) => {
      let tf = w.body * bodyTf[u]![i]! / lengthNorm + w.path * pathTf[i]!;
      for (const [weight, f] of fields) tf += weight * f[i]!;
      if (tf <= 0) return;
      if (bodyTf[u]![i]! > 0 || fields.some(([, f]) => f[i]! > 0)) matched++;
      score += t.idf * tf / (w.k1 + tf);
    });
    let assoc = 0;
    for (const v of learnedWords.values()) assoc += v;
    const words = Math.max(1, bodyLen[u]!);
    return { score: score / totalIdf, matched, learned: assoc / Math.sqrt(words) };
  });
}

/** Field weights chosen on the benchmark's tuning half (README, Search figures). */
export const DEFAULT_UNIT_WEIGHTS: UnitWeights = {
  name: 4,
  qual: 0.5,
  sig: 1,
  doc: 2,
  body: 1,
  path: 0.5,
  k1: 1.2,
  b: 0.5,
  avgBody: 80,
};

/**
 * For each line, the index of the smallest unit whose range holds it (a
 * method's lines belong to the method, not to its class); lines outside
 * every ranged unit go to the file unit, or to none (-1).
 */
export function lineOwners(units: readonly UnitInput[], lineCount: number): Int32Array {
  const fileUnit = units.findIndex((u) => u.isFile === true);
  const owner = new Int32Array(lineCount).fill(fileUnit);
  const ranged = units
    .map((u, i) => ({ u, i }))
    .filter(({ u }) => !u.isFile && u.start !== null && u.end !== null && u.text === undefined)
    .sort((a, b) => (b.u.end! - b.u.start!) - (a.u.end! - a.u.start!) || a.i - b.i);
  for (const { u, i } of ranged) {
    const end = Math.min(u.end!, lineCount);
    for (let l = Math.max(1, u.start!); l <= end; l++) owner[l - 1] = i;
  }
  return owner;
}

/**
 * Counts query-term occurrences in texts by their Porter stems, and the
 * learned code words among them. A word's stem is computed only when its
 * first three letters could begin a wanted stem.
 */
class TermMatcher {
  readonly #index = new Map<string, number>();
  readonly #prefixes = new Set<string>();
  readonly #learned: ReadonlyMap<string, number>;

  constructor(terms: readonly ScoredTerm[], learned: ReadonlyMap<string, number>) {
    terms.forEach((t, i) => {
      if (!this.#index.has(t.stem)) this.#index.set(t.stem, i);
      this.#prefixes.add(t.stem.slice(0, 3));
    });
    for (const k of learned.keys()) this.#prefixes.add(k.slice(0, 3));
    this.#learned = learned;
  }

  /** Adds `text`'s term frequencies to `tf` and its learned words to `seen`; returns its word count. */
  count(text: string, tf: Float64Array, seen: Map<string, number>): number {
    if (text === "") return 0;
    let n = 0;
    for (const word of indexText(text).split(" ")) {
      if (word === "") continue;
      n++;
      if (!this.#prefixes.has(word.slice(0, 3))) continue;
      const s = stem(word);
      const i = this.#index.get(s) ?? this.#index.get(word);
      if (i !== undefined) tf[i]! += 1;
      const a = this.#learned.get(s);
      if (a !== undefined && !seen.has(s)) seen.set(s, a);
    }
    return n;
  }
}
