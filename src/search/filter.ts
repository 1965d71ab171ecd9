/**
 * A request's filters resolved against the journal's roots: `--repo` and
 * `--path` become absolute path prefixes.
 */
import { clipped, UsageError } from "../errors/mod.ts";
import { basename, exists, join } from "../files/mod.ts";
import type { Journal } from "../store/mod.ts";
import type { ChunkFilter } from "./lexical.ts";
import type { SearchRequest } from "./types.ts";
import { removedRoots } from "./removed_roots.ts";

/** A filter names nothing that exists (an unknown repo or language). */
export class SearchFilterError extends UsageError {
  /** A filter refused; `message` names the value and what exists. */
  constructor(message: string) {
    super(message);
    this.name = "SearchFilterError";
  }
}

/**
 * The request's filters as a {@link ChunkFilter}: `repo` → the roots (or
 * folders directly under a root) of that name, the indexed folders at that
 * relative path under the roots, or the indexed folder at that absolute
 * path; a relative `pathPrefix` → that folder under every
 * root; `lang` in any case. A root `req.home`'s config.json no longer lists
 * is not one of the roots. Throws {@link SearchFilterError} for a repo or a
 * language the index does not hold, naming the ones it does, and for a path
 * that is neither on disk nor in the index.
 */
export function resolveFilter(j: Journal, req: SearchRequest): ChunkFilter {
  const filter: ChunkFilter = {};
  if (req.kind !== undefined) filter.source = req.kind;
  if (req.lang !== undefined) {
    // Language ids are lower-case; an agent writes "TypeScript" as often as a person does.
    const lang = req.lang.toLowerCase();
    if (!j.get("SELECT 1 FROM paths WHERE language = ? LIMIT 1", lang)) {
      const langs = j.all<{ language: string }>(
        "SELECT DISTINCT language FROM paths WHERE language IS NOT NULL ORDER BY language",
      ).map((r) => r.language);
      throw new SearchFilterError(
        `No language "${clipped(req.lang)}" in the index; languages indexed: ${
          langs.length === 0 ? "none (run `heimdall index DIR`)" : langs.join(", ")
        }`,
      );
    }
    filter.language = lang;
  }
  // A root removed from config.json is none (search leaves its files out):
  // --repo naming it answered "no match", and the error listed it as a root.
  const removed = removedRoots(j, req.home);
  const all = j.all<{ id: number; path: string }>("SELECT id, path FROM roots ORDER BY path");
  const roots = all.filter((r) => !removed.has(r.id)).map((r) => r.path);
  const gone = all.filter((r) => removed.has(r.id)).map((r) => r.path);
  const prefixes: string[][] = [];
  if (req.pathPrefix !== undefined && req.pathPrefix !== "") {
    const p = req.pathPrefix.replace(/\/+$/, "") || "/";
    const places = p.startsWith("/") ? [p] : roots.map((r) => join(r, p));
    // A typo must not read as "nothing matched": the place is indexed, or on disk
    // where something can be (a root's folder or file, a folder holding a root,
    // a place a note or memory points at).
    const under = (sql: string, at: string) => j.get(sql, at, at + "/", at + "0") !== undefined;
    const indexed = "SELECT 1 FROM paths WHERE path = ? OR (path >= ? AND path < ?) LIMIT 1";
    const anchored =
      "SELECT 1 FROM chunks WHERE anchor = ? OR (anchor >= ? AND anchor < ?) LIMIT 1";
    const noted = "SELECT 1 FROM note_paths WHERE path = ? OR (path >= ? AND path < ?) LIMIT 1";
    const nearRoot = (at: string) =>
      roots.some((r) =>
        at === r || at.startsWith(r + "/") || r.startsWith(at === "/" ? "/" : at + "/")
      );
    const onDisk = places.filter((at) => exists(at));
    const somewhere = places.some((at) => under(indexed, at)) ||
      onDisk.some((at) => nearRoot(at) || under(anchored, at) || under(noted, at));
    if (!somewhere) {
      const rootList = roots.length === 0 ? "none (run `heimdall index DIR`)" : roots.join(", ");
      throw new SearchFilterError(
        onDisk.length > 0
          ? `"${
            clipped(req.pathPrefix)
          }" is not under any root, and no note or memory points there; index it first (\`heimdall index ${
            onDisk[0]
          }\`) or give a path under a root; roots: ${rootList}`
          : `No file or folder "${
            clipped(req.pathPrefix)
          }" on disk or in the index; a path is a folder or file, absolute or relative to a root; roots: ${rootList}`,
      );
    }
    prefixes.push(places);
  }
  if (req.repo !== undefined && req.repo !== "") {
    const name = req.repo.replace(/\/+$/, "");
    const list = roots.filter((r) => r === name || basename(r) === name);
    const indexedUnder = (dir: string) =>
      j.get("SELECT 1 FROM paths WHERE path >= ? AND path < ? LIMIT 1", dir + "/", dir + "0") !==
        undefined;
    // A folder by name directly under a root (`app`), or by its path under one (`app/lib`).
    if (list.length === 0 && !name.startsWith("/")) {
      for (const r of roots) {
        const dir = `${r}/${name}`;
        if (indexedUnder(dir)) list.push(dir);
      }
    }
    // A folder by its absolute path, inside a root (a package of a monorepo, the folder you are in).
    if (list.length === 0 && name.startsWith("/") && indexedUnder(name)) list.push(name);
    const unrooted = gone.find((r) => r === name || basename(r) === name);
    if (list.length === 0) {
      throw new SearchFilterError(
        `No repository "${clipped(req.repo)}": ${
          unrooted !== undefined
            ? `"${unrooted}" was removed from the roots (\`heimdall roots add ${unrooted}\` adds it back)`
            : "it is neither a root nor an indexed folder inside one"
        }; roots: ${roots.length === 0 ? "none (run `heimdall index DIR`)" : roots.join(", ")}`,
      );
    }
    prefixes.push(list);
  }
  if (prefixes.length > 0) filter.prefixes = prefixes;
  return filter;
}
