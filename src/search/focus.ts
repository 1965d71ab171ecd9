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
 * the best of them, which lists the others as copies. A symbol that brought
 * its file in but is gone from it (edited since it was indexed) and is
 * defined in another file now is a candidate there, scored as a unit of it.
 */
import { contentHash, decodeText, exists } from "../files/mod.ts";
import type { Journal } from "../store/mod.ts";
import {
  type Candidate,
  type ChunkMeta,
  isFileChunk,
  loadMeta,
  type ScoredChunk,
  type Tuning,
} from "./rank.ts";
import { chunksHolding } from "./lexical.ts";
import { type ReadCache, readCached, substringCoverage } from "./file_reads.ts";
import type { Relocated } from "./relocate.ts";
import { pathTail, type StackFrame } from "./frames.ts";
import { definitionLines, lastLinesNow } from "./lines_now.ts";
import { fileText, type ScoredTerm, scoreUnits, type UnitInput } from "./unit_score.ts";

/** A unit of a candidate with its score; `chunk` is what the journal says of it. */
export interface RankedUnit {
  chunk: ChunkMeta;
  score: number;
  /** Query terms its own text matched. */
  matched: number;
}

/** A candidate after the second stage. */
export interface FocusedCandidate extends Candidate {
  /** Its units that matched the query, best first, at most {@link SHOWN_UNITS} (empty when not read). */
  units: RankedUnit[];
  /** Other files holding the same units, folded into this one (absolute paths). */
  copies: string[];
  /** The score of the model above, or -Infinity for candidates past the shortlist. */
  focus: number;
  /**
   * Where its symbol is defined now, when its file (still there, edited)
   * no longer holds it: verified there, REBUILT (see {@link FocusQuery.whereMoved}).
   */
  movedTo?: Relocated;
}

/** What the second stage needs of the query. */
export interface FocusQuery {
  terms: readonly ScoredTerm[];
  /** The query's content words, for the whole file's coverage. */
  words: readonly string[];
  /** Words after `-` in the query: a unit holding one never names or scores its file. */
  excluded?: readonly string[];
  /** Learned code words and their association with the query (may be empty). */
  learned: ReadonlyMap<string, number>;
  /** Of copies, the one under this folder is shown (`SearchRequest.near`). */
  near?: string;
  /**
   * The file name or path end the query is (`typedPath`): the files whose
   * path is it or ends in `/` and it come first, whatever their score. A
   * user who types `PoolDictionary.cs` wants that file, not the dozens whose
   * paths and bodies say "pool" and "dictionary" more often than it does.
   */
  path?: string;
  /**
   * The name the query is, as typed (`typedNames`: `Default`, `Store.open`):
   * the files named by a code definition spelled so, case included, come
   * next, before one whose definition is only another casing (`default`).
   */
  name?: string;
  /**
   * The places the question points at by file and line alone (a location
   * such as `src/pool.ts:42`, an anonymous stack frame): in a file whose
   * path ends with one's {@link pathTail}, the innermost unit holding its
   * line is the one named, whatever the words matched. `pool.ts:42` asks
   * about the function at line 42, which holds none of the path's words.
   */
  lines?: readonly StackFrame[];
  /**
   * Where a file gone from its path is now (the verifier's `whereNow`,
   * which keeps the answer and the search's time budget for it).
   */
  whereNow?: (m: ChunkMeta) => Relocated | undefined;
  /**
   * Where a symbol is defined now that its edited file no longer holds (the
   * verifier's `whereMoved`): the symbol that brought a file into the
   * ranking, moved to another module, is an answer of its own there.
   */
  whereMoved?: (m: ChunkMeta) => Relocated | undefined;
}

/** Units a candidate keeps, best first: what a hit lists. */
export const SHOWN_UNITS = 5;

/**
 * A changelog's or release notes' file name (`CHANGELOG.md`, `NEWS`, `WHATSNEW.rst`), maybe
 * after a version (`7_1_release_notes.md`, Rails' guides; `v2-changelog.md`).
 */
const CHANGELOG = new RegExp(
  String
    .raw`(^|\/)((change[-_ ]?log|changes|history|news|release[-_ ]?notes|releases|whats[-_ ]?new)` +
    String.raw`|[\w.]*\d[\w.]*[-_](change[-_ ]?log|release[-_ ]?notes))([-_.][^/]*)?$`,
  "i",
);
/**
 * A folder of release notes, one file a release or change (`docs/releases/2.1.md`,
 * `changelog.d/`, Python's `Doc/whatsnew/3.10.rst`).
 */
const CHANGELOG_DIR =
  /(^|\/)(change[-_ ]?logs?|changes|news|release[-_ ]?notes|releases|newsfragments|whats[-_ ]?new)(\.d)?\//i;
/**
 * What a window of a code file's lines outside its symbols counts of its
 * score, against its symbols (see {@link focusCandidates}).
 */
