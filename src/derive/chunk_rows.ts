/**
 * The search chunks one file owns, decided from its text and its symbols
 * (pure: the reconciler calls it inside `desiredRows`, on a Worker).
 */
import { basename, sha1Hex } from "../files/mod.ts";
import { PROSE_LANGUAGES } from "../extract/language.ts";
import type { Chunk } from "../extract/types.ts";
import type { ChunkRecord, NodeRecord } from "../store/types.ts";
import { indexText, nameText } from "./words.ts";

/** A symbol's own text (its lines less its children's) is indexed up to this many characters. */
export const BODY_MAX_CHARS = 1500;
/**
 * A prose section (markdown, rst, AsciiDoc, Org, man, plain text) is indexed
 * up to this many characters: one and a half times markdown's chunk cap
 * (6,000), what a chunk with no blank line to cut at may reach
 * (`sectionsFromHeadings`), so none of a chunk goes unseen.
 */
export const SECTION_MAX_CHARS = 9000;
/** A file's own text (outside its top-level symbols, or all of an unparsed file) up to this many. */
export const FILE_MAX_CHARS = 3000;

/**
 * A file without sections whose own text (outside its top-level symbols)
 * outgrows its file chunk is also indexed past it in windows of at most this
 * many lines…
 */
export const WINDOW_MAX_LINES = 60;
/** …and at most this many characters (a longer single line is cut)… */
export const WINDOW_MAX_CHARS = 3000;
/**
 * …and at most this many windows per file: with the file chunk, a file's
 * first 195,000 characters or so (3,000 + 64 × 3,000) are searchable; the
 * rest of a longer file is not indexed.
 */
export const WINDOW_MAX_COUNT = 64;

/** What {@link chunkRows} needs of one file. */
export interface ChunkRowsInput {
  rel: string;
  language: string | null;
  summary: string | null;
  /** The file's text; undefined when it was not read (then only its path is indexed). */
  text: string | undefined;
  /** The file's nodes as the commit writes them (the file node, symbols, headings). */
  nodes: readonly NodeRecord[];
  /** Prose sections by heading (any prose extractor's chunks). */
  sections: readonly Chunk[];
}

/**
 * One chunk for the file itself (its path words, summary and own text), one
 * per symbol (name split and whole, qualname, signature, doc comment, its own
 * lines bounded to {@link BODY_MAX_CHARS}) and one per prose section (its
 * heading path and text). A file without sections whose own text outgrows
 * its file chunk (L1 text: HTML, config, data, code without a grammar; a
 * script's commands around its functions) gets, after its file chunk,
 * window chunks over the own text the file chunk leaves out, none across a
 * symbol (see {@link textWindows}); a window is titled `rel § line N`, so it is never
 * taken for the file's own chunk. Every chunk also carries the file's path
 * words. Deterministic: the same input gives the same rows in the same order.
 */
