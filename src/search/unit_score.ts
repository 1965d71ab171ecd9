/**
 * The answer inside a file (pure): every unit a file owns — a symbol, a
 * section, a window of text, the file's own lines — scored against the query
 * by a BM25 variant over its own fields: its name split into words (normalised
 * by the name's length), its enclosing name, the words of its own lines —
 * signature, identifiers, string literals, and, at their own weight, its
 * prose: comments, a docstring, and the doc comment and decorators directly
 * above it (a nested symbol's lines belong to it, not to its container) — and
 * the file's path. One model ranks units within a file
 * and, through a file's best unit, files against each other (`focus.ts`).
 */
import {
  hasUnspacedScript,
  isStopWord,
  splitWords,
  stem,
  stemPrefix,
  withoutMarks,
} from "../derive/words.ts";

/**
 * A query term with its inverse document frequency over the index's chunks.
 *
 * @internal
 */
export interface ScoredTerm {
  /** Porter stem of the word (or of a whole identifier form). */
  stem: string;
  idf: number;
  /** True when the next term is the query's next word (their pair is looked for as a phrase). */
  next?: boolean;
  /** For a whole identifier's form, the identifiers as the query typed them (`testCreate`). */
  spelled?: readonly string[];
  /**
   * On the first term: it is a word of the qualifier of a name the query
   * typed (`Store` of `Store.open`), so it names the container, not the
   * answer's first word, and no `lead` is given for it.
   */
  typed?: boolean;
}

/**
 * The weight of each field of a unit in BM25F, and BM25's saturation and length knobs.
 *
 * @internal
 */
export interface UnitWeights {
  /** Added in full for each query word in the unit's name (a share of the word's idf). */
  name: number;
  /** The same for its enclosing name. */
  qual: number;
  body: number;
  /**
   * Weight of a code unit's prose lines in place of `body`'s: its doc
   * comment, its other comments, a Python docstring (see {@link proseLines}).
   */
  doc: number;
  path: number;
  /**
   * Share of the name's length normalisation (0 none, 1 full): with it, a
   * query word counts more in a short name than in a long one, so a name the
   * query spells out whole (`remaining_bytes` for "the remaining bytes")
   * outranks a longer one holding the same words
   * (`ConsumeRemainingBytesAsString`).
   */
  nameB: number;
  /** Multiplies the score of a unit that holds others (a class, a namespace). */
  container: number;
  /** Weight of the query's word pairs found next to each other, in order (a phrase, a sentence). */
  pair: number;
  /**
   * Weight (a share of the word's idf) of a name that begins with the
   * question's first word or with a word code spells it with ("Returns the
   * name" — `getName`; "Creates a parser" — `newParser`): a doc comment's
   * first word is usually its function's verb ({@link LEAD_FORMS}).
   */
  lead: number;
  /**
   * Weight (a share of the identifier's idf) of a name that is a compound
   * identifier of the query exactly as typed, case included: `testCreate`
   * asks for `testCreate`, not `TestCreate`, which its whole form matches as well.
   */
  exact: number;
  /**
   * Weight (a share of the word's idf, divided among the names that hold it)
   * of a query word in a unit's name that few other names of its file hold:
   * "Print the 4-byte octal representation" names `uint32_octal`, not its
   * neighbour `uint32_binary`, whose doc comment holds every other word.
   */
  sibling: number;
  /**
   * Weight of a code unit whose own prose states the question: the longest
   * run of the question's consecutive words that its doc comment (or other
   * comments, or docstring) holds as consecutive words, stop words aside,
   * counts its idf times its share of the question's, once that share
   * reaches {@link UnitWeights.sentenceShare}. "Removes leading whitespace
   * or specified characters from string" names `trimStart`, whose doc
   * comment says just that, not `remove`, whose name is the question's
   * first word; a neighbour's comment with a word of its own in between
   * ("…a session's staging dependency graph") breaks the run.
   */
  sentence: number;
  /** The least share of the question's words' idf that a run of {@link UnitWeights.sentence} must span. */
  sentenceShare: number;
  /**
   * Weight taken off a code unit whose own prose states the question with
   * one of its words replaced by another ("The top-level entry point for
   * multi-threaded search" for a question that says single-threaded), when
   * the unit holds the replaced word nowhere: a doc comment written for a
   * sibling of the answer, alike but for the word that tells them apart.
   * Counted as {@link UnitWeights.sentence} counts its run, over the
   * question's words but the replaced one.
   */
  replaced: number;
  /** BM25's term-frequency saturation. */
  k1: number;
  /** Share of the body's length normalisation (0 none, 1 full). */
  b: number;
  /** The body length (in characters) at which normalisation is neutral. */
  avgBody: number;
}

