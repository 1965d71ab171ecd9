/**
 * `search()`: ranked, verified answers to a question, for the CLI and the MCP
 * server alike.
 */
import { type Journal, lastAudit, listRoots } from "../store/mod.ts";
import {
  type Candidate,
  type ChunkMeta,
  DEFAULT_TUNING,
  isFileChunk,
  rank,
  type Tuning,
} from "./rank.ts";
import type { ReadCache } from "./file_reads.ts";
import { focusCandidates, type FocusedCandidate } from "./focus.ts";
import { confidence, type ConfidenceFacts } from "./confidence.ts";
import { learnedAssociations } from "./vocab_lookup.ts";
import type {
  CodePlace,
  LegsReport,
  PrunedHit,
  SearchHit,
  SearchRequest,
  SearchResult,
} from "./types.ts";
import { type VerifiedHit, Verifier } from "./verify.ts";
import { type ChunkFilter, underPrefixes } from "./lexical.ts";
import { MAX_QUERY_WORDS } from "./query.ts";
import { removedRoots } from "./removed_roots.ts";

/** Default number of results. */
export const DEFAULT_LIMIT = 8;
/** Time a search may spend looking on disk for gone files. */
const RELOCATE_BUDGET_MS = 250;

/**
 * Answers a request: the legs rank chunks, the chunks fold to one candidate
 * per file (note, memory), the candidates up to the `focusDepth`-th file are
 * read from disk, named by their best symbols and reordered by them
 * (`focus.ts`), every hit gets a confidence (`confidence.ts`), and candidates
 * are verified against the disk in that order until `limit` of them survive
 * (one whose symbol's lines are a hit's already shown is listed in that
 * hit's `same_code` instead: {@link answerCode}). A gone file found again is
 * REBUILT at its new path; one not found is pruned (STALE, never returned)
 * and logged. With `home`, the reconciler is hinted about every path seen
 * gone, moved or changed, so the journal converges, and the files of a
 * root its configuration no longer lists are left out (removed, not yet
 * retracted by the writer). Never throws for a
 * missing or failing semantic leg (it is reported off); throws
 * `SearchFilterError` for an unknown repo. `observe`, when given, is told
 * each hit's confidence facts as they are scored (calibration: the
 * benchmark refits the model from them).
 */
