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
 * The symbols an edit touches: those whose line range overlaps the edited
 * region, or every symbol of the file for a whole-file write (no old text)
 * or when the region cannot be found. `content` is the file as it is now
 * (null when it does not exist yet: a new file touches nothing indexed).
 */
export function symbolsInEdit(
  symbols: readonly RegionSymbol[],
  edit: FileEdit,
  content: string | null,
): RegionSymbol[] {
  if (content === null) return [];
  const range = edit.oldText ? lineRangeOf(content, edit.oldText) : null;
  if (!range) return [...symbols];
  const [from, to] = range;
  return symbols.filter((s) =>
    s.line !== null && s.endLine !== null && s.line <= to && s.endLine >= from
  );
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
