/**
 * Which symbols an edit touches, and how a file's symbols changed, read from
 * the journal (read-only) and the file on disk.
 *
 * The journal describes the file as last reconciled; before an edit that is
 * the text the edit applies to, so the edit's old text is looked up in the
 * file and its line range mapped onto the symbols' line ranges.
 */
import { getPath, type Journal } from "../store/mod.ts";
import { type Definition, definitions, pickColumns } from "../search/mod.ts";
import type { FileEdit } from "./event.ts";
import type { ChangedSymbol, SymbolSnap } from "./session.ts";

/** A symbol of the journal, as the hook needs it. */
export type RegionSymbol = Pick<
  Definition,
  "id" | "kind" | "name" | "qualname" | "path" | "line" | "endLine" | "structHash"
>;

/** The {@link RegionSymbol} of a definition (the same fields, in the same order). */
function regionSymbol(d: Definition): RegionSymbol {
  return pickColumns(d, [
    "id",
    "kind",
    "name",
    "qualname",
    "path",
    "line",
    "endLine",
    "structHash",
  ]);
}

/** Every symbol of an indexed file (empty when the file is not indexed). */
export function fileSymbols(j: Journal, path: string): RegionSymbol[] {
  return definitions(j, { path, kind: "code", order: "line" }).map(regionSymbol);
}

/** 1-based line range [from, to] that `needle` occupies in `text`, or null. */
export function lineRangeOf(text: string, needle: string): [number, number] | null {
  if (needle === "") return null;
  let at = text.indexOf(needle);
  let len = needle.length;
  if (at < 0) {
    // Patch context may differ in trailing whitespace: fall back to its first solid line.
    const line = needle.split("\n").map((l) => l.trim()).find((l) => l.length >= 8);
    if (!line) return null;
    at = text.indexOf(line);
    len = line.length;
    if (at < 0) return null;
  }
  const from = text.slice(0, at).split("\n").length;
  const to = from + text.slice(at, at + len).split("\n").length - 1;
  return [from, to];
}

/**
 * The symbols an edit is about to touch: those whose line range overlaps
 * the edited region, or every symbol of the file for a whole-file write (no
 * old text). An old text that cannot be found in the file touches nothing
 * known (the edit cannot apply as described; claiming the whole file would
 * be a guess). `content` is the file as it is now (null when it does not
 * exist yet: a new file touches nothing indexed).
 */
export function symbolsInEdit(
  symbols: readonly RegionSymbol[],
  edit: FileEdit,
  content: string | null,
): RegionSymbol[] {
  if (content === null) return [];
  if (!edit.oldText) return [...symbols];
  const range = lineRangeOf(content, edit.oldText);
  return range ? overlapping(symbols, range) : [];
}

/** The symbols whose line range overlaps the 1-based line range [from, to]. */
function overlapping(symbols: readonly RegionSymbol[], [from, to]: [number, number]) {
  return symbols.filter((s) =>
    s.line !== null && s.endLine !== null && s.line <= to && s.endLine >= from
  );
}

/**
 * The hash {@link snapshotFromEdits} gives a symbol an edit changed: equal
 * to no structural hash, so the symbol reads as modified.
 */
export const TOUCHED_HASH = "(changed by an edit made before any snapshot)";

/** The 1-based line of the character at `index` of `text`. */
function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** Where an applied edit's change lies in the file now (see {@link changeOf}). */
export interface ChangeLines {
  /**
   * 1-based line range: of what the edit put in; for a change that only
   * took text out, the lines either side of the cut.
   */
  from: number;
  to: number;
  /** True when the edit put text in; false when it only took text out. */
  inserted: boolean;
}

/**
 * How well a change starting at `at` sits: 2 at a line's first non-blank
 * character, 1 at a line start, else 0 (ties go to the later place, nearer
 * where the edit's own texts put it).
 */
function placement(text: string, at: number, first: string | undefined): number {
  if (at !== 0 && text[at - 1] !== "\n") return 0;
  return first !== undefined && /\S/.test(first) ? 2 : 1;
}

/** Slides longer than this are not followed (a long run of one character). */
const MAX_SLIDE = 500;