const CODE_WINDOW_SHARE = 0.5;
/**
 * Kinds of symbol that declare a type or a value and hold no code of their
 * own: a Rust struct, enum or trait and each of its `impl` blocks (its
 * methods are symbols of their own), a Go or TypeScript type, a C typedef
 * or union, a constant or a module-level variable. A class or an interface
 * holds its methods' lines, so it is not one.
 */
const CODELESS_DECLARATIONS: ReadonlySet<string> = new Set([
  "struct",
  "enum",
  "trait",
  "impl",
  "union",
  "type",
  "constant",
  "variable",
]);

/**
 * Puts first, in place, the best function or method of a file's units
 * (sorted best first) when a type's or a value's declaration leads them and the function
 * scores at least `share` of it. A question that names a type ("Creates a
 * new RawWaker from the data pointer and vtable") matches the type's name
 * in its declaration and in every `impl` block of it, and a struct's doc
 * comment describes what its methods take: they outscored the function
 * asked for (`RawWaker::new`), which the reader acts on. A query that is a
 * name (`RawWaker` typed alone) asks for the declaration, and is left as it is.
 */
function functionFirst(
  shown: { row: UnitRow; score: number }[],
  share: number,
): void {
  const top = shown[0];
  if (!top || top.score <= 0 || !CODELESS_DECLARATIONS.has(top.row.kind ?? "")) return;
  const at = shown.findIndex((u) =>
    (u.row.kind === "function" || u.row.kind === "method") && u.score >= share * top.score
  );
  if (at > 0) shown.unshift(...shown.splice(at, 1));
}

/** Files read for the second stage at most this far (as the index's own size cap). */
const READ_MAX_BYTES = 1024 * 1024;

/** What the second stage reads of a file's chunk: enough to score it, not to show it. */
interface UnitRow {
  id: number;
  path_id: number;
  source: string;
  title: string;
  start_line: number | null;
  end_line: number | null;
  text_hash: string;
  /** Its symbol's kind (`method`, `struct`, …); null for a section, a window, the file's own lines. */
  kind: string | null;
}

/**
 * The shortlist's units, in no promised order: an `ORDER BY id` had SQLite
 * sort a search's thousand rows, where each file's are put in id order in
 * JS (the `chunks_path` index returns them in it already, and sorting a
 * sorted list costs a pass).
 */
const FILE_UNITS = `SELECT id, path_id, source, title, start_line, end_line, text_hash,
  (SELECT kind FROM nodes WHERE nodes.id = chunks.node_id) AS kind
  FROM chunks WHERE path_id IN (SELECT value FROM json_each(?))`;

/**
 * Reorders the candidates up to the `tuning.focusDepth`-th file (with the
 * notes and memories ranked among them) by the model above and
 * names each by its best units; the rest follow in their fused order. Reads
 * each shortlisted file once (kept in `cache`); a file that cannot be read
 * keeps its prior alone, with no units. Two journal queries: the shortlist's
 * chunks, then what is shown of the units kept.
 */
