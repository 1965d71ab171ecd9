/**
 * What a hit shows (pure): the lines its chunk covers now, its name, kind
 * and summary line.
 */
import { renderRoff } from "../extract/prose_man.ts";
import { definitionLine } from "./relocate.ts";
import { type Candidate, isFileChunk, type ScoredChunk } from "./rank.ts";
import { LEADING } from "./unit_score.ts";
import { coverage } from "./verdict.ts";
import { stem, stemPrefix } from "../derive/words.ts";

/** A whole file's text counted for coverage, at most. */
const FILE_TEXT_MAX = 64 * 1024;
const SUMMARY_MAX = 160;

/**
 * The lines a chunk covers now, and their text (a whole file's text, bounded,
 * for a file chunk). In a file that changed since it was indexed, a symbol
 * is looked for by its signature (by `place` when given: where the file's
 * namesakes leave it, `definitionLines`; else nearest where it was), as its
 * lines may have moved; `lost` when it is not there any more (its indexed
 * lines, cut to the file's length, are shown, and their text is not its own:
 * it is `there`, what a reader finds at them now, for the summary line;
 * a section of prose whose heading is not found is read at its indexed lines,
 * cut so, as a window of text is: a heading reworded leaves its text there).
 * A symbol found keeps its length, up to the file's end and `limit` (the
 * last line before the symbol below it now, when there is one); a chunk
 * with no signature (a window of text, a file's own lines) keeps its
 * indexed lines, up to the file's end.
 */
export function spanOf(
  m: ScoredChunk,
  text: string,
  changed: boolean,
  place?: (lines: readonly string[]) => number | null | undefined,
  limit?: () => number | undefined,
): { line: number | null; endLine: number | null; text: string; lost?: true; there?: string } {
  if (isFileChunk(m) || m.start_line === null) {
    // A file ends at its last line as it reads now: cut short since it was indexed, or
    // indexed as ending one line past its final newline.
    const endLine = m.end_line !== null && (changed || text !== "")
      ? Math.max(m.start_line ?? 1, Math.min(m.end_line, lastLine(text)))
      : m.end_line;
    return { line: m.start_line ?? 1, endLine, text: text.slice(0, FILE_TEXT_MAX) };
  }
  let start = m.start_line;
  let end = m.end_line ?? start;
  if (changed && !m.signature) {
    // A window of text (no signature to look for) stays where it was, within the file now.
    end = Math.min(end, lastLine(text));
    start = Math.min(start, end);
  } else if (changed && m.signature) {
    const lines = text.split("\n");
    const found = place ? place(lines) : definitionLine(lines, m.signature, start);
    const last = lastLine(text);
    if (found === undefined || found === null) {
      end = Math.min(end, last);
      start = Math.min(start, end);
      // A section whose heading was reworded is still the text under it: read where it was,
      // as a window of text is (its words there are what covers the query, not none).
      if (m.source === "docs") {
        return { line: start, endLine: end, text: linesOf(text, start, end) };
      }
      return { line: start, endLine: end, text: "", lost: true, there: linesOf(text, start, end) };
    }
    // Its length kept, but not past the file's end (its body cut away) nor into the
    // symbol below it (`limit`: its body shrank).
    end = Math.min(
      found + (end - start),
      Math.max(found, last),
      Math.max(found, limit?.() ?? last),
    );
    start = found;
  }
  return { line: start, endLine: end, text: linesOf(text, start, end) };
}

/**
 * The comment, doc-comment and attribute lines directly above line `start`
 * (1-based) of `text`, no blank line between, as they read now: a symbol's
 * doc comment where its edited file holds it (pure).
 *
 * @example
 * ```ts
 * import { leadingComment } from "./hit_text.ts";
 * import assert from "node:assert/strict";
 * const text = "int x;\n\n// Adds the grand total.\nint total(void) {";
 * assert.equal(leadingComment(text, 4), "// Adds the grand total.");
 * assert.equal(leadingComment(text, 2), "");
 * ```
 */
export function leadingComment(text: string, start: number): string {
  const lines = linesOf(text, Math.max(1, start - 64), start - 1).split("\n");
  if (start <= 1) return "";
  let i = lines.length;
  while (i > 0 && lines[i - 1]!.trim() !== "" && LEADING.test(lines[i - 1]!)) i--;
  return lines.slice(i).join("\n");
}