export function chunkRows(input: ChunkRowsInput): ChunkRecord[] {
  const source = PROSE_LANGUAGES.has(input.language ?? "") ? "docs" : "code";
  const lines = input.text === undefined ? [] : input.text.split("\n");
  const path = pathText(input.rel);
  const children = new Map<string, [number, number][]>();
  for (const n of input.nodes) {
    if (n.parent_id === null || n.start_line === null || n.end_line === null) continue;
    const list = children.get(n.parent_id) ?? [];
    list.push([n.start_line, n.end_line]);
    children.set(n.parent_id, list);
  }
  const out: ChunkRecord[] = [];
  const file = input.nodes.find((n) => n.kind === "file");
  const sectioned = input.sections.length > 0;
  const fileOwn = sectioned
    ? ""
    : ownText(lines, 1, lines.length, children.get(file?.id ?? ""), FILE_MAX_CHARS);
  out.push({
    node_id: file?.id ?? null,
    source,
    title: input.rel,
    start_line: 1,
    end_line: Math.max(1, lines.length),
    text_hash: textHash(fileOwn),
    fts: {
      name: nameText(basenameStem(input.rel)),
      qual: "",
      sig: "",
      doc: indexText(input.summary ?? ""),
      body: indexText(fileOwn),
      path,
    },
  });
  for (const n of input.nodes) {
    if (n.kind === "file" || n.kind === "heading" || n.start_line === null) continue;
    const end = n.end_line ?? n.start_line;
    const own = ownText(lines, n.start_line, end, children.get(n.id), BODY_MAX_CHARS);
    const dot = n.qualname.lastIndexOf(".");
    out.push({
      node_id: n.id,
      source,
      title: n.qualname || n.name,
      start_line: n.start_line,
      end_line: end,
      text_hash: textHash(lines.slice(n.start_line - 1, end).join("\n")),
      fts: {
        name: nameText(n.name),
        qual: dot > 0 ? nameText(n.qualname.slice(0, dot)) : "",
        sig: indexText(n.signature ?? ""),
        doc: indexText(n.doc ?? ""),
        body: indexText(own),
        path,
      },
    });
  }
  if (sectioned) {
    const headingIds = new Map<string, string>();
    for (const n of input.nodes) {
      if (n.kind === "heading" && !headingIds.has(n.qualname)) headingIds.set(n.qualname, n.id);
    }
    for (const c of input.sections) {
      const cut = c.heading.lastIndexOf(" > ");
      const last = cut < 0 ? c.heading : c.heading.slice(cut + 3);
      out.push({
        node_id: headingIds.get(c.heading) ?? null,
        source: "docs",
        // Text before the first heading: never titled like the file's own chunk.
        title: c.heading === "" ? `${basename(input.rel)} (top)` : c.heading,
        start_line: c.startLine,
        end_line: c.endLine,
        text_hash: textHash(c.text),
        fts: {
          name: nameText(last),
          qual: nameText(c.heading),
          sig: "",
          doc: "",
          body: indexText(c.text, SECTION_MAX_CHARS),
          path,
        },
      });
    }
  }
  if (!sectioned && fileOwn.length >= FILE_MAX_CHARS) {
    const name = nameText(basenameStem(input.rel));
    for (const w of ownWindows(lines, topLevel(children.get(file?.id ?? ""), lines.length))) {
      out.push({
        node_id: null,
        source,
        title: `${input.rel} § line ${w.startLine}`,
        start_line: w.startLine,
        end_line: w.endLine,
        text_hash: textHash(w.text),
        fts: { name, qual: "", sig: "", doc: "", body: indexText(w.text), path },
      });
    }
  }
  return out;
}

/**
 * The ranges (1-based, inclusive, sorted) of a file's top-level symbols that
 * its own text leaves out, as {@link ownText} does: not one that spans the
 * whole file.
 */
function topLevel(
  ranges: readonly [number, number][] | undefined,
  lineCount: number,
): [number, number][] {
  return (ranges ?? []).filter(([a, b]) => !(a === 1 && b === lineCount))
    .sort((a, b) => a[0] - b[0]);
}

/**
 * Windows over a file's own text (its lines outside `skip`, its top-level
 * symbols, whose chunks hold them) past what its file chunk holds, the first
 * {@link FILE_MAX_CHARS} characters of it: a script's commands around its
 * functions, a template's markup around its one helper. No window spans a
 * symbol; at most {@link WINDOW_MAX_COUNT} in all.
 */
function ownWindows(lines: readonly string[], skip: readonly [number, number][]): TextWindow[] {
  // Own lines as runs [from, to) of 0-based lines between the symbols.
  const runs: [number, number][] = [];
  let at = 0;
  for (const [a, b] of skip) {
    if (a - 1 > at) runs.push([at, a - 1]);
    at = Math.max(at, b);
  }
  if (at < lines.length) runs.push([at, lines.length]);
  // Where the file chunk's text stops: the first own line it holds not whole, and how much of it.
  let size = 0;
  let run = 0;
  let from = runs[0]?.[0] ?? 0;
  let fromChar = 0;
  walk: for (; run < runs.length; run++) {
    for (from = runs[run]![0]; from < runs[run]![1]; from++) {
      const len = lines[from]!.length + 1;
      if (size + len > FILE_MAX_CHARS) {
        fromChar = FILE_MAX_CHARS - size;
        break walk;
      }
      size += len;
    }
  }
  const out: TextWindow[] = [];
  for (let first = true; run < runs.length && out.length < WINDOW_MAX_COUNT; first = false) {
    const [start, to] = runs[run++]!;
    const left = WINDOW_MAX_COUNT - out.length;
    out.push(...textWindows(lines, first ? from : start, first ? fromChar : 0, to, left));
  }
  return out;
}

/** A window of a file's text: 1-based inclusive lines. */
export interface TextWindow {
  startLine: number;
  endLine: number;
  text: string;
}