/** What a unit is made of, apart from its body lines. */
export interface UnitInput {
  /** Words of its name (a symbol's name, a section's heading, a file's base name). */
  name: string;
  /** Its enclosing name (class of a method, parent headings of a section). */
  qual: string;
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

/** A file's text as the scorer reads it: the text, lower-cased, and where each line starts. */
export interface FileText {
  text: string;
  lower: string;
  /** Offset of each line's first character; `lineStarts.length` is the line count. */
  lineStarts: readonly number[];
}

/** Splits a text into a {@link FileText} (one pass). */
export function fileText(text: string): FileText {
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  return { text, lower: text.toLowerCase(), lineStarts };
}

/**
 * Scores the units of one file against the query terms (pure). Each line of
 * `file` belongs to the smallest unit whose range holds it, or to the file
 * unit when no other does. `path` is the file's root-relative path. Every
 * field's words are found where they occur (each
 * term's stem looked up in the lower-cased text, kept where a word or an
 * identifier part starts and its stem is the term's), so the cost is a few
 * native substring scans per term, not a tokenisation of the file; a body's
 * length is counted in characters. `learned` maps a code-word stem to its
 * learned association with the query (may be empty).
 *
 * @example
 * ```ts
 * import { DEFAULT_UNIT_WEIGHTS, fileText, scoreUnits } from "./unit_score.ts";
 * import assert from "node:assert/strict";
 * const file = fileText("def a():\n  return cookie_jar\ndef parse_header(raw):\n  return raw.split(';')");
 * const units = [
 *   { name: "a", qual: "", start: 1, end: 2 },
 *   { name: "parse_header", qual: "", start: 3, end: 4 },
 * ];
 * const terms = [{ stem: "pars", idf: 3 }, { stem: "header", idf: 4 }];
 * const [a, p] = scoreUnits(units, file, "", terms, new Map(), DEFAULT_UNIT_WEIGHTS);
 * assert.ok(p!.score > a!.score);
 * ```
 */
export function scoreUnits(
  units: readonly UnitInput[],
  file: FileText,
  path: string,
  terms: readonly ScoredTerm[],
  learned: ReadonlyMap<string, number>,
  w: UnitWeights,
): UnitScore[] {
  const lineCount = file.text === "" ? 0 : file.lineStarts.length;
  const owner = lineOwners(units, lineCount);
  attachLeadingComments(owner, units, file);
  const prose = w.doc === w.body ? undefined : proseLines(owner, units, file);
  // A word on a prose line counts `doc / body` of one on a code line.
  const docShare = w.body > 0 ? w.doc / w.body : 0;
  // Per unit and term, flat (unit u, term i at u * T + i): a file may have thousands of units.
  const T = terms.length;
  const bodyTf = new Float64Array(units.length * T);
  const bodyLen = new Float64Array(units.length);
  // Learned code words found in each unit (a map only for a unit that holds one).
  const bodyLearned: (Map<string, number> | undefined)[] = [];
  const learn = (u: number, code: string, a: number) =>
    (bodyLearned[u] ??= new Map<string, number>()).set(code, a);
  for (let l = 0; l < lineCount; l++) {
    const u = owner[l]!;
    if (u < 0) continue;
    const next = l + 1 < lineCount ? file.lineStarts[l + 1]! : file.text.length + 1;
    bodyLen[u]! += next - file.lineStarts[l]!;
  }
  const lineOf = (offset: number) => upperBound(file.lineStarts, offset) - 1;
  const places = terms.map((t, i) => {
    const at: number[] = [];
    forEachOccurrence(file, t.stem, (x) => {
      const l = lineOf(x);
      const u = owner[l]!;
      if (u >= 0) bodyTf[u * T + i]! += prose?.[l] ? docShare : 1;
      at.push(x);
    });
    return at;
  });
  const pairs = adjacentPairs(
    terms,
    places,
    (x) => owner[lineOf(x)]!,
    (x) => (prose?.[lineOf(x)] ? docShare : 1),
    units.length,
  );
  const runs = (w.sentence > 0 || w.replaced > 0) && prose
    ? proseRuns(owner, prose, units, file, terms, bodyTf, w.sentenceShare)
    : undefined;
  for (const [code, a] of learned) {
    forEachOccurrence(file, code, (at) => {
      const u = owner[lineOf(at)]!;
      if (u >= 0) learn(u, code, a);
    });
  }
  units.forEach((unit, u) => {
    if (unit.text === undefined) return;
    const own = fileText(unit.text);
    bodyLen[u]! += unit.text.length;
    terms.forEach((t, i) => forEachOccurrence(own, t.stem, () => bodyTf[u * T + i]! += 1));
    for (const [code, a] of learned) {
      forEachOccurrence(own, code, () => learn(u, code, a));
    }
  });
  // Each short field of every unit, one line a unit, scanned like the body.
  const fieldTf = (of: (x: UnitInput) => string): Float64Array => {
    const tf = new Float64Array(units.length * T);
    const ft = fileText(units.map((x) => of(x).replaceAll("\n", " ")).join("\n"));
    const unitOf = (at: number) => upperBound(ft.lineStarts, at) - 1;
    terms.forEach((t, i) => forEachOccurrence(ft, t.stem, (at) => tf[unitOf(at) * T + i]! += 1));
    for (const [c, a] of learned) {
      forEachOccurrence(ft, c, (at) => learn(unitOf(at), c, a));
    }
    return tf;
  };
  const nameTf = fieldTf((x) => x.name);
  const qualTf = fieldTf((x) => x.qual);
  const pathTf = new Float64Array(terms.length);
  const pathText = fileText(path);
  terms.forEach((t, i) => forEachOccurrence(pathText, t.stem, () => pathTf[i]! += 1));
  const containers = containerUnits(units);
  // For each term, how many units of the file (its own lines aside) hold it in their name.
  const namesHolding = new Float64Array(T);
  units.forEach((unit, u) => {
    if (unit.isFile) return;
    for (let i = 0; i < T; i++) if (nameTf[u * T + i]! > 0) namesHolding[i]!++;
  });
  const leads = w.lead > 0 && !terms[0]?.typed
    ? leadStems(terms[0]?.stem, terms[1]?.stem)
    : new Set<string>();
  const constructs = leads.size > 0 && CONSTRUCTING.has(terms[0]!.stem);
  // A file's names share their first words (`get`, `is`, `test`): each is stemmed once.
  const leading = new Map<string, boolean>();
  const leadsWith = (word: string) => {
    let is = leading.get(word);
    if (is === undefined) leading.set(word, is = leads.has(stem(word.toLowerCase())));
    return is;
  };
  const pairIdf = terms.reduce((s, t, i) => s + (t.next ? (t.idf + terms[i + 1]!.idf) / 2 : 0), 0);
  const most =
    terms.reduce((s, t) => s + t.idf, 0) * (1 + w.name + w.qual + w.sibling) + w.pair * pairIdf ||
    1;
  return units.map((unit, u) => {
    const lengthNorm = 1 - w.b + w.b * (bodyLen[u]! / w.avgBody);
    const nameWords = splitWords(unit.name);
    const nameNorm = 1 - w.nameB +
      w.nameB * (Math.max(1, nameWords.length) / AVG_NAME_WORDS);
    let score = 0;
    let matched = 0;
    for (let i = 0; i < T; i++) {
      const name = nameTf[u * T + i]!;
      const qual = qualTf[u * T + i]!;
      const body = bodyTf[u * T + i]!;
      if (body + name + qual > 0) matched++;
      // The body's words saturate as in BM25; a word of the name counts once, in full.
      const tf = w.body * body / lengthNorm + w.path * pathTf[i]!;
      const named = w.name * Math.min(1, name) / nameNorm + w.qual * Math.min(1, qual);
      const sibling = name > 0 && !unit.isFile ? w.sibling / namesHolding[i]! : 0;
      score += terms[i]!.idf * (tf / (w.k1 + tf) + named + sibling);
    }
    score += w.pair * pairs[u]!;
    if (runs) {
      score += w.sentence * runs.stated[u]!;
      // A sibling's doc comment only where the unit holds the replaced word nowhere.
      const g = u * T + runs.missing[u]!;
      if (runs.missing[u]! >= 0 && bodyTf[g]! + nameTf[g]! + qualTf[g]! === 0) {
        score -= w.replaced * runs.replaced[u]!;
      }
    }
    const firstWord = leads.size > 0 ? nameWords[0] : undefined;
    const leadsHere = firstWord !== undefined && leadsWith(firstWord);
    if (leadsHere || (constructs && isConstructor(unit))) score += w.lead * terms[0]!.idf;
    for (const t of terms) if (t.spelled?.some((s) => spells(unit, s))) score += w.exact * t.idf;
    if (containers.has(u)) score *= w.container;
    let assoc = 0;
    for (const v of bodyLearned[u]?.values() ?? []) assoc += v;
    // About six characters a word: the length normalisation the notes measured.
    const words = Math.max(1, bodyLen[u]! / 6);
    return { score: score / most, matched, learned: assoc / Math.sqrt(words) };
  });
}

/** True when `typed` is the unit's name, or its qualified name or a dotted tail of it (`Store.open`). */
function spells(unit: UnitInput, typed: string): boolean {
  if (typed === unit.name) return true;
  const full = unit.qual === "" ? unit.name : `${unit.qual}.${unit.name}`;
  return full === typed || full.endsWith(`.${typed}`);
}

/** The name length (in words) at which its normalisation is neutral. */
const AVG_NAME_WORDS = 2;

/** The runs of {@link proseRuns} ending at each query word: their idf and their length in words. */
interface Run {
  idf: Float64Array;
  len: Float64Array;
}

/** What {@link proseRuns} finds in each unit's prose. */
interface ProseRuns {
  /** {@link UnitWeights.sentence}'s evidence. */
  stated: Float64Array;
  /** {@link UnitWeights.replaced}'s evidence (0 when the unit states the question as it is). */
  replaced: Float64Array;
  /** The index of the term replaced in that run, -1 for none. */
  missing: Int32Array;
}

/**
 * For each unit, {@link UnitWeights.sentence}'s evidence: the idf of the
 * longest run of the question's consecutive words (the terms linked by
 * `next`) that its prose lines, or one string literal of a code line, hold
 * as consecutive words once stop words are left out (a string stating the
 * question is an error message it raises, a log line it writes), times that
 * run's share of the question's words' idf; 0 when
 * the share is below `share` or the run is shorter than three words. And
 * {@link UnitWeights.replaced}'s: the same for a run in which one word of
 * the question (not its first) stands replaced by one other word, its share
 * counted over the question's words but that one, for a unit whose plain
 * run falls short. Only units whose lines hold at least three of the words,
 * half of them, and enough of their idf for such a run are read word by word.
 */
function proseRuns(
  owner: Int32Array,
  prose: Uint8Array,
  units: readonly UnitInput[],
  file: FileText,
  terms: readonly ScoredTerm[],
  bodyTf: Float64Array,
  share: number,
): ProseRuns {
  const out: ProseRuns = {
    stated: new Float64Array(units.length),
    replaced: new Float64Array(units.length),
    missing: new Int32Array(units.length).fill(-1),
  };
  let words = 0;
  while (words < terms.length && (words === 0 || terms[words - 1]!.next)) words++;
  if (words < 3) return out;
  const T = terms.length;
  let total = 0;
  const at = new Map<string, number[]>();
  for (let i = 0; i < words; i++) {
    total += terms[i]!.idf;
    const list = at.get(terms[i]!.stem);
    if (list) list.push(i);
    else at.set(terms[i]!.stem, [i]);
  }
  // A word recurs through a file's prose: each distinct one is looked up once.
  const termsOf = new Map<string, readonly number[] | null | typeof SKIPPED>();
  const wordTerms = (word: string) => {
    const lower = word.toLowerCase();
    if (lower.length < 2 || isStopWord(lower)) return SKIPPED;
    return at.get(stem(lower)) ?? null;
  };
  // A run's words are words of the unit's lines, so a unit whose words' idf is short of the
  // least a run must span (one word but the first replaced, the dearest; rounding aside) has no
  // run that counts.
  let dearest = 0;
  for (let i = 1; i < words; i++) dearest = Math.max(dearest, terms[i]!.idf);
  const least = share * (total - dearest);
  const candidate = new Uint8Array(units.length);
  units.forEach((_, u) => {
    let held = 0;
    let idf = 0;
    for (let i = 0; i < words; i++) {
      if (bodyTf[u * T + i]! > 0) {
        held++;
        idf += terms[i]!.idf;
      }
    }
    if (held >= 3 && held * 2 >= words && idf >= least - 1e-9) candidate[u] = 1;
  });
  // Per unit, the runs ending at each query word with the last word read: `plain` as the
  // question says it, `swap` with one word replaced (its index in `gone`), `held` a plain
  // run followed by one word of no question (a replacement, if the run goes on after it).
  const runs = new Map<number, Runs>();
  const next = newRuns(words);
  const best = new Float64Array(units.length);
  const bestSwap = new Float64Array(units.length);
  const bestGone = new Int32Array(units.length).fill(-1);
  /** A run of `len` words and `idf` in unit `u` with word `g` replaced: kept when the best so far. */
  const swapped = (u: number, len: number, idf: number, g: number) => {
    if (len >= 3 && idf > bestSwap[u]! && idf >= share * (total - terms[g]!.idf)) {
      bestSwap[u] = idf;
      bestGone[u] = g;
    }
  };
  for (let l = 0; l < owner.length; l++) {
    const u = owner[l]!;
    if (u < 0 || !candidate[u]) continue;
    let run = runs.get(u);
    // A line of code between two comments ends the sentence; a string on it
    // may state the question itself (an error message: "raw stream already
    // detached" is the `raise` that says it).
    if (!prose[l]) {
      if (run) clearRuns(run, false);
      stringRuns(file, l, wordTerms, termsOf, terms, words, u, best);
      continue;
    }
    if (!run) runs.set(u, run = newRuns(words));
    const line = file.text.slice(file.lineStarts[l]!, file.lineStarts[l + 1] ?? file.text.length);
    for (const word of splitWords(line)) {
      let found = termsOf.get(word);
      if (found === undefined) termsOf.set(word, found = wordTerms(word));
      if (found === SKIPPED) continue;
      clearRuns(next);
      if (found === null) {
        // A word of no question: a plain run may go on after it, with the next word replaced.
        next.held.idf.set(run.plain.idf);
        next.held.len.set(run.plain.len);
        // The question's last word replaced: the run ends here.
        if (run.plain.len[words - 2]! > 0) {
          swapped(u, run.plain.len[words - 2]!, run.plain.idf[words - 2]!, words - 1);
        }
      }
      for (const i of found ?? []) {
        next.plain.idf[i] = (i > 0 ? run.plain.idf[i - 1]! : 0) + terms[i]!.idf;
        next.plain.len[i] = (i > 0 ? run.plain.len[i - 1]! : 0) + 1;
        // A run of one or two words is what pairs already weigh.
        if (next.plain.len[i]! >= 3 && next.plain.idf[i]! > best[u]!) best[u] = next.plain.idf[i]!;
        // Going on after a replaced word (i − 1), or after a run that already replaced one.
        const viaHeld = i >= 2 && run.held.len[i - 2]! > 0;
        const viaSwap = i >= 1 && run.swap.len[i - 1]! > 0;
        if (viaHeld && (!viaSwap || run.held.idf[i - 2]! >= run.swap.idf[i - 1]!)) {
          next.swap.idf[i] = run.held.idf[i - 2]! + terms[i]!.idf;
          next.swap.len[i] = run.held.len[i - 2]! + 1;
          next.gone[i] = i - 1;
        } else if (viaSwap) {
          next.swap.idf[i] = run.swap.idf[i - 1]! + terms[i]!.idf;
          next.swap.len[i] = run.swap.len[i - 1]! + 1;
          next.gone[i] = run.gone[i - 1]!;
        }
        if (next.swap.len[i]! > 0) swapped(u, next.swap.len[i]!, next.swap.idf[i]!, next.gone[i]!);
      }
      swapRuns(run, next);
    }
  }
  units.forEach((_, u) => {
    if (best[u]! >= share * total) out.stated[u] = (best[u]! * best[u]!) / total;
    else if (bestGone[u]! >= 0) {
      const rest = total - terms[bestGone[u]!]!.idf;
      out.replaced[u] = (bestSwap[u]! * bestSwap[u]!) / rest;
      out.missing[u] = bestGone[u]!;
    }
  });
  return out;
}

/** A quoted string on one line: `"…"`, `'…'` or `` `…` ``, without its quotes. */
const STRING_LITERAL = /"((?:[^"\\]|\\.){8,})"|'((?:[^'\\]|\\.){8,})'|`([^`]{8,})`/g;