/** The number of a text's last line, 1-based: a final newline ends a line, it starts none. */
export function lastLine(text: string): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < text.length - 1; i = text.indexOf("\n", i + 1)) {
    n++;
  }
  return n;
}

/**
 * Lines `start`..`end` (1-based, inclusive) of `text`, as
 * `text.split("\n").slice(start - 1, end).join("\n")` gives them, without
 * splitting the whole file (pure).
 */
export function linesOf(text: string, start: number, end: number): string {
  if (start < 1 || end < 1) return text.split("\n").slice(start - 1, end).join("\n");
  let from = 0;
  for (let l = 1; l < start; l++) {
    const nl = text.indexOf("\n", from);
    if (nl === -1) return "";
    from = nl + 1;
  }
  let to = from;
  for (let l = start; l <= end; l++) {
    const nl = text.indexOf("\n", to);
    if (nl === -1) return text.slice(from);
    to = nl + 1;
  }
  return to > from ? text.slice(from, to - 1) : "";
}

/** True when only the semantic leg found any chunk of the candidate. */
export function isSemanticOnly(c: Candidate): boolean {
  const legs = new Set([c.best, ...c.others].flatMap((o) => o.legs));
  return legs.size === 1 && legs.has("semantic");
}

/** What a hit names: qualname, heading path or note title; null for a whole file. */
export function symbolOf(m: ScoredChunk): string | null {
  if (m.source === "notes" || m.source === "memory") return m.title;
  if (isFileChunk(m)) return null;
  return m.title;
}

/** A hit's kind: the symbol's, `file`, `section`, `note` or `memory`. */
export function kindOf(m: ScoredChunk): string | null {
  if (m.source === "notes") return "note";
  if (m.source === "memory") return "memory";
  if (isFileChunk(m)) return "file";
  if (m.kind === "heading" || m.source === "docs") return "section";
  return m.kind ?? "file";
}

/**
 * One line under a hit: signature or doc line, a section's first line, a
 * file's summary. `changed`: `text` is what the symbol's lines hold now, in
 * a file edited since it was indexed, and a signature it no longer holds
 * (a parameter added) is not shown: its first line now is.
 */
export function summaryOf(m: ScoredChunk, text: string, changed = false): string | null {
  if (isFileChunk(m)) {
    return m.summary === null ? null : clip(m.summary);
  }
  if (m.kind === "heading" || m.source === "docs") {
    // A man page's lines as a reader sees them: requests, comments and escapes rendered.
    const lines = m.language === "man"
      ? renderRoff(text.split("\n")).map((l) => l ?? "")
      : text.split("\n");
    // The heading's own line (under an rst overline) when the chunk opens with it: text before
    // the first heading, or the rest of a long section, opens with a line of its own.
    const at = RULE.test(lines[0]!.trim()) ? 1 : 0;
    const body = lines.slice(opensWithTitle(lines[at] ?? "", m.title) ? at + 1 : 0);
    const read = m.language === "markdown" ? (l: string) => markdownLine(proseLine(l)) : proseLine;
    const line = body.map(read).find((l) => l !== "");
    return line ? clip(line) : null;
  }
  if (changed && m.signature !== null) {
    // Edited: what its lines hold now, when they no longer spell its signature (none when
    // they are blank: the signature indexed is not in the file).
    const bare = (t: string) => t.replace(/\s+/g, "");
    if (!bare(text).includes(bare(m.signature))) {
      const first = text.split("\n").find((l) => l.trim() !== "");
      return first === undefined ? null : clip(first.trim());
    }
  }
  const sig = m.signature ?? m.doc?.split("\n")[0] ?? null;
  return sig === null ? null : clip(sig);
}

/**
 * True for a hit that names no symbol or section of its own: a file's own
 * chunk, or a window of a file's text (`rel § line N`). Its first line says
 * little of why it matched (`name: ci` for a workflow that uploads coverage),
 * so it is shown at its {@link matchingLine}.
 */
export function isTextOnly(m: ScoredChunk): boolean {
  return isFileChunk(m) || (m.node_id === null && m.source === "code" && m.path_id !== null);
}

