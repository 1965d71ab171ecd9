/**
 * Reading memory about a piece of code: `why` (what holds now, or at a past
 * instant, then what came before) and `history` (every memory and what
 * happened to it, newest first). Re-anchors lazily first; writes nothing else.
 */
import { dirname, redactSecrets, resolve } from "../files/mod.ts";
import { SymbolLookupError } from "../search/mod.ts";
import { getPath, type Journal } from "../store/mod.ts";
import { type NodeFacts, nodeFacts, nothingNamed, realPath, symbolsNamed } from "./anchors.ts";
import { reanchorIfStale } from "./reanchor.ts";
import { loadMemories } from "./records.ts";
import { visibleTo } from "./remember.ts";
import { type Memory, MemoryInputError, type MemoryKind } from "./types.ts";

/** What a `why`/`history` question is about, once resolved. */
export type WhyTarget =
  | {
    type: "symbol";
    label: string;
    path: string;
    symbol: string;
    kind: string;
    line: number | null;
  }
  | { type: "file" | "folder"; label: string; path: string }
  /**
   * Code no longer in the index, known only through the memories anchored to
   * it; `moved`: where they follow it now (`path:qualname`), when every one
   * was found at the place it moved from and all went to one place.
   */
  | { type: "gone"; label: string; path: string | null; moved: string | null };

/** Where a memory stands at the instant asked about. */
export type Standing = "current" | "superseded" | "forgotten" | "resolved" | "expired" | "upcoming";

/** A memory in an answer: how it was reached, and where it stands. */
export interface WhyItem extends Memory {
  /** The anchor that linked it to the target: `symbol`, `enclosing Class`, `file`, `folder src/`… */
  via: string;
  /** Where it stands at the instant asked about. */
  standing: Standing;
}

/** The answer of {@link why}. */
export interface WhyResult {
  /** What the question was about, resolved. */
  target: WhyTarget;
  /** The instant asked about (null: now). */
  as_of: number | null;
  /** What holds at that instant, most specific anchor first, then newest first. */
  current: WhyItem[];
  /** What was superseded, forgotten, resolved or out of its valid time then, newest first. */
  history: WhyItem[];
}

interface Reach {
  via: string;
  rank: number;
}

/**
 * Resolves `text` the way `why` reads it: an existing file or folder (relative
 * to `cwd`), an indexed path, a symbol (`path:name`, `Class.method`, `name`),
 * else code that is gone but that memories are still anchored to (orphaned
 * or moved away). Throws SymbolLookupError when the symbol is ambiguous, or
 * when nothing, not even a memory, knows the name.
 */
export function resolveTarget(
  j: Journal,
  text: string,
  cwd: string,
): { target: WhyTarget; reach: Map<string, Reach> } {
  // Resolved, an empty one would be the current folder: an answer about code nobody named.
  if (text.trim() === "") {
    throw new MemoryInputError(
      `Empty target ${
        JSON.stringify(text)
      }: it names no symbol or path (an unset shell variable?); write . for the current folder`,
    );
  }
  const abs = resolve(cwd, text);
  let stat: Deno.FileInfo | undefined;
  try {
    stat = Deno.statSync(abs);
  } catch { /* not on disk */ }
  if (stat || getPath(j, abs)) {
    const path = stat ? realPath(abs) : abs;
    if (stat?.isDirectory) {
      return { target: { type: "folder", label: path, path }, reach: reachFolder(j, path) };
    }
    return { target: { type: "file", label: path, path }, reach: reachFile(j, path) };
  }
  const candidates = symbolsNamed(j, text, cwd);
  if (candidates.length > 1) throw new SymbolLookupError(text, candidates);
  if (candidates.length === 1) {
    const node = nodeFacts(j, candidates[0]!.id)!;
    return {
      target: {
        type: "symbol",
        label: `${node.path}:${node.qualname}`,
        path: node.path,
        symbol: node.qualname,
        kind: node.kind,
        line: node.start_line,
      },
      reach: reachSymbol(j, node),
    };
  }
  const gone = reachGone(j, text, abs, cwd);
  if (gone.reach.size === 0) throw nothingNamed(text, cwd, j);
  return {
    target: { type: "gone", label: text, path: gone.path, moved: gone.moved },
    reach: gone.reach,
  };
}

function add(reach: Map<string, Reach>, id: string, via: string, rank: number): void {
  const have = reach.get(id);
  if (!have || rank < have.rank) reach.set(id, { via, rank });
}