export async function search(
  j: Journal,
  req: SearchRequest,
  tuning: Tuning = DEFAULT_TUNING,
  observe?: (hit: SearchHit, facts: ConfidenceFacts) => void,
): Promise<SearchResult> {
  const t0 = performance.now();
  const limit = req.limit ?? DEFAULT_LIMIT;
  const ranking = await rank(j, req, tuning);
  const cache: ReadCache = new Map();
  const verifier = new Verifier(j, {
    words: ranking.query.words,
    frames: ranking.frames,
    threshold: tuning.coverageThreshold,
    relocateBudgetMs: RELOCATE_BUDGET_MS,
    ...(req.home ? { home: req.home } : {}),
  }, cache);
  // A removed root's files stay in the journal until the writer retracts
  // them; the user asked to stop searching them, so they are never shown.
  const removed = removedRoots(j, req.home);
  const wanted = ranking.candidates.filter((c) => !removed.has(c.best.root_id ?? -1));
  const candidates = focusCandidates(
    j,
    await visibleTo(j, wanted, req.viewer),
    {
      terms: ranking.terms,
      words: ranking.query.words,
      excluded: ranking.query.excluded,
      learned: tuning.learnedWeight > 0
        ? learnedAssociations(j, ranking.query.words)
        : new Map<string, number>(),
      ...(req.near !== undefined ? { near: req.near } : {}),
      ...(ranking.path !== undefined ? { path: ranking.path } : {}),
      ...(ranking.name !== undefined ? { name: ranking.name } : {}),
      // A frame with a function is named by it; one with a file and line alone, by its line.
      lines: ranking.frames.filter((f) => f.name === null),
      whereNow: (m) => verifier.whereNow(m),
      whereMoved: (m) => verifier.whereMoved(m),
    },
    tuning,
    cache,
  );
  const hits: SearchHit[] = [];
  const shown = new Set<string>();
  // The hits shown by the indexed text of the symbol they name, as their files read now.
  const sameCode = new Map<string, SearchHit>();
  for (const [i, c] of candidates.entries()) {
    if (hits.length >= limit) break;
    const code = answerCode(c);
    const twin = code && sameCode.get(code.hash);
    if (code && twin && verifier.unchangedOnDisk(code.unit)) {
      twin.same_code.push(code.place);
      continue;
    }
    const hit = await verifier.verify(c, hits.length < tuning.hashTop);
    if (!hit || movedOutOfScope(hit, ranking.filter, verifier.pruned)) continue;
    // A file re-anchored onto a path that is already a result is that result.
    const at = hit.path === null ? `${hit.source}:${hit.ref_id}` : `${hit.source}:${hit.path}`;
    if (hit.path !== null && hit.source !== "notes" && hit.source !== "memory") {
      if (shown.has(at)) continue;
      shown.add(at);
    }
    const rank = hits.length + 1;
    const facts: ConfidenceFacts = {
      unitScore: c.units[0]?.score ?? 0,
      coverage: hit.coverage,
      rank,
      margin: marginOf(c.focus, candidates[i + 1]?.focus),
    };
    const done: SearchHit = { rank, ...hit, confidence: confidence(facts) };
    hits.push(done);
    // Unchanged where it is (or moved whole): its lines are what the index hashed.
    const asIndexed = hit.freshness.index_behind_ms === null &&
      (hit.moved_from === null || hit.freshness.checked === "hash");
    if (code && asIndexed && !sameCode.has(code.hash)) sameCode.set(code.hash, done);
    observe?.(done, facts);
  }
  verifier.finish(req.query);
  const unfinished = unfinishedRoots(j, removed);
  const took = Math.round(performance.now() - t0);
  return {
    query: req.query,
    took_ms: took,
    legs: ranking.legs,
    hits,
    pruned: verifier.pruned,
    summary: summaryLine(hits, verifier.pruned.length, took, ranking.legs, unfinished),
  };
}

/** A symbol shorter than this many lines is no copy of another by its text: one-liners repeat by chance. */
const SAME_CODE_LINES = 3;

/**
 * The symbol a candidate answers with (its first unit, else its best
 * chunk), its indexed text's hash and its place, when it is code of
 * {@link SAME_CODE_LINES} lines or more. A later candidate answering with
 * the same lines as a hit already shown, its file unchanged since it was
 * indexed, is listed in that hit's `same_code` instead of taking a place of
 * its own: a function copied into other modules, a bundle's copy, generated
 * boilerplate (the identical `Dispose` of dozens of designer files filled
 * whole lists). The hit itself was verified first: a pruned one takes
 * nothing with it.
 */
function answerCode(
  c: FocusedCandidate,
): { hash: string; unit: ChunkMeta; place: CodePlace } | undefined {
  const u = c.units[0]?.chunk ?? c.best;
  if (u.source !== "code" || u.path === null || !u.text_hash || isFileChunk(u)) return undefined;
  if (u.start_line === null || u.end_line === null) return undefined;
  if (u.end_line - u.start_line + 1 < SAME_CODE_LINES) return undefined;
  return {
    hash: u.text_hash,
    unit: u,
    place: { path: u.path, symbol: u.title, line: u.start_line, end_line: u.end_line },
  };
}

/**
 * True when `hit` was found again (REBUILT) outside the request's `--path` or
 * `--repo`: where it was indexed lay inside them, where it is now does not,
 * and a scoped search never shows a place outside its scope. The hit is
 * added to `pruned`, with where it went (the verifier has hinted the
 * reconciler about both paths).
 */
function movedOutOfScope(hit: VerifiedHit, filter: ChunkFilter, pruned: PrunedHit[]): boolean {
  if (hit.moved_from === null || hit.path === null) return false;
  if (underPrefixes(filter.prefixes ?? [], hit.path)) return false;
  pruned.push({
    path: hit.moved_from,
    symbol: hit.symbol,
    reason: `moved to ${hit.path}, outside the search's --path/--repo`,
  });
  return true;
}