/**
 * The line of `text` that holds the most of the query's `words`, as
 * coverage counts them (each by its stem, in any word or identifier part),
 * the first of those that hold as many; with its number, `first` being that
 * of the text's first line, and its text trimmed and cut to the summary
 * width. Null when no line holds one (pure). Only lines holding what a word
 * asked begins with (`stemPrefix`) are stemmed.
 *
 * @example
 * ```ts
 * import { matchingLine } from "./hit_text.ts";
 * import assert from "node:assert/strict";
 * const ci = "name: ci\nsteps:\n  - run: deno task test\n  - name: upload coverage to codecov";
 * assert.deepEqual(matchingLine(ci, 1, ["uploading", "coverage"]), {
 *   line: 4,
 *   text: "- name: upload coverage to codecov",
 * });
 * assert.equal(matchingLine(ci, 1, ["vacuum"]), null);
 * ```
 */
export function matchingLine(
  text: string,
  first: number,
  words: readonly string[],
): { line: number; text: string } | null {
  const starts = [...new Set(words.flatMap((w) => [w.toLowerCase(), stem(w.toLowerCase())]))]
    .map(stemPrefix);
  if (starts.length === 0) return null;
  let best: { line: number; text: string } | null = null;
  let most = 0;
  let at = 0;
  for (let n = first;; n++) {
    const nl = text.indexOf("\n", at);
    const line = text.slice(at, nl === -1 ? text.length : nl);
    const lower = line.toLowerCase();
    if (starts.some((p) => lower.includes(p))) {
      const { missing } = coverage(words, line);
      const held = words.length - missing.length;
      if (held > most) {
        most = held;
        best = { line: n, text: clip(line.trim()) };
        if (held === words.length) break;
      }
    }
    if (nl === -1) break;
    at = nl + 1;
  }
  return best;
}

/**
 * True when `line` is the heading `title` ends with (`## Install` of `Guide >
 * Install`, the first line a heading-less chunk of plain text is titled by).
 */
function opensWithTitle(line: string, title: string): boolean {
  // Words alone, in order: a title is its heading as a reader sees it, without the link
  // targets between its words (`See [the docs](https://x.org) first` titled `See the docs first`).
  const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");
  const cut = title.lastIndexOf(" > ");
  const said = words(line);
  const name = words(cut < 0 ? title : title.slice(cut + 3));
  return said.length > 0 && name.length > 0 && (inOrder(name, said) || inOrder(said, name));
}

/** True when every word of `few` appears in `many`, in the same order. */
function inOrder(few: readonly string[], many: readonly string[]): boolean {
  let at = 0;
  for (const w of many) if (at < few.length && w === few[at]) at++;
  return at === few.length;
}

/** A line of one punctuation character repeated: an rst over- or underline. */
const RULE = /^([=\-~^"'`#*+:._])\1{2,}$/;

/** A rule line (an rst or AsciiDoc underline, a fence) or a roff request. */
const MARKUP_ONLY = /^([=\-~^"'`#*+:._]{3,}|\.[A-Za-z]{1,3}(\s.*)?|<!--.*)$/;

/**
 * A line of prose as a person reads it: empty for a rule, an underline or a
 * roff request; roff font escapes (`\fB…\fR`) removed.
 */
export function proseLine(line: string): string {
  const t = line.trim();
  if (MARKUP_ONLY.test(t)) return "";
  return t.replace(/\\f[BIRP]|\\f\(..|\\&/g, "").replace(/\\-/g, "-").trim();
}

/**
 * A markdown line as a reader sees it: images and badges dropped (an image
 * alone keeps no words), links by their text, HTML tags removed, white
 * space collapsed; empty for a line of markup alone (`<p align="center">`,
 * `[![CI](…)](…)`).
 */
export function markdownLine(line: string): string {
  if (!/[<[]/.test(line)) return line;
  return line.replace(/!\[[^\]]*\](?:\([^)]*\)|\[[^\]]*\])/g, " ")
    .replace(/\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])/g, "$1")
    .replace(/<\/?[A-Za-z][^>]*>/g, " ")
    .replace(/\s+/g, " ").trim();
}

/** A line cut to the summary width. */
export function clip(s: string): string {
  return s.length <= SUMMARY_MAX ? s : s.slice(0, SUMMARY_MAX - 1) + "…";
}
