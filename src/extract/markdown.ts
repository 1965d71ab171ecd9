import { createHash } from "node:crypto";
import type { Depth } from "../config/mod.ts";
import type { Capability, Chunk, Extraction, Extractor, SymbolDef } from "./types.ts";

/** A section longer than this is cut at blank lines into several chunks of the same heading. */
const CHUNK_MAX_CHARS = 8000;

interface Heading {
  level: number;
  text: string;
  /** 0-based line of the first line of the heading (setext: the paragraph's first line). */
  start: number;
  raw: string;
}

/**
 * Splits markdown into sections by heading, ATX (`## Install`) and setext
 * (underlined with `===` or `---`); a `#` inside a fenced code block or YAML
 * front matter is not a heading. Each chunk carries its heading path
 * (`Guide > Install`), 1-based inclusive line range (trailing blank lines
 * dropped) and text; text before the first heading is a chunk with heading
 * `""`. Every heading is also a symbol of kind `heading` whose range covers
 * its subsections, `qualname` is the heading path and `parent` the enclosing
 * heading's path. Pure and linear in the text.
 */
export function chunkMarkdown(text: string): { chunks: Chunk[]; symbols: SymbolDef[] } {
  const lines = text.split(/\r?\n/);
  const headings = findHeadings(lines);
  const chunks: Chunk[] = [];
  const symbols: SymbolDef[] = [];
  const stack: { level: number; path: string }[] = [];

  const firstStart = headings[0]?.start ?? lines.length;
  pushChunks(chunks, lines, "", 0, firstStart);
  headings.forEach((h, i) => {
    while (stack.length > 0 && stack[stack.length - 1]!.level >= h.level) stack.pop();
    const parent = stack[stack.length - 1]?.path;
    const path = parent === undefined ? h.text : `${parent} > ${h.text}`;
    stack.push({ level: h.level, path });
    const next = headings[i + 1]?.start ?? lines.length;
    pushChunks(chunks, lines, path, h.start, next);

    const end = headings.slice(i + 1).find((o) => o.level <= h.level)?.start ?? lines.length;
    const last = lastNonBlank(lines, h.start, end);
    const sym: SymbolDef = {
      kind: "heading",
      name: h.text,
      qualname: path,
      startLine: h.start + 1,
      endLine: last + 1,
      signature: h.raw,
      structHash: createHash("sha1")
        .update(lines.slice(h.start, last + 1).join("\n").replace(/\s+/g, " ").trim())
        .digest("hex")
        .slice(0, 16),
    };
    if (parent !== undefined) sym.parent = parent;
    symbols.push(sym);
  });
  return { chunks, symbols };
}

function findHeadings(lines: string[]): Heading[] {
  const out: Heading[] = [];
  let fence: { char: string; len: number } | undefined;
  let paragraphStart = -1;
  let i = 0;
  if (lines[0]?.trim() === "---") {
    // YAML front matter: skip to its closing `---` or `...`.
    const close = lines.findIndex((l, j) => j > 0 && /^(---|\.\.\.)\s*$/.test(l));
    if (close > 0) i = close + 1;
  }
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    const fenceMatch = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (fence) {
      if (
        fenceMatch && fenceMatch[1]![0] === fence.char && fenceMatch[1]!.length >= fence.len &&
        fenceMatch[2]!.trim() === ""
      ) fence = undefined;
      continue;
    }
    if (fenceMatch && !(fenceMatch[1]![0] === "`" && fenceMatch[2]!.includes("`"))) {
      fence = { char: fenceMatch[1]![0]!, len: fenceMatch[1]!.length };
      paragraphStart = -1;
      continue;
    }
    const atx = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) {
      out.push({
        level: atx[1]!.length,
        text: (atx[2] ?? "").trim(),
        start: i,
        raw: line.trim(),
      });
      paragraphStart = -1;
      continue;
    }
    const setext = /^ {0,3}(=+|-+)[ \t]*$/.exec(line);
    if (setext && paragraphStart >= 0) {
      const text = lines.slice(paragraphStart, i).map((l) => l.trim()).join(" ");
      out.push({
        level: setext[1]![0] === "=" ? 1 : 2,
        text,
        start: paragraphStart,
        raw: text,
      });
      paragraphStart = -1;
      continue;
    }
    if (line.trim() === "" || /^ {0,3}([-*+]|\d+[.)])\s|^ {0,3}>|^ {4}|^\t/.test(line)) {
      paragraphStart = -1;
    } else if (paragraphStart < 0) {
      paragraphStart = i;
    }
  }
  return out;
}

/** Adds the chunk(s) for lines [from, to), split at blank lines when long. */
function pushChunks(chunks: Chunk[], lines: string[], heading: string, from: number, to: number) {
  const last = lastNonBlank(lines, from, to);
  if (last < from) return;
  let start = from;
  while (start <= last && lines[start]!.trim() === "") start++;
  let size = 0;
  let cut = -1;
  let inFence = false;
  for (let i = start; i <= last; i++) {
    if (/^ {0,3}(`{3,}|~{3,})/.test(lines[i]!)) inFence = !inFence;
    if (!inFence && lines[i]!.trim() === "" && i > start) cut = i;
    size += lines[i]!.length + 1;
    if (size > CHUNK_MAX_CHARS && cut > start) {
      const end = lastNonBlank(lines, start, cut);
      chunks.push(chunk(lines, heading, start, end));
      start = cut + 1;
      while (start <= last && lines[start]!.trim() === "") start++;
      size = 0;
      cut = -1;
      i = start - 1;
    }
  }
  if (start <= last) chunks.push(chunk(lines, heading, start, last));
}

function chunk(lines: string[], heading: string, start: number, end: number): Chunk {
  return {
    heading,
    startLine: start + 1,
    endLine: end + 1,
    text: lines.slice(start, end + 1).join("\n"),
  };
}

/** Index of the last non-blank line in [from, to), or from - 1. */
function lastNonBlank(lines: string[], from: number, to: number): number {
  let i = to - 1;
  while (i >= from && lines[i]!.trim() === "") i--;
  return i;
}

/** Markdown at L2: chunks and heading symbols; markdown has no graph (L3). */
export class MarkdownExtractor implements Extractor {
  capability(language: string | undefined): Capability {
    return language === "markdown"
      ? { depth: 2 }
      : { depth: 1, reason: `the markdown extractor does not read ${language ?? "unknown files"}` };
  }

  extract(input: { language: string; text: string; depth: Depth }): Promise<Extraction> {
    const depth = Math.min(input.depth, 2) as Depth;
    if (depth < 2 || input.language !== "markdown") {
      return Promise.resolve({
        depth: Math.min(depth, 1) as Depth,
        symbols: [],
        refs: [],
        chunks: [],
      });
    }
    const { chunks, symbols } = chunkMarkdown(input.text);
    return Promise.resolve({ depth, symbols, refs: [], chunks });
  }
}
