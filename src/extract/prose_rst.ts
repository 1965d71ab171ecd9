/** reStructuredText chunked by section (pure). */
import type { Chunk, SymbolDef } from "./types.ts";
import {
  hasWord,
  isRule,
  levelsByFirstUse,
  type ProseHeading,
  sectionsFromHeadings,
} from "./prose_sections.ts";

/** A section longer than this is cut at blank lines into several chunks of the same heading. */
const CHUNK_MAX_CHARS = 4000;

/**
 * Splits reStructuredText into sections by title. A title is a text line
 * underlined — and optionally overlined — by one punctuation character
 * repeated (`=`, `-`, `~`, `^`, `"`, `#`, `*`, `+`…, at least three); its
 * level is the order in which its style (character, overlined or not) first
 * appears, as docutils decides. The heading is the text line, never the rule:
 * a rule alone (a transition) is no title, and a title needs a letter or
 * digit. Literal blocks (after a paragraph ending in `::`) and the bodies of
 * directives and comments (`.. name::`) are skipped, so an underline inside
 * them is text. Output as {@link sectionsFromHeadings}: a heading path per
 * chunk, one `heading` symbol per title. Pure and linear in the text.
 */
export function chunkRst(text: string): { chunks: Chunk[]; symbols: SymbolDef[] } {
  const lines = text.split(/\r?\n/);
  return sectionsFromHeadings(lines, findRstHeadings(lines), { maxChars: CHUNK_MAX_CHARS });
}

function findRstHeadings(lines: readonly string[]): ProseHeading[] {
  const out: ProseHeading[] = [];
  const level = levelsByFirstUse();
  /** A title's text is also its signature: rst marks titles up by rules, not in the line. */
  const title = (style: string, text: string, start: number) =>
    out.push({ level: level(style), text: readerText(text), start, raw: text });
  /** Indent of the line that opened a literal block or directive; -1 outside one. */
  let blockIndent = -1;
  let prevBlank = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const blank = line.trim() === "";
    if (blockIndent >= 0) {
      if (blank || indentOf(line) > blockIndent) {
        prevBlank = blank;
        continue;
      }
      blockIndent = -1;
    }
    if (blank) {
      prevBlank = true;
      continue;
    }
    const next = lines[i + 1] ?? "";
    const after = lines[i + 2] ?? "";
    // Overlined title: rule, text, the same rule.
    if (
      prevBlank && isRule(line) && indentOf(line) === 0 && !isRule(next) && hasWord(next) &&
      isRule(after) && after.trim() === line.trim()
    ) {
      title(`o${line.trim()[0]}`, next.trim(), i);
      i += 2;
      prevBlank = true; // a title ends a block: a subtitle may follow at once
      continue;
    }
    // Underlined title: text at the margin, then a rule.
    if (
      prevBlank && indentOf(line) === 0 && !isRule(line) && hasWord(line) && isRule(next) &&
      indentOf(next) === 0
    ) {
      title(`u${next.trim()[0]}`, line.trim(), i);
      i += 1;
      prevBlank = true;
      continue;
    }
    if (/^\s*\.\.(\s|$)/.test(line) || /::\s*$/.test(line)) blockIndent = indentOf(line);
    prevBlank = false;
  }
  return out;
}

/**
 * A title as a reader sees it: roles by their text (``:mod:`email` `` →
 * `email`, ``:ref:`Install <setup>` `` → `Install`, ``:class:`~a.B` `` →
 * `B`, ``:class:`.datetime` `` → `datetime`), backslash escapes as the
 * character they escape, links by their text,
 * inline literals, emphasis and substitutions unwrapped.
 */
function readerText(title: string): string {
  const shown = title
    // A backslash escape (`open\_basedir`) outside an inline literal is the character it escapes;
    // an escaped space (`:keyword:\`with\`\ -statement`) is none.
    .split(/(``.+?``)/).map((part, i) =>
      i % 2 === 1 ? part : part.replace(/\\(.)/g, (_, c: string) => c === " " ? "" : c)
    ).join("")
    .replace(/``(.+?)``/g, "$1")
    .replace(
      /(?::[\w.+-]+:)?`([^`]+?)`(?::[\w.+-]+:|__?)?/g,
      (_, inner: string) => {
        const target = inner.replace(/\s*<[^<>]*>$/, "");
        // Sphinx shows `~a.b.C` as `C`, `.datetime` (looked up nearby) as `datetime`.
        return target.startsWith("~")
          ? target.slice(target.lastIndexOf(".") + 1).replace(/^~/, "")
          : target.replace(/^[!.]/, "");
      },
    )
    .replace(/\*\*(\S(?:.*?\S)?)\*\*|\*(\S(?:.*?\S)?)\*/g, (_, bold, em) => bold ?? em)
    .replace(/\|(\S(?:[^|]*\S)?)\|/g, "$1")
    .replace(/\s+/g, " ").trim();
  return hasWord(shown) ? shown : title;
}

/** Columns of leading white space (a tab counts as one). */
function indentOf(line: string): number {
  let i = 0;
  while (i < line.length && (line[i] === " " || line[i] === "\t")) i++;
  return i;
}