/** The folders holding `path`, nearest first, up to the filesystem root. */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let d = dirname(path);; d = dirname(d)) {
    out.push(d);
    if (dirname(d) === d) return out;
  }
}

function addFolders(j: Journal, reach: Map<string, Reach>, path: string, base: number): void {
  const folders = ancestors(path);
  const rows = j.all<{ memory_id: string; path: string }>(
    `SELECT memory_id, path FROM memory_anchors WHERE target = 'folder' AND path IN (${
      folders.map(() => "?").join(", ")
    })`,
    ...folders,
  );
  for (const r of rows) add(reach, r.memory_id, `folder ${r.path}`, base + folders.indexOf(r.path));
}

function reachSymbol(j: Journal, node: NodeFacts): Map<string, Reach> {
  const reach = new Map<string, Reach>();
  const chain: NodeFacts[] = [node];
  for (let p = node.parent_id; p !== null;) {
    const parent = nodeFacts(j, p);
    if (!parent || parent.kind === "file") break;
    chain.push(parent);
    p = parent.parent_id;
  }
  chain.forEach((n, depth) => {
    for (
      const r of j.all<{ memory_id: string }>(
        "SELECT memory_id FROM memory_anchors WHERE node_id = ?",
        n.id,
      )
    ) {
      add(reach, r.memory_id, depth === 0 ? "symbol" : `enclosing ${n.qualname}`, depth);
    }
  });
  for (
    const r of j.all<{ memory_id: string }>(
      "SELECT memory_id FROM memory_anchors WHERE path = ? AND target = 'file'",
      node.path,
    )
  ) add(reach, r.memory_id, "file", 100);
  addFolders(j, reach, node.path, 200);
  return reach;
}

function reachFile(j: Journal, path: string): Map<string, Reach> {
  const reach = new Map<string, Reach>();
  for (
    const r of j.all<{ memory_id: string; target: string; symbol: string | null }>(
      "SELECT memory_id, target, symbol FROM memory_anchors WHERE path = ? ORDER BY target DESC",
      path,
    )
  ) {
    if (r.target === "file") add(reach, r.memory_id, "file", 0);
    else add(reach, r.memory_id, `symbol ${r.symbol}`, 1);
  }
  addFolders(j, reach, path, 200);
  return reach;
}

function reachFolder(j: Journal, path: string): Map<string, Reach> {
  const reach = new Map<string, Reach>();
  const lo = path.endsWith("/") ? path : path + "/";
  for (
    const r of j.all<{ memory_id: string; path: string; target: string; symbol: string | null }>(
      `SELECT memory_id, path, target, symbol FROM memory_anchors
     WHERE path = ? OR (path >= ? AND path < ?)`,
      path,
      lo,
      lo.slice(0, -1) + "0",
    )
  ) {
    if (r.path === path) add(reach, r.memory_id, "folder", 0);
    else add(reach, r.memory_id, r.symbol ? `symbol ${r.path}:${r.symbol}` : r.path, 1);
  }
  addFolders(j, reach, path, 200);
  return reach;
}

function reachGone(
  j: Journal,
  text: string,
  abs: string,
  cwd: string,
): { reach: Map<string, Reach>; path: string | null; moved: string | null } {
  const reach = new Map<string, Reach>();
  type Row = {
    memory_id: string;
    path: string;
    symbol: string | null;
    state: string;
    moved_from: string | null;
  };
  const colon = text.lastIndexOf(":");
  let rows: Row[];
  // A symbol anchor's moved_from is the place it left, `path:qualname`: a
  // renamed symbol is found by its old name there, as its old file by its path.
  if (colon > 0) {
    const file = resolve(cwd, text.slice(0, colon));
    const name = text.slice(colon + 1);
    rows = j.all<Row>(
      `SELECT memory_id, path, symbol, state, moved_from FROM memory_anchors
       WHERE original = ? OR (target = 'symbol' AND moved_from = ?)
         OR ((path = ? OR moved_from = ?) AND (symbol = ? OR name = ?))`,
      text,
      `${file}:${name.replaceAll("::", ".")}`,
      file,
      file,
      name,
      name,
    );
  } else {
    const symbol = text.replaceAll("::", ".");
    rows = j.all<Row>(
      `SELECT memory_id, path, symbol, state, moved_from FROM memory_anchors
       WHERE path = ? OR moved_from = ? OR symbol = ? OR (target = 'symbol' AND name = ?)
         OR original = ?
         OR (target = 'symbol' AND (substr(moved_from, -length(?)) IN (?, ?)))`,
      abs,
      abs,
      symbol,
      text,
      text,
      `:${symbol}`,
      `:${symbol}`,
      `.${symbol}`,
    );
  }
  for (const r of rows) {
    add(reach, r.memory_id, `${r.state} ${r.symbol ? `${r.path}:${r.symbol}` : r.path}`, 0);
  }
  const paths = [...new Set(rows.map((r) => r.path))];
  // Found where it was before a rename or a move: the answer says where it went.
  const places = [...new Set(rows.map((r) => r.symbol ? `${r.path}:${r.symbol}` : r.path))];
  const moved = rows.length > 0 && places.length === 1 &&
      rows.every((r) => r.state === "moved" && r.moved_from !== null)
    ? places[0]!
    : null;
  return { reach, path: paths.length === 1 ? paths[0]! : null, moved };
}

