/**
 * Path arithmetic: `join`, `resolve`, `relative`, `dirname`, `basename`,
 * `isAbsolute`, `sep`, and `posix` (for module specifiers, which are POSIX
 * on every system). On POSIX systems these are a port of Node's
 * `path.posix` (MIT, the Node.js contributors) and give its results; on
 * Windows they are `node:path`'s own.
 *
 * Why not `node:path` everywhere: in Deno, importing it loads Node's
 * assertion, error, buffer and inspection modules first, about 20 ms of
 * every command's start (`docs/performance.md`, Search), while the
 * arithmetic itself is a hundred lines.
 */

/** The POSIX half of Node's `path` this code uses. */
export interface PosixPath {
  /** Joins the non-empty parts with `/` and normalises the result (`.` for nothing). */
  join(...parts: string[]): string;
  /** Resolves `..` and `.` segments and repeated slashes, keeping a trailing slash. */
  normalize(path: string): string;
  /** The path without its last segment (`.` when there is none, `/` for the root). */
  dirname(path: string): string;
}

const SLASH = 47; // "/"
const DOT = 46; // "."

/** Resolves `.` and `..` in a path without its leading slash (Node's `normalizeString`). */
function normalizeString(path: string, allowAboveRoot: boolean): string {
  let res = "";
  let lastSegmentLength = 0;
  let lastSlash = -1;
  let dots = 0;
  let code = 0;
  for (let i = 0; i <= path.length; ++i) {
    if (i < path.length) code = path.charCodeAt(i);
    else if (code === SLASH) break;
    else code = SLASH;
    if (code === SLASH) {
      if (lastSlash === i - 1 || dots === 1) {
        // A repeated slash or a `.` segment: nothing to add.
      } else if (dots === 2) {
        if (
          res.length < 2 || lastSegmentLength !== 2 ||
          res.charCodeAt(res.length - 1) !== DOT || res.charCodeAt(res.length - 2) !== DOT
        ) {
          if (res.length > 2) {
            const lastSlashIndex = res.lastIndexOf("/");
            if (lastSlashIndex === -1) {
              res = "";
              lastSegmentLength = 0;
            } else {
              res = res.slice(0, lastSlashIndex);
              lastSegmentLength = res.length - 1 - res.lastIndexOf("/");
            }
            lastSlash = i;
            dots = 0;
            continue;
          } else if (res.length !== 0) {
            res = "";
            lastSegmentLength = 0;
            lastSlash = i;
            dots = 0;
            continue;
          }
        }
        if (allowAboveRoot) {
          res += res.length > 0 ? "/.." : "..";
          lastSegmentLength = 2;
        }
      } else {
        if (res.length > 0) res += "/" + path.slice(lastSlash + 1, i);
        else res = path.slice(lastSlash + 1, i);
        lastSegmentLength = i - lastSlash - 1;
      }
      lastSlash = i;
      dots = 0;
    } else if (code === DOT && dots !== -1) {
      ++dots;
    } else {
      dots = -1;
    }
  }
  return res;
}

function posixNormalize(path: string): string {
  if (path.length === 0) return ".";
  const absolute = path.charCodeAt(0) === SLASH;
  const trailing = path.charCodeAt(path.length - 1) === SLASH;
  let out = normalizeString(path, !absolute);
  if (out.length === 0) {
    if (absolute) return "/";
    return trailing ? "./" : ".";
  }
  if (trailing) out += "/";
  return absolute ? `/${out}` : out;
}

function posixJoin(...parts: string[]): string {
  let joined: string | undefined;
  for (const part of parts) {
    if (part.length === 0) continue;
    joined = joined === undefined ? part : `${joined}/${part}`;
  }
  return joined === undefined ? "." : posixNormalize(joined);
}

function posixResolve(...parts: string[]): string {
  let resolved = "";
  let absolute = false;
  for (let i = parts.length - 1; i >= -1 && !absolute; i--) {
    const path = i >= 0 ? parts[i]! : Deno.cwd();
    if (path.length === 0) continue;
    resolved = `${path}/${resolved}`;
    absolute = path.charCodeAt(0) === SLASH;
  }
  const out = normalizeString(resolved, !absolute);
  if (absolute) return `/${out}`;
  return out.length > 0 ? out : ".";
}

function posixIsAbsolute(path: string): boolean {
  return path.length > 0 && path.charCodeAt(0) === SLASH;
}

