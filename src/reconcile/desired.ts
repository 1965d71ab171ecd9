import { derivationOf, type DerivationVersions } from "../extract/derivation.ts";
import { goPackageClause } from "../extract/go_package.ts";
import { basename, sha1Hex } from "../files/mod.ts";
import type { Depth } from "../config/mod.ts";
import type { Capability, Extraction, FileInfo, Reference } from "../extract/mod.ts";
import type {
  ChunkRecord,
  NodeRecord,
  OwnedRows,
  PathRecord,
  PendingRecord,
  VocabSet,
} from "../store/mod.ts";
// Directly, not through store/mod.ts: a prepare Worker needs no SQLite.
import { vocabRows } from "../store/vocab_counts.ts";
import { chunkRows } from "../derive/chunk_rows.ts";
import { vocabWords } from "../derive/vocab.ts";
import { isTimeBudgetMiss, timeMissReason } from "./plan.ts";

/**
 * Everything desiredRows needs, gathered by the reconciler's I/O shell.
 *
 * @internal
 */
export interface DesiredInput {
  rootId: number;
  path: string;
  rel: string;
  size: number;
  mtimeMs: number;
  /** The status-change time the bytes were read under; absent when not stat-ed. */
  ctimeMs?: number;
  hash: string | null;
  racy: number;
  info: FileInfo | undefined;
  requestedDepth: Depth;
  capability: Capability;
  extraction: Extraction | undefined;
  /** Terminal reason when the file was not read (too large). */
  skipReason?: string;
  /**
   * Terminal reason when the file could not be read (`unreadable: …`): the
   * row gets state `error`, and no other row.
   */
  error?: string;
  /** Which try at parsing these bytes this is (1-based; see `PARSE_TRIES`). Default 1. */
  parseTry?: number;
  lineCount: number;
  /** The file's text, for its search chunks; undefined when it was not read. */
  text?: string;
  /**
   * The code versions to record as the row's derivation (tests inject others);
   * default this build's. Its `vocabulary` flag says whether the rows teach the
   * learned vocabulary.
   */
  derivations?: DerivationVersions;
}

/** A stable id for a node: never collides across files or repositories, survives re-indexing. */
export function nodeId(path: string, kind: string, qualname: string, ordinal = 0): string {
  return sha1Hex(`${path}\0${kind}\0${qualname}\0${ordinal}`)
    .slice(0, 20);
}

/** The id of a file's own node. */
export function fileNodeId(path: string): string {
  return nodeId(path, "file", "");
}

/**
 * The rows one path should own, given its bytes' description and extraction
 * (pure). A parsed file gets a file node; symbols hang under it by their
 * `parent_id` (containment is that column, never an edge row); references
 * become pending edges for the resolver;
 * with the vocabulary on, documented symbols teach it their words.
 */
export function desiredRows(input: DesiredInput): OwnedRows {
  const x = input.extraction;
  const binary = input.info?.binary ?? false;
  const skipped = input.skipReason !== undefined || binary || input.error !== undefined;
  const effective: Depth = skipped ? 1 : Math.max(1, x?.depth ?? 1) as Depth;
  // A parse cut short by the time budget says which try it was, and whether another follows.
  const xError = x?.error !== undefined && isTimeBudgetMiss(x.error)
    ? timeMissReason(x.error, input.parseTry ?? 1)
    : x?.error;
  const clampReason = effective < input.requestedDepth
    ? (input.error ?? input.skipReason ??
      (binary ? "binary file" : xError ?? input.capability.reason ?? null))
    : (xError ?? null);
  const path: PathRecord = {
    root_id: input.rootId,
    path: input.path,
    rel: input.rel,
    state: input.error !== undefined ? "error" : skipped ? "skipped" : "indexed",
    reason: input.error ?? input.skipReason ?? (binary ? "binary" : null),
    hash: input.hash,
    size: input.size,
    mtime_ms: input.mtimeMs,
    ctime_ms: input.ctimeMs ?? null,
    language: input.info?.language ?? null,
    summary: input.info?.summary ?? null,
    requested_depth: input.requestedDepth,
    target_depth: Math.min(input.requestedDepth, input.capability.depth),
    effective_depth: effective,
    depth_reason: clampReason,
    racy: input.racy,
    derivation: derivationOf(input.info?.language ?? null, input.derivations),
  };
  // Only parsed files get a node of their own: it anchors their symbols and
  // the imports that name the file; an L1 file is fully described by its row.
  // A Go file's node says which package it is in (its folder may hold two:
  // `package store` and its external test's `package store_test`).
  const fileId = fileNodeId(input.path);
  const nodes: NodeRecord[] = effective < 2 ? [] : [{
    id: fileId,
    parent_id: null,
    kind: "file",
    name: basename(input.path),
    qualname: "",
    start_line: 1,
    end_line: Math.max(1, input.lineCount),
    signature: path.language === "go" && input.text !== undefined
      ? goPackageClause(input.text)
      : null,
    doc: input.info?.summary ?? null,
    struct_hash: input.hash,
    partial: 0,
    scoped: 0,
  }];
  const pending: PendingRecord[] = [];
  if (!skipped && x && effective >= 2) addSymbols(input.path, x, fileId, nodes, pending);
  const chunks = skipped ? [] : chunkRows({
    rel: input.rel,
    language: path.language,
    summary: path.summary,
    text: input.text,
    nodes,
    sections: effective >= 2 ? x?.chunks ?? [] : [],
  });
  const vocab = input.derivations?.vocabulary ? vocabRows(vocabSets(nodes, chunks)) : undefined;
  return { path, nodes, edges: [], pending, chunks, ...(vocab ? { vocab } : {}) };
}

/**
 * What each documented symbol (not a file or a heading) teaches the learned
 * vocabulary: its doc comment against its name, signature and the body text
 * its search chunk indexes.
 */