/** Where `m` stood at instant `t`, and the row as it was then (later marks removed). */
export function standingAt(m: Memory, t: number): { standing: Standing; row: Memory } {
  const row: Memory = { ...m };
  if (row.superseded_at !== null && row.superseded_at > t) {
    row.superseded_at = null;
    row.superseded_by = null;
  }
  if (row.forgotten_at !== null && row.forgotten_at > t) {
    row.forgotten_at = null;
    row.forgotten_by = null;
  }
  if (row.resolved_at !== null && row.resolved_at > t) {
    row.resolved_at = null;
    row.resolved_by = null;
    row.status = "open";
  }
  let standing: Standing = "current";
  if (row.forgotten_at !== null) standing = "forgotten";
  else if (row.superseded_at !== null) standing = "superseded";
  else if (row.status === "resolved") standing = "resolved";
  else if (row.valid_to !== null && row.valid_to <= t) standing = "expired";
  else if (row.valid_from > t) standing = "upcoming";
  return { standing, row };
}

/**
 * What memory says about `target` (a symbol, file or folder; see
 * {@link resolveTarget}): memories anchored to it, to the symbols enclosing
 * it, to its file and to the folders holding it. `asOf` answers as memory
 * stood then: only what was recorded by that instant, each classified by the
 * marks made by then (superseded, forgotten, resolved) and by its valid time
 * at that instant. Other authors' private memories are left out.
 *
 * Cost: a few indexed look-ups per anchor level, and a probe for lost code
 * of the anchors on the target's file or folder (see `reanchorIfStale`). Throws SymbolLookupError as resolveTarget does.
 */
export function why(
  j: Journal,
  target: string,
  options: { asOf?: number | null; viewer: string; cwd?: string; now?: number },
): WhyResult {
  const now = options.now ?? Date.now();
  const cwd = options.cwd ?? Deno.cwd();
  let { target: resolved, reach } = resolveTarget(j, target, cwd);
  // Writers re-anchor after every pass; this catches one that died in between, for this code.
  if (resolved.path !== null && reanchorIfStale(j, now, resolved.path)) {
    ({ target: resolved, reach } = resolveTarget(j, target, cwd));
  }
  const t = options.asOf ?? now;
  const current: WhyItem[] = [];
  const history: WhyItem[] = [];
  for (const m of loadMemories(j, [...reach.keys()])) {
    if (!visibleTo(m, options.viewer) || m.recorded_at > t) continue;
    const { standing, row } = standingAt(m, t);
    const item = { ...row, via: reach.get(m.id)!.via, standing };
    (standing === "current" ? current : history).push(item);
  }
  const newest = (a: WhyItem, b: WhyItem) =>
    b.recorded_at - a.recorded_at || a.id.localeCompare(b.id);
  current.sort((a, b) => reach.get(a.id)!.rank - reach.get(b.id)!.rank || newest(a, b));
  history.sort(newest);
  return { target: resolved, as_of: options.asOf ?? null, current, history };
}

/** One thing that happened to a memory. */
export interface MemoryEvent {
  /** When it happened (ms since the epoch). */
  at: number;
  /** What happened. */
  event: "recorded" | "repeated" | "superseded" | "forgotten" | "resolved" | "moved" | "orphaned";
  /** The memory it happened to. */
  memory_id: string;
  /** That memory's kind. */
  kind: MemoryKind;
  /** Who (recorded, forgotten), or what (superseded by, resolved by, moved from). */
  detail: string;
}

/** The answer of {@link history}. */
export interface HistoryResult {
  /** What the question was about, resolved; null for the journal's newest memories. */
  target: WhyTarget | null;
  /** The memories, newest first, each with the anchor that linked it (null without a target). */
  memories: (Memory & { via: string | null })[];
  /** What happened to them, newest first. */
  events: MemoryEvent[];
}