/**
 * {@link proseRuns}' plain runs inside the strings of code line `l` of unit
 * `u`, one string at a time: the longest run of the question's consecutive
 * words a string holds raises `best[u]`.
 */
function stringRuns(
  file: FileText,
  l: number,
  wordTerms: (word: string) => readonly number[] | null | typeof SKIPPED,
  termsOf: Map<string, readonly number[] | null | typeof SKIPPED>,
  terms: readonly ScoredTerm[],
  words: number,
  u: number,
  best: Float64Array,
): void {
  const start = file.lineStarts[l]!;
  const end = file.lineStarts[l + 1] ?? file.text.length;
  const line = file.text.slice(start, end);
  if (!line.includes('"') && !line.includes("'") && !line.includes("`")) return;
  let run: Run = { idf: new Float64Array(words), len: new Float64Array(words) };
  let next: Run = { idf: new Float64Array(words), len: new Float64Array(words) };
  for (const m of line.matchAll(STRING_LITERAL)) {
    // A run never spans two strings.
    clearRun(run);
    for (const word of splitWords(m[1] ?? m[2] ?? m[3] ?? "")) {
      let found = termsOf.get(word);
      if (found === undefined) termsOf.set(word, found = wordTerms(word));
      if (found === SKIPPED) continue;
      clearRun(next);
      for (const i of found ?? []) {
        next.idf[i] = (i > 0 ? run.idf[i - 1]! : 0) + terms[i]!.idf;
        next.len[i] = (i > 0 ? run.len[i - 1]! : 0) + 1;
        if (next.len[i]! >= 3 && next.idf[i]! > best[u]!) best[u] = next.idf[i]!;
      }
      [run, next] = [next, run];
    }
  }
}

