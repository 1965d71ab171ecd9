/**
 * Finding a gone file again, under its own root only: the same content
 * (hash) in the journal or on disk (its folder first), the same symbol
 * (structural hash and name) elsewhere in the journal, else either on disk,
 * nearest folders first, within a time budget. And a symbol moved out of a
 * file that is still there: its definition in a file the journal does not
 * know as it is now.
 */
import {
  basename,
  contentHash,
  decodeText,
  dirname,
  exists,
  isSecretName,
  walkRoot,
} from "../files/mod.ts";
import type { Journal } from "../store/mod.ts";
import { definitions } from "./definitions.ts";
import { READ_LIMIT_BYTES } from "./file_reads.ts";

/** What is known of a hit whose file is gone. */
export interface GoneHit {
  path: string;
  pathId: number;
  root: string;
  rel: string;
  hash: string | null;
  size: number;
  symbol: {
    name: string;
    structHash: string | null;
    signature: string | null;
    /** The line it was indexed at. */
    line: number | null;
    /**
     * Where it starts in a file's lines now, its namesakes of the gone file
     * (another class's method of its signature) placed too (`definitionLines`);
     * null when they take every line holding its signature, or when that file
     * is not this one edited. Without it, the line holding its signature
     * nearest where it was.
     */
    place?: (lines: readonly string[]) => number | null | undefined;
  } | null;
}

/** Where it was found, the line its symbol now starts at, and how it was recognised. */
export interface Relocated {
  path: string;
  line: number | null;
  how: "same content" | "same symbol";
}

/** Budget and rules for the walk on disk. */
export interface RelocateOptions {
  /** `performance.now()` after which no more files are looked at. */
  deadline: number;
  globalIgnore: string;
}

/**
 * Looks for a gone file's content or symbol elsewhere: the same content in
 * the journal, then beside it on disk (a file renamed in its folder, not
 * indexed yet), then under its root on disk (for at most
 * {@link CONTENT_WALK_MS}), then the same symbol in the journal, then
 * either on disk (the symbol in a file of its name, or in a file of its
 * folder renamed and edited: {@link renamedIn}).
 *
 * Journal look-ups are indexed (content hash; symbol name then structural
 * hash) and each answer is stat-ed; the disk walk reads only files of the
 * same size (hashed) or the same name (searched for the symbol's
 * signature), starting in the gone file's folder and widening to its root
 * until `deadline`. Undefined when nothing was found in time.
 *
 * The moved file is looked for before the symbol: another file holding
 * the same function (a bundle, a vendored copy) is not where this one went.
 * Nothing outside the gone file's root is where it went either: the same
 * content or symbol in another root's journal rows was there before (a
 * copy in another repository), and the pruned hit's reason says "not found
 * under its root". An empty file is not looked for by its content, which
 * every empty file holds.
 */
export function relocate(
  j: Journal,
  found: GoneHit,
  opts: RelocateOptions,
): Relocated | undefined {
  // An empty file's content names nothing: every other empty file (an `__init__.py`
  // beside it) holds it, and the deleted one was said to have moved there.
  const gone = found.size === 0 ? { ...found, hash: null } : found;
  // Files of its folder already looked at for its bytes are not hashed again by the walk.
  const looked = new Set<string>([gone.path]);
  const same = sameContent(j, gone, opts.deadline, looked);
  if (same !== undefined) return { path: same, line: null, how: "same content" };
  // Moved to another folder and not indexed there yet: its bytes on disk,
  // for part of the budget (a deleted file would spend all of it here).
  if (gone.hash !== null) {
    const until = Math.min(opts.deadline, performance.now() + CONTENT_WALK_MS);
    const moved = onDisk({ ...gone, symbol: null }, { ...opts, deadline: until }, looked);
    if (moved !== undefined) return moved;
  }
  const sym = gone.symbol;
  if (sym?.structHash) {
    const rows = definitions(j, {
      name: sym.name,
      structHash: sym.structHash,
      notPathId: gone.pathId,
      under: gone.root,
      limit: 20,
    });
    for (const r of rows) {
      if (statSize(r.path) !== undefined) return { path: r.path, line: r.line, how: "same symbol" };
    }
  }
  return onDisk(gone, opts, new Set([gone.path]), renamedIn(j, gone));
}

/**
 * The test a file of the gone file's folder, of another name, passes to be
 * read as that file renamed and edited (`git mv money.py currency.py`,
 * then an edit; not indexed since): it has the gone file's extension and
 * the journal does not hold it (a file it holds has its own definitions,
 * where the search looked already). Whether it is that file is then its
 * symbol's `place`'s to say: most of the gone file's definitions are in it.
 */
