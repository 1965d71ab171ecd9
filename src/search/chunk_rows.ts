/**
 * The search chunks one file owns, decided from its text and its symbols
 * (pure: the reconciler calls it inside `desiredRows`, on a Worker).
 */
import { createHash } from "node:crypto";
import type { Chunk } from "../extract/types.ts";
import type { ChunkRecord, NodeRecord } from "../store/types.ts";
import { indexText, nameText } from "./words.ts";

/** A symbol's own text (its lines less its children's) is indexed up to this many characters. */
export const BODY_MAX_CHARS = 1500;
/** A markdown section is indexed up to this many characters. */
export const SECTION_MAX_CHARS = 6000;
/** A file's own text (outside its top-level symbols, or all of an unparsed file) up to this many. */
export const FILE_MAX_CHARS = 3000;

/** Languages whose files are documentation rather than code. */
const PROSE = new Set(["markdown", "text"]);

/** What {@link chunkRows} needs of one file. */
export interface ChunkRowsInput {
  rel: string;
  language: string | null;
  summary: string | null;
  /** The file's text; undefined when it was not read (then only its path is indexed). */
  text: string | undefined;
  /** The file's nodes as the commit writes them (the file node, symbols, headings). */
  nodes: readonly NodeRecord[];
  /** Markdown sections by heading. */
  sections: readonly Chunk[];
}

/**
 * One chunk for the file itself (its path words, summary and own text), one
 * per symbol (name split and whole, qualname, signature, doc comment, its own
 * lines bounded to {@link BODY_MAX_CHARS}) and one per markdown section (its
 * heading path and text). Every chunk also carries the file's path words.
 * Deterministic: the same input gives the same rows in the same order.
 */
export function chunkRows(input: ChunkRowsInput): ChunkRecord[] {
  const source = PROSE.has(input.language ?? "") ? "docs" : "code";
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
  const markdown = input.sections.length > 0;
  const fileOwn = markdown
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
  if (markdown) {
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
        title: c.heading === "" ? input.rel : c.heading,
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
  return createHash("sha1").update(text).digest("hex").slice(0, 16);
}
