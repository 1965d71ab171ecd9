/**
 * Prose sections from headings (pure): what every prose chunker shares once
 * it has found its headings — heading paths, heading symbols and chunks cut
 * under a size cap.
 */
import { sha1Hex } from "../files/mod.ts";
import type { Chunk, SymbolDef } from "./types.ts";

/** A heading a format's scanner found. Line numbers are 0-based. */
export interface ProseHeading {
  /** 1 = outermost; deeper headings nest under the last shallower one. */
  level: number;
  /** The title as a reader sees it (markup stripped). */
  text: string;
  /** First line of the heading (an overline, when it has one). */
  start: number;
  /** The heading's line as written, trimmed: the symbol's signature. */
  raw: string;
}

/** How {@link sectionsFromHeadings} cuts and renders chunks. */
export interface SectionOptions {
  /** A chunk grows past this many characters only until its next blank line. */
  maxChars: number;
  /** Chunk text from lines [from, to] (inclusive); default: the lines joined. */
  render?: (lines: readonly string[], from: number, to: number) => string;
  /** Lines a long chunk may be cut before; default: blank lines. */
  isBreak?: (line: string) => boolean;
  /**
   * Heading of a chunk outside any heading, from its text; default `""` (the
   * chunk then stands for the file, as markdown's preamble does).
   */
  untitled?: (text: string) => string;
}

/**
 * Chunks and heading symbols of `lines` given its headings in line order.
 * Each heading is a symbol of kind `heading`: `qualname` its heading path
 * (`Guide > Install`), `parent` the enclosing path, range from its first line
 * to the last non-blank line before the next heading of the same or a
 * shallower level. Each section (a heading to the next heading, or the text
 * before the first) becomes one chunk, or several when longer than
 * `maxChars`: cut at the last blank line before the cap or, when there is
 * none, before the line that would pass one and a half times the cap; a
 * single line longer than that is cut into chunks of about the cap, each
 * with that line's number, so all of it is indexed. Chunks carry 1-based
 * inclusive lines without leading or trailing blank lines; a chunk whose
 * rendered text is blank is dropped. Linear in the text.
 */
export function sectionsFromHeadings(
  lines: readonly string[],
  headings: readonly ProseHeading[],
  options: SectionOptions,
): { chunks: Chunk[]; symbols: SymbolDef[] } {
  const chunks: Chunk[] = [];
  const symbols: SymbolDef[] = [];
  const ends = headingEnds(headings, lines.length);
  const stack: { level: number; path: string }[] = [];
  pushChunks(chunks, lines, undefined, 0, headings[0]?.start ?? lines.length, options);
  headings.forEach((h, i) => {
    while (stack.length > 0 && stack[stack.length - 1]!.level >= h.level) stack.pop();
    const parent = stack[stack.length - 1]?.path;
    const path = parent === undefined ? h.text : `${parent} > ${h.text}`;
    stack.push({ level: h.level, path });
    pushChunks(chunks, lines, path, h.start, headings[i + 1]?.start ?? lines.length, options);
    const last = Math.max(h.start, lastNonBlank(lines, h.start, ends[i]!));
    const sym: SymbolDef = {
      kind: "heading",
      name: h.text,
      qualname: path,
      startLine: h.start + 1,
      endLine: last + 1,
      signature: h.raw,
      structHash: sha1Hex(lines.slice(h.start, last + 1).join("\n").replace(/\s+/g, " ").trim())
        .slice(0, 16),
    };
    if (parent !== undefined) sym.parent = parent;
    symbols.push(sym);
  });
  return { chunks, symbols };
}

/** For each heading, the line (exclusive) where its section and subsections end. */
function headingEnds(headings: readonly ProseHeading[], lineCount: number): number[] {
  const ends = headings.map(() => lineCount);
  const open: number[] = [];
  headings.forEach((h, i) => {
    while (open.length > 0 && headings[open[open.length - 1]!]!.level >= h.level) {
      ends[open.pop()!] = h.start;
    }
    open.push(i);
  });
  return ends;
}

