/** AsciiDoc chunked by section (pure), including git-style manual pages in `.txt`. */
import type { Chunk, SymbolDef } from "./types.ts";
import { hasWord, isRule, type ProseHeading, sectionsFromHeadings } from "./prose_sections.ts";

/** A section longer than this is cut at blank lines into several chunks of the same heading. */
const CHUNK_MAX_CHARS = 4000;

/** Two-line title underline character → level (`=` is the document title). */
const UNDERLINE_LEVEL: Record<string, number> = { "=": 1, "-": 2, "~": 3, "^": 4, "+": 5 };

/** Delimiters of blocks whose lines are never titles: listing, literal, passthrough, comment, fence. */
const VERBATIM = /^(-{4,}|\.{4,}|\+{4,}|\/{4,}|`{3,})\s*$/;

const ONE_LINE = /^(={1,6}|#{1,6})[ \t]+(.*?)(?:[ \t]+\1)?[ \t]*$/;

/**
 * Splits AsciiDoc into sections by title: one-line titles (`= Document`,
 * `== Section`, … and the `#` forms; level = the number of marks) and the
 * older two-line titles, a text line underlined by `=`, `-`, `~`, `^` or `+`
 * (levels 1 to 5) whose length is within two characters of the title's. A
 * title follows a blank line, the start of the file, or a block attribute
 * or anchor line. Listing (`----`), literal (`....`), passthrough (`++++`)
 * and comment (`////`) blocks and ``` fences are skipped until their closing
 * delimiter, so a rule inside them is text; `//` comment lines are no
 * titles. Output as {@link sectionsFromHeadings}. Pure and linear in the text.
 */
export function chunkAsciidoc(text: string): { chunks: Chunk[]; symbols: SymbolDef[] } {
  const lines = text.split(/\r?\n/);
  return sectionsFromHeadings(lines, findAsciidocHeadings(lines), { maxChars: CHUNK_MAX_CHARS });
}

function findAsciidocHeadings(lines: readonly string[]): ProseHeading[] {
  const out: ProseHeading[] = [];
  /** The open verbatim block's delimiter, or undefined. */
  let verbatim: string | undefined;
  let afterBreak = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const t = line.trimEnd();
    if (verbatim !== undefined) {
      if (t === verbatim) verbatim = undefined;
      continue;
    }
    if (t.trim() === "") {
      afterBreak = true;
      continue;
    }
    if (VERBATIM.test(t)) {
      verbatim = t;
      afterBreak = false;
      continue;
    }
    if (/^\[.*\]$/.test(t) || t.startsWith("//")) {
      // Block attributes, anchors and comment lines may sit between a blank line and a title.
      continue;
    }
    if (afterBreak) {
      const one = ONE_LINE.exec(t);
      if (one && hasWord(one[2]!)) {
        out.push({ level: one[1]!.length, text: readerText(one[2]!), start: i, raw: t.trim() });
        continue;
      }
      const next = (lines[i + 1] ?? "").trimEnd();
      if (isTwoLineTitle(t, next)) {
        out.push({
          level: UNDERLINE_LEVEL[next[0]!]!,
          text: readerText(t),
          start: i,
          raw: t.trim(),
        });
        i += 1;
        continue;
      }
    }
    afterBreak = false;
  }
  return out;
}

/**
 * A title as a reader sees it: a link (`link:url[text]`, `https://url[text]`)
 * and a cross reference (`<<id,text>>`, `xref:id[text]`) by their text,
 * their target when they have none; backticks and `*bold*` marks removed.
 */
function readerText(title: string): string {
  const shown = title
    .replace(
      /\b(?:link:|xref:|(?:https?|ftp|mailto|irc):)([^\s\[]*)\[([^\]]*)\]/g,
      (all, target: string, text: string) =>
        text.trim() !== ""
          ? text
          : all.startsWith("link:") || all.startsWith("xref:")
          ? target
          : all.slice(0, all.indexOf("[")),
    )
    .replace(/<<([^,>]+)(?:,([^>]+))?>>/g, (_, id: string, text: string | undefined) => text ?? id)
    .replace(/`([^`]+)`/g, "$1")
    .replace(/(?<![\w*])\*(\S(?:[^*]*\S)?)\*(?![\w*])/g, "$1")
    .replace(/\s+/g, " ").trim();
  return hasWord(shown) ? shown : title.trim();
}

/** True when `title` underlined by `rule` is a two-line AsciiDoc title. */
function isTwoLineTitle(title: string, rule: string): boolean {
  return /^[=\-~^+]{2,}$/.test(rule) && isRule(rule, 2) &&
    UNDERLINE_LEVEL[rule[0]!] !== undefined &&
    Math.abs(rule.length - title.length) <= 2 && hasWord(title) && !/^[\s.\[/:*-]/.test(title) &&
    !isRule(title, 2);
}

/**
 * True when a file's first lines read as AsciiDoc: a title underlined by `=`
 * of its length (give or take two), or a `NAME` section underlined by `-` or
 * `=` as in git's manual pages, or a one-line document title (`= Title`)
 * followed by an attribute line (`:toc:`) or, further on, a `== Section`,
 * or a mail header `Content-type: text/asciidoc`. How a `.txt` file is told apart
 * from plain text; looks only at `head`.
 */
export function looksLikeAsciidoc(head: string): boolean {
  const lines = head.split(/\r?\n/, 40);
  const first = lines.findIndex((l) => l.trim() !== "");
  if (first < 0) return false;
  const title = lines[first]!.trimEnd();
  const rule = (lines[first + 1] ?? "").trimEnd();
  if (/^=+$/.test(rule) && isTwoLineTitle(title, rule)) return true;
  if (/^= \S/.test(title) && /^:[\w-]+:/.test(lines[first + 1] ?? "")) return true;
  // `= Title`, then a `== Section` (git's user manual and technical docs).
  if (/^= \S/.test(title) && lines.some((l, i) => i > first && /^={2,6} \S/.test(l))) return true;
  // A mail's header naming its body's type (git's howto/*.txt).
  if (lines.slice(0, first + 12).some((l) => /^content-type: text\/asciidoc\b/i.test(l))) {
    return true;
  }
  return lines.some((l, i) =>
    l.trimEnd() === "NAME" && /^(-{4}|={4})$/.test((lines[i + 1] ?? "").trimEnd())
  );
}