/**
 * Where `edit`, already applied, changed `content` (pure): the lines of
 * what it put in, leaving out the text its old and new texts share at
 * either end (context it kept) and the spacing around what it put in; for
 * an edit that only took text out, the lines either side of the cut. A
 * change that could sit in several equal places (`def g` inserted before
 * `def h`) is placed as a diff would: starting a line, at its first
 * non-blank character. Null when the edit has no old text (a whole-file
 * write), no new text (a deletion) or no change, or a new text that occurs
 * in `content` nowhere or more than once, or changes only spacing.
 *
 * @example
 * ```ts
 * import { changeOf } from "./region.ts";
 * import assert from "node:assert/strict";
 * const content = "def f():\n    a = 1\n    b = 2\n\n\ndef g():\n    pass\n";
 * const edit = (oldText: string, newText: string) => ({ path: "/m.py", oldText, newText });
 * assert.deepEqual(changeOf(content, edit("    a = 0\n", "    a = 1\n")), {
 *   from: 2, to: 2, inserted: true,
 * });
 * // A statement taken out of f, between its lines 2 and 3.
 * assert.deepEqual(changeOf(content, edit("a = 1\n    c = 3\n    b", "a = 1\n    b")), {
 *   from: 2, to: 3, inserted: false,
 * });
 * // A function taken out before g: the cut is between the blank line and g's.
 * const cut = edit("b = 2\n\n\ndef h():\n    pass\n\n\ndef g", "b = 2\n\n\ndef g");
 * assert.deepEqual(changeOf(content, cut), { from: 5, to: 6, inserted: false });
 * assert.equal(changeOf(content, edit("x", "    ")), null, "in more than one place");
 * ```
 */
export function changeOf(content: string, edit: FileEdit): ChangeLines | null {
  const { oldText, newText } = edit;
  if (oldText === null || !newText || oldText === newText) return null;
  const at = content.indexOf(newText);
  if (at < 0 || content.indexOf(newText, at + 1) >= 0) return null;
  const end = at + newText.length;
  const most = Math.min(oldText.length, newText.length);
  let head = 0;
  while (head < most && oldText[head] === newText[head]) head++;
  let tail = 0;
  while (tail < most - head && oldText.at(-1 - tail) === newText.at(-1 - tail)) tail++;
  if (head + tail === newText.length) {
    // Only taken out: `removed` was at `cut`. Slid left as far as it goes, then right to
    // its best place.
    let removed = oldText.slice(head, oldText.length - tail);
    let cut = at + head;
    for (let n = 0; n < MAX_SLIDE && cut > at && content[cut - 1] === removed.at(-1); n++) {
      cut--;
      removed = removed.slice(-1) + removed.slice(0, -1);
    }
    let best = { at: cut, score: placement(content, cut, removed[0]) };
    for (let n = 0; n < MAX_SLIDE && best.score < 2 && cut < end; n++) {
      if (content[cut] !== removed[0]) break;
      cut++;
      removed = removed.slice(1) + removed.slice(0, 1);
      const score = placement(content, cut, removed[0]);
      if (score >= best.score) best = { at: cut, score };
    }
    return {
      from: lineAt(content, Math.max(best.at - 1, 0)),
      to: lineAt(content, best.at),
      inserted: false,
    };
  }
  // Put in: content[from, to), slid the same way.
  const length = newText.length - tail - head;
  let from = at + head;
  for (
    let n = 0;
    n < MAX_SLIDE && from > at && content[from - 1] === content[from + length - 1];
    n++
  ) {
    from--;
  }
  let best = { at: from, score: placement(content, from, content[from]) };
  for (let n = 0; n < MAX_SLIDE && best.score < 2 && from + length < end; n++) {
    if (content[from] !== content[from + length]) break;
    from++;
    const score = placement(content, from, content[from]);
    if (score >= best.score) best = { at: from, score };
  }
  from = best.at;
  let to = from + length;
  while (from < to && /\s/.test(content[from] ?? "")) from++;
  while (to > from && /\s/.test(content[to - 1] ?? "")) to--;
  if (from === to) return null;
  return { from: lineAt(content, from), to: lineAt(content, to - 1), inserted: true };
}

