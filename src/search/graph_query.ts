import { languagesWithBuiltin } from "../extract/builtins.ts";
import { IMPLICIT_THIS_LANGUAGES, languageFamilySql } from "../extract/language.ts";
import type { Journal } from "../store/mod.ts";
import type { SymbolRef } from "./symbols.ts";

/** A neighbour of a symbol along the graph, with how it is linked. */
export interface Neighbour extends SymbolRef {
  /** The edge's kind (`calls`). */
  edge: string;
  /** Call line in the calling file. */
  at: number | null;
  /** Hops from the symbol asked about (1 for a direct caller or callee). */
  distance: number;
  /** The symbol one hop closer to the start (blast radius). */
  via?: string;
}

/** A reference that could not be resolved to one definition. */
export interface Unresolved {
  /** The reference's kind (`calls`). */
  kind: string;
  /** The name as referenced (`kwargs.get`). */
  name: string;
  /** The module it is imported from, when known; else null. */
  module: string | null;
  /** The line of the reference, 1-based; null when unknown. */
  line: number | null;
}

const NODE =
  `n.id, n.kind, n.name, n.qualname, p.path, n.start_line AS line, n.end_line AS endLine, n.signature`;

/**
 * The symbol and its other half, for a C++ method declared in its class and
 * defined out of it (`void open();` in a header, `void Widget::open() { … }`
 * in a `.cpp` file): calls land on the declaration, and a reader asks about
 * either. The halves share the qualified name and the repository; a
 * definition has one declaration (none when its class is not unique), a
 * declaration may have several definitions (overloads).
 */
export function sameMethod(j: Journal, id: string): string[] {
  return [id, ...(methodHalves(j, [id]).get(id) ?? [])];
}

/**
 * {@link sameMethod} for many nodes in one query: for each of `ids` that is
 * one half of a C or C++ method, its other halves (a node that is no such
 * half is absent from the map). Cost: one query, indexed on qualified name.
 */
export function methodHalves(j: Journal, ids: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  const rows = j.all<{ sid: string; id: string; in_class: number }>(
    `SELECT s.id AS sid, o.id, coalesce(op.kind IN ${CLASS_KINDS}, 0) AS in_class
     FROM nodes s JOIN paths sp ON sp.id = s.path_id
     LEFT JOIN nodes sq ON sq.id = s.parent_id
     JOIN nodes o ON o.qualname = s.qualname AND o.kind = 'method' AND o.id != s.id
     JOIN paths op_path ON op_path.id = o.path_id AND op_path.root_id = sp.root_id
       AND op_path.language IN ('c', 'cpp')
     LEFT JOIN nodes op ON op.id = o.parent_id
     WHERE s.id IN (SELECT value FROM json_each(?)) AND s.kind = 'method'
       AND sp.language IN ('c', 'cpp')
       AND coalesce(sq.kind IN ${CLASS_KINDS}, 0) != coalesce(op.kind IN ${CLASS_KINDS}, 0)
     ORDER BY s.id, o.id`,
    JSON.stringify(ids),
  );
  const bySource = new Map<string, { id: string; in_class: number }[]>();
  for (const r of rows) bySource.set(r.sid, [...(bySource.get(r.sid) ?? []), r]);
  for (const [sid, others] of bySource) {
    // A definition whose class is not unique (several declarations) has no one other half.
    if (others.filter((r) => r.in_class === 1).length > 1) continue;
    out.set(sid, others.map((r) => r.id));
  }
  return out;
}

const CLASS_KINDS = "('class', 'struct', 'union')";
/** Receivers that name the caller's own object or class, as call targets spell them (`$this.m` for PHP's `$this->m`). */
const OWN_RECEIVERS = "('self', 'cls', 'this', '$this')";

/** Whether the node `id` is nested directly in a class, struct or union (a C++ declaration's place). */
export function isInClass(j: Journal, id: string): boolean {
  return j.get(
    `SELECT 1 FROM nodes n JOIN nodes o ON o.id = n.parent_id
     WHERE n.id = ? AND o.kind IN ${CLASS_KINDS}`,
    id,
  ) !== undefined;
}

/**
 * Who calls `id` (one hop, each caller at its first call), and how many
 * other symbols of its repository and language family call its name where
 * the call resolves to no single definition.
 */