/**
 * Windows over `lines` from the 0-based line `from` up to line `to`
 * (exclusive; the first `fromChar` characters of line `from` already indexed
 * elsewhere): each up to
 * {@link WINDOW_MAX_LINES} lines and {@link WINDOW_MAX_CHARS} characters,
 * cut at its last blank line when that leaves it at least a third full,
 * blank lines between windows skipped. A single line longer than the cap
 * (minified JSON, a bundle, a paragraph without line breaks) is cut into
 * windows of its own, each of that line, at a space near the cap when there
 * is one. At most `max` ({@link WINDOW_MAX_COUNT}) windows; the text after
 * the last is left out. Pure and linear in the text it reads.
 */
export function textWindows(
  lines: readonly string[],
  from: number,
  fromChar = 0,
  to = lines.length,
  max = WINDOW_MAX_COUNT,
): TextWindow[] {
  const out: TextWindow[] = [];
  let i = from;
  /** Where in `lines[i]` the text not yet indexed starts (a line that fits a window is read whole). */
  let offset = (lines[from]?.length ?? 0) > WINDOW_MAX_CHARS ? fromChar : 0;
  while (out.length < max) {
    if (offset > 0 || (i < to && lines[i]!.length > WINDOW_MAX_CHARS)) {
      if (i >= to) break;
      for (const piece of linePieces(lines[i]!, offset, max - out.length)) {
        if (piece.trim() !== "") out.push({ startLine: i + 1, endLine: i + 1, text: piece });
      }
      i++;
      offset = 0;
      continue;
    }
    while (i < to && lines[i]!.trim() === "") i++;
    if (i >= to) break;
    if (lines[i]!.length > WINDOW_MAX_CHARS) continue;
    const start = i;
    let size = 0;
    let blank = -1;
    let j = start;
    while (
      j < to && j - start < WINDOW_MAX_LINES &&
      (j === start || size + lines[j]!.length + 1 <= WINDOW_MAX_CHARS)
    ) {
      if (j > start && lines[j]!.trim() === "") blank = j;
      size += lines[j]!.length + 1;
      j++;
    }
    // Cut at a paragraph break when the window is full and one is far enough in.
    const end = j < to && blank - start >= (j - start) / 3 ? blank : j;
    let last = end - 1;
    while (last > start && lines[last]!.trim() === "") last--;
    out.push({
      startLine: start + 1,
      endLine: last + 1,
      text: lines.slice(start, last + 1).join("\n"),
    });
    i = end;
  }
  return out;
}

/**
 * `line` from character `from` on, in at most `max` pieces of at most
 * {@link WINDOW_MAX_CHARS}: each cut after its last space when that space is
 * in its second half (no word is cut in two), else at the cap.
 */
export function linePieces(line: string, from = 0, max = Infinity): string[] {
  const out: string[] = [];
  let at = from;
  while (at < line.length && out.length < max) {
    let end = Math.min(line.length, at + WINDOW_MAX_CHARS);
    if (end < line.length) {
      // Looked for in the piece's second half only: a line without spaces costs its length once.
      let space = end - 1;
      const floor = at + (WINDOW_MAX_CHARS >> 1);
      while (space >= floor && line[space] !== " ") space--;
      if (space >= floor) end = space + 1;
    }
    out.push(line.slice(at, end));
    at = end;
  }
  return out;
}

/** A root-relative path as words: every folder and the file name without its extension. */
export function pathText(rel: string): string {
  const parts = rel.split("/");
  const last = parts.length - 1;
  parts[last] = basenameStem(parts[last]!);
  return nameText(parts.join(" "));
}

function basenameStem(rel: string): string {
  const base = rel.slice(rel.lastIndexOf("/") + 1);
  const dot = base.indexOf(".", 1);
  return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * Lines `start..end` (1-based, inclusive) less the ranges of `skip`, joined,
 * cut at `max` characters.
 */
function ownText(
  lines: readonly string[],
  start: number,
  end: number,
  skip: readonly [number, number][] | undefined,
  max: number,
): string {
  const ranges = skip ? [...skip].sort((a, b) => a[0] - b[0]) : [];
  let out = "";
  let r = 0;
  for (let i = start; i <= end && i <= lines.length; i++) {
    while (r < ranges.length && ranges[r]![1] < i) r++;
    const range = ranges[r];
    if (range && range[0] <= i && i <= range[1] && !(range[0] === start && range[1] === end)) {
      i = range[1];
      continue;
    }
    out += lines[i - 1]! + "\n";
    if (out.length >= max) return out.slice(0, max);
  }
  return out;
}

/** Hash of a chunk's text (hex, 16 characters): what a reader compares to know it changed. */
export function textHash(text: string): string {
  return sha1Hex(text).slice(0, 16);
}
