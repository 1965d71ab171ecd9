/** Plain text (README, NEWS, `.txt`) chunked by paragraph groups and the headings it shows (pure). */
import type { Chunk, SymbolDef } from "./types.ts";
import {
  hasWord,
  isRule,
  levelsByFirstUse,
  type ProseHeading,
  sectionsFromHeadings,
} from "./prose_sections.ts";

/** Paragraphs are grouped into chunks of about this many characters, cut at blank lines. */
const CHUNK_MAX_CHARS = 2500;
/** A heading is a short line: longer ones are sentences. */
const HEADING_MAX_CHARS = 72;
/** A chunk without a heading is titled by its first line, clipped to this many characters. */
const TITLE_MAX_CHARS = 80;

/** A numbered heading: `3.2 Foo`, `3.2. Foo`, or `3. Foo` (one number needs a capital and few words). */
const NUMBERED_DEEP = /^(\d{1,3}(?:\.\d{1,3})+)\.?[ \t]+(\S.*)$/;
const NUMBERED_TOP = /^(\d{1,3})\.?[ \t]+(\p{Lu}[^.!?,;:]*)$/u;

/**
 * Splits plain text into chunks of paragraphs (about 2,500 characters each,
 * cut at blank lines) under the headings it shows where they are cheap to
 * tell and seldom wrong: a short line underlined (or over- and underlined)
 * by a rule of one repeated punctuation character (not a line of code or a
 * command, nor an indented one, nor one wider than its frame), a short ALL-CAPS line
 * between blank lines, and a numbered heading between blank lines
 * (`3.2 Foo`). Levels follow the order in which each style first appears
 * (numbered headings by their depth). A rule alone is never a title. A chunk
 * under no heading is titled by its first line with a word in it, clipped
 * to 80 characters. Output as {@link sectionsFromHeadings}. Pure and linear
 * in the text.
 */
export function chunkText(text: string): { chunks: Chunk[]; symbols: SymbolDef[] } {
  const lines = text.split(/\r?\n/);
  return sectionsFromHeadings(lines, findTextHeadings(lines), {
    maxChars: CHUNK_MAX_CHARS,
    untitled: firstLineTitle,
  });
}

function findTextHeadings(lines: readonly string[]): ProseHeading[] {
  const out: ProseHeading[] = [];
  const level = levelsByFirstUse();
  const blank = (i: number) => i < 0 || i >= lines.length || lines[i]!.trim() === "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const t = line.trim();
    // Every heading follows a blank line (or starts the file).
    if (t === "" || !blank(i - 1)) continue;
    // Over- and underlined: rule, title, the same rule, as wide as the title at least (a line
    // of code between two rules, `$ make install` in a `-----` frame, is an example).
    if (isRule(t)) {
      const title = (lines[i + 1] ?? "").trim();
      if (
        isTitle(title) && (lines[i + 2] ?? "").trim() === t && title.length <= t.length &&
        !readsAsCode(title)
      ) {
        out.push({ level: level(`o${t[0]}`), text: title, start: i, raw: title });
        i += 2;
      }
      continue;
    }
    if (!isTitle(t)) continue;
    const next = (lines[i + 1] ?? "").trim();
    if (isRule(next) && indent(line) <= 3 && !readsAsCode(t)) {
      out.push({ level: level(`u${next[0]}`), text: t, start: i, raw: t });
      i += 1;
      continue;
    }
    if (!blank(i + 1)) continue;
    const numbered = NUMBERED_DEEP.exec(t) ?? NUMBERED_TOP.exec(t);
    if (numbered && words(numbered[2]!) <= 8) {
      const depth = numbered[1]!.split(".").length;
      out.push({ level: level(`n${depth}`), text: t, start: i, raw: t });
    } else if (isAllCaps(t) && indent(line) <= 4) {
      out.push({ level: level("caps"), text: t, start: i, raw: t });
    }
  }
  return out;
}

/** A short line with a word in it that is not itself a rule. */
function isTitle(t: string): boolean {
  return t.length > 0 && t.length <= HEADING_MAX_CHARS && hasWord(t) && !isRule(t);
}

/**
 * A line that reads as code or a command, never a title: it opens with a
 * prompt, an option, a path or markup (`$ make`, `:100644 …`, `--all`,
 * `[NOTE]`, `<URL>`), holds a pipe or `=>`, or ends a statement or a
 * block (`{`, `;`, `\`).
 */
function readsAsCode(t: string): boolean {
  return /^[$:<>{}[\]/\\|#!@~+*=;`.-]|[{};\\]$|\||=>/.test(t);
}

/** Upper-case letters (at least two in a row), no lower-case ones, no sentence end. */
function isAllCaps(t: string): boolean {
  return /\p{Lu}{2}/u.test(t) && !/\p{Ll}/u.test(t) && !/[.,;]$/.test(t) &&
    /^[\p{Lu}\p{N}\s\-:&/()'"+#_.,!?]+$/u.test(t);
}

function words(t: string): number {
  return t.split(/\s+/).length;
}

function indent(line: string): number {
  return line.length - line.trimStart().length;
}

/**
 * A headingless chunk's title: its first line with a letter or digit,
 * trimmed and clipped (a ` > ` in it is kept from reading as a heading path).
 */
function firstLineTitle(text: string): string {
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf("\n", start);
    const line = text.slice(start, end < 0 ? text.length : end).trim();
    if (line !== "" && hasWord(line) && !isRule(line)) {
      const title = line.replace(/\s+>\s+/g, " ").replace(/\s+/g, " ");
      return title.length <= TITLE_MAX_CHARS ? title : title.slice(0, TITLE_MAX_CHARS - 1) + "…";
    }
    if (end < 0) break;
    start = end + 1;
  }
  return "";
}