function vocabSets(nodes: readonly NodeRecord[], chunks: readonly ChunkRecord[]): VocabSet[] {
  const out: VocabSet[] = [];
  let bodies: Map<string, string> | undefined;
  for (const n of nodes) {
    if (n.doc === null || n.kind === "file" || n.kind === "heading") continue;
    bodies ??= new Map(chunks.flatMap((c) => c.node_id === null ? [] : [[c.node_id, c.fts.body]]));
    const body = bodies.get(n.id);
    const set = vocabWords({
      name: n.name,
      signature: n.signature,
      doc: n.doc,
      ...(body === undefined ? {} : { body }),
    });
    if (set) out.push(set);
  }
  return out;
}

function addSymbols(
  path: string,
  x: Extraction,
  fileId: string,
  nodes: NodeRecord[],
  pending: PendingRecord[],
): void {
  // Two symbols may share a qualified name (`mod parse;` and `fn parse`,
  // PHP's `namespace Shop;` and `class Shop`): a symbol or a reference
  // belongs to the one whose lines hold it, else to the first.
  const byQualname = new Map<string, { id: string; start: number; end: number }[]>();
  const holder = (qualname: string | undefined, line: number): string => {
    if (qualname === undefined || qualname === "") return fileId;
    const all = byQualname.get(qualname);
    if (all === undefined) return fileId;
    return (all.find((h) => h.start <= line && line <= h.end) ?? all[0]!).id;
  };
  const seen = new Map<string, number>();
  for (const s of x.symbols) {
    const key = `${s.kind}\0${s.qualname}`;
    const ordinal = seen.get(key) ?? 0;
    seen.set(key, ordinal + 1);
    const id = nodeId(path, s.kind, s.qualname, ordinal);
    const parentId = holder(s.parent, s.startLine);
    const same = byQualname.get(s.qualname);
    const at = { id, start: s.startLine, end: s.endLine };
    if (same === undefined) byQualname.set(s.qualname, [at]);
    else same.push(at);
    nodes.push({
      id,
      parent_id: parentId,
      kind: s.kind,
      name: s.name,
      qualname: s.qualname,
      start_line: s.startLine,
      end_line: s.endLine,
      signature: s.signature ?? null,
      doc: s.doc ?? null,
      struct_hash: s.structHash ?? null,
      partial: s.partial ? 1 : 0,
      scoped: s.scoped ? 1 : 0,
    });
  }
  if (effective3(x)) {
    // A bare call of a name this file imports is bound by that import: its
    // module is the binding, so the resolver looks through the import, and
    // knows the reference can only ever resolve that way.
    const imported = new Set(x.refs.filter((r) => r.kind === "imports").map((r) => r.name));
    // One row per symbol and what it refers to, at its first line: a function
    // that calls `push` ten times has one `push` reference. The graph is
    // symbol to symbol; the repeats were a third of all reference rows, each
    // with three index entries, and resolved alike. Calls of one name with
    // different argument counts stay apart where overloads take them apart.
    const seenRef = new Set<string>();
    for (const r of x.refs) {
      const bound = r.kind !== "imports" && r.module === undefined && r.receiver === undefined &&
        imported.has(r.name);
      const src = holder(r.from, r.line);
      const target = referenceTarget(r);
      const module = r.module ?? (bound ? r.name : null);
      const key = `${src}\0${r.kind}\0${target}\0${module ?? ""}\0${r.args ?? ""}\0${
        r.imported ?? ""
      }`;
      if (seenRef.has(key)) continue;
      seenRef.add(key);
      pending.push({
        src,
        kind: r.kind,
        target,
        name: lastSegment(r.name),
        module,
        module_tail: r.kind === "imports" && r.module ? moduleTail(r.module) : null,
        line: r.line,
        ...(r.args === undefined ? {} : { args: r.args }),
        ...(r.imported === undefined ? {} : { imported: r.imported }),
      });
    }
  }
}

/**
 * What the resolver reads of a reference: the name, qualified by what its
 * receiver evidently is (`Session.get` for `s.get()` after `s = Session()`),
 * else by the receiver as written (`self.get`, `kwargs.get`, `?.get`), so
 * that a call on a receiver is never read as a bare call of its name; a
 * macro's call with its `!` (`debug!`).
 */
export function referenceTarget(r: Reference): string {
  const on = r.receiverType ?? r.receiver;
  // A macro's call keeps its `!`, which the resolver reads (see Resolver, macros).
  const name = r.macro ? `${r.name}!` : r.name;
  return on === undefined ? name : `${on}.${name}`;
}

function effective3(x: Extraction): boolean {
  return x.depth >= 3;
}

/** `Mutex` of `sync.Mutex`, `Item` of `a::Item`, `foo` of PHP's `\B\foo`. */
export function lastSegment(target: string): string {
  return target.split(/\.|::|\\/).at(-1) ?? target;
}

/**
 * The last segment of a module specifier, which is how a file is known to
 * its importers: `mod` of `./util/mod.ts`, `models` of `pkg.core.models`,
 * `store` of `github.com/acme/app/internal/store`, `paths` of
 * `crate::store::paths`, `util` of `"util.h"`.
 */
export function moduleTail(module: string): string {
  let tail = module.replace(/["'<>]/g, "").replace(/\/+$/, "");
  tail = tail.slice(tail.lastIndexOf("/") + 1);
  if (tail.includes("::")) tail = tail.slice(tail.lastIndexOf("::") + 2);
  tail = tail.replace(/\.(d\.ts|[cm]?[jt]sx?|py|pyi|h|hh|hpp|hxx|rb|php|sh|rs|go|java|cs)$/, "");
  return tail.slice(tail.lastIndexOf(".") + 1);
}
