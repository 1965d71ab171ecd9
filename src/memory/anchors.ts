/**
 * Turning what a person names (`--about SYMBOL|PATH`) into anchors, and
 * comparing anchor sets. Reads the index and the disk; writes nothing.
 */
import { clipped } from "../errors/mod.ts";
import {
  type Definition,
  definitions,
  nearSymbols,
  symbolCandidates,
  SymbolLookupError,
  type SymbolRef,
  symbolRef,
} from "../search/mod.ts";
import { basename, contentHash, exists, resolve } from "../files/mod.ts";
import { shellPath } from "../present/shell.ts";
import { getPath, type Journal, listRoots, rootFor } from "../store/mod.ts";
import { fileShapes } from "./shape.ts";
import type { AnchorRow } from "./types.ts";

/**
 * The index columns of a node that an anchor keeps.
 *
 * @internal
 */
export interface NodeFacts {
  id: string;
  kind: string;
  name: string;
  qualname: string;
  path: string;
  start_line: number | null;
  end_line: number | null;
  struct_hash: string | null;
  parent_id: string | null;
  file_hash: string | null;
}

/** The {@link NodeFacts} of a definition (the same fields, in the same order). */
export function factsOf(d: Definition): NodeFacts {
  return {
    id: d.id,
    kind: d.kind,
    name: d.name,
    qualname: d.qualname,
    path: d.path,
    start_line: d.line,
    end_line: d.endLine,
    struct_hash: d.structHash,
    parent_id: d.parent,
    file_hash: d.fileHash,
  };
}

/** One node's facts by id, or undefined when it is not in the index. */
export function nodeFacts(j: Journal, id: string): NodeFacts | undefined {
  const [d] = definitions(j, { ids: [id] });
  return d === undefined ? undefined : factsOf(d);
}

/**
 * The symbols `text` may mean, as `findSymbol` reads it (`path:name`,
 * `Class.method`, `name`), except that a dotted name matching a qualified
 * name exactly is taken before any suffix match: one indexed look-up instead
 * of a scan of every qualified name.
 */
export function symbolsNamed(j: Journal, text: string, cwd: string): SymbolRef[] {
  if (!text.includes(":") || text.includes("::")) {
    const q = text.replaceAll("::", ".");
    if (q.includes(".")) {
      const exact = definitions(j, { qualname: q, kind: "symbol", order: "path", limit: 50 })
        .map(symbolRef);
      if (exact.length > 0) return exact;
    }
  }
  return symbolCandidates(j, text, cwd);
}

/**
 * What an `--about` value names, before it becomes a stored anchor.
 *
 * @internal
 */
export type About =
  | { target: "symbol"; node: NodeFacts; root: string | null }
  | { target: "file" | "folder"; path: string; hash: string | null; root: string | null };

/**
 * Resolves `text` as a path when one exists on disk (relative to `cwd`; a
 * folder or a file), else as a symbol (`path:name`, `Class.method`, `name`).
 * Throws SymbolLookupError (from search) when it names no symbol (see
 * {@link nothingNamed}), or more than one (the error lists the candidates).
 */
export function resolveAbout(j: Journal, text: string, cwd: string): About {
  const roots = listRoots(j);
  const abs = resolve(cwd, text);
  let stat: Deno.FileInfo | undefined;
  try {
    stat = Deno.statSync(abs);
  } catch { /* not a path: a symbol */ }
  if (stat) {
    const path = realPath(abs);
    const root = rootFor(roots, path)?.path ?? null;
    if (stat.isDirectory) return { target: "folder", path, hash: null, root };
    return { target: "file", path, hash: getPath(j, path)?.hash ?? null, root };
  }
  const candidates = symbolsNamed(j, text, cwd);
  if (candidates.length === 0) throw nothingNamed(text, cwd, j);
  if (candidates.length !== 1) throw new SymbolLookupError(text, candidates);
  const node = nodeFacts(j, candidates[0]!.id)!;
  return { target: "symbol", node, root: rootFor(roots, node.path)?.path ?? null };
}

/**
 * The error for `text` naming no symbol: a {@link SymbolLookupError} with no
 * candidates, whose message also says, when `text` reads like a path (it has
 * a `/`) and its file is not on disk, that no such file or folder exists
 * where it was looked for; and, with `j`, when `text` is `path:name` and
 * that file under an indexed root is not indexed yet or has changed since
 * (a function written a moment ago, no daemon running), that it is, with
 * the command that catches up (reads and hashes that one file).
 */
