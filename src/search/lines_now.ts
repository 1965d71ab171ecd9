/**
 * Where the symbols of a file changed since it was indexed start now: each
 * looked for by its signature, namesakes (same-named methods of several
 * classes, a C prototype and its definition) kept in the order they were
 * indexed in, so one is never taken for another.
 */
import type { Journal } from "../store/mod.ts";
import { collapsed, definitionLine, hasWord, linesHolding, sym1 } from "./relocate.ts";

/** A symbol of a changed file as indexed: its chunk, signature and first line. */
export interface IndexedSymbol {
  id: number;
  signature: string;
  line: number;
  /** Its name: a signature edited after it (a parameter added) still names it. */
  name?: string;
}

/**
 * Pairs of namesakes (symbols × lines holding their signature) past which
 * they are looked for one by one, nearest where each was.
 */
const MAX_PAIRS = 250_000;

/**
 * The line each symbol starts at now, by id; undefined when its signature
 * is on no line (gone, or its signature edited before the end of its
 * `name`: a signature edited after it, a parameter added, is placed at the
 * nearest free line still defining that name), null when the lines
 * holding it are fewer than its namesakes and the others stand nearer
 * where they are expected (it was deleted) (pure). A symbol
 * alone with its signature is at the holding line nearest where it was
 * ({@link definitionLine}: an edit moves it by the lines inserted above
 * it). Namesakes are matched to the lines holding their signature in the
 * order they were indexed, as many as there are lines, each as near as
 * that order allows to where it is expected: its line moved as far as the
 * nearest symbol above it of a signature of its own moved. Twelve lines
 * inserted above two classes move both `area` methods twelve lines down,
 * where nearest-first had put the second class's on the first's; the
 * second class's `area` deleted leaves the first's its own. Costs the
 * lines each symbol moved, and one read of every line per signature whose
 * symbols the nearest lines would place on one line.
 *
 * @example
 * ```ts
 * import { definitionLines } from "./lines_now.ts";
 * import assert from "node:assert/strict";
 * const now = ["# pad", "# pad", "# pad", "class A:", "    def area(self):", "class B:", "    def area(self):"];
 * const at = definitionLines(now, [
 *   { id: 1, signature: "def area(self):", line: 2 },
 *   { id: 2, signature: "def area(self):", line: 4 },
 * ]);
 * assert.deepEqual([at.get(1), at.get(2)], [5, 7]);
 * ```
 */
export function definitionLines(
  lines: readonly string[],
  symbols: readonly IndexedSymbol[],
): Map<number, number | null | undefined> {
  const out = new Map<number, number | null | undefined>();
  const groups = new Map<string, IndexedSymbol[]>();
  for (const s of symbols) {
    const head = sym1(s.signature);
    const group = head === undefined ? undefined : groups.get(head);
    if (group) group.push(s);
    else if (head !== undefined) groups.set(head, [s]);
    else out.set(s.id, undefined);
  }
  // A symbol alone with its signature is where it is; how far each moved says
  // where its namesakes, between them, are expected.
  const shifts: [number, number][] = [];
  const namesakes: IndexedSymbol[][] = [];
  for (const group of groups.values()) {
    if (group.length > 1) {
      namesakes.push(group);
      continue;
    }
    const s = group[0]!;
    const at = definitionLine(lines, s.signature, s.line);
    out.set(s.id, at);
    if (at !== undefined) shifts.push([s.line, at - s.line]);
  }
  shifts.sort((a, b) => a[0] - b[0]);
  const expected = (line: number) => {
    let shift = shifts[0]?.[1] ?? 0;
    for (const [was, by] of shifts) {
      if (was > line) break;
      shift = by;
    }
    return line + shift;
  };
  for (const group of namesakes) {
    // Nearest-first keeps their order; it errs only by placing two on one line.
    const nearest = group.map((s) => definitionLine(lines, s.signature, s.line));
    const placed = nearest.filter((at) => at !== undefined);
    if (placed.length === group.length && new Set(placed).size === placed.length) {
      group.forEach((s, i) => out.set(s.id, nearest[i]));
      continue;
    }
    const holding = linesHolding(lines, group[0]!.signature);
    if (group.length * holding.length > MAX_PAIRS) {
      for (const s of group) out.set(s.id, definitionLine(lines, s.signature, s.line));
      continue;
    }
    const order = [...group].sort((a, b) => a.line - b.line || a.id - b.id);
    const at = matchInOrder(order.map((s) => expected(s.line)), holding);
    // Its signature's lines all taken by its namesakes: it was deleted.
    order.forEach((s, i) => out.set(s.id, at[i] ?? (holding.length > 0 ? null : undefined)));
  }
  // A signature edited after its name (`def total(items, rate)` given a parameter) is on
  // no line: the line still defining its name, nearest where it is expected, is where it is.
  const taken = new Set([...out.values()].filter((at) => typeof at === "number"));
  for (const s of symbols) {
    if (out.get(s.id) !== undefined || s.name === undefined) continue;
    const at = nameLine(lines, s.signature, s.name, expected(s.line), taken);
    if (at !== undefined) {
      out.set(s.id, at);
      taken.add(at);
    }
  }
  return out;
}

