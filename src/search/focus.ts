/**
 * The second stage of a search: the first candidates' files are read from
 * disk (the bytes are kept for the verdicts), every unit they own — symbol,
 * section, window, the file's own lines, a note's text — is scored by its own
 * text (`unit_score.ts`), and the candidates are reordered by one model:
 *
 *     file = best unit + prior × (fused leg score ÷ the best one's)
 *          + fileCoverage × (share of the query's words anywhere in the file)
 *          − changelog (release notes, when the evidence is otherwise equal)
 *
 * A file is then named by its best units, best first. Files whose units are
 * the same text (a package's `.mjs`/`.cjs` builds, a vendored copy) fold into
 * the best of them, which lists the others as copies.
 */
import type { Journal } from "../store/mod.ts";
import type { Candidate, ChunkMeta, ScoredChunk, Tuning } from "./rank.ts";
import { isFileChunk } from "./rank.ts";
import { type ReadCache, readCached, substringCoverage } from "./rerank.ts";
import { type ScoredTerm, scoreUnits, type UnitInput } from "./unit_score.ts";
import { pathText } from "./chunk_rows.ts";

/** A unit of a candidate with its score, best first in {@link FocusedCandidate.units}. */
export interface RankedUnit {
  chunk: ChunkMeta & { text_hash: string };
  score: number;
  /** Query terms its own text matched. */
  matched: number;
}

/** A candidate after the second stage. */
export interface FocusedCandidate extends Candidate {
  /** Its units that matched the query, best first (empty when it was not read). */
  units: RankedUnit[];
  /** Other files holding the same units, folded into this one (absolute paths). */
  copies: string[];
  /** The score of the model above, or the fused score for candidates past the shortlist. */
  focus: number;
}

/** What the second stage needs of the query. */
export interface FocusQuery {
  terms: readonly ScoredTerm[];
  /** The query's content words, for the whole file's coverage. */
  words: readonly string[];
  /** Learned code words and their association with the query (may be empty). */
  learned: ReadonlyMap<string, number>;
}

const CHANGELOG =
  /(^|\/)(change[-_ ]?log|changes|history|news|release[-_ ]?notes|releases)([-_.][^/]*)?$/i;
/** Files read for the second stage at most this far (as the index's own size cap). */
const READ_MAX_BYTES = 1024 * 1024;

const UNITS = `SELECT c.id, c.path_id, c.node_id, c.source, c.ref_id, c.title, c.start_line,
  c.end_line, c.anchor, c.text, c.text_hash, p.path, p.rel, p.root_id, p.language, p.size,
  p.mtime_ms, p.hash, p.summary, n.kind, n.name, n.signature, n.doc, n.struct_hash
  FROM chunks c JOIN paths p ON p.id = c.path_id LEFT JOIN nodes n ON n.id = c.node_id
  WHERE c.path_id IN (SELECT value FROM json_each(?)) ORDER BY c.id`;

/**
 * Reorders the first `tuning.rerankDepth` candidates by the model above and
 * names each by its best units; the rest follow in their fused order. Reads
 * each shortlisted file once (kept in `cache`); a file that cannot be read
 * keeps its fused score, with no units. Pure but for those reads and one
 * journal query.
 */
