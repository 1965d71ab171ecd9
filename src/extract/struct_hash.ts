import type { Span } from "./source_marks.ts";

/**
 * The version of the structural hash. Version 1 hashes are bare 16 hex
 * chars (as every release before versions were recorded wrote them); a later
 * version's are prefixed `N:`, so two teammates on different releases can
 * tell "the code differs" from "the hash differs" ({@link compareStructHashes}).
 */
export const STRUCT_HASH_VERSION = 1;

/** A hash as stored: bare for version 1, `N:hex` for version N > 1 (pure). */
export function versionedStructHash(hex: string, version = STRUCT_HASH_VERSION): string {
  return version === 1 ? hex : `${version}:${hex}`;
}

/** The version a stored struct hash was made by (bare: 1) (pure). */
export function structHashVersion(hash: string): number {
  const m = /^(\d+):/.exec(hash);
  return m ? Number(m[1]) : 1;
}

/**
 * Compares two stored struct hashes (pure): "same" or "diverged" when both
 * were made by the same version, "unknown" when the versions differ or one
 * is missing, so that a teammate on another release is never told that
 * every claimed function changed.
 */
export function compareStructHashes(
  a: string | null | undefined,
  b: string | null | undefined,
): "same" | "diverged" | "unknown" {
  if (!a || !b || structHashVersion(a) !== structHashVersion(b)) return "unknown";
  return a === b ? "same" : "diverged";
}

/** One definition to hash: the range of its first node (a decorator or itself) to its end. */
export interface HashTarget {
  /** Start index of the first node (decorators included). */
  start: number;
  /** End index of the definition. */
  end: number;
  /** A region left out (a docstring), by start/end index. */
  skip?: Span;
}

/**
 * How a language's layout carries meaning, beyond its tokens.
 *
 * @internal
 */
export interface HashStyle {
  /** A line break (outside brackets) ends a statement, like `;` (Python, Ruby, shells). */
  newlines?: boolean;
  /** Indentation is block structure (Python). */
  indent?: boolean;
  /** `(a,)` is a one-element tuple, not `(a)` (Python, Rust): a lone trailing comma in `()` stays. */
  tupleComma?: boolean;
}

/**
 * Hashes each definition's text with positions, whitespace and comments left
 * out: the token text in order, with a space kept only where it separates two
 * words, literals (strings, characters, regexes) verbatim. Reformatting,
 * moving a definition or editing a comment keeps its hash; an edit to a
 * name, a literal, an operator or the structure changes it. Formatters' noise
 * is left out too: a trailing `,` before a closing bracket, and `;` (or, where
 * line breaks end statements, runs of `;` and line breaks, counted as one).
 * Python's indentation counts as block structure, relative to the
 * definition's own (so moving a method between classes keeps its hash).
 * Each target's `skip` region (a docstring) is left out.
 *
 * Known blind spot: the space between two operator characters is dropped,
 * so `a - -b` hashes like `a--b`.
 *
 * Cost: one pass over each target's characters in JavaScript (nested
 * targets are read again), no call into the parse tree. Returns 16 hex chars
 * per target, in order.
 */
export function structHashes(
  source: string,
  comments: readonly Span[],
  literals: readonly Span[],
  targets: readonly HashTarget[],
  style: HashStyle = {},
): string[] {
  if (targets.length === 0) return [];
  const marks = mergeMarks(comments, literals);
  return targets.map((t) => versionedStructHash(hashTarget(source, marks, t, style)));
}

const COMMENT = 0;
const LITERAL = 1;

interface Marks {
  start: Int32Array;
  end: Int32Array;
  kind: Uint8Array;
}

/** Comments and literals in one list sorted by start (the two never overlap). */
function mergeMarks(comments: readonly Span[], literals: readonly Span[]): Marks {
  const n = comments.length + literals.length;
  const out: Marks = { start: new Int32Array(n), end: new Int32Array(n), kind: new Uint8Array(n) };
  let i = 0, j = 0;
  for (let k = 0; k < n; k++) {
    const c = comments[i];
    const l = literals[j];
    if (c !== undefined && (l === undefined || c.start <= l.start)) {
      out.start[k] = c.start;
      out.end[k] = c.end;
      out.kind[k] = COMMENT;
      i++;
    } else {
      out.start[k] = l!.start;
      out.end[k] = l!.end;
      out.kind[k] = LITERAL;
      j++;
    }
  }
  return out;
}

