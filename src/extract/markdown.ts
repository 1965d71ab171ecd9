import type { Depth } from "../config/mod.ts";
import { hasWord, type ProseHeading, sectionsFromHeadings } from "./prose_sections.ts";
import type { Capability, Chunk, Extraction, Extractor, SymbolDef } from "./types.ts";

/**
 * A section longer than this is cut at blank lines into several chunks of the
 * same heading; a chunk with no blank line to cut at grows to one and a half
 * times this at most, a section chunk's indexed text (`SECTION_MAX_CHARS` in
 * src/derive/chunk_rows.ts), so none of it goes unseen.
 */
const CHUNK_MAX_CHARS = 6000;

/**
 * Splits markdown into sections by heading, ATX (`## Install`) and setext
 * (underlined with `===` or `---`); a `#` inside a fenced code block, an
 * HTML comment or front matter (YAML `---`, TOML `+++`) is not a heading. Each chunk carries its heading path
 * (`Guide > Install`), 1-based inclusive line range (trailing blank lines
 * dropped) and text; text before the first heading is a chunk with heading
 * `""`. Every heading is also a symbol of kind `heading` whose range covers
 * its subsections, `qualname` is the heading path and `parent` the enclosing
 * heading's path. Pure and linear in the text.
 */
export function chunkMarkdown(text: string): { chunks: Chunk[]; symbols: SymbolDef[] } {
  const lines = text.split(/\r?\n/);
  return sectionsFromHeadings(lines, findHeadings(lines), { maxChars: CHUNK_MAX_CHARS });
}

/** A GFM table's delimiter row (`|---|:--:|`, `--- | ---`): the line above is its header. */
const TABLE_DELIMITER = /^(?=.*\|) {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/**
 * The start of an HTML block that runs to its end tag (CommonMark's first
 * kind): `<pre>`, `<script>`, `<style>`, `<textarea>`.
 */
const HTML_RAW = /^ {0,3}<(pre|script|style|textarea)(?=[\s>]|$)/i;
/**
 * The start of an HTML block that runs to the next blank line (CommonMark's
 * sixth kind): a block-level tag, opening or closing (`<div align="center">`,
 * `</table>`); it may interrupt a paragraph.
 */
const HTML_BLOCK = new RegExp(
  String.raw`^ {0,3}</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|` +
    String.raw`colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|` +
    String
      .raw`frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|` +
    String.raw`nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|` +
    String.raw`tfoot|th|thead|title|tr|track|ul)(?=[ \t>]|/>|$)`,
  "i",
);
/**
 * A line that is one whole tag, opening or closing (`<img src="x.png">`,
 * `</span>`): an HTML block to the next blank line when no paragraph is
 * open (CommonMark's seventh kind).
 */
const HTML_TAG_LINE =
  /^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)[ \t]*$/;

/** A thematic break (`***`, `- - -`, `___`) or a line of `=` (a rule in plain-text habits). */
const RULE = /^ {0,3}(?:([-*_])(?:[ \t]*\1){2,}|={3,})[ \t]*$/;