export function focusCandidates(
  j: Journal,
  candidates: readonly Candidate[],
  q: FocusQuery,
  tuning: Tuning,
  cache: ReadCache,
): FocusedCandidate[] {
  const depth = Math.max(0, tuning.rerankDepth);
  const head = candidates.slice(0, depth);
  const tail = candidates.slice(depth).map((c): FocusedCandidate => ({
    ...c,
    units: [],
    copies: [],
    focus: -Infinity,
  }));
  if (head.length === 0) return tail;
  const rows = new Map<number, (ChunkMeta & { text_hash: string })[]>();
  const pathIds = head.flatMap((c) => (c.best.path_id === null ? [] : [c.best.path_id]));
  for (const r of j.all<ChunkMeta & { text_hash: string }>(UNITS, JSON.stringify(pathIds))) {
    const list = rows.get(r.path_id!) ?? [];
    list.push(r);
    rows.set(r.path_id!, list);
  }
  const maxPrior = Math.max(...head.map((c) => c.score), Number.MIN_VALUE);
  const dec = new TextDecoder();
  const hashes = new Map<string, Set<string>>();
  const focused = head.map((c): FocusedCandidate => {
    const m = c.best;
    const prior = tuning.priorWeight * (c.score / maxPrior);
    let chunks: (ChunkMeta & { text_hash: string })[];
    let lines: string[] = [];
    let lowerText: string;
    if (m.path_id === null) {
      chunks = [{ ...m, text_hash: "" }];
      lowerText = `${m.title}\n${m.text ?? ""}`.toLowerCase();
    } else {
      const bytes = readCached(m.path!, cache, READ_MAX_BYTES);
      chunks = rows.get(m.path_id) ?? [];
      if (bytes === undefined || chunks.length === 0) {
        return { ...c, units: [], copies: [], focus: prior };
      }
      const text = dec.decode(
        bytes.length > READ_MAX_BYTES ? bytes.subarray(0, READ_MAX_BYTES) : bytes,
      );
      lines = text.split("\n");
      lowerText = text.toLowerCase();
    }
    hashes.set(c.key, new Set(chunks.filter((u) => !isFileChunk(u)).map((u) => u.text_hash)));
    const inputs = chunks.map(unitInput);
    const scores = scoreUnits(
      inputs,
      lines,
      m.rel === null ? "" : pathText(m.rel),
      q.terms,
      q.learned,
      tuning.unit,
    );
    const units: RankedUnit[] = chunks
      .map((chunk, i) => ({
        chunk,
        score: scores[i]!.score + tuning.learnedWeight * scores[i]!.learned,
        matched: scores[i]!.matched,
      }))
      .sort((a, b) => b.score - a.score || a.chunk.id - b.chunk.id);
    const best = units[0]?.score ?? 0;
    const cover = tuning.rerankWeight * substringCoverage(q.words, lowerText);
    const changelog = m.rel !== null && CHANGELOG.test(m.rel) ? tuning.changelogPenalty : 0;
    return {
      ...c,
      best: nameOf(c, units),
      units: units.filter((u) => u.matched > 0 && !isFileChunk(u.chunk)),
      copies: [],
      focus: best + prior + cover - changelog,
    };
  });
  focused.sort((a, b) => b.focus - a.focus || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return [...foldCopies(focused, hashes, tuning.copyJaccard), ...tail];
}

/** The chunk a candidate is named by: its best matching unit that is not the file's own lines. */
function nameOf(c: Candidate, units: readonly RankedUnit[]): ScoredChunk {
  const named = units.find((u) => u.matched > 0 && !isFileChunk(u.chunk));
  if (!named) return c.best;
  const fused = [c.best, ...c.others].find((o) => o.id === named.chunk.id);
  return { ...named.chunk, score: c.score, legs: fused?.legs ?? c.best.legs };
}

/** A chunk as a unit of its file: a note's text, the file's own lines, a symbol, a section or a window. */
function unitInput(c: ChunkMeta): UnitInput {
  const none = { qual: "", signature: "", doc: "", start: null, end: null } as const;
  if (c.path_id === null) return { ...none, name: c.title, text: c.text ?? "" };
  if (isFileChunk(c)) {
    const base = c.rel?.slice(c.rel.lastIndexOf("/") + 1) ?? "";
    return { ...none, name: base.replace(/\..*$/, ""), doc: c.summary ?? "", isFile: true };
  }
  const at = { start: c.start_line, end: c.end_line ?? c.start_line };
  if (c.source === "docs") {
    const cut = c.title.lastIndexOf(" > ");
    return cut < 0
      ? { ...none, ...at, name: c.title }
      : { ...none, ...at, name: c.title.slice(cut + 3), qual: c.title.slice(0, cut) };
  }
  if (c.name === null) return { ...none, ...at, name: "" };
  const dot = c.title.lastIndexOf(".");
  return {
    ...none,
    ...at,
    name: c.name,
    qual: dot > 0 ? c.title.slice(0, dot) : "",
    signature: c.signature ?? "",
    doc: c.doc ?? "",
  };
}

/**
 * Folds candidates whose units are the same text into the first of them
 * (pure): two files are copies when the Jaccard similarity of their units'
 * text hashes is at least `threshold` (each with at least two units), or
 * when their content hashes are equal. `hashes` holds each candidate's
 * unit text hashes (its own lines left out) by key.
 */
export function foldCopies(
  list: readonly FocusedCandidate[],
  hashes: ReadonlyMap<string, ReadonlySet<string>>,
  threshold: number,
): FocusedCandidate[] {
  const out: FocusedCandidate[] = [];
  const sets: (ReadonlySet<string> | undefined)[] = [];
  for (const c of list) {
    const set = hashes.get(c.key);
    const twin = out.findIndex((o, i) => isCopy(o, sets[i], c, set, threshold));
    if (twin >= 0) {
      out[twin] = { ...out[twin]!, copies: [...out[twin]!.copies, c.best.path!] };
      continue;
    }
    out.push(c);
    sets.push(set);
  }
  return out;
}

function isCopy(
  a: FocusedCandidate,
  aSet: ReadonlySet<string> | undefined,
  b: FocusedCandidate,
  bSet: ReadonlySet<string> | undefined,
  threshold: number,
): boolean {
  if (a.best.path_id === null || b.best.path_id === null) return false;
  if (a.best.hash !== null && a.best.hash === b.best.hash) return true;
  if (!aSet || !bSet || aSet.size < 2 || bSet.size < 2) return false;
  let both = 0;
  for (const h of aSet) if (bSet.has(h)) both++;
  return both / (aSet.size + bSet.size - both) >= threshold;
}