/**
 * What a file's symbols were before `edits`, as far as the edits themselves
 * tell, for a file whose edits the journal took in before any snapshot was
 * taken (pure). `symbols` and `content` are the file now, the journal having
 * caught up with it. Where an edit put text in ({@link changeOf}), a symbol
 * wholly inside that text whose name is not in the old text is new (absent
 * from the snapshot: it reads as added), and any other symbol the text's
 * lines overlap was changed ({@link TOUCHED_HASH}: it reads as modified);
 * where an edit only took text out, the symbols around both sides of the
 * cut were changed. Every other symbol keeps its hash: nothing is known to
 * have changed it, so it reads as unchanged, and nothing reads as removed.
 * An edit {@link changeOf} cannot place tells nothing.
 *
 * @example
 * ```ts
 * import { diffSymbols, snapshotFromEdits } from "./region.ts";
 * import assert from "node:assert/strict";
 * const content = "def a():\n    return 2\n\n\ndef b():\n    return 1\n";
 * const sym = (name: string, line: number, endLine: number) => ({
 *   id: name, kind: "function", name, qualname: name, path: "/m.py",
 *   line, endLine, structHash: `h-${name}`,
 * });
 * const now = [sym("a", 1, 2), sym("b", 5, 6)];
 * // The agent changed a's return value, with b's definition as context.
 * const edit = { path: "/m.py", oldText: "1\n\n\ndef b", newText: "2\n\n\ndef b" };
 * const changes = diffSymbols("/m.py", snapshotFromEdits(now, [edit], content), now);
 * assert.deepEqual(changes.map((c) => [c.qualname, c.change]), [["a", "modified"]]);
 * ```
 */
export function snapshotFromEdits(
  symbols: readonly RegionSymbol[],
  edits: readonly FileEdit[],
  content: string | null,
): Record<string, SymbolSnap> {
  const out = snapshotOf(symbols);
  if (content === null) return out;
  for (const e of edits) {
    const change = changeOf(content, e);
    if (change === null) continue;
    const { from, to, inserted } = change;
    const oldWords = new Set(e.oldText?.match(/[\p{L}\p{N}_$]+/gu) ?? []);
    // Text taken out changed the symbols it was inside: those holding the lines either side.
    const touched = inserted
      ? overlapping(symbols, [from, to])
      : symbols.filter((s) =>
        s.line !== null && s.endLine !== null && s.line <= from && s.endLine >= to
      );
    for (const s of touched) {
      const inside = inserted && (s.line ?? 0) >= from && (s.endLine ?? Infinity) <= to;
      if (inside && !oldWords.has(s.name)) delete out[s.id];
      else if (s.id in out) out[s.id] = { h: TOUCHED_HASH, q: s.qualname || s.name };
    }
  }
  return out;
}

/** The journal's view of a file: its recorded size and mtime, or null if not indexed. */
export function indexedStat(j: Journal, path: string): { size: number; mtimeMs: number } | null {
  const row = getPath(j, path);
  return row?.state === "indexed" ? { size: row.size, mtimeMs: row.mtime_ms } : null;
}

/** True when the journal's row for `path` matches the file on disk (reconciled since the edit). */
export function journalCaughtUp(j: Journal, path: string): boolean {
  const row = indexedStat(j, path);
  let st: Deno.FileInfo;
  try {
    st = Deno.statSync(path);
  } catch {
    // Deleted: caught up once the journal forgot it too.
    return row === null;
  }
  return row !== null && row.size === st.size && row.mtimeMs === (st.mtime?.getTime() ?? -1);
}

/** A snapshot of a file's symbols: id → structural hash and qualified name. */
export function snapshotOf(symbols: readonly RegionSymbol[]): Record<string, SymbolSnap> {
  const out: Record<string, SymbolSnap> = {};
  for (const s of symbols) out[s.id] = { h: s.structHash, q: s.qualname || s.name };
  return out;
}

/**
 * What changed between two snapshots of one file's symbols: ids whose
 * structural hash moved, appeared or disappeared (pure).
 */
export function diffSymbols(
  path: string,
  before: Record<string, SymbolSnap>,
  after: readonly RegionSymbol[],
): ChangedSymbol[] {
  const out: ChangedSymbol[] = [];
  const now = new Map(after.map((s) => [s.id, s]));
  for (const s of after) {
    if (!(s.id in before)) out.push({ id: s.id, qualname: s.qualname, path, change: "added" });
    else if (before[s.id]!.h !== s.structHash) {
      out.push({ id: s.id, qualname: s.qualname, path, change: "modified" });
    }
  }
  for (const [id, snap] of Object.entries(before)) {
    if (!now.has(id)) out.push({ id, qualname: snap.q, path, change: "removed" });
  }
  return out;
}

/** Symbols by id (those still in the journal). */
export function symbolsById(j: Journal, ids: readonly string[]): RegionSymbol[] {
  if (ids.length === 0) return [];
  return definitions(j, { ids }).map(regionSymbol);
}