function renamedIn(j: Journal, gone: GoneHit): (path: string) => boolean {
  const folder = dirname(gone.path);
  const ext = extensionOf(gone.path);
  const known = j.stmt("SELECT 1 AS x FROM paths WHERE path = ?");
  return (path) =>
    dirname(path) === folder && extensionOf(path) === ext && known.get(path) === undefined;
}

/**
 * Where a gone file's very bytes are now, by its content hash: a file the
 * journal holds with it (and still of its size on disk), else a file of
 * its own folder (a rename not indexed yet), looked at until `deadline`.
 * Undefined when neither, or when the gone file has no hash.
 */
function sameContent(
  j: Journal,
  gone: Pick<GoneHit, "path" | "hash" | "size" | "root">,
  deadline: number,
  looked: Set<string>,
): string | undefined {
  if (gone.hash === null) return undefined;
  const under = `${gone.root}/`;
  const rows = j.all<{ path: string; size: number }>(
    "SELECT path, size FROM paths WHERE hash = ? AND path != ? AND substr(path, 1, length(?)) = ? LIMIT 20",
    gone.hash,
    gone.path,
    under,
    under,
  );
  for (const r of rows) if (statSize(r.path) === r.size) return r.path;
  return sameContentBeside(gone, deadline, looked);
}

/**
 * A file of the gone file's folder (not below it) with its size and
 * content hash, or undefined; files are hashed only when their size is
 * the gone file's, until `deadline`. Each file looked at joins `looked`.
 */
function sameContentBeside(
  gone: Pick<GoneHit, "path" | "hash" | "size">,
  deadline: number,
  looked: Set<string>,
): string | undefined {
  if (performance.now() > deadline) return undefined;
  const folder = dirname(gone.path);
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(folder)].filter((e) => e.isFile);
  } catch {
    return undefined;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (performance.now() > deadline) return undefined;
    const path = `${folder}/${e.name}`;
    // A secret's name is never indexed, nor shown (the walk refuses it too).
    if (looked.has(path) || isSecretName(e.name) !== undefined) continue;
    looked.add(path);
    if (statSize(path) !== gone.size) continue;
    try {
      if (contentHash(Deno.readFileSync(path)) === gone.hash) return path;
    } catch {
      // Gone or unreadable since it was listed: not this one.
    }
  }
  return undefined;
}

/** Time the walk for a gone file's very bytes may take before its symbol is looked up elsewhere. */
const CONTENT_WALK_MS = 100;

/**
 * The gone file's content (same size, hashed) or, when it has a symbol with
 * a signature, a file of its name holding that definition (or, in its own
 * folder, one that `renamed` says is it renamed), walking its root from its
 * folder outwards until `opts.deadline`; files in `looked` are passed over,
 * and each file looked at joins it.
 */
function onDisk(
  gone: GoneHit,
  opts: RelocateOptions,
  looked: Set<string>,
  renamed?: (path: string) => boolean,
): Relocated | undefined {
  const name = basename(gone.path);
  const signature = sym1(gone.symbol?.signature ?? null);
  const near = gone.symbol?.line ?? 1;
  for (const file of outwards(gone, opts, looked)) {
    const found = match(file.path, file.size, gone, name, signature, near, renamed);
    if (found) return found;
  }
  return undefined;
}

/**
 * The files under `from.root` not in `looked`, those of `from`'s folder
 * first, then its parent's and so up to the root, until `opts.deadline`;
 * each one given joins `looked`.
 */
function* outwards(
  from: { root: string; rel: string },
  opts: RelocateOptions,
  looked: Set<string>,
): Generator<{ path: string; size: number; mtimeMs: number }> {
  let rel = dirname(from.rel);
  for (;;) {
    const under = rel === "." ? "" : rel;
    if (exists(under === "" ? from.root : `${from.root}/${under}`)) {
      for (
        const ev of walkRoot({
          root: from.root,
          globalIgnore: opts.globalIgnore,
          ...(under !== "" ? { under } : {}),
        })
      ) {
        if (performance.now() > opts.deadline) return;
        if (ev.type !== "file" || looked.has(ev.path)) continue;
        looked.add(ev.path);
        yield ev;
      }
    }
    if (under === "") return;
    rel = dirname(rel);
  }
}

/** A symbol its file, still there, no longer holds. */
export interface MovedSymbol {
  /** The file it was indexed in, absolute. */
  path: string;
  /** That file's root, and its path relative to it. */
  root: string;
  rel: string;
  name: string;
  signature: string | null;
  /** The line it was indexed at. */
  line: number | null;
}