/** A word {@link proseRuns} passes over: a stop word, or one of a single letter. */
const SKIPPED = Symbol("skipped");

/** {@link proseRuns}'s state for one unit. */
interface Runs {
  plain: Run;
  held: Run;
  swap: Run;
  /** For each `swap` run, the index of the word it replaced. */
  gone: Int32Array;
  /** False while every run is empty: clearing it again costs nothing (a unit's code lines each clear it). */
  dirty: boolean;
}

function newRuns(words: number): Runs {
  const run = () => ({ idf: new Float64Array(words), len: new Float64Array(words) });
  return {
    plain: run(),
    held: run(),
    swap: run(),
    gone: new Int32Array(words).fill(-1),
    dirty: false,
  };
}

/** Empties `r`; `written` when the caller writes to it next (it is then `dirty`). */
function clearRuns(r: Runs, written = true): void {
  if (r.dirty) {
    clearRun(r.plain);
    clearRun(r.held);
    clearRun(r.swap);
    r.gone.fill(-1);
  }
  r.dirty = written;
}

function clearRun(x: Run): void {
  x.idf.fill(0);
  x.len.fill(0);
}

/** Swaps the contents of `a` and `b` (the state read and the state written). */
function swapRuns(a: Runs, b: Runs): void {
  [a.plain, b.plain] = [b.plain, a.plain];
  [a.held, b.held] = [b.held, a.held];
  [a.swap, b.swap] = [b.swap, a.swap];
  [a.gone, b.gone] = [b.gone, a.gone];
  [a.dirty, b.dirty] = [b.dirty, a.dirty];
}

