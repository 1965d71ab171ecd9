/** Manual pages in roff (man and mdoc macros) chunked by section (pure). */
import type { Chunk, SymbolDef } from "./types.ts";
import { hasWord, type ProseHeading, sectionsFromHeadings } from "./prose_sections.ts";

/** A section longer than this (in roff source) is cut at blank lines into several chunks. */
const CHUNK_MAX_CHARS = 4000;

/** Requests that only lay text out: their arguments are no text a reader sees. */
const LAYOUT = new Set([
  "PP",
  "LP",
  "P",
  "HP",
  "br",
  "sp",
  "fi",
  "nf",
  "RS",
  "RE",
  "in",
  "ti",
  "ft",
  "ps",
  "vs",
  "ad",
  "na",
  "ne",
  "hy",
  "nh",
  "ll",
  "ta",
  "ce",
  "bp",
  "TH",
  "Dd",
  "Dt",
  "Os",
  "Pp",
  "Bl",
  "El",
  "Bd",
  "Ed",
  "Ek",
  "Bk",
  "so",
  "nr",
  "rr",
  "als",
  "mso",
  "do",
  "ftr",
  "tm",
  "ds",
  "ds1",
  "as",
  "as1",
  "bd",
  "rm",
  "rn",
  "tr",
  "if",
  "ie",
  "el",
  "EX",
  "EE",
  "UC",
  "PD",
  "DT",
  "hw",
  "cs",
  "ss",
  "mk",
  "rt",
  "ev",
  "ig",
  "de",
  "am",
  "pc",
  "lf",
  "ec",
  "eo",
  "cc",
  "c2",
  "Sm",
  "Ns",
  "Pf",
  "TP",
  "TQ",
  "UE",
  "ME",
  "YS",
  "IX",
]);

/** Requests that define a string or register, whose value may go on past an escaped newline. */
const DEFINES = new Set(["ds", "ds1", "as", "as1", "nr"]);
/** A line that ends in a `\` escaping its newline (not an escaped backslash, `\\`). */
const ESCAPED_NEWLINE = /(?<!\\)(?:\\\\)*\\$/;

/** Font macros that alternate fonts between their arguments, which join without a space. */
const ALTERNATING = new Set(["BR", "RB", "BI", "IB", "IR", "RI"]);

/**
 * Splits a manual page by its sections: `.SH`/`.Sh` at level 1 and
 * `.SS`/`.Ss` at level 2 (a bare `.SH` takes its title from the next line).
 * Headings carry the title without quotes or escapes. Chunk text is the
 * page as a reader sees it, as far as is cheap: comments, layout requests
 * (`.PP`, `.br`, `.TH`…) and macro definitions dropped, font macros
 * (`.B`, `.IR`…) replaced by their arguments, escapes (`\fB`, `\-`, `\(em`…)
 * resolved or removed; lines keep their line numbers in the source. Output
 * as {@link sectionsFromHeadings}. Pure and linear in the text.
 */