// Character classes of the previous token's last character.
const NONE = 0;
const WORD = 1;
const OTHER = 2;

const NL = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const COMMA = 44;
const SEMI = 59;
const BACKSLASH = 92;

/** Separator, indent and dedent: code points no source text produces as a token. */
const SEP = 0xe001;
const INDENT = 0xe002;
const DEDENT = 0xe003;
const LITERAL_MARK = 0xe004;
const GAP = SPACE;

function isWord(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 ||
    c === 36 || c >= 128;
}

function isSpace(c: number): boolean {
  return c === SPACE || c === TAB || c === CR || c === 11 || c === 12 || c === 0xfeff;
}

function isOpen(c: number): boolean {
  return c === 40 || c === 91 || c === 123;
}

function isClose(c: number): boolean {
  return c === 41 || c === 93 || c === 125;
}

/** Characters after which a line break cannot end a statement (`a &&⏎ b`, `f(a,⏎`). */
function continuesAfter(c: number): boolean {
  // , \ + - * / % & | ^ ! ~ < > = ? : . ( [ {
  return c === COMMA || c === BACKSLASH || c === 43 || c === 45 || c === 42 || c === 47 ||
    c === 37 || c === 38 || c === 124 || c === 94 || c === 33 || c === 126 || c === 60 ||
    c === 62 || c === 61 || c === 63 || c === 58 || c === 46 || isOpen(c);
}

/** Characters before which a line break cannot end a statement (`⏎ .then()`, `⏎ && b`). */
function continuesBefore(c: number): boolean {
  // . & | ) ] } ,
  return c === 46 || c === 38 || c === 124 || isClose(c) || c === COMMA;
}