export function focusCandidates(
  j: Journal,
  candidates: readonly Candidate[],
  q: FocusQuery,
  tuning: Tuning,
  cache: ReadCache,
): FocusedCandidate[] {
  // The depth bounds the files read; notes and memories on the way cost no read.
  let depth = 0;
  for (let files = 0; depth < candidates.length && files < tuning.focusDepth; depth++) {
    if (candidates[depth]!.best.path_id !== null) files++;
  }
  const [head, rest] = nearFirst(candidates.slice(0, depth), candidates.slice(depth), q.near);
  const tail = rest.map((c): FocusedCandidate => ({
    ...c,
    units: [],
    copies: [],
    focus: -Infinity,
  }));
  if (head.length === 0) return tail;
  const rows = new Map<number, UnitRow[]>();
  const pathIds = head.flatMap((c) => (c.best.path_id === null ? [] : [c.best.path_id]));
  for (const r of j.rows<UnitRow>(FILE_UNITS, JSON.stringify(pathIds))) {
    const list = rows.get(r.path_id);
    if (list) list.push(r);
    else rows.set(r.path_id, [r]);
  }
  // A file's units in id order, as `FILE_UNITS` does not say.
  for (const list of rows.values()) list.sort((a, b) => a.id - b.id);
  // The lexical leg never returns a chunk holding an excluded word; neither is one
  // the answer inside a file another of its chunks brought in.
  const excluded = chunksHolding(
    j,
    [...rows.values()].flatMap((list) => list.map((r) => r.id)),
    q.excluded ?? [],
  );
  const maxPrior = Math.max(...head.map((c) => c.score), Number.MIN_VALUE);
  const texts = new Map<string, UnitTexts>();
  // Files of one name (`index.mjs`, `index.cjs`, `index.umd.js`) are compared white space
  // aside; others by their units' indexed text hashes (no text to read).
  const seen = new Set<string>();
  const named = new Set<string>();
  for (const c of head) {
    if (c.best.rel === null) continue;
    const stem = nameStem(c.best.rel);
    if (seen.has(stem)) named.add(stem);
    seen.add(stem);
  }
  // Symbols moved out of their edited files into others, each a candidate where it is now.
  const movedOut: FocusedCandidate[] = [];
  const assessed = head.map((c) => {
    const m = c.best;
    const prior = tuning.priorWeight * (c.score / maxPrior);
    if (m.path_id === null) {
      // A note or memory is one unit: its own text.
      const [s] = scoreUnits([looseUnit(m)], fileText(""), "", q.terms, q.learned, tuning.unit);
      const lower = `${m.title}\n${m.text ?? ""}`.toLowerCase();
      const score = s!.score + tuning.learnedWeight * s!.learned;
      return {
        c,
        units: [] as { row: UnitRow; score: number; matched: number }[],
        focus: score + prior + tuning.coverWeight * substringCoverage(q.words, lower),
      };
    }
    const list = rows.get(m.path_id) ?? [];
    let bytes = readCached(m.path!, cache, READ_MAX_BYTES);
    let elsewhere = false;
    // A file moved or renamed since it was indexed is scored where its very
    // bytes are now (verification shows it there, REBUILT), not sunk for
    // want of a read; a symbol found in another file is not this file.
    if (bytes === undefined && q.whereNow && !exists(m.path!)) {
      const now = q.whereNow(m);
      if (now?.how === "same content") {
        bytes = readCached(now.path, cache, READ_MAX_BYTES);
        elsewhere = true;
      }
    }
    if (bytes === undefined) return { c, units: [], focus: prior, unread: true };
    if (list.length === 0) return { c, units: [], focus: prior };
    const file = fileText(
      decodeText(bytes.length > READ_MAX_BYTES ? bytes.subarray(0, READ_MAX_BYTES) : bytes),
    );
    const rel = m.rel ?? "";
    // An edited file: its units are scored where their definitions are now. An edit that kept
    // its size (a character changed, two functions of one length swapped) shows in its mtime
    // and hash: two swapped functions were each scored at the other's lines.
    const edited = m.size !== null &&
      (bytes.length !== m.size ||
        (!elsewhere && mtimeOf(m.path!) !== m.mtime_ms && contentHash(bytes) !== m.hash));
    const moved = edited ? rangesNow(j, m.path_id, file.text) : undefined;
    // A symbol deleted since (its namesakes hold every line of its signature) owns no line now.
    const live = moved ? list.filter((row) => moved.get(row.id) !== null) : list;
    // The symbol that brought the file in, moved to another module: an answer there.
    const there = moved?.get(m.id) === null && m.source === "code" && !isFileChunk(m)
      ? q.whereMoved?.(m)
      : undefined;
    const movedHit = there && movedCandidate(c, there, q, tuning, cache, prior);
    if (movedHit) movedOut.push(movedHit);
    // A heading names a section less sharply than an identifier names code, so a
    // heading word few sections share is no sign of the answer (it cost prose
    // questions on the benchmark); prose is all prose. Nor is a heading a
    // function's name whose first word a question's verb leads to: a page's
    // title that begins with the question's first word (`git-rebase(1)` for
    // "git rebase interactive squash") was named before the section that
    // answers it.
    const weights = m.source === "docs"
      ? { ...tuning.unit, name: tuning.headingWeight, doc: tuning.unit.body, sibling: 0, lead: 0 }
      : tuning.unit;
    const s = scoreUnits(
      live.map((u) => {
        const now = moved?.get(u.id);
        return unitInput(now ? { ...u, ...now } : u, rel);
      }),
      file,
      rel,
      q.terms,
      q.learned,
      weights,
    );
    // The file's best unit scores it; only units that matched are sorted to be shown.
    // In a file of symbols, a window of its other lines (a script's commands around
    // its functions) answers at half its score: a reader acts on a function.
    const window = `${rel} § `;
    const hasSymbols = m.source === "code" &&
      live.some((row) => row.title !== rel && !row.title.startsWith(window));
    let best = -Infinity;
    const shown: { row: UnitRow; score: number; matched: number }[] = [];
    live.forEach((row, i) => {
      if (excluded.has(row.id)) return;
      const share = hasSymbols && row.title.startsWith(window) ? CODE_WINDOW_SHARE : 1;
      const score = share * (s[i]!.score + tuning.learnedWeight * s[i]!.learned);
      best = Math.max(best, score);
      if (s[i]!.matched > 0 && row.title !== rel) {
        shown.push({ row, score, matched: s[i]!.matched });
      }
    });
    shown.sort((a, b) => b.score - a.score || a.row.id - b.row.id);
    if (q.name === undefined) functionFirst(shown, tuning.typeShare);
    const pointed = unitAtLine(live, rel, q.lines ?? [], moved);
    if (pointed !== undefined && !excluded.has(live[pointed]!.id)) {
      const at = shown.findIndex((u) => u.row.id === live[pointed]!.id);
      const [unit] = at >= 0
        ? shown.splice(at, 1)
        : [{ row: live[pointed]!, score: s[pointed]!.score, matched: s[pointed]!.matched }];
      shown.unshift(unit!);
    }
    // Nothing else of the file answers: it was a hit for what it no longer holds.
    if (movedHit && shown.length === 0) return { c, units: [], focus: -Infinity, left: true };
    const kept = shown.slice(0, SHOWN_UNITS);
    texts.set(
      c.key,
      named.has(nameStem(rel)) ? unitTexts(list, rel, file, kept) : indexedTexts(list, rel, kept),
    );
    // Release notes are prose (or text of no known language): `src/history.ts` is code.
    const notes = (CHANGELOG.test(rel) || CHANGELOG_DIR.test(rel)) &&
      (m.source === "docs" || m.language === null);
    const changelog = notes ? tuning.changelogPenalty : 0;
    return {
      c,
      units: shown.slice(0, SHOWN_UNITS),
      focus: (best === -Infinity ? 0 : best) + prior +
        tuning.coverWeight * substringCoverage(q.words, file.lower) - changelog,
    };
  });
  const scored = assessed.filter((s) => !("left" in s));
  keepPlaceOfUnread(scored);
  const meta = new Map<number, ChunkMeta>();
  loadMeta(j, scored.flatMap((s) => s.units.map((u) => u.row.id)), meta);
  const focused = scored.map(({ c, units, focus }): FocusedCandidate => {
    const shown = units.flatMap((u) => {
      const chunk = meta.get(u.row.id);
      return chunk ? [{ chunk, score: u.score, matched: u.matched }] : [];
    });
    return { ...c, best: nameOf(c, shown), units: shown, copies: [], focus };
  });
  focused.push(...movedOut);
  const typed = (c: FocusedCandidate) =>
    isTypedPath(c.best.rel, q.path) ? 2 : spellsTypedName(c.best, q.name) ? 1 : 0;
  focused.sort((a, b) =>
    typed(b) - typed(a) || b.focus - a.focus || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
  return [
    ...foldCopies(
      successorsFirst(j, focused),
      texts,
      tuning.copyJaccard,
      q.near,
      exists,
      (c) => asIndexed(c.best, cache),
    ),
    ...tail,
  ];
}

/**
 * The candidates with each superseded memory moved right below the memory
 * that superseded it (through a chain of them), when that one is among
 * them: the decision in force is read first, the one it replaced next to
 * it as history. A question in the old decision's words ranked it first
 * ("applied before tax" above "applied after tax since…"), and an agent
 * acts on the first hit. One query, only when two memories are candidates.
 */
function successorsFirst(j: Journal, list: FocusedCandidate[]): FocusedCandidate[] {
  const idOf = (c: FocusedCandidate) =>
    c.best.source === "memory" && c.best.ref_id !== null ? String(c.best.ref_id) : undefined;
  const ids = list.flatMap((c) => idOf(c) ?? []);
  if (ids.length < 2) return list;
  const successor = new Map(
    j.all<{ id: string; by: string }>(
      `SELECT id, superseded_by AS by FROM memories
       WHERE superseded_by IS NOT NULL AND id IN (SELECT value FROM json_each(?))`,
      JSON.stringify(ids),
    ).map((r) => [r.id, r.by]),
  );
  const present = new Set(ids);
  const below = new Map<string, FocusedCandidate[]>();
  const moved = new Set<FocusedCandidate>();
  for (const c of list) {
    const by = successor.get(idOf(c) ?? "");
    if (by === undefined || !present.has(by)) continue;
    below.set(by, [...(below.get(by) ?? []), c]);
    moved.add(c);
  }
  if (moved.size === 0) return list;
  const out: FocusedCandidate[] = [];
  const place = (c: FocusedCandidate) => {
    out.push(c);
    for (const older of below.get(idOf(c) ?? "") ?? []) place(older);
  };
  for (const c of list) if (!moved.has(c)) place(c);
  // Supersession never loops (a memory supersedes older ones); were it to, nothing is lost.
  return out.length === list.length ? out : list;
}

/**
 * A candidate for `c`'s symbol where it is defined now, in another file
 * (`there`), scored as a unit of that file by the same model, over its
 * indexed length from the line found; undefined when that file cannot be
 * read. It keeps `c`'s chunk, which says what was indexed and where.
 */
function movedCandidate(
  c: Candidate,
  there: Relocated,
  q: FocusQuery,
  tuning: Tuning,
  cache: ReadCache,
  prior: number,
): FocusedCandidate | undefined {
  const m = c.best;
  const bytes = readCached(there.path, cache, READ_MAX_BYTES);
  if (bytes === undefined || there.line === null || m.path === null) return undefined;
  const root = m.rel === null ? "" : m.path.slice(0, m.path.length - m.rel.length);
  const rel = there.path.startsWith(root) ? there.path.slice(root.length) : there.path;
  const start = there.line;
  const end = start + ((m.end_line ?? m.start_line ?? start) - (m.start_line ?? start));
  const [s] = scoreUnits(
    [unitInput({ ...m, start_line: start, end_line: end }, rel)],
    fileText(decodeText(bytes)),
    rel,
    q.terms,
    q.learned,
    tuning.unit,
  );
  const score = s!.score + tuning.learnedWeight * s!.learned;
  return {
    ...c,
    key: `${c.key} moved`,
    others: [],
    // Its own unit, for its confidence: verification shows it alone, where it is now.
    units: [{ chunk: m, score, matched: s!.matched }],
    copies: [],
    focus: score + prior,
    movedTo: there,
  };
}

/** A file's mtime in milliseconds (0 without one), or undefined when it cannot be stat-ed. */
function mtimeOf(path: string): number | undefined {
  try {
    return Deno.lstatSync(path).mtime?.getTime() ?? 0;
  } catch {
    return undefined;
  }
}

/**
 * True when a file holds now what it held when indexed: its size and mtime
 * as indexed, or its bytes (read once per search, `cache`) of the indexed
 * hash; also when it is gone (whether a gone copy stands is `foldCopies`'s
 * `present`). A copy compared on what the index holds of it is only one
 * while that is what it holds. A stat, and a hash when only its mtime moved.
 */
function asIndexed(m: ChunkMeta, cache: ReadCache): boolean {
  let st: Deno.FileInfo;
  try {
    st = Deno.lstatSync(m.path!);
  } catch {
    return true;
  }
  if (!st.isFile || st.size !== m.size) return false;
  if ((st.mtime?.getTime() ?? 0) === m.mtime_ms) return true;
  const bytes = readCached(m.path!, cache, READ_MAX_BYTES);
  return bytes !== undefined && contentHash(bytes) === m.hash;
}

/**
 * Where each symbol of a file edited since it was indexed starts and ends
 * now, by chunk id: its signature looked for where it was, namesakes in
 * their order (`definitionLines`, as verification places a hit), its
 * length kept up to the symbol below it (`lastLinesNow`). A symbol found on
 * no line (deleted, renamed), or whose namesakes took every line holding its
 * signature, is null: gone, as verification says of it (`NAME not found in
 * it now`), not scored at the lines it left, which other code holds now; a
 * section of prose not found (its heading reworded) keeps its indexed lines.
 */
function rangesNow(
  j: Journal,
  pathId: number,
  text: string,
): Map<number, { start_line: number; end_line: number } | null> {
  const out = new Map<number, { start_line: number; end_line: number } | null>();
  const rows = j.all<
    {
      id: number;
      line: number;
      end_line: number | null;
      signature: string;
      name: string;
      source: string;
    }
  >(
    `SELECT c.id, c.start_line AS line, c.end_line, n.signature, n.name, c.source FROM chunks c JOIN nodes n ON n.id = c.node_id
     WHERE c.path_id = ? AND c.start_line IS NOT NULL AND n.signature IS NOT NULL`,
    pathId,
  );
  if (rows.length === 0) return out;
  const now = definitionLines(text.split("\n"), rows);
  const last = lastLinesNow(rows, now);
  for (const r of rows) {
    const at = now.get(r.id);
    if (at === undefined || at === null) {
      // A section whose heading was reworded keeps its lines, as verification reads it there.
      if (r.source !== "docs") out.set(r.id, null);
      continue;
    }
    // Its length kept, but not into the symbol below it (its body shrank).
    const end = Math.max(
      at,
      Math.min(at + (r.end_line ?? r.line) - r.line, last.get(r.id) ?? Infinity),
    );
    if (at === r.line && end === r.end_line) continue;
    out.set(r.id, { start_line: at, end_line: end });
  }
  return out;
}

/**
 * A file that could not be read (moved, deleted, unreadable since it was
 * indexed) has no unit score to weigh against the files that were: it keeps
 * its place in the fused ranking among them, just below the lowest-scored
 * of those that ranked above it there (first when none did), instead of
 * sinking below every file read. Verification then finds it moved (REBUILT)
 * or prunes it (STALE).
 */
function keepPlaceOfUnread(list: { c: Candidate; focus: number; unread?: boolean }[]): void {
  const read = list.filter((s) => !s.unread);
  if (read.length === 0) return;
  const top = Math.max(...read.map((s) => s.focus));
  for (const s of list) {
    if (!s.unread) continue;
    const above = read.filter((r) => r.c.score >= s.c.score).map((r) => r.focus);
    s.focus = above.length === 0 ? top + PLACE_STEP : Math.min(...above) - PLACE_STEP;
  }
}

/** How far below (or above) a neighbour an unread file is placed: enough to order, too little to matter. */
const PLACE_STEP = 1e-9;

/**
 * The shortlist with each file that has an identical copy under `near` (the
 * same content hash, further down the list) replaced by that copy, in its
 * place: the asker's own copy is the one read and shown (pure).
 */
function nearFirst(
  head: readonly Candidate[],
  tail: readonly Candidate[],
  near: string | undefined,
): [Candidate[], Candidate[]] {
  if (near === undefined) return [[...head], [...tail]];
  const prefix = near.replace(/\/+$/, "") + "/";
  const isNear = (c: Candidate) => c.best.path?.startsWith(prefix) === true;
  const twins = new Map<string, number>();
  tail.forEach((c, i) => {
    if (c.best.hash !== null && isNear(c) && !twins.has(c.best.hash)) twins.set(c.best.hash, i);
  });
  if (twins.size === 0) return [[...head], [...tail]];
  const moved = new Set<number>();
  const out = head.map((c) => {
    const i = c.best.hash === null || isNear(c) ? undefined : twins.get(c.best.hash);
    if (i === undefined || moved.has(i)) return c;
    moved.add(i);
    return { ...tail[i]!, score: Math.max(c.score, tail[i]!.score) };
  });
  const swappedOut = head.filter((c, k) => out[k] !== c);
  return [out, [...swappedOut, ...tail.filter((_, i) => !moved.has(i))]];
}

/**
 * Of a file's units, the index of the innermost (fewest lines) holding the
 * line of a frame whose {@link pathTail} ends `rel`, at its lines now
 * (`moved`, for an edited file); undefined when no frame points into the
 * file or no unit but the file's own lines holds the line.
 */
function unitAtLine(
  units: readonly UnitRow[],
  rel: string,
  frames: readonly StackFrame[],
  moved:
    | ReadonlyMap<number, { start_line: number | null; end_line: number | null } | null>
    | undefined,
): number | undefined {
  let best: number | undefined;
  let bestLines = Infinity;
  for (const f of frames) {
    const tail = pathTail(f.path);
    if (tail === "" || (rel !== tail && !rel.endsWith(`/${tail}`))) continue;
    units.forEach((u, i) => {
      if (u.title === rel) return;
      const now = moved?.get(u.id) ?? u;
      if (now.start_line === null) return;
      const end = now.end_line ?? now.start_line;
      if (now.start_line <= f.line && f.line <= end && end - now.start_line < bestLines) {
        best = i;
        bestLines = end - now.start_line;
      }
    });
    if (best !== undefined) return best;
  }
  return best;
}

/** True when `rel` is the path a query typed (`FocusQuery.path`) or ends in `/` and it. */
function isTypedPath(rel: string | null, typed: string | undefined): boolean {
  return typed !== undefined && rel !== null && (rel === typed || rel.endsWith(`/${typed}`));
}

/** True when `m` is a code definition whose qualified name is `typed` or ends in `.` and it. */
function spellsTypedName(m: ChunkMeta, typed: string | undefined): boolean {
  return typed !== undefined && m.source === "code" && m.node_id !== null && !isFileChunk(m) &&
    (m.title === typed || m.title.endsWith(`.${typed}`));
}

/** The chunk a candidate is named by: its best matching unit that is not the file's own lines. */
function nameOf(c: Candidate, units: readonly RankedUnit[]): ScoredChunk {
  const named = units[0];
  if (!named) return c.best;
  const fused = [c.best, ...c.others].find((o) => o.id === named.chunk.id);
  return { ...named.chunk, score: c.score, legs: fused?.legs ?? c.best.legs };
}

const NO_RANGE = { qual: "", start: null, end: null } as const;

/** A note or memory as a unit: its title and its text. */
function looseUnit(m: ChunkMeta): UnitInput {
  return { ...NO_RANGE, name: m.title, text: m.text ?? "" };
}

/**
 * A chunk as a unit of its file: the file's own lines (its chunk is titled by
 * its path), a section (named by its heading, within its parents'), a symbol
 * (named by the last part of its qualified name, within its container's) or a
 * window (no name). A symbol's signature and doc comment are lines of its own
 * text (`attachLeadingComments`).
 */
function unitInput(
  u: Pick<UnitRow, "title" | "source" | "start_line" | "end_line">,
  rel: string,
): UnitInput {
  if (u.title === rel) {
    const base = rel.slice(rel.lastIndexOf("/") + 1);
    return { ...NO_RANGE, name: base.replace(/\..*$/, ""), isFile: true };
  }
  // Built field by field: a file may have thousands of units, and this runs for each of them.
  const start = u.start_line;
  const end = u.end_line ?? u.start_line;
  if (
    u.title.length > rel.length && u.title.startsWith(rel) && u.title.startsWith(" § ", rel.length)
  ) {
    return { name: "", qual: "", start, end };
  }
  const docs = u.source === "docs";
  const cut = docs ? u.title.lastIndexOf(" > ") : u.title.lastIndexOf(".");
  return cut <= 0
    ? { name: u.title, qual: "", start, end }
    : { name: u.title.slice(cut + (docs ? 3 : 1)), qual: u.title.slice(0, cut), start, end };
}

/**
 * A file's units as copies are compared: each unit's text as a hash with its
 * weight, and the hashes of the units its hit shows. Files of one name read
 * their units' text with white space collapsed (a UMD build indents what an
 * ES module does not) and a leading `export` dropped, weighed by length;
 * other files' units are their indexed text hashes, weighing one each.
 */
export interface UnitTexts {
  /** Hash of each unit's text → its weight: a number read from the text, the indexed hash's hex. */
  all(): ReadonlyMap<number | string, number>;
  /** The hashes of the units the hit shows. */
  shown: readonly (number | string)[];
  /** True when a unit's text has hash `h`, as `all().has(h)` says (maybe without building it). */
  holds(h: number | string): boolean;
}

/** A path's file name up to its first dot: `pkg/cjs/index.umd.js` → `index`. */
function nameStem(rel: string): string {
  const base = rel.slice(rel.lastIndexOf("/") + 1);
  const dot = base.indexOf(".", 1);
  return dot < 0 ? base : base.slice(0, dot);
}

/**
 * The {@link UnitTexts} of a file's units (its own lines left out) as
 * indexed: each unit's text hash, every unit weighing one. The map is built
 * when first asked for: nearly every pair of files fails `isCopy` on a
 * shown unit the other lacks, which `holds` answers by comparing strings,
 * where building it costs hashing every unit's hash string (V8 computes a
 * string's hash on its first use as a key).
 */
function indexedTexts(
  list: readonly UnitRow[],
  rel: string,
  shown: readonly { row: UnitRow }[],
): UnitTexts {
  let built: Map<number | string, number> | undefined;
  const all = () => {
    if (built) return built;
    built = new Map<number | string, number>();
    for (const u of list) if (u.title !== rel) built.set(u.text_hash, 1);
    return built;
  };
  return {
    all,
    shown: shown.map((u) => u.row.text_hash),
    holds: (h) => built ? built.has(h) : list.some((u) => u.title !== rel && u.text_hash === h),
  };
}

/**
 * The {@link UnitTexts} of a file's units (its own lines left out), read from
 * its text: each line hashed once, a unit's hash folded from its lines'.
 */
function unitTexts(
  list: readonly UnitRow[],
  rel: string,
  file: ReturnType<typeof fileText>,
  shown: readonly { row: UnitRow }[],
): UnitTexts {
  const n = file.lineStarts.length;
  /** Per line: its collapsed text's hash (two 32-bit halves) and length; -1 not yet read. */
  const h1 = new Uint32Array(n);
  const h2 = new Uint32Array(n);
  const len = new Int32Array(n).fill(-1);
  const end = (l: number) => (l + 1 < n ? file.lineStarts[l + 1]! - 1 : file.text.length);
  const byId = new Map<number, number>();
  const all = new Map<number | string, number>();
  for (const u of list) {
    if (u.title === rel || u.start_line === null || u.start_line > n) continue;
    const last = Math.min(n, u.end_line ?? u.start_line) - 1;
    let a = 0x9e3779b9;
    let b = 0x85ebca6b;
    let size = 0;
    for (let l = u.start_line - 1; l <= last; l++) {
      let x: number, y: number, k: number;
      if (l === u.start_line - 1) {
        // An ES module's `export function f` is a CommonJS build's `function f`.
        [x, y, k] = hashLine(file.text, file.lineStarts[l]!, end(l), true);
      } else {
        if (len[l]! < 0) [h1[l], h2[l], len[l]] = hashLine(file.text, file.lineStarts[l]!, end(l));
        x = h1[l]!;
        y = h2[l]!;
        k = len[l]!;
      }
      if (k === 0) continue;
      a = Math.imul(a ^ x, 2654435761);
      b = Math.imul(b ^ y, 1597334677);
      size += k + 1;
    }
    const h = 4294967296 * (2097151 & (b ^ (a >>> 7))) + ((a ^ Math.imul(b, 2246822507)) >>> 0);
    byId.set(u.id, h);
    all.set(h, size);
  }
  return {
    all: () => all,
    shown: shown.flatMap((u) => byId.get(u.row.id) ?? []),
    holds: (h) => all.has(h),
  };
}

/**
 * The cyrb53 hash (two 32-bit halves) and length of `text[from, to)` trimmed,
 * each run of white space read as one space, without a leading `export ` or
 * `export default ` when `unexport`: no string is built.
 */
function hashLine(
  text: string,
  from: number,
  to: number,
  unexport = false,
): [number, number, number] {
  const space = (c: number) => c === 32 || (c >= 9 && c <= 13);
  let i = from;
  while (i < to && space(text.charCodeAt(i))) i++;
  if (unexport) {
    for (const word of ["export", "default"]) {
      if (
        text.startsWith(word, i) && i + word.length < to && space(text.charCodeAt(i + word.length))
      ) {
        i += word.length;
        while (i < to && space(text.charCodeAt(i))) i++;
      }
    }
  }
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  let k = 0;
  let gap = false;
  for (; i < to; i++) {
    let c = text.charCodeAt(i);
    if (space(c)) {
      gap = true;
      continue;
    }
    if (gap) {
      // The run of white space before this character, as one space.
      gap = false;
      c = 32;
      i--;
    }
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
    k++;
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0, k];
}

/**
 * Folds candidates that are copies of one another into the first of them
 * (pure): files with equal content hashes, or whose units are mostly the same
 * text — the weight of the units both hold is at least `threshold` of all
 * their units' ({@link UnitTexts}: each file with at least two units; files
 * of one name compared white space aside, so a package's `.mjs`, `.cjs` and
 * `.umd.js` builds are copies although the `.cjs` adds its `exports.x = x`
 * lines and the UMD build indents) — and whose shown units are in both: a
 * copy that differs in the very section or function a hit shows is a hit of
 * its own. `texts` holds each candidate's units by key. The first copy on
 * disk (`present`, asked once a path, only of files that fold) stands for
 * the group, in the best one's place, the first under `near` (a folder) of
 * those: a copy deleted since it was indexed is not what is shown. A file
 * that does not hold what it was indexed with (`asIndexed`, asked once a
 * candidate, only of files that would fold) folds with none: "same as" is
 * said of bytes on disk, and an edited copy is judged as its own hit.
 */
export function foldCopies(
  list: readonly FocusedCandidate[],
  texts: ReadonlyMap<string, UnitTexts>,
  threshold: number,
  near?: string,
  present: (path: string) => boolean = () => true,
  asIndexed: (c: FocusedCandidate) => boolean = () => true,
): FocusedCandidate[] {
  const isNear = (c: FocusedCandidate) =>
    near !== undefined && c.best.path !== null &&
    c.best.path.startsWith(near.replace(/\/+$/, "") + "/");
  const seen = new Map<string, boolean>();
  const onDisk = (c: FocusedCandidate) => {
    const path = c.best.path!;
    let is = seen.get(path);
    if (is === undefined) seen.set(path, is = present(path));
    return is;
  };
  // A file edited since it was indexed is no copy of anything on what the index holds of it.
  const same = new Map<string, boolean>();
  const unchanged = (c: FocusedCandidate) => {
    let is = same.get(c.key);
    if (is === undefined) same.set(c.key, is = asIndexed(c));
    return is;
  };
  const out: FocusedCandidate[] = [];
  const kept: (UnitTexts | undefined)[] = [];
  for (const c of list) {
    const units = texts.get(c.key);
    const twin = out.findIndex((o, i) =>
      isCopy(o, kept[i], c, units, threshold) && unchanged(o) && unchanged(c)
    );
    if (twin >= 0) {
      const first = out[twin]!;
      const [was, is] = [onDisk(first), onDisk(c)];
      const stands = was !== is ? is : isNear(c) && !isNear(first);
      out[twin] = stands
        ? { ...c, copies: [first.best.path!, ...first.copies], focus: first.focus }
        : { ...first, copies: [...first.copies, c.best.path!] };
      continue;
    }
    out.push(c);
    kept.push(units);
  }
  return out;
}

function isCopy(
  a: FocusedCandidate,
  aUnits: UnitTexts | undefined,
  b: FocusedCandidate,
  bUnits: UnitTexts | undefined,
  threshold: number,
): boolean {
  if (a.best.path_id === null || b.best.path_id === null) return false;
  if (a.best.hash !== null && a.best.hash === b.best.hash) return true;
  if (!aUnits || !bUnits) return false;
  // A shown unit the other file lacks settles nearly every pair, before either file's
  // units are all hashed (`indexedTexts`); the order of these tests changes no answer.
  if (!aUnits.shown.every((h) => bUnits.holds(h))) return false;
  if (!bUnits.shown.every((h) => aUnits.holds(h))) return false;
  const [aAll, bAll] = [aUnits.all(), bUnits.all()];
  if (aAll.size < 2 || bAll.size < 2) return false;
  let both = 0;
  let total = 0;
  for (const [h, n] of aAll) {
    total += n;
    if (bAll.has(h)) both += n;
  }
  for (const n of bAll.values()) total += n;
  return total > 0 && both / (total - both) >= threshold;
}
