/** Who else is changing this code, or code it calls, or code that calls it. */
import { compareStructHashes } from "../extract/mod.ts";
import type { Journal } from "../store/mod.ts";
import {
  keysAmong,
  localNodesOf,
  type LocalSymbol,
  RepoResolver,
  symbolsById,
} from "./symbol_key.ts";
import { callExpander, type Direction, pathTo, walk, withMethodHalves } from "./walk.ts";
import type { ActiveClaim, Actor, TeamStore } from "./types.ts";

/** How a claimed symbol relates to the one asked about. */
export type Relation = "same" | "callee" | "caller";

/** One symbol on a conflict's call path. */
export type PathStep = Pick<LocalSymbol, "id" | "kind" | "qualname" | "path" | "line">;

/** An active claim by someone else within reach of the code asked about. */
export interface Conflict {
  /** The claim, as the viewer sees it. */
  claim: ActiveClaim;
  /** `same`: the code asked about; `callee`: code it calls; `caller`: code that calls it. */
  relation: Relation;
  /** Call hops between the code asked about and the claimed code (0: the same). */
  hops: number;
  /**
   * A shortest call chain between the code asked about and the claimed code,
   * both included, in call order (each step calls the next): from the code
   * asked about for a callee, to it for a caller.
   */
  path: PathStep[];
  /**
   * The claimed code differs here from what the claimant had when they
   * claimed it (structural hashes differ): one of you has changed it already.
   */
  diverged: boolean;
}

/** What {@link findConflicts} found. */
export interface ConflictReport {
  /** The conflicts, closest first. */
  conflicts: Conflict[];
  /** Conflicts left out because the viewer acknowledged them (unless asked to include them). */
  acknowledged: number;
  /** Active claims by others, in reach or not. */
  othersActive: number;
}

const ORDER: Record<Relation, number> = { same: 0, callee: 1, caller: 2 };

/**
 * Active claims by anyone but `who` on `asked` (node ids), on what they
 * call and on what calls them, within `hops` call hops, each with a shortest
 * call path; a claim is reported once, at its closest. Claims name code
 * portably and are matched to this machine's index; a claim on code this
 * index does not hold cannot be in reach. Acknowledged ones are counted,
 * not listed, unless `includeAcked`. With `ownInAnySession`, an actor in no
 * session counts its developer's claims of every session as its own.
 *
 * Cost: one store query; with others' claims, one indexed query per hop and
 * direction, then one query to place whichever is fewer, the claims or the
 * code reached. Staleness: the graph is as of the last reconcile, the claims
 * as of the query.
 */
export async function findConflicts(
  j: Journal,
  store: TeamStore,
  who: Actor,
  asked: readonly string[],
  options: { hops: number; includeAcked?: boolean; ownInAnySession?: boolean },
): Promise<ConflictReport> {
  const active = await store.activeClaims(who);
  // An actor that knows no session of its own (an agent's MCP server) cannot tell its
  // session's claims from its person's others: none of them is someone else's.
  const claims = options.ownInAnySession && (who.session ?? "") === ""
    ? active.filter((c) => c.developer !== who.developer)
    : active;
  const report: ConflictReport = { conflicts: [], acknowledged: 0, othersActive: claims.length };
  if (claims.length === 0 || asked.length === 0) return report;
  // A C++ method's declaration in its header is the same code as its definition.
  const starts = withMethodHalves(j, asked);

  const walks = (["callees", "callers"] as Direction[]).map((direction) => ({
    direction,
    reached: walk(starts, options.hops, callExpander(j, direction)),
  }));
  const reachedIds = new Set(walks.flatMap((w) => [...w.reached.keys()]));
  const repos = new RepoResolver();
  let symbols: Map<string, LocalSymbol> | undefined;
  let claimsAt: Map<string, number[]>;
  if (reachedIds.size <= claims.length) {
    symbols = symbolsById(j, [...reachedIds]);
    claimsAt = keysAmong(symbols.values(), claims, repos);
  } else {
    claimsAt = new Map();
    localNodesOf(j, claims, repos).forEach((ids, i) => {
      for (const id of ids) {
        if (reachedIds.has(id)) claimsAt.set(id, [...(claimsAt.get(id) ?? []), i]);
      }
    });
  }
  if (claimsAt.size === 0) return report;

  const best = new Map<number, { relation: Relation; path: string[]; at: string }>();
  const consider = (i: number, relation: Relation, path: string[], at: string) => {
    const cur = best.get(i);
    if (
      !cur || path.length < cur.path.length ||
      (path.length === cur.path.length && ORDER[relation] < ORDER[cur.relation])
    ) best.set(i, { relation, path, at });
  };
  for (const s of starts) for (const i of claimsAt.get(s) ?? []) consider(i, "same", [s], s);
  for (const { direction, reached } of walks) {
    for (const [t, indexes] of claimsAt) {
      const r = reached.get(t);
      if (!r || r.distance === 0) continue;
      const path = pathTo(reached, t);
      if (direction === "callers") path.reverse();
      for (const i of indexes) consider(i, direction === "callees" ? "callee" : "caller", path, t);
    }
  }

  const need = [...new Set([...best.values()].flatMap((b) => b.path))];
  const steps = symbols ?? symbolsById(j, need);
  for (const [i, b] of best) {
    const claim = claims[i]!;
    if (claim.acked && !options.includeAcked) {
      report.acknowledged++;
      continue;
    }
    const local = steps.get(b.at)?.structHash ?? null;
    report.conflicts.push({
      claim,
      relation: b.relation,
      hops: b.path.length - 1,
      path: b.path.map((id) => {
        const s = steps.get(id);
        return s
          ? { id, kind: s.kind, qualname: s.qualname, path: s.path, line: s.line }
          : { id, kind: "?", qualname: id, path: "", line: null };
      }),
      // Hashes of different releases' hash versions compare as unknown, not as changed code.
      diverged: claim.qualname !== "" &&
        compareStructHashes(claim.structHash, local) === "diverged",
    });
  }
  report.conflicts.sort((a, b) =>
    a.hops - b.hops || ORDER[a.relation] - ORDER[b.relation] || a.claim.id - b.claim.id
  );
  return report;
}