/** First mark that ends after `index` (marks are sorted and disjoint). */
function firstMark(marks: Marks, index: number): number {
  let lo = 0;
  let hi = marks.start.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (marks.end[mid]! <= index) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** 64-bit FNV-1a-style hash in two 32-bit lanes, fed one UTF-16 unit at a time. */
class Hasher {
  a = 0x811c9dc5;
  b = 0x9747b28c;
  add(c: number): void {
    this.a = Math.imul(this.a ^ c, 0x01000193);
    this.b = Math.imul(this.b ^ c, 0x5bd1e995);
    this.b ^= this.b >>> 15;
  }
  hex(): string {
    let a = this.a, b = this.b;
    a ^= a >>> 16;
    a = Math.imul(a, 0x85ebca6b) ^ Math.imul(b, 0x27d4eb2d);
    a ^= a >>> 13;
    b = Math.imul(b ^ (b >>> 16), 0xc2b2ae35) ^ Math.imul(a, 0x165667b1);
    b ^= b >>> 16;
    return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
  }
}

function hashTarget(source: string, marks: Marks, t: HashTarget, style: HashStyle): string {
  const h = new Hasher();
  const newlines = style.newlines === true;
  const indent = style.indent === true;
  const tupleComma = style.tupleComma === true;
  let prev = NONE;
  let prevChar = 0;
  let gap = false;
  let sep = false;
  let pendingComma = false;
  /** Open brackets; where line breaks end statements, only `(` and `[` (and `{` in Python) count. */
  let depth = 0;
  /** Per open bracket: commas seen directly in it (for `tupleComma`). */
  const commas: number[] = [];
  const indents: number[] = [];
  let lineStart = -1;
  let atLineStart = false;
  if (indent) {
    const ls = source.lastIndexOf("\n", t.start - 1) + 1;
    indents.push(column(source, ls, t.start));
  }

  const emit = (c: number): void => {
    if (pendingComma) {
      pendingComma = false;
      h.add(COMMA);
      prev = OTHER;
      prevChar = COMMA;
    }
    if (sep) {
      sep = false;
      if (prev !== NONE && !continuesAfter(prevChar) && !continuesBefore(c)) {
        h.add(SEP);
        prev = OTHER;
        prevChar = SEP;
      }
    }
    if (atLineStart) {
      atLineStart = false;
      if (indent && depth === 0) {
        // The first token of a logical line: its column against the open blocks.
        const col = column(source, lineStart, lineStart + leadingSpace(source, lineStart));
        if (col > indents[indents.length - 1]!) {
          indents.push(col);
          h.add(INDENT);
        } else {
          while (indents.length > 1 && col < indents[indents.length - 1]!) {
            indents.pop();
            h.add(DEDENT);
          }
        }
      }
    }
    if (gap && prev === WORD && (isWord(c) || c === LITERAL_MARK)) h.add(GAP);
    gap = false;
    h.add(c);
    prev = isWord(c) || c === LITERAL_MARK ? WORD : OTHER;
    prevChar = c;
  };

  let m = firstMark(marks, t.start);
  let pos = t.start;
  const end = t.end;
  const skipStart = t.skip ? t.skip.start : end;
  const skipEnd = t.skip ? t.skip.end : end;
  while (pos < end) {
    // Marks wholly inside the skipped region were passed over with it.
    while (m < marks.start.length && marks.end[m]! <= pos) m++;
    let stop = end;
    let kind = -1;
    let markEnd = end;
    if (pos < skipStart && skipStart < end) {
      stop = skipStart;
      kind = COMMENT;
      markEnd = skipEnd;
    }
    if (m < marks.start.length && marks.start[m]! < stop) {
      stop = Math.max(pos, marks.start[m]!);
      kind = marks.kind[m]!;
      markEnd = marks.end[m]!;
      m++;
    }
    for (; pos < stop; pos++) {
      const c = source.charCodeAt(pos);
      if (c === NL) {
        gap = true;
        if (newlines && depth === 0) sep = true;
        if (indent && depth === 0) {
          lineStart = pos + 1;
          atLineStart = true;
        }
      } else if (isSpace(c)) {
        gap = true;
      } else if (c === BACKSLASH && newlines && nextIsNewline(source, pos + 1)) {
        // An explicit line continuation.
        gap = true;
        pos = source.charCodeAt(pos + 1) === CR ? pos + 2 : pos + 1;
      } else if (c === SEMI) {
        gap = true;
        if (newlines) sep = true;
      } else if (c === COMMA) {
        if (pendingComma) emit(COMMA);
        pendingComma = true;
        if (tupleComma && commas.length > 0) commas[commas.length - 1]!++;
      } else if (isClose(c)) {
        if (pendingComma) {
          // A trailing comma: kept only where it makes `(a,)` a tuple.
          const n = c === 41 && tupleComma ? commas[commas.length - 1] ?? 0 : 0;
          pendingComma = n === 1;
        }
        if (tupleComma) commas.pop();
        if (bracketCounts(c, newlines, indent) && depth > 0) depth--;
        sep = false;
        emit(c);
      } else {
        if (isOpen(c)) {
          if (tupleComma) commas.push(0);
          if (bracketCounts(c, newlines, indent)) depth++;
        }
        emit(c);
      }
    }
    if (kind === -1) break;
    if (kind === LITERAL) emit(LITERAL_MARK);
    const litEnd = Math.min(markEnd, end);
    if (kind === LITERAL) {
      for (let i = stop; i < litEnd; i++) h.add(source.charCodeAt(i));
      h.add(LITERAL_MARK);
    } else {
      gap = true;
      // A comment's line break (a line comment may end on it) still ends the line.
      if (source.charCodeAt(litEnd - 1) === NL) {
        if (newlines && depth === 0) sep = true;
        if (indent && depth === 0) {
          lineStart = litEnd;
          atLineStart = true;
        }
      }
    }
    pos = Math.max(pos, litEnd);
  }
  return h.hex();
}

/** Brackets that suspend statement ends: all three, except `{` where a block holds statements. */
function bracketCounts(c: number, newlines: boolean, indent: boolean): boolean {
  return !newlines || indent || (c !== 123 && c !== 125);
}

function nextIsNewline(source: string, i: number): boolean {
  const c = source.charCodeAt(i);
  return c === NL || (c === CR && source.charCodeAt(i + 1) === NL);
}

function leadingSpace(source: string, from: number): number {
  let i = from;
  while (i < source.length && isSpace(source.charCodeAt(i))) i++;
  return i - from;
}

/** Visual column of `to` on the line starting at `from` (a tab advances to the next multiple of 8). */
function column(source: string, from: number, to: number): number {
  let col = 0;
  for (let i = from; i < to; i++) {
    col = source.charCodeAt(i) === TAB ? (col + 8) & ~7 : col + 1;
  }
  return col;
}