/** How far (in characters past the first word's start) the next word of a pair may begin. */
const PAIR_REACH = 32;

/**
 * For each unit, the summed mean idf of the query's word pairs (a term with
 * `next` and the term after it) that its body holds in order, the second
 * starting within {@link PAIR_REACH} characters of the first, as a phrase or
 * a sentence would. `places` are each term's sorted offsets; `unitAt` maps an
 * offset to its unit (-1 for none), `share` to its line's weight (a prose
 * line's `doc / body`). Each pair counts once per unit, where it is first found.
 */
function adjacentPairs(
  terms: readonly ScoredTerm[],
  places: readonly (readonly number[])[],
  unitAt: (offset: number) => number,
  share: (offset: number) => number,
  unitCount: number,
): Float64Array {
  const out = new Float64Array(unitCount);
  terms.forEach((t, i) => {
    if (!t.next) return;
    const a = places[i]!;
    const b = places[i + 1]!;
    const weight = (t.idf + terms[i + 1]!.idf) / 2;
    const credited = new Set<number>();
    let k = 0;
    for (const x of a) {
      while (k < b.length && b[k]! <= x) k++;
      if (k < b.length && b[k]! - x <= t.stem.length + PAIR_REACH) {
        const u = unitAt(x);
        if (u >= 0 && !credited.has(u)) {
          credited.add(u);
          out[u]! += weight * share(x);
        }
      }
    }
  });
  return out;
}