const IDENT = /[\p{L}\p{N}_$]/u;
const IDENT_ONLY = /^[\p{L}\p{N}_$]+$/u;

/**
 * The 1-based line nearest `near`, not in `taken`, that holds `signature` up
 * to the end of `name` (`def total`, `static int total`), or the word
 * right before the name and the name (`function total` in `export async
 * function total`: a word put in front of it since, `async`, `static`,
 * `pub`), followed by no identifier character; for a signature that
 * begins with the name (a JS/TS method, a C++ constructor), the nearest
 * line that defines it so, its body opening on that line ({@link
 * opensBody}: a call `total(x)` looks the same up to there); undefined
 * when none does, or when the part is too short to trust (pure).
 */
function nameLine(
  lines: readonly string[],
  signature: string,
  name: string,
  near: number,
  taken: ReadonlySet<number>,
): number | undefined {
  const sig = signature.replace(/\s+/g, " ").trim();
  let start = -1;
  for (let i = sig.indexOf(name); i !== -1; i = sig.indexOf(name, i + 1)) {
    const before = sig[i - 1];
    const after = sig[i + name.length];
    if (
      i > 0 && before !== undefined && !IDENT.test(before) &&
      (after === undefined || !IDENT.test(after))
    ) {
      start = i;
      break;
    }
  }
  const head = start === -1 ? undefined : sig.slice(0, start + name.length);
  // Its name on no line (renamed, deleted): nothing to look for.
  if (IDENT_ONLY.test(name) && !hasWord(lines, name)) return undefined;
  if (head === undefined && IDENT_ONLY.test(name) && startsWithName(sig, name)) {
    return nearestLine(
      lines,
      near,
      (i) => !taken.has(i + 1) && opensBody(collapsed(lines, i), name),
    );
  }
  if (head === undefined || sym1(head) === undefined) return undefined;
  const keyword = /([\p{L}\p{N}_$]+) $/u.exec(sig.slice(0, start))?.[1];
  const short = keyword === undefined ? undefined : `${keyword} ${name}`;
  const holdsHead = (l: string, h: string) => {
    const at = l.startsWith(h) ? 0 : l.indexOf(` ${h}`);
    if (at === -1) return false;
    const after = l[at + (at === 0 ? 0 : 1) + h.length];
    return after === undefined || !IDENT.test(after);
  };
  const holds = (i: number) => {
    if (taken.has(i + 1)) return false;
    const l = collapsed(lines, i);
    return holdsHead(l, head) ||
      (short !== undefined && sym1(short) !== undefined && holdsHead(l, short));
  };
  return nearestLine(lines, near, holds);
}

