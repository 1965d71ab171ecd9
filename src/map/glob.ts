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

/** A compiled glob. */
export interface Glob {
  /** The glob as written. */
  source: string;
  /** Matches a path or folder exactly (the covering of folders is done by {@link globCovers}). */
  re: RegExp;
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

/** Compiles `source`; throws {@link GlobError} for an absolute path, `..`, or an unclosed `[`/`{`. */
export function compileGlob(source: string): Glob {
  const g = source.trim().replace(/^\.\//, "").replace(/\/+$/, "");
  if (g === "") throw new GlobError(source, "empty; use ** for the whole repository");
  if (g.startsWith("/")) {
    throw new GlobError(source, "absolute; write it relative to the repository root");
  }
  // `**/**` says no more than `**`.
  const segments = g.split("/").filter((seg, i, all) => !(seg === "**" && all[i - 1] === "**"));
  if (segments.includes("..")) throw new GlobError(source, '".." leaves the repository');
  let re = "";
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1;
    if (seg === "**") {
      // `a/**/b` matches a/b, and `a/**` matches a: the segment and its slash are optional.
      if (!last) re += "(?:.*/)?";
      else if (re.endsWith("/")) re = re.slice(0, -1) + "(?:/.*)?";
      else re += ".*";
      return;
    }
    re += segment(seg, source) + (last ? "" : "/");
  });
  let literalChars = 0;
  for (const seg of segments) {
    if (seg !== "**") literalChars += seg.replace(/\[[^\]]*\]|\{[^}]*\}|[*?]/g, "").length;
  }
  let compiled: RegExp;
  try {
    compiled = new RegExp(`^${re}$`, "u");
  } catch (e) {
    // What the checks above let through, e.g. a class range written backwards (`[z-a]`).
    const why = (e as Error).message.replace(/^.*: /, "").toLowerCase();
    throw new GlobError(source, `${why}; write a class as [abc] or [a-z], low to high`);
  }
  return {
    source: g,
    re: compiled,
    literalSegments: segments.filter((s) => !WILD.test(s)).length,
    literalChars,
    doubleStars: segments.filter((s) => s === "**").length,
  };
}

function segment(seg: string, source: string): string {
  let out = "";
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c === "*") {
      out += "[^/]*";
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "[") {
      const end = seg.indexOf("]", i + 2);
      if (end < 0) throw new GlobError(source, 'unclosed "["');
      let body = seg.slice(i + 1, end);
      const negate = body.startsWith("!") || body.startsWith("^");
      if (negate) body = body.slice(1);
      out += `[${negate ? "^/" : ""}${body.replace(/[\\\]]/g, "\\$&")}]`;
      i = end;
    } else if (c === "{") {
      const end = seg.indexOf("}", i);
      if (end < 0) throw new GlobError(source, 'unclosed "{"');
      const alts = seg.slice(i + 1, end).split(",").map((a) => segment(a, source));
      out += `(?:${alts.join("|")})`;
      i = end;
    } else {
      // Every other character is itself, `]` and `}` included (a file may be named `a}b`).
      out += c.replace(/[.+^$()|\\\]}]/g, "\\$&");
    }
  }
  return out;
}

/** True when `glob` matches `rel` or one of the folders holding it. */
export function globCovers(glob: Glob, rel: string): boolean {
  if (glob.re.test(rel)) return true;
  for (let i = rel.lastIndexOf("/"); i > 0; i = rel.lastIndexOf("/", i - 1)) {
    if (glob.re.test(rel.slice(0, i))) return true;
  }
  return false;
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