/**
 * Calls `found` with the offset of every place in `file` where a word or an
 * identifier part stems to `stemmed` (`request` in `parseHTTPRequest`,
 * `pars` in `parse_header`, `retri` in `retry`), or a camelCase identifier
 * is that whole form, by substring search in the lower-cased text. A word
 * beyond ASCII has no combining marks (`splitWords` drops them), so marks
 * between its letters in the text are passed over (`कतब` in `किताब`); a pair
 * of characters of a script written without spaces (Chinese, Thai, …) is
 * found wherever it stands.
 */
export function forEachOccurrence(
  file: Pick<FileText, "text" | "lower">,
  stemmed: string,
  found: (at: number) => void,
): void {
  if (stemmed === "") return;
  const { text, lower } = file;
  if (/[^ -~]/.test(stemmed)) return occurrencesBeyondAscii(file, stemmed, found);
  const needle = stemPrefix(stemmed);
  const verdicts = new Map<string, boolean>();
  for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + 1)) {
    if (!startsPart(text, at)) continue;
    const end = partEnd(text, at);
    if (end - at === stemmed.length && lower.startsWith(stemmed, at)) {
      found(at);
      continue;
    }
    const part = lower.slice(at, end);
    let ok = verdicts.get(part);
    if (ok === undefined) {
      ok = stem(part) === stemmed;
      verdicts.set(part, ok);
    }
    // A whole identifier that starts with this part: its own verdict (`fullName`, `fullRune`).
    if (!ok && end - at < stemmed.length) ok = stem(wholeAt(lower, at)) === stemmed;
    if (ok) found(at);
  }
}

/** {@link forEachOccurrence} of a word with a letter beyond ASCII. */
function occurrencesBeyondAscii(
  file: Pick<FileText, "text" | "lower">,
  word: string,
  found: (at: number) => void,
): void {
  const { text, lower } = file;
  const letters = Array.from(word, (c) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const anywhere = hasUnspacedScript(word);
  for (const m of lower.matchAll(new RegExp(letters.join("\\p{M}*"), "gu"))) {
    const at = m.index;
    if (anywhere) found(at);
    else if (!startsPart(text, at)) continue;
    else if (
      withoutMarks(lower.slice(at, partEnd(text, at))) === word ||
      withoutMarks(wholeAt(lower, at)) === word
    ) found(at);
  }
}

const isLower = (c: number) => c >= 97 && c <= 122;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isAlnum = (c: number) => isLower(c) || isUpper(c) || isDigit(c) || c > 127;

/** True where an identifier part starts: after a non-word character, a case change or a digit run. */
function startsPart(text: string, at: number): boolean {
  if (at === 0) return true;
  const prev = text.charCodeAt(at - 1);
  const c = text.charCodeAt(at);
  if (!isAlnum(prev)) return true;
  if (isDigit(prev) !== isDigit(c)) return true;
  if (isUpper(c) && (isLower(prev))) return true;
  // The last capital of a run starts the next word: HTTPRequest → HTTP Request.
  return isUpper(c) && isUpper(prev) && isLower(text.charCodeAt(at + 1));
}

/** Where the identifier part starting at `at` ends, as `splitWords` would cut it. */
function partEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  let end = at + 1;
  if (isDigit(first)) {
    while (end < text.length && isDigit(text.charCodeAt(end))) end++;
  } else if (isUpper(first) && isUpper(text.charCodeAt(end))) {
    while (end < text.length && isUpper(text.charCodeAt(end))) end++;
    if (end < text.length && isLower(text.charCodeAt(end))) end--;
  } else {
    while (end < text.length) {
      const c = text.charCodeAt(end);
      if (!(isLower(c) || c > 127)) break;
      end++;
    }
  }
  return end;
}