function posixRelative(from: string, to: string): string {
  if (from === to) return "";
  from = posixResolve(from);
  to = posixResolve(to);
  if (from === to) return "";
  const fromStart = 1;
  const fromLen = from.length - fromStart;
  const toStart = 1;
  const length = Math.min(fromLen, to.length - toStart);
  let lastCommonSep = -1;
  let i = 0;
  for (; i < length; i++) {
    const code = from.charCodeAt(fromStart + i);
    if (code !== to.charCodeAt(toStart + i)) break;
    if (code === SLASH) lastCommonSep = i;
  }
  if (i === length) {
    if (to.length - toStart > length) {
      // `from` is the root or a folder that holds `to`.
      if (to.charCodeAt(toStart + i) === SLASH) return to.slice(toStart + i + 1);
      if (i === 0) return to.slice(toStart + i);
    } else if (fromLen > length) {
      // `to` is the root or a folder that holds `from`.
      if (from.charCodeAt(fromStart + i) === SLASH) lastCommonSep = i;
      else if (i === 0) lastCommonSep = 0;
    }
  }
  let out = "";
  for (i = fromStart + lastCommonSep + 1; i <= from.length; ++i) {
    if (i === from.length || from.charCodeAt(i) === SLASH) out += out.length === 0 ? ".." : "/..";
  }
  return `${out}${to.slice(toStart + lastCommonSep)}`;
}

function posixDirname(path: string): string {
  if (path.length === 0) return ".";
  const hasRoot = path.charCodeAt(0) === SLASH;
  let end = -1;
  let matchedSlash = true;
  for (let i = path.length - 1; i >= 1; --i) {
    if (path.charCodeAt(i) === SLASH) {
      if (!matchedSlash) {
        end = i;
        break;
      }
    } else {
      matchedSlash = false;
    }
  }
  if (end === -1) return hasRoot ? "/" : ".";
  if (hasRoot && end === 1) return "//";
  return path.slice(0, end);
}

function posixBasename(path: string, suffix?: string): string {
  let start = 0;
  let end = -1;
  let matchedSlash = true;
  if (suffix !== undefined && suffix.length > 0 && suffix.length <= path.length) {
    if (suffix === path) return "";
    let extIdx = suffix.length - 1;
    let firstNonSlashEnd = -1;
    for (let i = path.length - 1; i >= 0; --i) {
      const code = path.charCodeAt(i);
      if (code === SLASH) {
        if (!matchedSlash) {
          start = i + 1;
          break;
        }
      } else {
        if (firstNonSlashEnd === -1) {
          matchedSlash = false;
          firstNonSlashEnd = i + 1;
        }
        if (extIdx >= 0) {
          if (code === suffix.charCodeAt(extIdx)) {
            if (--extIdx === -1) end = i;
          } else {
            extIdx = -1;
            end = firstNonSlashEnd;
          }
        }
      }
    }
    if (start === end) end = firstNonSlashEnd;
    else if (end === -1) end = path.length;
    return path.slice(start, end);
  }
  for (let i = path.length - 1; i >= 0; --i) {
    if (path.charCodeAt(i) === SLASH) {
      if (!matchedSlash) {
        start = i + 1;
        break;
      }
    } else if (end === -1) {
      matchedSlash = false;
      end = i + 1;
    }
  }
  return end === -1 ? "" : path.slice(start, end);
}

/** The functions this module exports, as one value: Node's on Windows, the port elsewhere. */
interface PathApi {
  join(...parts: string[]): string;
  resolve(...parts: string[]): string;
  relative(from: string, to: string): string;
  dirname(path: string): string;
  basename(path: string, suffix?: string): string;
  isAbsolute(path: string): boolean;
  sep: string;
  posix: PosixPath;
}

const PORT: PathApi = {
  join: posixJoin,
  resolve: posixResolve,
  relative: posixRelative,
  dirname: posixDirname,
  basename: posixBasename,
  isAbsolute: posixIsAbsolute,
  sep: "/",
  posix: { join: posixJoin, normalize: posixNormalize, dirname: posixDirname },
};

const api: PathApi = Deno.build.os === "windows"
  ? process.getBuiltinModule("node:path") as PathApi
  : PORT;

/**
 * Joins the non-empty parts with the system's separator and normalises the
 * result; `.` when every part is empty.
 *
 * @example
 * ```ts
 * import { join } from "./path.ts";
 * import assert from "node:assert/strict";
 * assert.equal(join("/a/b", "../c", "d.ts"), "/a/c/d.ts");
 * ```
 */
export const join: (...parts: string[]) => string = api.join;
/** The absolute path the parts name, read right to left from the working directory. */
export const resolve: (...parts: string[]) => string = api.resolve;
/** The path from `from` to `to` (both resolved first); `""` when they are the same. */
export const relative: (from: string, to: string) => string = api.relative;
/** The path without its last segment: `.` when there is none, the root for the root. */
export const dirname: (path: string) => string = api.dirname;
/** The last segment of a path, less `suffix` when it ends with it. */
export const basename: (path: string, suffix?: string) => string = api.basename;
/** True when the path starts at a root. */
export const isAbsolute: (path: string) => boolean = api.isAbsolute;
/** The system's path separator. */
export const sep: string = api.sep;
/** POSIX path arithmetic on every system (module specifiers, URLs' paths). */
export const posix: PosixPath = api.posix;