export function nothingNamed(text: string, cwd: string, j?: Journal): SymbolLookupError {
  const e = new SymbolLookupError(text, [], j ? nearSymbols(j, text) : []);
  const colon = text.includes(":") && !text.includes("::");
  const file = colon ? text.slice(0, text.lastIndexOf(":")) : text;
  const abs = resolve(cwd, file);
  if (file.includes("/") && !exists(abs)) {
    e.message = `No file or folder "${clipped(abs)}", and no symbol "${
      clipped(text)
    }" in the index; check the spelling (a path is relative to ${cwd}), or \`heimdall symbols PATH\` to list a file's symbols`;
  } else if (colon && j) {
    const behind = indexBehind(j, realPath(abs));
    if (behind) {
      e.message = `No symbol "${
        clipped(text)
      }" in the index: ${file} ${behind}; run \`heimdall reconcile ${
        shellPath(file)
      }\` (or keep \`heimdall daemon\` running), then retry`;
    }
  }
  return e;
}

/**
 * Why the index may not know the symbols of file `path` yet: "is not
 * indexed yet" or "changed since it was indexed", for a file under an
 * indexed root; undefined when its row holds its bytes, or it is no file
 * of a root.
 */
function indexBehind(j: Journal, path: string): string | undefined {
  if (!rootFor(listRoots(j), path)) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(path);
  } catch {
    return undefined; // a folder, or unreadable: nothing a reconcile would change
  }
  const row = getPath(j, path);
  if (!row) return "is not indexed yet";
  return row.hash !== null && row.hash !== contentHash(bytes)
    ? "changed since it was indexed"
    : undefined;
}

/** `abs` with its links resolved, or `abs` itself when it cannot be (gone, unreadable). */
export function realPath(abs: string): string {
  try {
    return Deno.realPathSync(abs);
  } catch {
    return abs;
  }
}

/** The columns that say what an anchor is on and where it stands, not how it fares. */
export type AnchorPlace = Omit<AnchorRow, "state" | "moved_from" | "state_at" | "checked">;

/** A new anchor row at `place`: active as of `now`, never moved, not yet checked (pure). */
export function activeAnchor(place: AnchorPlace, now: number): AnchorRow {
  return { ...place, state: "active", moved_from: null, state_at: now, checked: null };
}

/** The anchor row for a resolved `--about`, as of `now`. Reads the symbol's file for its shape. */
export function anchorFor(about: About, ord: number, original: string, now: number): AnchorRow {
  if (about.target === "symbol") {
    return activeAnchor(
      { ord, target: "symbol", original, ...symbolPlace(about.node, about.root) },
      now,
    );
  }
  return activeAnchor({
    ord,
    target: about.target,
    original,
    path: about.path,
    root: about.root,
    symbol: null,
    symbol_kind: null,
    name: basename(about.path),
    node_id: null,
    struct_hash: about.hash,
    shape: null,
    start_line: null,
    end_line: null,
  }, now);
}

/** The columns of an anchor on symbol `n` (under root folder `root`) that say where it stands. */
export function symbolPlace(
  n: NodeFacts,
  root: string | null,
): Pick<
  AnchorRow,
  | "path"
  | "root"
  | "symbol"
  | "symbol_kind"
  | "name"
  | "node_id"
  | "struct_hash"
  | "shape"
  | "start_line"
  | "end_line"
> {
  return {
    path: n.path,
    root,
    symbol: n.qualname,
    symbol_kind: n.kind,
    name: n.name,
    node_id: n.id,
    struct_hash: n.struct_hash,
    shape: fileShapes(n.path, n.file_hash, [n])[0] ?? null,
    start_line: n.start_line,
    end_line: n.end_line,
  };
}

/** How an anchor is written for people: `path:qualname` or the path. */
export function anchorLabel(a: Pick<AnchorRow, "path" | "symbol">): string {
  return a.symbol ? `${a.path}:${a.symbol}` : a.path;
}

/** An anchor's identity for comparing anchor sets: its node, or its path. */
export function anchorKey(a: Pick<AnchorRow, "target" | "node_id" | "path" | "symbol">): string {
  return a.target === "symbol"
    ? `symbol:${a.node_id ?? `${a.path}:${a.symbol}`}`
    : `${a.target}:${a.path}`;
}

/** The sorted, de-duplicated keys of a set of anchors, as one string. */
export function anchorSetKey(anchors: readonly Parameters<typeof anchorKey>[0][]): string {
  return [...new Set(anchors.map(anchorKey))].sort().join("\n");
}