/**
 * Every memory about `target` (or, without one, the newest memories of the
 * journal), superseded and forgotten ones included, newest first, with the
 * timeline of what happened to them: recorded, repeated, superseded,
 * forgotten, resolved, their anchors moved or orphaned. `kind` and `author`
 * filter; `limit` bounds the memories (default 50).
 */
export function history(
  j: Journal,
  target: string | null,
  options: {
    viewer: string;
    kind?: MemoryKind;
    author?: string;
    limit?: number;
    cwd?: string;
    now?: number;
  },
): HistoryResult {
  const limit = options.limit ?? 50;
  // Authors are stored with their secrets redacted: the filter is compared as stored.
  const author = options.author === undefined ? undefined : redactSecrets(options.author);
  let resolved: WhyTarget | null = null;
  let reach: Map<string, Reach> | undefined;
  let ids: string[];
  if (target !== null) {
    const cwd = options.cwd ?? Deno.cwd();
    ({ target: resolved, reach } = resolveTarget(j, target, cwd));
    if (resolved.path !== null && reanchorIfStale(j, options.now ?? Date.now(), resolved.path)) {
      ({ target: resolved, reach } = resolveTarget(j, target, cwd));
    }
    ids = [...reach.keys()];
  } else {
    // What the viewer may see is chosen here too ({@link visibleTo}): else a run of
    // others' private memories, newer than the rest, would fill the limit and be dropped.
    ids = j.all<{ id: string }>(
      `SELECT id FROM memories WHERE (? IS NULL OR kind = ?) AND (? IS NULL OR author = ?)
         AND (scope != 'private' OR author IN (?, ?))
       ORDER BY recorded_at DESC, id LIMIT ?`,
      options.kind ?? null,
      options.kind ?? null,
      author ?? null,
      author ?? null,
      options.viewer,
      redactSecrets(options.viewer),
      limit,
    ).map((r) => r.id);
  }
  const memories = loadMemories(j, ids)
    .filter((m) =>
      visibleTo(m, options.viewer) && (!options.kind || m.kind === options.kind) &&
      (!author || m.author === author)
    )
    .sort((a, b) => b.recorded_at - a.recorded_at || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map((m) => ({ ...m, via: reach?.get(m.id)?.via ?? null }));
  const events: MemoryEvent[] = [];
  for (const m of memories) {
    const e = (at: number, event: MemoryEvent["event"], detail: string) =>
      events.push({ at, event, memory_id: m.id, kind: m.kind, detail });
    e(m.recorded_at, "recorded", m.author);
    if (m.count > 1) e(m.last_seen_at, "repeated", `${m.count} times in all`);
    if (m.superseded_at !== null) e(m.superseded_at, "superseded", m.superseded_by ?? "");
    if (m.resolved_at !== null) e(m.resolved_at, "resolved", m.resolved_by ?? "");
    if (m.forgotten_at !== null) e(m.forgotten_at, "forgotten", m.forgotten_by ?? "");
    for (const a of m.anchors) {
      if (a.state === "moved") e(a.state_at, "moved", `${a.moved_from} → ${anchorText(a)}`);
      if (a.state === "orphaned") e(a.state_at, "orphaned", anchorText(a));
    }
  }
  events.sort((a, b) => b.at - a.at || a.memory_id.localeCompare(b.memory_id));
  return { target: resolved, memories, events };
}

function anchorText(a: { path: string; symbol: string | null }): string {
  return a.symbol ? `${a.path}:${a.symbol}` : a.path;
}

/**
 * Who wrote memories about these symbols, by author and kind, with how many
 * and the newest (forgotten ones left out). For `who-knows`.
 */
export function memoryAuthors(
  j: Journal,
  nodeIds: readonly string[],
): { author: string; kind: MemoryKind; count: number; last_at: number }[] {
  if (nodeIds.length === 0) return [];
  return j.all(
    `SELECT m.author, m.kind, count(DISTINCT m.id) AS count, max(m.recorded_at) AS last_at
     FROM memory_anchors a JOIN memories m ON m.id = a.memory_id
     WHERE a.node_id IN (${nodeIds.map(() => "?").join(", ")}) AND m.forgotten_at IS NULL
       AND m.scope != 'private'
     GROUP BY m.author, m.kind ORDER BY count DESC, m.author, m.kind`,
    ...nodeIds,
  );
}
