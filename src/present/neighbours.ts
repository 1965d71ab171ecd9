/**
 * The graph listings (callers, callees, blast radius) as lines, the same for
 * the CLI and the MCP server; each passes how it shows a place.
 */
import { plural } from "./fmt.ts";
import { printable } from "./printable.ts";

/** What a listing lists, as its lines name it: one of them, and several. */
export interface ListLabel {
  one: string;
  many: string;
}

/** The callers a listing shows. */
export const CALLERS: ListLabel = { one: "caller", many: "callers" };

/** The callees a listing shows (resolved to one definition). */
export const RESOLVED_CALLEES: ListLabel = { one: "resolved callee", many: "resolved callees" };

/** The dependents a blast radius of `depth` hops shows (pure). */
export function dependentsWithin(depth: number): ListLabel {
  const hops = plural(depth, "hop");
  return { one: `dependent within ${hops}`, many: `dependents within ${hops}` };
}

/** A symbol as a listing names it. */
export interface ListedSymbol {
  kind: string;
  name: string;
  qualname: string;
  path: string;
  line: number | null;
}

/** A neighbour along the graph: the symbol, its edge, the call's line and its distance. */
export interface ListedNeighbour extends ListedSymbol {
  edge: string;
  /** The call's line in the calling file. */
  at: number | null;
  distance: number;
  via?: string;
}

/**
 * The symbol, then one line per neighbour: its distance (past one hop), edge,
 * kind, name, place, and the symbol it is reached through, each line
 * {@link printable} (a file name holding a newline or an escape sequence
 * stays on its line and never drives a terminal). A caller (or
 * dependent) is placed where it makes the call, in its own file; a callee
 * where it is defined, with the line of the symbol's file that calls it
 * (`at` is always the calling file's line). With `cap`, the first
 * `cap.limit` neighbours, then how many more there are and how to see them.
 *
 * @example
 * ```ts
 * import { neighbourLines } from "./neighbours.ts";
 * import assert from "node:assert/strict";
 * const open = { kind: "method", name: "open", qualname: "Widget.open", path: "w.cpp", line: 3 };
 * const close = { kind: "method", name: "close", qualname: "Widget.close", path: "w.h", line: 6 };
 * const where = (path: string, line: number | null) => `${path}:${line ?? 1}`;
 * assert.deepEqual(
 *   neighbourLines(open, [{ ...close, edge: "calls", at: 4, distance: 1 }], { one: "callee", many: "callees" }, "callees", where),
 *   ["method Widget.open — w.cpp:3", "  calls      method Widget.close — w.h:6  (called at line 4)"],
 * );
 * ```
 */
export function neighbourLines(
  sym: ListedSymbol,
  list: readonly ListedNeighbour[],
  label: ListLabel,
  neighbours: "callers" | "callees",
  where: (path: string, line: number | null) => string,
  cap?: ListCap,
): string[] {
  const out = [printable(`${sym.kind} ${sym.qualname} — ${where(sym.path, sym.line)}`)];
  if (list.length === 0) out.push(`  no ${label.many} in the index`);
  for (const n of cap === undefined ? list : list.slice(0, cap.limit)) {
    const dist = n.distance > 1 ? `[${n.distance}] ` : "";
    const via = n.via && n.distance > 1 ? `  via ${n.via}` : "";
    const place = neighbours === "callers"
      ? where(n.path, n.at ?? n.line)
      : `${where(n.path, n.line)}${n.at === null ? "" : `  (called at line ${n.at})`}`;
    out.push(
      printable(`  ${dist}${n.edge.padEnd(10)} ${n.kind} ${n.qualname || n.name} — ${place}${via}`),
    );
  }
  const left = moreThan(list, cap);
  if (left > 0) {
    out.push(`  … and ${plural(left, `more ${label.one}`, `more ${label.many}`)}; ${cap!.hint}`);
  }
  return out;
}

/** How many entries of a listing are shown, and how to see more. */
export interface ListCap {
  limit: number;
  /** What lists more (`--limit N`, the `limit` argument). */
  hint: string;
}

/** How many of `list` a cap leaves out (pure). */
export function moreThan(list: ArrayLike<unknown>, cap: ListCap | undefined): number {
  return cap === undefined ? 0 : Math.max(0, list.length - cap.limit);
}

/** Entries a graph listing shows unless told otherwise. */
export const DEFAULT_LIST_LIMIT = 100;
