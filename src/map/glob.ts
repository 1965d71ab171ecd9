/**
 * Path globs of the architectural map, and how specific each one is. Pure.
 *
 * Globs are `/`-separated and relative to the repository root: `*` is any run
 * of characters within one segment, `?` one character, `[abc]`/`[a-z]`/`[!a]`
 * a class, `{a,b}` either, and `**` as a whole segment any number of
 * segments (none included). A glob also covers everything inside a folder it
 * matches, so `src/store` and `src/store/**` both cover `src/store/x.ts`.
 */

import { UsageError } from "../errors/mod.ts";
import { wildcardMatch } from "../files/mod.ts";

/** One character test within a segment: a literal, `?`, `*`, or a class. */
export type Token =
  | { kind: "char"; char: string }
  | { kind: "any" }
  | { kind: "star" }
  | { kind: "class"; negate: boolean; ranges: [string, string][] };

/**
 * A segment of a glob: `**`, or the token lists it may be (one per `{a,b}`
 * choice), with the segment's text when it has no wildcard (compared as is).
 */
export type Segment = "**" | { literal: string | null; choices: Token[][] };

/** A compiled glob. */
export interface Glob {
  /** The glob as written. */
  source: string;
  /** Its segments, compiled (matched by {@link globCovers}, in time linear in their number). */
  segments: readonly Segment[];
  /** Specificity, larger first: segments without a wildcard, literal characters, then fewer `**`. */
  literalSegments: number;
  /** Literal characters (the second specificity key). */
  literalChars: number;
  /** `**` segments (fewer is more specific). */
  doubleStars: number;
}

/** Why a glob cannot be compiled; the message names it. */
export class GlobError extends UsageError {
  constructor(readonly glob: string, reason: string) {
    super(`Bad glob "${glob}": ${reason}`);
    this.name = "GlobError";
  }
}

const WILD = /[*?[{]/;
/** The most spellings `{a,b}` choices may give one segment. */
const MAX_CHOICES = 1024;

/**
 * Compiles `source`; throws {@link GlobError} for an absolute path, `..`, a
 * leading `!` (read as "everything but", which a map does not do), an
 * unclosed `[`/`{`, a class range written backwards, or more than 1,024
 * spellings of one segment.
 */
export function compileGlob(source: string): Glob {
  const g = source.trim().replace(/^\.\//, "").replace(/\/+$/, "");
  if (g === "") throw new GlobError(source, "empty; use ** for the whole repository");
  if (g.startsWith("/")) {
    throw new GlobError(source, "absolute; write it relative to the repository root");
  }
  if (g.startsWith("!")) {
    // As in .gitignore one would expect "everything but"; here it would be a literal "!".
    throw new GlobError(
      source,
      "a leading ! does not exclude in the map; give the excluded files a component of their " +
        "own (the more specific glob wins)",
    );
  }
  // `**/**` says no more than `**`.
  const segments = g.split("/").filter((seg, i, all) => !(seg === "**" && all[i - 1] === "**"));
  if (segments.includes("..")) throw new GlobError(source, '".." leaves the repository');
  let literalChars = 0;
  for (const seg of segments) {
    if (seg !== "**") literalChars += seg.replace(/\[[^\]]*\]|\{[^}]*\}|[*?]/g, "").length;
  }
  return {
    source: g,
    segments: segments.map((seg) =>
      seg === "**" ? "**" : { literal: WILD.test(seg) ? null : seg, choices: choices(seg, source) }
    ),
    literalSegments: segments.filter((s) => !WILD.test(s)).length,
    literalChars,
    doubleStars: segments.filter((s) => s === "**").length,
  };
}

/** The token lists `seg` may be: one, or one per combination of its `{a,b}` choices. */
function choices(seg: string, source: string): Token[][] {
  let out: Token[][] = [[]];
  const add = (alts: Token[][]) => {
    if (out.length * alts.length > MAX_CHOICES) {
      throw new GlobError(
        source,
        `more than ${MAX_CHOICES} spellings of "${seg}"; use fewer {a,b}`,
      );
    }
    out = out.flatMap((head) => alts.map((tail) => [...head, ...tail]));
  };
  const chars = Array.from(seg);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === "*") {
      add([[{ kind: "star" }]]);
    } else if (c === "?") {
      add([[{ kind: "any" }]]);
    } else if (c === "[") {
      // A `]` right after `[` (or `[!`) is a member, as in a shell.
      const first = chars[i + 1] === "!" || chars[i + 1] === "^" ? i + 2 : i + 1;
      const end = chars.indexOf("]", first + 1);
      if (end < 0) throw new GlobError(source, 'unclosed "["');
      add([[charClass(chars.slice(i + 1, end), source)]]);
      i = end;
    } else if (c === "{") {
      const end = chars.indexOf("}", i);
      if (end < 0) throw new GlobError(source, 'unclosed "{"');
      add(chars.slice(i + 1, end).join("").split(",").flatMap((a) => choices(a, source)));
      i = end;
    } else {
      add([[{ kind: "char", char: c }]]);
    }
  }
  return out;
}