/** Adds the chunk(s) of lines [from, to), cut at blank lines when long. */
function pushChunks(
  chunks: Chunk[],
  lines: readonly string[],
  heading: string | undefined,
  from: number,
  to: number,
  options: SectionOptions,
): void {
  const last = lastNonBlank(lines, from, to);
  const hardMax = options.maxChars + (options.maxChars >> 1);
  let start = skipBlank(lines, from, last);
  let size = 0;
  /** The last blank line after `start`, or -1. */
  let cut = -1;
  for (let i = start; i <= last; i++) {
    const line = lines[i]!;
    if (cut < 0 && i > start && size + line.length + 1 > hardMax) {
      // No blank line to cut at: cut before this line rather than grow on.
      emit(chunks, lines, heading, start, lastNonBlank(lines, start, i), options);
      start = i;
      size = 0;
    }
    if (i > start && (line.trim() === "" || options.isBreak?.(line) === true)) cut = i;
    size += line.length + 1;
    if (size > options.maxChars && cut > start) {
      emit(chunks, lines, heading, start, lastNonBlank(lines, start, cut), options);
      start = skipBlank(lines, cut, last);
      cut = -1;
      size = 0;
      // The lines after the cut open the next chunk (each is counted again once).
      for (let j = start; j <= i; j++) size += lines[j]!.length + 1;
      if (start > i) i = start - 1;
    }
  }
  if (start <= last) emit(chunks, lines, heading, start, last, options);
}

function emit(
  chunks: Chunk[],
  lines: readonly string[],
  heading: string | undefined,
  start: number,
  end: number,
  options: SectionOptions,
): void {
  const text = options.render
    ? options.render(lines, start, end)
    : lines.slice(start, end + 1).join("\n");
  if (text.trim() === "") return;
  // A line longer than a chunk (a paragraph without line breaks) is cut into chunks of its own lines.
  const max = options.maxChars + (options.maxChars >> 1);
  for (let at = 0; at < text.length;) {
    let cut = Math.min(text.length, at + (text.length - at > max ? options.maxChars : max));
    if (cut < text.length) {
      // After the last space or line break in the piece's second half, if any (looked for there only).
      let space = cut - 1;
      const floor = at + (options.maxChars >> 1);
      while (space >= floor && text[space] !== " " && text[space] !== "\n") space--;
      if (space >= floor) cut = space + 1;
    }
    const piece = at === 0 && cut === text.length ? text : text.slice(at, cut).trim();
    at = cut;
    if (piece === "") continue;
    chunks.push({
      heading: heading ?? options.untitled?.(piece) ?? "",
      startLine: start + 1,
      endLine: end + 1,
      text: piece,
    });
  }
}

/** First non-blank line in [from, last], or last + 1. */
function skipBlank(lines: readonly string[], from: number, last: number): number {
  let i = from;
  while (i <= last && lines[i]!.trim() === "") i++;
  return i;
}

/** Index of the last non-blank line in [from, to), or from - 1. */
export function lastNonBlank(lines: readonly string[], from: number, to: number): number {
  let i = to - 1;
  while (i >= from && lines[i]!.trim() === "") i--;
  return i;
}

/** True for a line that is one punctuation character repeated (`=====`, `-----`), blanks around it allowed. */
export function isRule(line: string, minLength = 3): boolean {
  const t = line.trim();
  if (t.length < minLength) return false;
  const c = t.charCodeAt(0);
  if (!isPunctuation(c)) return false;
  for (let i = 1; i < t.length; i++) if (t.charCodeAt(i) !== c) return false;
  return true;
}

/** True for printable ASCII punctuation. */
function isPunctuation(c: number): boolean {
  return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) ||
    (c >= 123 && c <= 126);
}

/** True when the text has a letter or digit: what a title must have. */
export function hasWord(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/**
 * Levels by first appearance, as reStructuredText and plain text rank their
 * heading styles: the first style seen is level 1, the next new one level 2,
 * and a style seen again keeps its level. One per document.
 */
export function levelsByFirstUse(): (style: string) => number {
  const levels = new Map<string, number>();
  return (style) => {
    if (!levels.has(style)) levels.set(style, levels.size + 1);
    return levels.get(style)!;
  };
}
