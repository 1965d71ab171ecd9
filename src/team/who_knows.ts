/** Who knows this code: people ranked by their claims, attempts and decisions on it and around it. */
import { basename } from "../files/mod.ts";
import type { Journal } from "../store/mod.ts";
import { anchoredMemories, fileAnchoredMemories } from "./memory_link.ts";
import { RepoResolver, symbolsById } from "./symbol_key.ts";
import { callExpander, walk } from "./walk.ts";
import type { SymbolKey, TeamStore } from "./types.ts";

/**
 * What one piece of evidence is worth on the code itself. A decision says
 * someone understood the code well enough to rule on it; an attempt (failed
 * or passed) that they worked inside it; a convention is a decision about
 * how; a claim only that they meant to change it; a note or fact, that they
 * looked.
 */
export const WHO_KNOWS_WEIGHTS: Readonly<Record<string, number>> = {
  decision: 3,
  attempt: 2,
  convention: 2,
  claim: 1,
  note: 1,
  fact: 1,
};

/** Each call hop away from the code asked about halves a piece of evidence's worth. */
export const HOP_DECAY = 0.5;

/** The most neighbours looked at (the closest first), so a hub costs a bounded amount. */
const MAX_NODES = 5000;

/** One reason to think `person` knows the code. */
export interface Evidence {
  /** Who it is about. */
  person: string;
  /** What it is: a `decision`, `attempt`, `convention`, `claim`, `note` or `fact`. */
  kind: string;
  /** Call hops from the code asked about (0: the code itself). */
  hops: number;
  /** The symbol it is about. */
  symbol: string;
  /** When it was recorded (ms since the epoch). */
  at: number;
}

/** A person and why they rank where they do. */
export interface Expert {
  /** The person. */
  person: string;
  /** Σ weight × ½^hops over their evidence (higher knows more). */
  score: number;
  /** Decisions among their evidence. */
  decisions: number;
  /** Attempts among their evidence. */
  attempts: number;
  /** Claims among their evidence. */
  claims: number;
  /** Conventions among their evidence. */
  conventions: number;
  /** The rest of their evidence (notes, facts). */
  other: number;
  /** When their latest evidence was recorded (ms). */
  lastAt: number;
  /** The symbols their evidence is about, closest first (at most 5). */
  about: string[];
}

/**
 * Ranks people by Σ weight(kind) × HOP_DECAY^hops over their evidence
 * (pure); ties go to the more recent, then by name.
 */
export function rankPeople(evidence: readonly Evidence[]): Expert[] {
  const by = new Map<string, Expert & { near: Map<string, number> }>();
  for (const e of evidence) {
    let x = by.get(e.person);
    if (!x) {
      x = {
        person: e.person,
        score: 0,
        decisions: 0,
        attempts: 0,
        claims: 0,
        conventions: 0,
        other: 0,
        lastAt: 0,
        about: [],
        near: new Map(),
      };
      by.set(e.person, x);
    }
    x.score += (WHO_KNOWS_WEIGHTS[e.kind] ?? 1) * HOP_DECAY ** e.hops;
    if (e.kind === "decision") x.decisions++;
    else if (e.kind === "attempt") x.attempts++;
    else if (e.kind === "claim") x.claims++;
    else if (e.kind === "convention") x.conventions++;
    else x.other++;
    x.lastAt = Math.max(x.lastAt, e.at);
    x.near.set(e.symbol, Math.min(x.near.get(e.symbol) ?? Infinity, e.hops));
  }
  return [...by.values()]
    .map(({ near, ...x }) => ({
      ...x,
      score: Math.round(x.score * 1000) / 1000,
      about: [...near].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 5).map((
        [s],
      ) => s),
    }))
    .sort((a, b) =>
      b.score - a.score || b.lastAt - a.lastAt ||
      (a.person < b.person ? -1 : a.person > b.person ? 1 : 0)
    );
}

/**
 * The people who know `starts` (node ids) and their call neighbours within
 * `hops` (both directions): every claim ever made on that code or on a
 * whole file it lies in (released and expired ones too) from the team store, and the memories anchored to
 * it from the local journal, to a symbol or to a whole file it lies in.
 * Cost: one query per hop and direction, one store query, two memory
 * queries.
 */
export async function whoKnows(
  j: Journal,
  /** Where claims come from; null leaves claims out (the team store cannot be reached). */
  store: Pick<TeamStore, "claimHistory"> | null,
  starts: readonly string[],
  options: { hops: number },
): Promise<{ experts: Expert[]; symbols: number; evidence: Evidence[] }> {
  const hops = new Map<string, number>();
  for (const direction of ["callees", "callers"] as const) {
    for (const [id, r] of walk(starts, options.hops, callExpander(j, direction))) {
      hops.set(id, Math.min(hops.get(id) ?? Infinity, r.distance));
    }
  }
  const ids = [...hops].sort((a, b) => a[1] - b[1]).slice(0, MAX_NODES).map(([id]) => id);
  const symbols = symbolsById(j, ids);
  const label = (id: string) => {
    const s = symbols.get(id);
    return s ? (s.qualname || basename(s.path)) : id;
  };

  const repos = new RepoResolver();
  const byKey = new Map<string, { hops: number; symbol: string }>();
  const keys: Pick<SymbolKey, "repo" | "path" | "qualname">[] = [];
  const add = (k: Pick<SymbolKey, "repo" | "path" | "qualname">, hops: number, symbol: string) => {
    const name = `${k.repo}\0${k.path}\0${k.qualname}`;
    const seen = byKey.get(name);
    if (!seen) keys.push(k);
    if (!seen || hops < seen.hops) byKey.set(name, { hops, symbol });
  };
  for (const id of ids) {
    const s = symbols.get(id);
    if (!s) continue;
    const k = repos.keyOf(s);
    add(k, hops.get(id)!, label(id));
    // A claim on the whole file (`heimdall claim PATH`) is a claim on every
    // symbol in it, as near as the nearest of them (as a memory about it is).
    if (k.qualname !== "") add({ ...k, qualname: "" }, hops.get(id)!, basename(s.path));
  }

  const evidence: Evidence[] = [];
  for (const c of keys.length > 0 && store ? await store.claimHistory(keys) : []) {
    const at = byKey.get(`${c.repo}\0${c.path}\0${c.qualname}`);
    if (!at) continue;
    evidence.push({
      person: c.developer,
      kind: "claim",
      hops: at.hops,
      symbol: at.symbol,
      at: c.createdAt,
    });
  }
  const closest = new Map<string, Evidence>();
  const keep = (id: string, e: Evidence) => {
    const cur = closest.get(id);
    if (!cur || e.hops < cur.hops) closest.set(id, e);
  };
  for (const m of anchoredMemories(j, ids)) {
    const e = { person: m.author, kind: m.kind, hops: hops.get(m.node)!, symbol: label(m.node) };
    keep(m.id, { ...e, at: m.recordedAt });
  }
  // A memory about a whole file has no node: it is about every symbol in the
  // file, as near as the nearest of them.
  const files = new Map<string, number>();
  for (const id of ids) {
    const s = symbols.get(id);
    if (s) files.set(s.path, Math.min(files.get(s.path) ?? Infinity, hops.get(id)!));
  }
  for (const m of fileAnchoredMemories(j, [...files.keys()])) {
    const e = {
      person: m.author,
      kind: m.kind,
      hops: files.get(m.path)!,
      symbol: basename(m.path),
    };
    keep(m.id, { ...e, at: m.recordedAt });
  }
  evidence.push(...closest.values());
  return { experts: rankPeople(evidence), symbols: ids.length, evidence };
}