/**
 * The candidates without the private memories of authors other than the
 * viewer (all of them without a viewer). The viewer is asked for only when
 * a private memory ranked: finding it may run `git`.
 */
async function visibleTo(
  j: Journal,
  list: readonly Candidate[],
  viewer: SearchRequest["viewer"],
): Promise<Candidate[]> {
  const ids = list.flatMap((c) => (c.best.source === "memory" ? [String(c.best.ref_id)] : []));
  if (ids.length === 0) return [...list];
  const owners = j.all<{ id: string; author: string }>(
    `SELECT id, author FROM memories WHERE scope = 'private' AND id IN (SELECT value FROM json_each(?))`,
    JSON.stringify(ids),
  );
  if (owners.length === 0) return [...list];
  const who = typeof viewer === "function" ? await viewer() : viewer;
  const hidden = new Set(owners.filter((o) => o.author !== who).map((o) => o.id));
  return list.filter((c) => !(c.best.source === "memory" && hidden.has(String(c.best.ref_id))));
}

/** How far a candidate's score stands above the next one's, as a share of its own (0 when unknown). */
function marginOf(score: number, next: number | undefined): number {
  if (!Number.isFinite(score) || score <= 0) return 0;
  return Math.max(0, (score - (next !== undefined && Number.isFinite(next) ? next : 0)) / score);
}

/** The usage record of a search's result (`logUsage`): counts only. */
export function searchUsage(
  via: string,
  result: Pick<SearchResult, "hits">,
): { event: "search"; via: string; hits: number; verdicts: Record<string, number> } {
  const verdicts: Record<string, number> = {};
  for (const h of result.hits) verdicts[h.verdict] = (verdicts[h.verdict] ?? 0) + 1;
  return { event: "search", via, hits: result.hits.length, verdicts };
}

/**
 * The roots whose first index never finished (stopped midway by a crash or
 * a kill, or still running): the journal holds only some of their files,
 * so a search can miss what is there. A root is audited at the end of each
 * full pass (`lastAudit`); a removed one is not searched.
 */
function unfinishedRoots(j: Journal, removed: ReadonlySet<number>): string[] {
  return listRoots(j)
    .filter((r) => !removed.has(r.id) && lastAudit(j, r.id) === null)
    .map((r) => r.path);
}

/**
 * `3 hits: 2 strong, 1 weak · 1 stale pruned · 12 ms · lexical+graph; semantic leg off: …`,
 * and the roots whose first index has not finished (pure).
 */
export function summaryLine(
  hits: readonly SearchHit[],
  pruned: number,
  tookMs: number,
  legs: LegsReport,
  unfinished: readonly string[] = [],
): string {
  const counts = new Map<string, number>();
  for (const h of hits) counts.set(h.verdict, (counts.get(h.verdict) ?? 0) + 1);
  const byVerdict = ["STRONG", "WEAK", "REBUILT"]
    .filter((v) => counts.has(v))
    .map((v) => `${counts.get(v)} ${v.toLowerCase()}`)
    .join(", ");
  const parts = [
    hits.length === 0
      ? "no hits"
      : `${hits.length} ${hits.length === 1 ? "hit" : "hits"}: ${byVerdict}`,
  ];
  if (pruned > 0) parts.push(`${pruned} stale pruned`);
  parts.push(`${tookMs} ms`);
  const on = [
    "lexical",
    ...(legs.graph.on ? ["graph"] : []),
    ...(legs.semantic.on ? ["semantic"] : []),
  ];
  let legText = on.join("+");
  const ignored = legs.lexical.words_ignored;
  if (ignored) legText += ` (the query's first ${MAX_QUERY_WORDS} words; ${ignored} more left out)`;
  if (!legs.semantic.on) legText += `; semantic leg off: ${legs.semantic.reason}`;
  parts.push(legText);
  if (unfinished.length > 0) {
    const named = unfinished.slice(0, 3).map((r) => `"${r}"`).join(", ") +
      (unfinished.length > 3 ? ` and ${unfinished.length - 3} more` : "");
    parts.push(
      `not fully indexed yet: ${named} (a first index stopped midway or still running), so answers there may be missing; \`heimdall index\` of it finishes it`,
    );
  }
  return parts.join(" · ");
}