/** The 1-based line nearest `near` (above first on a tie) whose 0-based index `holds`; undefined when none. */
function nearestLine(
  lines: readonly string[],
  near: number,
  holds: (i: number) => boolean,
): number | undefined {
  const from = Math.min(Math.max(near, 1), lines.length) - 1;
  for (let d = 0; from - d >= 0 || from + d < lines.length; d++) {
    if (from - d >= 0 && holds(from - d)) return from - d + 1;
    if (d > 0 && from + d < lines.length && holds(from + d)) return from + d + 1;
  }
  return undefined;
}

/** True when `sig` begins with `name`, then no identifier character: a method written name first. */
function startsWithName(sig: string, name: string): boolean {
  const after = sig[name.length];
  return sig.startsWith(name) && after !== undefined && !IDENT.test(after);
}

/** Words that may stand before a method's name on its line (modifiers, `*` of a generator). */
const MODIFIERS =
  /^(?:(?:async|static|public|private|protected|readonly|override|abstract|get|set|export|default|declare|virtual|explicit|inline|constexpr|final)\s+|\*\s*)*/;

/**
 * True when collapsed line `l` defines `name` written name first
 * (`subtotal(rate, coupon = 0) {`, `async load(): Promise<void> {`, a C++
 * constructor `Widget(int x) : n(x) {}`): modifiers, the name, its
 * parameters closed on the line, then a body opening before any `;`. A call
 * (`subtotal(x);`, `load(url).then(() => {`, `load(url, () => {`) has no
 * body after its closing parenthesis; parameters over several lines are
 * not told from arguments, so such a line is not taken (pure).
 */
function opensBody(l: string, name: string): boolean {
  const rest = l.slice(MODIFIERS.exec(l)![0].length);
  if (!rest.startsWith(name)) return false;
  let i = name.length;
  if (IDENT.test(rest[i] ?? "")) return false;
  while (rest[i] === " ") i++;
  if (rest[i] === "<") i = rest.indexOf(">", i) + 1; // type parameters
  while (rest[i] === " ") i++;
  if (i === 0 || rest[i] !== "(") return false;
  let depth = 0;
  for (; i < rest.length; i++) {
    if (rest[i] === "(") depth++;
    else if (rest[i] === ")" && --depth === 0) break;
  }
  if (depth !== 0) return false;
  const after = rest.slice(i + 1).trim();
  const brace = after.indexOf("{");
  return brace !== -1 && !/^[.,)\]?]/.test(after) && !after.slice(0, brace).includes(";");
}

/**
 * Matches ascending indexed lines `was` to ascending lines `now`, order
 * kept: as many as can be, then the least total distance (pure). Each of
 * `was` gets its line or undefined.
 */
function matchInOrder(was: readonly number[], now: readonly number[]): (number | undefined)[] {
  const n = was.length;
  const m = now.length;
  // best[i][j]: [unmatched, distance] for the first i of `was` against the first j of `now`.
  const unmatched = new Float64Array((n + 1) * (m + 1));
  const distance = new Float64Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  const better = (u: number, d: number, k: number) =>
    u < unmatched[k]! || (u === unmatched[k]! && d < distance[k]!);
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= m; j++) {
      const k = at(i, j);
      if (i === 0) {
        unmatched[k] = 0;
        distance[k] = 0;
        continue;
      }
      // The i-th left without a line…
      unmatched[k] = unmatched[at(i - 1, j)]! + 1;
      distance[k] = distance[at(i - 1, j)]!;
      if (j === 0) continue;
      // …or the j-th line holding no one of them (a namesake added since)…
      const skip = at(i, j - 1);
      if (better(unmatched[skip]!, distance[skip]!, k)) {
        unmatched[k] = unmatched[skip]!;
        distance[k] = distance[skip]!;
      }
      // …or the i-th at the j-th.
      const pair = at(i - 1, j - 1);
      const d = distance[pair]! + Math.abs(now[j - 1]! - was[i - 1]!);
      if (better(unmatched[pair]!, d, k)) {
        unmatched[k] = unmatched[pair]!;
        distance[k] = d;
      }
    }
  }
  const out: (number | undefined)[] = new Array(n).fill(undefined);
  for (let i = n, j = m; i > 0;) {
    const k = at(i, j);
    const pair = j > 0 ? at(i - 1, j - 1) : -1;
    if (
      pair >= 0 && unmatched[k] === unmatched[pair] &&
      distance[k] === distance[pair]! + Math.abs(now[j - 1]! - was[i - 1]!)
    ) {
      out[i - 1] = now[j - 1];
      i--;
      j--;
    } else if (
      j > 0 && unmatched[k] === unmatched[at(i, j - 1)] && distance[k] === distance[at(i, j - 1)]
    ) {
      j--;
    } else i--;
  }
  return out;
}