/** The identifier starting at `at` of a lower-cased text as one word (`parse_http_request` → `parsehttprequest`). */
function wholeAt(lower: string, at: number): string {
  let end = at;
  while (end < lower.length && (isAlnum(lower.charCodeAt(end)) || lower.charCodeAt(end) === 95)) {
    end++;
  }
  return lower.slice(at, end).replaceAll("_", "");
}

/** The number of elements of sorted `a` that are ≤ `x`. */
function upperBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A line of a comment (not an attribute or decorator). */
const COMMENT =
  /^\s*(\/\/|\/\*|\*(\s|\/|$)|#(?!\s*(include|define|if|ifdef|ifndef|endif|else|elif|pragma|undef)\b|!|\[)|--|;;)/;
/** The first line of a Python docstring, and where it closes on the same line. */
const DOCSTRING_OPEN = /^\s*[rRuUbB]?("""|\x27\x27\x27)/;

/**
 * Marks the prose lines of ranged units (pure but for the result): comment
 * lines, and a docstring (a triple-quoted string that is the first statement
 * of a unit, as Python writes one). Lines owned by the file unit or by none
 * are not marked: a file's own text keeps one weight.
 */
export function proseLines(
  owner: Int32Array,
  units: readonly UnitInput[],
  file: FileText,
): Uint8Array {
  const out = new Uint8Array(owner.length);
  const lineText = (l: number) =>
    file.text.slice(file.lineStarts[l]!, (file.lineStarts[l + 1] ?? file.text.length + 1) - 1);
  let docstringEnd: string | undefined;
  for (let l = 0; l < owner.length; l++) {
    const u = owner[l]!;
    if (u < 0 || units[u]!.isFile) continue;
    // Most lines are code: their first character decides that without a regular expression.
    if (docstringEnd === undefined && !PROSE_START.has(firstNonBlank(file, l))) continue;
    const line = lineText(l);
    if (docstringEnd !== undefined) {
      out[l] = 1;
      if (line.includes(docstringEnd)) docstringEnd = undefined;
      continue;
    }
    if (COMMENT.test(line)) {
      out[l] = 1;
      continue;
    }
    const open = DOCSTRING_OPEN.exec(line);
    if (open && l > 0 && owner[l - 1] === u && units[u]!.start === l) {
      // The line after the unit's first: a docstring, open until its quotes close.
      out[l] = 1;
      const rest = line.slice(open[0].length);
      if (!rest.includes(open[1]!)) docstringEnd = open[1];
    }
  }
  return out;
}

/** The characters a {@link COMMENT} or a {@link DOCSTRING_OPEN} line begins with, after its indent. */
const PROSE_START = new Set([..."/*#-;\"'rRuUbB"].map((c) => c.charCodeAt(0)));

/** The code of line `l`'s first character that is not white space or a control (-1 for a blank line). */
function firstNonBlank(file: FileText, l: number): number {
  const end = file.lineStarts[l + 1] ?? file.text.length;
  for (let i = file.lineStarts[l]!; i < end; i++) {
    const c = file.text.charCodeAt(i);
    if (c > 32) return c;
  }
  return -1;
}

/** A line of a comment, a doc comment or an attribute/decorator, which belongs to the definition below it. */
export const LEADING =
  /^\s*(\/\/|\/\*|\*|#(?!\s*(include|define|if|ifdef|ifndef|endif|else|elif|pragma|undef)\b)|@|--|;;)/;

/**
 * Gives the comment, doc-comment and attribute lines directly above each
 * ranged unit (no blank line between) to that unit rather than to its file
 * or container: a symbol's doc comment is part of its own text, so its words
 * count for it and never for a neighbour.
 */
export function attachLeadingComments(
  owner: Int32Array,
  units: readonly UnitInput[],
  file: FileText,
): void {
  const lineText = (l: number) =>
    file.text.slice(file.lineStarts[l]!, (file.lineStarts[l + 1] ?? file.text.length + 1) - 1);
  units.forEach((u, i) => {
    if (u.isFile || u.start === null || u.end === null || u.text !== undefined) return;
    for (let l = u.start - 2; l >= 0 && l < owner.length; l--) {
      const o = owner[l]!;
      if (o === i || o < 0) break;
      const holder = units[o]!;
      const contains = holder.isFile === true ||
        (holder.start !== null && holder.end !== null && holder.start <= u.start &&
          holder.end >= u.end);
      if (!contains || !LEADING.test(lineText(l))) break;
      owner[l] = i;
    }
  });
}

/** Field weights chosen on the benchmark's tuning half (`docs/performance.md`, Search). */
export const DEFAULT_UNIT_WEIGHTS: UnitWeights = {
  name: 3,
  qual: 0,
  body: 1,
  doc: 0.5,
  path: 0,
  k1: 1.2,
  b: 0.25,
  avgBody: 960,
  nameB: 0.5,
  container: 1,
  pair: 1,
  lead: 4,
  exact: 1,
  sibling: 1,
  sentence: 2,
  sentenceShare: 0.9,
  replaced: 0.5,
};

/**
 * The stems of the words a name may begin with for a question that begins
 * with a given word (by stem), besides that word itself: how code
 * conventionally spells the verbs doc comments begin with. Stemmed once,
 * here: {@link leadStems} runs for every file a search scores.
 */
const LEAD_FORMS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    retriev: "get fetch load",
    fetch: "get load",
    check: "is has can should valid",
    determin: "is has can should",
    test: "is has",
    creat: "new make build init constructor",
    construct: "constructor new make build init creat",
    make: "new creat build",
    build: "new make creat",
    initi: "init setup",
    convert: "to as from",
    remov: "delet del drop clear",
    delet: "remov del drop",
    comput: "calc calcul get",
    calcul: "calc comput get",
    set: "put updat",
    add: "append insert push put",
    find: "search lookup get",
    look: "lookup find get",
  }).map(([verb, forms]) => [verb, forms.split(" ").map(stem)]),
);

/**
 * Stems of a question's first word that ask for a constructor ("Constructs
 * an empty any", "Creates a parser"): a name that begins with a form of it
 * leads, and so does a constructor named after its class (`any::any`).
 */
const CONSTRUCTING = new Set(["construct", "creat"]);

/**
 * True for a unit named as the class that holds it (`any` in `absl.any`,
 * `TreeRangeSet` in `TreeRangeSet`): C++, Java, C# and PHP 4 constructors;
 * the other languages' (`constructor`, `__init__`, `new`, `init`) are
 * named by {@link LEAD_FORMS}.
 */
function isConstructor(unit: UnitInput): boolean {
  if (unit.isFile || unit.name === "" || unit.qual === "") return false;
  const parts = unit.qual.split(/[.:]+/);
  return parts[parts.length - 1] === unit.name;
}

/** Words after "returns" that make it a yes-or-no question ("Returns true if …"). */
const PREDICATE = new Set(["true", "fals", "whether", "bool", "boolean"]);

/** Stems of the words a name answering "Returns true if …" may begin with. */
const PREDICATE_LEADS = ["is", "has", "can", "should"].map(stem);
/** Stems of the words a name answering "Returns the …" may begin with. */
const VALUE_LEADS = ["get", "to"].map(stem);

/**
 * The stems a name that answers a question beginning with stems `first`
 * and `second` may begin with: `first` itself and how code spells it. A
 * question that returns a truth value is answered by `is…`, `has…`; one
 * that returns anything else by `get…`, `to…`.
 */
function leadStems(first: string | undefined, second: string | undefined): ReadonlySet<string> {
  if (first === undefined) return new Set();
  const forms = first !== "return"
    ? LEAD_FORMS.get(first) ?? []
    : PREDICATE.has(second ?? "")
    ? PREDICATE_LEADS
    : VALUE_LEADS;
  return new Set([first, ...forms]);
}

/** The units that hold another unit's range (a class, a namespace, a parent section). */
export function containerUnits(units: readonly UnitInput[]): Set<number> {
  const ranged = rangedUnits(units).sort((a, b) =>
    units[a]!.start! - units[b]!.start! || units[b]!.end! - units[a]!.end!
  );
  const out = new Set<number>();
  // Sorted by start, widest first: a unit holds the next one when it reaches past its end.
  for (let k = 0; k + 1 < ranged.length; k++) {
    const a = units[ranged[k]!]!;
    const b = units[ranged[k + 1]!]!;
    if (b.start! <= a.end! && b.end! <= a.end!) out.add(ranged[k]!);
  }
  return out;
}

/**
 * The indices, in order, of the units that own a range of the file's lines:
 * not the file's own lines, not a text of their own. Indices, not objects:
 * a file may have thousands of units, and this runs twice for each file.
 */
function rangedUnits(units: readonly UnitInput[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < units.length; i++) {
    const u = units[i]!;
    if (!u.isFile && u.start !== null && u.end !== null && u.text === undefined) out.push(i);
  }
  return out;
}

/**
 * For each line, the index of the smallest unit whose range holds it (a
 * method's lines belong to the method, not to its class); lines outside
 * every ranged unit go to the file unit, or to none (-1).
 */
export function lineOwners(units: readonly UnitInput[], lineCount: number): Int32Array {
  const fileUnit = units.findIndex((u) => u.isFile === true);
  const owner = new Int32Array(lineCount).fill(fileUnit);
  const span = (i: number) => units[i]!.end! - units[i]!.start!;
  const ranged = rangedUnits(units).sort((a, b) => span(b) - span(a) || a - b);
  for (const i of ranged) {
    const u = units[i]!;
    const end = Math.min(u.end!, lineCount);
    for (let l = Math.max(1, u.start!); l <= end; l++) owner[l - 1] = i;
  }
  return owner;
}