export function chunkMan(text: string): { chunks: Chunk[]; symbols: SymbolDef[] } {
  const lines = text.split(/\r?\n/);
  const rendered = renderRoff(lines);
  return sectionsFromHeadings(lines, findManHeadings(lines, rendered), {
    maxChars: CHUNK_MAX_CHARS,
    // Pages seldom have blank lines: a paragraph request is where a long section may be cut.
    isBreak: (line) => /^[.'][ \t]*(?:PP|LP|P|TP|IP|HP|Pp|sp)\b/.test(line),
    render: (_, from, to) =>
      rendered.slice(from, to + 1).filter((l) => l !== undefined).join("\n").trim(),
  });
}

function findManHeadings(
  lines: readonly string[],
  rendered: readonly (string | undefined)[],
): ProseHeading[] {
  const out: ProseHeading[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^[.'][ \t]*(SH|Sh|SS|Ss)\b[ \t]*(.*)$/.exec(lines[i]!);
    // A line that renders to nothing sits in a macro definition or ignored block.
    if (!m || rendered[i] === undefined) continue;
    let title = m[2]!.trim() === ""
      ? (rendered[i + 1] ?? "")
      : unquote(plainText(stripComment(m[2]!)));
    title = title.trim();
    if (!hasWord(title)) continue;
    out.push({
      level: /^S[Hh]$/.test(m[1]!) ? 1 : 2,
      text: title,
      start: i,
      raw: lines[i]!.trim(),
    });
  }
  return out;
}

/**
 * Each roff line as text, or undefined for a line that shows nothing
 * (a comment, a layout request, a line of a macro definition or ignored block).
 */
export function renderRoff(lines: readonly string[]): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  /** Inside `.de`/`.ig` … `..`. */
  let skipping = false;
  /** The line before defined a string or register and ended in `\`: this one carries it on. */
  let continued = false;
  for (const line of lines) {
    if (skipping) {
      if (/^[.'][ \t]*\.[ \t]*$/.test(line)) skipping = false;
      out.push(undefined);
      continue;
    }
    if (continued) {
      continued = ESCAPED_NEWLINE.test(line);
      out.push(undefined);
      continue;
    }
    const request = /^[.'][ \t]*([A-Za-z][A-Za-z0-9]?[A-Za-z0-9]?)(?:[ \t]+(.*))?$/.exec(line);
    if (/^[.'][ \t]*(?:de|am)(?:i?1?)?[ \t]|^[.'][ \t]*ig\b/.test(line)) {
      // A macro definition (groff's `.de1`, `.ami` too, as rst2man writes) or an ignored block.
      skipping = true;
      out.push(undefined);
    } else if (/^\\["#]/.test(line) || (/^[.']/.test(line) && !request)) {
      // A comment (`\"`, groff's `\#`), an empty request or an escape-led control line.
      out.push(undefined);
    } else if (request) {
      const name = request[1]!;
      if (LAYOUT.has(name)) {
        continued = DEFINES.has(name) && ESCAPED_NEWLINE.test(line);
        out.push(undefined);
      } else {
        const args = splitArgs(stripComment(request[2] ?? ""));
        // `.IP tag indent`: the tag is text, the indent is layout.
        if (name === "IP") args.splice(1);
        out.push(plainText(args.join(ALTERNATING.has(name) ? "" : " ")));
      }
    } else {
      out.push(plainText(stripComment(line)));
    }
  }
  return out;
}

/** A line without its `\"` (or groff's `\#`) comment. */
function stripComment(s: string): string {
  const i = s.search(/\\["#]/);
  return i < 0 ? s : s.slice(0, i);
}

/** Macro arguments: split at blanks, a double-quoted argument kept whole. */
function splitArgs(s: string): string[] {
  const out: string[] = [];
  for (const m of s.matchAll(/"((?:[^"]|"")*)"?|(\S+)/g)) {
    out.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!);
  }
  return out;
}

function unquote(s: string): string {
  const t = s.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t;
}

const NAMED: Record<string, string> = {
  em: "—",
  en: "–",
  hy: "-",
  mi: "-",
  bu: "•",
  lq: "“",
  rq: "”",
  oq: "‘",
  cq: "’",
  aq: "'",
  dq: '"',
  co: "©",
  rg: "®",
  tm: "™",
  de: "°",
  "+-": "±",
  mu: "×",
  di: "÷",
  "<=": "≤",
  ">=": "≥",
  "->": "→",
  "<-": "←",
  ti: "~",
  ha: "^",
  rs: "\\",
  ba: "|",
  sl: "/",
};

/**
 * Roff text with its escapes resolved or removed: fonts (`\fB`, `\f(CW`,
 * `\f[B]`) and font families (`\FB`, as DocBook writes `\fB` in a title it
 * upper-cases), sizes (`\s-1`), strings and registers (`\*(xx`, `\n[x]`), named
 * glyphs (`\(em`, `\[bu]`), `\-`, `\e`, `\&`, `\|`, `\c` and the like.
 */
export function plainText(s: string): string {
  if (!s.includes("\\")) return s;
  return s.replace(
    /\\(?:[fF](?:\(..|\[[^\]]*\]|.)|s[+-]?(?:\d\d?|\(\d\d|\[[^\]]*\])|[*n](?:\(..|\[[^\]]*\]|.)|\((..)|\[([^\]]*)\]|(.)|$)/g,
    (_all, two: string | undefined, bracket: string | undefined, one: string | undefined) => {
      const name = two ?? bracket;
      if (name !== undefined) return NAMED[name] ?? "";
      switch (one) {
        case undefined:
          return "";
        case "-":
          return "-";
        case "e":
        case "\\":
          return "\\";
        case " ":
        case "~":
        case "0":
          return " ";
        case "&":
        case "{":
        case "}":
        case "|":
        case "^":
        case "c":
        case "%":
        case ":":
        case "/":
        case ",":
        case "d":
        case "u":
        case "r":
          return "";
        default:
          return one;
      }
    },
  );
}