function charClass(body: string[], source: string): Token {
  const negate = body[0] === "!" || body[0] === "^";
  if (negate) body = body.slice(1);
  const ranges: [string, string][] = [];
  for (let i = 0; i < body.length; i++) {
    const lo = body[i]!;
    if (body[i + 1] === "-" && i + 2 < body.length) {
      const hi = body[i + 2]!;
      if (lo.codePointAt(0)! > hi.codePointAt(0)!) {
        throw new GlobError(
          source,
          `range "${lo}-${hi}" is backwards; write a class as [abc] or [a-z], low to high`,
        );
      }
      ranges.push([lo, hi]);
      i += 2;
    } else ranges.push([lo, lo]);
  }
  return { kind: "class", negate, ranges };
}

const isStar = (t: Token): boolean => t.kind === "star";

function tokenMatches(t: Token, c: string): boolean {
  switch (t.kind) {
    case "char":
      return t.char === c;
    case "any":
      return true;
    case "class": {
      const cp = c.codePointAt(0)!;
      const inside = t.ranges.some(([lo, hi]) =>
        cp >= lo.codePointAt(0)! && cp <= hi.codePointAt(0)!
      );
      return inside !== t.negate;
    }
    default:
      return false;
  }
}

/** Whether `seg` (not `**`) matches the path segment `part`. */
function partMatches(seg: Exclude<Segment, "**">, part: string): boolean {
  if (seg.literal !== null) return seg.literal === part;
  // By code point, so `?` is one character even outside the BMP.
  const chars = /[\uD800-\uDFFF]/.test(part) ? Array.from(part) : part;
  return seg.choices.some((tokens) => wildcardMatch(tokens, chars, isStar, tokenMatches));
}

/**
 * True when `glob` matches `rel` or one of the folders holding it. Time: at
 * most the glob's segments × the path's segments × a segment's match.
 */
export function globCovers(glob: Glob, rel: string): boolean {
  const parts = rel.split("/");
  const segs = glob.segments;
  if (glob.doubleStars === 0) {
    // Segment for segment; a path longer than the glob is inside what it matched.
    if (segs.length > parts.length) return false;
    return segs.every((seg, i) => seg !== "**" && partMatches(seg, parts[i]!));
  }
  if (segs.length < 31) {
    // The glob's segments as states, a bit each, stepped part by part (no allocation).
    const all = segs.length;
    const close = (states: number): number => {
      for (let g = 0; g < all; g++) {
        if (states & (1 << g) && segs[g] === "**") states |= 1 << (g + 1);
      }
      return states;
    };
    let states = close(1);
    for (let p = 0; p < parts.length; p++) {
      let next = 0;
      for (let g = 0; g < all; g++) {
        if (!(states & (1 << g))) continue;
        const seg = segs[g]!;
        if (seg === "**") next |= 1 << g;
        else if (partMatches(seg, parts[p]!)) next |= 1 << (g + 1);
      }
      states = close(next);
      // Every glob segment used: what matched is `rel` or a folder holding it.
      if (states & (1 << all)) return true;
      if (states === 0) return false;
    }
    return false;
  }
  // seen[g * (parts.length + 1) + p]: glob segments from g cannot cover parts from p.
  const seen = new Uint8Array((segs.length + 1) * (parts.length + 1));
  const from = (g: number, p: number): boolean => {
    // Every glob segment used: what matched is `rel` or a folder holding it.
    if (g === segs.length) return p > 0;
    const key = g * (parts.length + 1) + p;
    if (seen[key]) return false;
    seen[key] = 1;
    const seg = segs[g]!;
    if (seg === "**") {
      return from(g + 1, p) || (p < parts.length && from(g, p + 1));
    }
    return p < parts.length && partMatches(seg, parts[p]!) && from(g + 1, p + 1);
  };
  return from(0, 0);
}

/**
 * Orders two globs by specificity, more specific first: more segments
 * without a wildcard, then more literal characters, then fewer `**`.
 * Returns 0 for a tie (the caller breaks it by declaration order).
 */
export function compareSpecificity(a: Glob, b: Glob): number {
  return b.literalSegments - a.literalSegments || b.literalChars - a.literalChars ||
    a.doubleStars - b.doubleStars;
}