export function callers(
  j: Journal,
  sym: SymbolRef,
): { hits: Neighbour[]; unresolvedByName: number } {
  const ids = sameMethod(j, sym.id);
  const hits = j.all<Neighbour>(
    // One row per caller, at its first call (a caller's calls written
    // differently, `f(1)` and `this.f(2, 3)`, are several references).
    `SELECT ${NODE}, e.kind AS edge, min(e.line) AS at, 1 AS distance FROM edges e
     JOIN nodes n ON n.id = e.src JOIN paths p ON p.id = n.path_id
     WHERE e.dst IN (SELECT value FROM json_each(?)) AND e.kind = 'calls'
     GROUP BY e.src ORDER BY p.path, at`,
    JSON.stringify(ids),
  );
  // Only a call that could still resolve to it counts: resolution stays in a
  // repository and a language family (src/reconcile/resolve.ts, family()),
  // and a bare call (`len(x)`, no receiver in its target) never lands on a
  // method, but where a bare call may mean the class's own (Java, Ruby…),
  // nor, in a file of a language that has a builtin of that name, on a
  // definition elsewhere (Python's `open(p)` is never gzip's `open`). A call
  // on `self` or `this` lands on a member of the caller's class, never on a
  // function outside every class.
  const implicitThis = [...IMPLICIT_THIS_LANGUAGES].map((l) => `'${l}'`).join(", ");
  const unresolvedByName = j.get<{ n: number }>(
    `SELECT count(DISTINCT pe.src) AS n FROM pending_edges pe JOIN paths p ON p.id = pe.owner_id
     JOIN nodes s ON s.id = ? JOIN paths sp ON sp.id = s.path_id
     WHERE pe.name = ? AND pe.kind = 'calls' AND p.root_id = sp.root_id
       AND ${languageFamilySql("p.language")} = ${languageFamilySql("sp.language")}
       AND (s.kind != 'method' OR instr(pe.target, '.') > 0
         OR p.language IN (${implicitThis}))
       AND (s.kind = 'method' OR instr(pe.target, '.') = 0
         OR substr(pe.target, 1, instr(pe.target, '.') - 1) NOT IN ${OWN_RECEIVERS})
       AND (instr(pe.target, '.') > 0 OR p.language NOT IN (SELECT value FROM json_each(?)))`,
    sym.id,
    sym.name,
    JSON.stringify(languagesWithBuiltin(sym.name)),
  )!.n;
  return { hits, unresolvedByName };
}

/** What `id` calls (one hop), and its calls that resolve to no single definition. */
export function callees(
  j: Journal,
  sym: SymbolRef,
): { hits: Neighbour[]; unresolved: Unresolved[] } {
  const hits = j.all<Neighbour>(
    // One row per callee, at the first call of it.
    `SELECT ${NODE}, e.kind AS edge, min(e.line) AS at, 1 AS distance FROM edges e
     JOIN nodes n ON n.id = e.dst JOIN paths p ON p.id = n.path_id
     WHERE e.src = ? AND e.kind = 'calls' GROUP BY e.dst ORDER BY at`,
    sym.id,
  );
  // Found through the file that owns them (pending_owner): no index reads pending edges by src.
  const unresolved = j.all<Unresolved>(
    `SELECT kind, target AS name, module, line FROM pending_edges
     WHERE owner_id = (SELECT path_id FROM nodes WHERE id = ?1) AND src = ?1 AND kind = 'calls'
     ORDER BY line`,
    sym.id,
  );
  return { hits, unresolved };
}

/**
 * Everything that may break when `sym` changes: callers, subclasses and
 * importers, transitively, up to `depth` hops, each with its distance and the
 * symbol through which it is reached. Breadth-first, so each is reported at
 * its shortest distance. Cost: one indexed query per symbol reached.
 */
export function blastRadius(j: Journal, sym: SymbolRef, depth = 3): Neighbour[] {
  const seen = new Set([sym.id]);
  const out: Neighbour[] = [];
  let frontier = [sym];
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const next: SymbolRef[] = [];
    for (const from of frontier) {
      const rows = j.all<Neighbour>(
        `SELECT ${NODE}, e.kind AS edge, e.line AS at FROM edges e
         JOIN nodes n ON n.id = e.src JOIN paths p ON p.id = n.path_id
         WHERE e.dst IN (SELECT value FROM json_each(?))
           AND e.kind IN ('calls', 'inherits', 'implements', 'imports')
         ORDER BY p.path, e.line`,
        JSON.stringify(sameMethod(j, from.id)),
      );
      for (const r of rows) {
        if (seen.has(r.id)) continue;
        seen.add(r.id);
        const hit = { ...r, distance: d, via: from.qualname || from.name };
        out.push(hit);
        next.push(hit);
      }
    }
    frontier = next;
  }
  return out;
}

/** Ids of the symbols one call hop away from `ids` (callers and callees), excluding `ids`. */
export function callNeighbourIds(j: Journal, given: readonly string[], limit = 50): string[] {
  if (given.length === 0) return [];
  // A C++ method's callers call its declaration: an edit of its definition reaches them too.
  const ids = [...new Set(given.flatMap((id) => sameMethod(j, id)))];
  const marks = ids.map(() => "?").join(",");
  const rows = j.all<{ id: string }>(
    `SELECT dst AS id FROM edges WHERE kind = 'calls' AND src IN (${marks})
     UNION SELECT src AS id FROM edges WHERE kind = 'calls' AND dst IN (${marks}) LIMIT ${limit}`,
    ...ids,
    ...ids,
  );
  const own = new Set(ids);
  return rows.map((r) => r.id).filter((id) => !own.has(id));
}