/**
 * Where a symbol moved out of a file that is still there is defined now,
 * under the same root: the first line holding its signature (as
 * {@link definitionLine} finds one) in a file of the same extension,
 * walking from its old file's folder outwards until `opts.deadline`. Only a
 * file the journal does not hold as it is now is read: a new one, or one
 * changed since it was indexed that did not define a symbol of that name
 * then (what an unchanged file defines is in the journal, where the search
 * looked already; a copy that stood elsewhere before is not where it
 * went). Undefined when its signature is too short to tell, or nothing
 * was found in time.
 */
export function relocateSymbol(
  j: Journal,
  moved: MovedSymbol,
  opts: RelocateOptions,
): Relocated | undefined {
  const signature = moved.signature;
  if (signature === null || sym1(signature) === undefined) return undefined;
  const ext = extensionOf(moved.path);
  const indexed = j.stmt(
    "SELECT id, size, mtime_ms FROM paths WHERE path = ? AND state = 'indexed'",
  );
  const defined = j.stmt("SELECT 1 AS x FROM nodes WHERE path_id = ? AND name = ? LIMIT 1");
  for (const file of outwards(moved, opts, new Set([moved.path]))) {
    if (extensionOf(file.path) !== ext || file.size > READ_LIMIT_BYTES) continue;
    if (isSecretName(basename(file.path)) !== undefined) continue;
    const row = indexed.get(file.path) as
      | { id: number; size: number; mtime_ms: number }
      | undefined;
    if (row !== undefined) {
      if (row.size === file.size && row.mtime_ms === file.mtimeMs) continue;
      if (defined.get(row.id, moved.name) !== undefined) continue;
    }
    let text: string;
    try {
      text = decodeText(Deno.readFileSync(file.path));
    } catch {
      continue;
    }
    const line = definitionLine(text.split("\n"), signature, moved.line ?? 1);
    if (line !== undefined) return { path: file.path, line, how: "same symbol" };
  }
  return undefined;
}

/** A file name's last extension, `.py` (`""` for none). */
function extensionOf(path: string): string {
  const base = basename(path);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot) : "";
}

/** {@link onDisk}'s test of one file: where the gone hit is in it, or undefined. */
function match(
  path: string,
  size: number,
  gone: GoneHit,
  name: string,
  signature: string | undefined,
  near: number,
  renamed?: (path: string) => boolean,
): Relocated | undefined {
  const sameSize = gone.hash !== null && size === gone.size;
  const sameName = signature !== undefined && basename(path) === name;
  // Another name in its own folder: read only when it may be the file renamed, and only
  // for a symbol its namesakes place (most of the gone file's definitions must be there).
  const beside = signature !== undefined && !sameName && gone.symbol?.place !== undefined &&
    size <= READ_LIMIT_BYTES && renamed?.(path) === true;
  if (!sameSize && !sameName && !beside) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(path);
  } catch {
    return undefined;
  }
  if (sameSize && contentHash(bytes) === gone.hash) {
    return { path, line: null, how: "same content" };
  }
  if (sameName || beside) {
    const lines = decodeText(bytes).split("\n");
    const placed = gone.symbol?.place?.(lines);
    // Its namesakes took every line of its signature: not in this file.
    if (placed === null) return undefined;
    const line = placed ?? definitionLine(lines, signature!, near);
    if (line !== undefined) return { path, line, how: "same symbol" };
  }
  return undefined;
}

/** The start of a signature that identifies a definition's line; undefined when too short to trust. */
export function sym1(signature: string | null): string | undefined {
  const head = signature?.replace(/\s+/g, " ").trim().slice(0, 48);
  return head && head.length >= 6 ? head : undefined;
}

/**
 * The 1-based line where a definition with this signature starts now, or
 * undefined (pure). A line holds it when its whitespace-collapsed text
 * begins with the signature's first 48 characters, holds them after a
 * prefix the signature was stored without (an export macro,
 * `LUALIB_API int f (void)`), or is the first line of a signature written
 * over several. Of several such lines (a C prototype above its
 * definition, same-named methods of two classes) the one nearest `near`,
 * the line it was indexed at, wins: an edit moves a definition by the
 * lines inserted above it, not past its namesakes.
 *
 * @example
 * ```ts
 * import { definitionLine } from "./relocate.ts";
 * import assert from "node:assert/strict";
 * const lines = ["int total (int a);", "", "int total (int a) {", "}"];
 * assert.equal(definitionLine(lines, "int total (int a)", 3), 3);
 * assert.equal(definitionLine(lines, "int total (int a)", 1), 1);
 * assert.equal(definitionLine(["API int total (int a) {"], "int total (int a)", 1), 1);
 * ```
 */
