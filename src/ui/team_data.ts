/**
 * The Team view's data: who holds which code (claims placed on this
 * machine's symbols), the conflicts between them with their call paths,
 * the closest shared caller of two claimed functions that do not call one
 * another, and the task board with its hand-offs.
 *
 * Reads through `src/team` (the local journal's tables, or the shared
 * PostgreSQL once connected) and the local call graph; never writes.
 */
import type { Journal } from "../store/mod.ts";
import {
  type Actor,
  type Claim,
  DEFAULT_HOPS,
  findConflicts,
  type PathStep,
  type Task,
  type TaskEvent,
  type TeamStore,
} from "../team/mod.ts";

/** A claim, with the local symbol it names when this index holds it. */
export interface PlacedClaim {
  id: number;
  developer: string;
  agent: string | null;
  qualname: string;
  /** Repository-relative path, as the claim names it. */
  path: string;
  task_id: string | null;
  expires_at: number;
  /** The local symbol (node id, absolute path, line), or null when not indexed here. */
  node: { id: string; path: string; line: number | null } | null;
}

/** Two people's claims within call reach, and the chain of calls between them. */
export interface TeamConflict {
  a: number;
  b: number;
  developers: [string, string];
  relation: string;
  hops: number;
  path: PathStep[];
  diverged: boolean;
}

/** Two claimed functions (of different people) not calling one another, and the nearest function calling both. */
export interface SharedCaller {
  a: number;
  b: number;
  caller: PathStep;
  /** Calls from the shared caller down to each claimed function, caller first. */
  toA: PathStep[];
  toB: PathStep[];
}

/** A task with its history, for the board. */
export interface BoardTask extends Task {
  events: TaskEvent[];
}

/** Everything the Team view draws. */
export interface TeamView {
  store: string;
  claims: PlacedClaim[];
  conflicts: TeamConflict[];
  shared: SharedCaller[];
  tasks: BoardTask[];
}

/** How far up the callers the closest shared caller is looked for. */
const SHARED_HOPS = 4;

/** Reads the Team view from `store` and the local journal `j`. */
export async function teamView(j: Journal, store: TeamStore): Promise<TeamView> {
  const active = await store.activeClaims(null);
  const claims = active.map((c) => place(j, c));
  const conflicts: TeamConflict[] = [];
  const seen = new Set<string>();
  for (const c of claims) {
    if (!c.node) continue;
    const who: Actor = { developer: c.developer, agent: c.agent, session: sessionOf(active, c.id) };
    const report = await findConflicts(j, store, who, [c.node.id], {
      hops: DEFAULT_HOPS,
      includeAcked: true,
    });
    for (const x of report.conflicts) {
      if (x.claim.developer === c.developer) continue;
      const key = [c.id, x.claim.id].sort((p, q) => p - q).join("-");
      if (seen.has(key)) continue;
      seen.add(key);
      conflicts.push({
        a: c.id,
        b: x.claim.id,
        developers: [c.developer, x.claim.developer],
        relation: x.relation,
        hops: x.hops,
        path: x.path,
        diverged: x.diverged,
      });
    }
  }
  const shared: SharedCaller[] = [];
  const placed = claims.filter((c) => c.node !== null);
  for (let i = 0; i < placed.length; i++) {
    for (let k = i + 1; k < placed.length; k++) {
      const a = placed[i]!, b = placed[k]!;
      if (a.developer === b.developer || a.node!.id === b.node!.id) continue;
      if (seen.has([a.id, b.id].sort((p, q) => p - q).join("-"))) continue;
      const s = sharedCaller(j, a.node!.id, b.node!.id);
      if (s) shared.push({ a: a.id, b: b.id, ...s });
    }
  }
  const tasks: BoardTask[] = [];
  for (const t of await store.listTasks({ includeDone: true })) {
    tasks.push({ ...t, events: await store.taskEvents(t.id) });
  }
  return { store: store.where, claims, conflicts, shared, tasks };
}

function sessionOf(claims: readonly Claim[], id: number): string | null {
  return claims.find((c) => c.id === id)?.session ?? null;
}

/** Places a claim on this index: the symbol of that qualified name in a file ending with its path. */
export function place(j: Journal, c: Claim): PlacedClaim {
  const rows = j.all<{ id: string; path: string; line: number | null }>(
    `SELECT n.id, p.path, n.start_line AS line FROM nodes n JOIN paths p ON p.id = n.path_id
      WHERE n.qualname = ? ORDER BY p.path`,
    c.qualname,
  );
  const node = rows.find((r) => r.path === c.path || r.path.endsWith("/" + c.path)) ?? null;
  return {
    id: c.id,
    developer: c.developer,
    agent: c.agent,
    qualname: c.qualname,
    path: c.path,
    task_id: c.taskId,
    expires_at: c.expiresAt,
    node,
  };
}

function callersOf(j: Journal, ids: string[]): { src: string; dst: string }[] {
  return j.all<{ src: string; dst: string }>(
    `SELECT src, dst FROM edges WHERE kind = 'calls' AND dst IN (SELECT value FROM json_each(?))
       AND src != dst`,
    JSON.stringify(ids),
  );
}

/** Callers of `start` within {@link SHARED_HOPS}: each reached id → the id it calls toward start. */
function upward(j: Journal, start: string): Map<string, { next: string | null; hops: number }> {
  const reached = new Map<string, { next: string | null; hops: number }>([[start, {
    next: null,
    hops: 0,
  }]]);
  let frontier = [start];
  for (let h = 1; h <= SHARED_HOPS && frontier.length > 0; h++) {
    const next: string[] = [];
    for (const e of callersOf(j, frontier)) {
      if (reached.has(e.src)) continue;
      reached.set(e.src, { next: e.dst, hops: h });
      next.push(e.src);
    }
    frontier = next.slice(0, 2000);
  }
  return reached;
}

function step(j: Journal, ids: string[]): PathStep[] {
  const rows = j.all<PathStep>(
    `SELECT n.id, n.kind, n.qualname, p.path, n.start_line AS line
       FROM nodes n JOIN paths p ON p.id = n.path_id WHERE n.id IN (SELECT value FROM json_each(?))`,
    JSON.stringify(ids),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The function calling both `a` and `b` (directly or through others) with
 * the fewest calls down to the two of them, and both chains; null when none
 * is found within {@link SHARED_HOPS} hops of each.
 */
export function sharedCaller(
  j: Journal,
  a: string,
  b: string,
): { caller: PathStep; toA: PathStep[]; toB: PathStep[] } | null {
  const upA = upward(j, a), upB = upward(j, b);
  let best: string | null = null, bestCost = Infinity;
  for (const [id, ra] of upA) {
    const rb = upB.get(id);
    if (!rb || id === a || id === b) continue;
    const cost = ra.hops + rb.hops;
    if (cost < bestCost || (cost === bestCost && best !== null && id < best)) {
      best = id;
      bestCost = cost;
    }
  }
  if (best === null) return null;
  const chain = (up: Map<string, { next: string | null }>): string[] => {
    const out = [best!];
    for (let at = up.get(best!)?.next ?? null; at !== null; at = up.get(at)?.next ?? null) {
      out.push(at);
    }
    return out;
  };
  const toA = step(j, chain(upA)), toB = step(j, chain(upB));
  return { caller: toA[0]!, toA, toB };
}
