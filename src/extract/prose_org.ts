/** Org-mode documents chunked by headline (pure). */
import type { Chunk, SymbolDef } from "./types.ts";
import { hasWord, type ProseHeading, sectionsFromHeadings } from "./prose_sections.ts";

/** A section longer than this is cut at blank lines into several chunks of the same heading. */
const CHUNK_MAX_CHARS = 4000;

const HEADLINE = /^(\*+)[ \t]+(.*?)[ \t]*$/;
/** A TODO keyword, a priority cookie and trailing tags: not part of the title. */
const KEYWORD = /^(?:TODO|DONE|NEXT|WAIT|WAITING|HOLD|CANCELED|CANCELLED|STARTED)[ \t]+/;
const PRIORITY = /^\[#[A-Z0-9]\][ \t]*/;
const TAGS = /[ \t]+:[\w@#%:]+:$/;
/** A link, `[[target][description]]` or `[[target]]`: a reader sees its description. */
const LINK = /\[\[([^\]]+)\](?:\[([^\]]+)\])?\]/g;
/** Code and verbatim, `=x=` and `~x~`: a reader sees what they hold. */
const VERBATIM = /(?<!\S)[=~](\S(?:[^=~]*\S)?)[=~](?!\S)/g;

/**
 * Splits an Org document into sections by headline: `* Heading` at level 1,
 * `** Sub` at level 2, and so on (stars at the margin followed by a space).
 * A headline's title drops its TODO keyword, priority cookie and tags
 * (`* TODO [#A] Ship it :work:` → `Ship it`), and shows a link by its
 * description and code (`=x=`, `~x~`) by what it holds. Lines inside `#+BEGIN_…` /
 * `#+END_…` blocks (source, example) are never headlines. Output as
 * {@link sectionsFromHeadings}. Pure and linear in the text.
 */
export function chunkOrg(text: string): { chunks: Chunk[]; symbols: SymbolDef[] } {
  const lines = text.split(/\r?\n/);
  return sectionsFromHeadings(lines, findOrgHeadings(lines), { maxChars: CHUNK_MAX_CHARS });
}

function findOrgHeadings(lines: readonly string[]): ProseHeading[] {
  const out: ProseHeading[] = [];
  let inBlock = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (inBlock) {
      if (/^[ \t]*#\+end_/i.test(line)) inBlock = false;
      continue;
    }
    if (/^[ \t]*#\+begin_/i.test(line)) {
      inBlock = true;
      continue;
    }
    const m = HEADLINE.exec(line);
    if (!m) continue;
    const title = m[2]!.replace(KEYWORD, "").replace(PRIORITY, "").replace(TAGS, "")
      .replace(LINK, (_, target: string, desc: string | undefined) => desc ?? target)
      .replace(VERBATIM, "$1").trim();
    if (!hasWord(title)) continue;
    out.push({ level: m[1]!.length, text: title, start: i, raw: line.trim() });
  }
  return out;
}