/** Symbols scanned past a symbol's end for the nearest one that starts after it now. */
const NEXT_SCANNED = 32;

/**
 * The last line each placed symbol of a changed file may reach now, by id
 * (pure): the line before the nearest symbol indexed after its end that
 * starts after it now. A body that shrank does not take in the function
 * below it; a symbol's own methods (indexed inside it) do not cut it. A
 * symbol with no such neighbour is not in the map. `starts` is
 * {@link definitionLines}'s answer.
 *
 * @example
 * ```ts
 * import { lastLinesNow } from "./lines_now.ts";
 * import assert from "node:assert/strict";
 * // total (4-10) lost four lines of its body: square, indexed at 13, starts at 9 now.
 * const symbols = [{ id: 1, line: 4, end_line: 10 }, { id: 2, line: 13, end_line: 14 }];
 * const last = lastLinesNow(symbols, new Map([[1, 4], [2, 9]]));
 * assert.equal(last.get(1), 8);
 * assert.equal(last.get(2), undefined);
 * ```
 */
export function lastLinesNow(
  symbols: readonly { id: number; line: number; end_line: number | null }[],
  starts: ReadonlyMap<number, number | null | undefined>,
): Map<number, number> {
  const placed = symbols
    .filter((s) => typeof starts.get(s.id) === "number")
    .sort((a, b) => a.line - b.line || a.id - b.id);
  const out = new Map<number, number>();
  placed.forEach((s, i) => {
    const at = starts.get(s.id) as number;
    const end = s.end_line ?? s.line;
    // The first symbol indexed past its end (those between are inside it).
    let lo = i + 1;
    let hi = placed.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (placed[mid]!.line > end) hi = mid;
      else lo = mid + 1;
    }
    let last = Infinity;
    for (let k = lo; k < placed.length && k < lo + NEXT_SCANNED; k++) {
      const next = starts.get(placed[k]!.id) as number;
      if (next > at) last = Math.min(last, next - 1);
    }
    if (last !== Infinity) out.set(s.id, last);
  });
  return out;
}

/** Where the symbols of a changed file are now: each one's first line, and the last it may reach. */
export interface SymbolsNow {
  /** {@link definitionLines}: by chunk id. */
  starts: Map<number, number | null | undefined>;
  /** {@link lastLinesNow}: by chunk id. */
  last: Map<number, number>;
}

/**
 * {@link definitionLines} and {@link lastLinesNow} for every symbol of an
 * indexed file that has a signature, read from the journal: one query.
 */
export function symbolsNow(j: Journal, pathId: number, lines: readonly string[]): SymbolsNow {
  const symbols = j.all<
    { id: number; signature: string; line: number; end_line: number | null; name: string }
  >(
    `SELECT c.id, n.signature, c.start_line AS line, c.end_line, n.name FROM chunks c JOIN nodes n ON n.id = c.node_id
     WHERE c.path_id = ? AND c.start_line IS NOT NULL AND n.signature IS NOT NULL`,
    pathId,
  );
  const starts = definitionLines(lines, symbols);
  return { starts, last: lastLinesNow(symbols, starts) };
}