export function definitionLine(
  lines: readonly string[],
  signature: string,
  near = 1,
): number | undefined {
  const head = sym1(signature);
  if (head === undefined || lines.length === 0) return undefined;
  const holds = (i: number) => holdsHead(lines, i, head);
  // Outward from where it was: an edit moves a definition by a few lines, so
  // each symbol of a changed file costs its shift, not the file's length; past
  // the nearest lines, one not in the file at all (renamed) is not read for.
  const from = Math.min(Math.max(near, 1), lines.length) - 1;
  for (let d = 0; from - d >= 0 || from + d < lines.length; d++) {
    if (d === NEAR_LINES && !mayHold(lines, head)) return undefined;
    if (from - d >= 0 && holds(from - d)) return from - d + 1;
    if (d > 0 && from + d < lines.length && holds(from + d)) return from + d + 1;
  }
  return undefined;
}

/**
 * Every 1-based line where a definition with this signature could start
 * now, as {@link definitionLine} tells one (pure); none for a signature too
 * short to trust. Reads every line.
 */
export function linesHolding(lines: readonly string[], signature: string): number[] {
  const head = sym1(signature);
  if (head === undefined || !mayHold(lines, head)) return [];
  const out: number[] = [];
  for (let i = 0; i < lines.length; i++) if (holdsHead(lines, i, head)) out.push(i + 1);
  return out;
}

/** Lines either side of where a definition was read before asking whether the file holds it. */
const NEAR_LINES = 64;

/** A run of identifier characters: a word of code. */
const WORD = /[\p{L}\p{N}_$]+/gu;

/** Every word of code in each array of lines, gathered once however many symbols look. */
const WORDS = new WeakMap<readonly string[], Set<string>>();

/**
 * False when no line can hold `head`: a whole word of it (something follows
 * in `head`) that starts in the part every holding line shows whole (its
 * first {@link SHORTEST_FIRST_LINE} characters; a line never ends inside a
 * word) is in none of `lines`. A symbol renamed or deleted costs a few
 * look-ups, not a read of every line (pure; the file's words are gathered
 * once, a pass over its text).
 */
function mayHold(lines: readonly string[], head: string): boolean {
  for (const m of head.matchAll(WORD)) {
    if (m.index >= SHORTEST_FIRST_LINE) break;
    if (m.index + m[0].length < head.length && !hasWord(lines, m[0])) return false;
  }
  return true;
}

/** True when `word` is a whole word of code in one of `lines` (pure; see {@link mayHold}). */
export function hasWord(lines: readonly string[], word: string): boolean {
  let words = WORDS.get(lines);
  if (words === undefined) {
    words = new Set<string>();
    for (const line of lines) for (const [w] of line.matchAll(WORD)) words.add(w);
    WORDS.set(lines, words);
  }
  return words.has(word);
}

/** True when line `i` (0-based) starts a definition whose signature begins with `head`. */
function holdsHead(lines: readonly string[], i: number, head: string): boolean {
  const l = collapsed(lines, i);
  if (l.startsWith(head) || l.includes(` ${head}`)) return true;
  // A signature over several lines starts with its first line.
  if (l === "" || !head.startsWith(l)) return false;
  const enough = Math.min(head.length, SHORTEST_FIRST_LINE);
  if (l.length >= enough) return true;
  // A first line too short to tell (`set(` of a method written over several): the lines
  // after it carry on the signature, white space aside (a call `set(\n  x)` does not).
  const bare = head.replace(/ /g, "").slice(0, enough);
  let joined = l.replace(/ /g, "");
  for (let k = i + 1; k < lines.length && k <= i + 4 && joined.length < bare.length; k++) {
    joined += collapsed(lines, k).replace(/ /g, "");
  }
  return joined.startsWith(bare);
}

/** A line this long that a signature begins with is taken for its first line without reading on. */
const SHORTEST_FIRST_LINE = 12;

/** Each line's whitespace-collapsed text, made once per array of lines however many symbols look. */
const COLLAPSED = new WeakMap<readonly string[], (string | undefined)[]>();

/**
 * Line `i` (0-based) of `lines`, its white space collapsed and trimmed,
 * computed once per array of lines however many symbols look (pure).
 */
export function collapsed(lines: readonly string[], i: number): string {
  let done = COLLAPSED.get(lines);
  if (done === undefined) COLLAPSED.set(lines, done = []);
  return done[i] ??= lines[i]!.replace(/\s+/g, " ").trim();
}

/** A regular file's size; undefined for anything else, a symlink included (never indexed). */
function statSize(path: string): number | undefined {
  try {
    const st = Deno.lstatSync(path);
    return st.isFile ? st.size : undefined;
  } catch {
    return undefined;
  }
}