function findHeadings(lines: string[]): ProseHeading[] {
  const out: ProseHeading[] = [];
  let fence: { char: string; len: number } | undefined;
  let paragraphStart = -1;
  /** Inside a GFM table (its delimiter row seen, no blank line since). */
  let table = false;
  /** Inside an HTML comment. */
  let comment = false;
  /**
   * Inside an HTML block: the end tag that closes it (`</pre>`), or "" for one that runs to
   * the next blank line.
   */
  let html: string | undefined;
  /** Lines continue a list item or a quote (no blank line since one). */
  let lazy = false;
  let i = 0;
  const open = lines[0]?.trim();
  if (open === "---" || open === "+++") {
    // Front matter, YAML (`---` to `---` or `...`) or TOML as Hugo writes it (`+++` to `+++`).
    const end = open === "+++" ? /^\+\+\+\s*$/ : /^(---|\.\.\.)\s*$/;
    const close = lines.findIndex((l, j) => j > 0 && end.test(l));
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
      lazy = false;
      continue;
    }
    if (comment) {
      if (line.includes("-->")) comment = false;
      continue;
    }
    if (html !== undefined) {
      // Raw HTML: a `# comment` in a `<pre>` or an `====` of a tool's output shown there is text.
      if (html === "" ? line.trim() === "" : line.toLowerCase().includes(html)) html = undefined;
      continue;
    }
    const raw = HTML_RAW.exec(line);
    if (
      raw || HTML_BLOCK.test(line) || (paragraphStart < 0 && !lazy && HTML_TAG_LINE.test(line))
    ) {
      const end = raw ? `</${raw[1]!.toLowerCase()}>` : "";
      // `<pre>x</pre>` on one line ends where it starts.
      if (!raw || !line.toLowerCase().includes(end, raw[0].length)) html = end;
      paragraphStart = -1;
      lazy = false;
      table = false;
      continue;
    }
    if (/^ {0,3}<!--/.test(line)) {
      // An HTML comment (a template's commented-out `## Checklist`) runs to its `-->`.
      comment = !line.slice(line.indexOf("<!--") + 4).includes("-->");
      paragraphStart = -1;
      lazy = false;
      continue;
    }
    const atx = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) {
      // `### ###` is an empty heading (all closing sequence): a heading without a word is none.
      const title = readerText((atx[2] ?? "").trim());
      if (hasWord(title)) {
        out.push({ level: atx[1]!.length, text: title, start: i, raw: line.trim() });
      }
      paragraphStart = -1;
      table = false;
      lazy = false;
      continue;
    }
    if (table) {
      // A table's rows run to the next blank line: an `===` among them is a row, not an underline.
      if (line.trim() === "") table = false;
      continue;
    }
    if (paragraphStart >= 0 && lines[i - 1]!.includes("|") && TABLE_DELIMITER.test(line)) {
      table = true;
      paragraphStart = -1;
      continue;
    }
    const setext = /^ {0,3}(=+|-+)[ \t]*$/.exec(line);
    const underlined = setext && paragraphStart >= 0
      ? lines.slice(paragraphStart, i).map((l) => l.trim()).join(" ")
      : undefined;
    const setextTitle = underlined === undefined ? undefined : readerText(underlined);
    if (setext && setextTitle !== undefined && hasWord(setextTitle)) {
      out.push({
        level: setext[1]![0] === "=" ? 1 : 2,
        text: setextTitle,
        start: paragraphStart,
        raw: underlined!,
      });
      paragraphStart = -1;
      continue;
    }
    if (RULE.test(line)) {
      // A rule with no paragraph above: a break, never the text of a heading.
      paragraphStart = -1;
      lazy = false;
      continue;
    }
    if (line.trim() === "") {
      paragraphStart = -1;
      lazy = false;
    } else if (/^ {0,3}([-*+]|\d+[.)])\s|^ {0,3}>/.test(line)) {
      // A list item or a quote: the lines after it continue it, never a title to underline.
      paragraphStart = -1;
      lazy = true;
    } else if (/^ {4}|^\t/.test(line)) {
      paragraphStart = -1;
    } else if (paragraphStart < 0 && !lazy) {
      paragraphStart = i;
    }
  }
  return out;
}

/**
 * A heading's text as a reader sees it: images dropped (a badge is no word
 * of the title; an image alone keeps its alt text), links by their text,
 * HTML tags, emphasis marks (`**`, `*`, `__`, `_`, `~~`), a trailing
 * attribute block (`{#install}`) and code spans' backticks removed (what a
 * code span holds is kept as written), a backslash escape (`\*`) as the
 * character it escapes, white space collapsed.
 */
function readerText(title: string): string {
  // Code spans and escaped characters stand aside as U+E000 n U+E001 while the markup around
  // them is read.
  const code: string[] = [];
  const aside = (text: string) => {
    code.push(text);
    return `\uE000${code.length - 1}\uE001`;
  };
  const marked = title.replace(
    /(`+)(.+?)\1(?!`)/g,
    (_, _ticks, inner: string) => aside(inner.trim()),
  )
    .replace(/\\([!-/:-@[-`{-~])/g, (_, c: string) => aside(c));
  const shown = (alt: string) =>
    marked.replace(/!\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])/g, alt)
      .replace(/\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])/g, "$1")
      .replace(/<\/?[A-Za-z][^>]*>/g, " ")
      .replace(/[ \t]*\{[#.][^{}]*\}[ \t]*$/, "")
      .replace(/(\*\*|__|~~)(\S(?:.*?\S)?)\1/g, "$2")
      // One mark around words; not `*args) and script/*`, a glob and a pointer.
      .replace(/(?<![\p{L}\p{N}*])\*([^\s*()/](?:[^*()/]*[^\s*()/])?)\*(?![\p{L}\p{N}*])/gu, "$1")
      .replace(/(?<![\p{L}\p{N}_])_([^\s_()/](?:[^_()/]*[^\s_()/])?)_(?![\p{L}\p{N}_])/gu, "$1")
      .replace(/\uE000(\d+)\uE001/g, (_, n: string) => code[Number(n)]!)
      .replace(/\s+/g, " ").trim();
  const text = shown(" ");
  return hasWord(text) ? text : shown("$1");
}

/** Markdown at L2: chunks and heading symbols; markdown has no graph (L3). */
export class MarkdownExtractor implements Extractor {
  /** L2 for markdown; anything else stays at L1 with the reason. */
  capability(language: string | undefined): Capability {
    return language === "markdown"
      ? { depth: 2 }
      : { depth: 1, reason: `the markdown extractor does not read ${language ?? "unknown files"}` };
  }

  /** Markdown's sections as chunks and `heading` symbols, at most L2. */
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
