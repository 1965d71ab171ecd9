/**
 * The names leg: the definitions or files a query that is a name asks for.
 * A user or agent who types `Screen`, `is_empty`, `parseHTTPRequest` or
 * `Store.open` wants that definition, and one who types `hook.c` or
 * `Collections/ProtectedBinaryDictionary.cs` wants that file, whatever BM25
 * makes of their words: a one-word name is shared by every chunk that
 * merely mentions it, so the lexical leg ranks a tutorial's "Advanced
 * features" and `MaybeScreen` above the definition, and a file's name is
 * words its neighbours' paths hold too. This leg ranks the definitions and
 * files themselves, fused with the others (`fuse.ts`). A question written
 * as a sentence is never a name here: an identifier in it is usually a type
 * the answer uses, and on the benchmark's sentences looking those up cost
 * function-level MRR.
 */
import type { Journal } from "../store/mod.ts";
import { LOCATION_SUFFIX } from "./frames.ts";

/** A name to look up, and what the user typed for it (a qualifier included). */
export interface TypedName {
  name: string;
  typed: string;
}

/** One identifier, optionally qualified (`Store.open`, `std::vector`), nothing else. */
const ONE_NAME = /^[\p{L}_$][\p{L}\p{N}_$]*(?:(?:\.|::)[\p{L}_$][\p{L}\p{N}_$]*)*$/u;

/**
 * The names a query that is one identifier asks for (pure): a plain name
 * as typed, in lower case and capitalised (`screen` asks for `Screen`
 * too); a qualified one by its last part, with the qualifier it must end
 * its qualified name with (`a::b` written `a.b`). Empty for any other
 * query.
 *
 * @example
 * ```ts
 * import { typedNames } from "./names_leg.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(typedNames("Store::open"), [{ name: "open", typed: "Store.open" }]);
 * assert.deepEqual(typedNames(" screen ").map((n) => n.name), ["screen", "Screen"]);
 * assert.deepEqual(typedNames("parse the header"), []);
 * ```
 */
export function typedNames(query: string): TypedName[] {
  const text = query.trim();
  if (text.length < 2 || !ONE_NAME.test(text)) return [];
  const typed = text.replaceAll("::", ".");
  const name = typed.slice(typed.lastIndexOf(".") + 1);
  if (name !== typed) return [{ name, typed }];
  const forms = [name, name.toLowerCase(), name.charAt(0).toUpperCase() + name.slice(1)];
  return [...new Set(forms)].map((n) => ({ name: n, typed: n }));
}

/** Definitions read per query at most (a common name, `__init__`, has thousands). */
const MAX_DEFINITIONS = 500;

/**
 * The chunks of the code definitions (never a file, heading or section)
 * that `names` asks for, at most `limit`: first those the lexical leg
 * ranked, in its order (`lexicalRank`), then the others in the index's
 * order. A qualified name (`Store.open`) keeps the definitions whose
 * qualified name is it or ends in it.
 */
export function namesRanking(
  j: Journal,
  names: readonly TypedName[],
  lexicalRank: ReadonlyMap<number, number>,
  limit: number,
): number[] {
  if (names.length === 0 || limit <= 0) return [];
  const rows = j.all<{ id: number; name: string; qualname: string }>(
    `SELECT c.id, n.name, n.qualname FROM nodes n
       JOIN chunks c ON c.path_id = n.path_id AND c.node_id = n.id
      WHERE n.name IN (SELECT value FROM json_each(?)) AND n.kind NOT IN ('file', 'heading')
      LIMIT ${MAX_DEFINITIONS}`,
    JSON.stringify([...new Set(names.map((n) => n.name))]),
  );
  const wanted = rows.filter((r) =>
    names.some((n) =>
      n.name === r.name &&
      (n.typed === n.name || r.qualname === n.typed || r.qualname.endsWith(`.${n.typed}`))
    )
  );
  const rankOf = (id: number) => lexicalRank.get(id) ?? Infinity;
  wanted.sort((a, b) => rankOf(a.id) - rankOf(b.id) || a.id - b.id);
  return [...new Set(wanted.map((r) => r.id))].slice(0, limit);
}

/** A file's name or the end of its path: one token holding a `/` or ending in an extension. */
const ONE_PATH = /^(?:[^\s/]+\/)*[^\s/]*[^\s/.][^\s/]*$/u;

/**
 * The file a query that is one file name or path end asks for (pure):
 * `hook.c`, `src/pool.ts`, `./lib/index.js` (as `lib/index.js`), `pool.ts:42`
 * (as `pool.ts`, its line read by `stackFrames`); undefined
 * for any other query, a name without an extension or a slash included.
 *
 * @example
 * ```ts
 * import { typedPath } from "./names_leg.ts";
 * import assert from "node:assert/strict";
 * assert.equal(typedPath(" ./src/pool.ts "), "src/pool.ts");
 * assert.equal(typedPath("Color.js"), "Color.js");
 * assert.equal(typedPath("src/pool.ts:42:7"), "src/pool.ts");
 * assert.equal(typedPath("Screen"), undefined);
 * assert.equal(typedPath("parse the header.c"), undefined);
 * ```
 */
export function typedPath(query: string): string | undefined {
  const text = query.trim().replace(/^(?:\.\/)+/, "").replace(LOCATION_SUFFIX, "");
  if (text.length < 3 || !ONE_PATH.test(text)) return undefined;
  if (!text.includes("/") && !/\.[\p{L}\p{N}_]{1,10}$/u.test(text)) return undefined;
  return text;
}

/** Files read per query at most (`index.ts` names hundreds). */
const MAX_FILES = 200;

/**
 * The own chunks of the files whose path relative to their root is `end`
 * or ends in `/` and it, at most `limit`: those the lexical leg ranked first
 * (`lexicalRank`), then the least nested (`lib/index.js` before
 * `test/fixtures/lib/index.js`). Scans the paths' table: one query of one
 * name costs that scan, a few milliseconds on 31,000 files.
 */
export function pathsRanking(
  j: Journal,
  end: string,
  lexicalRank: ReadonlyMap<number, number>,
  limit: number,
): number[] {
  if (limit <= 0) return [];
  const rows = j.all<{ id: number; rel: string }>(
    `SELECT c.id, h.rel FROM (SELECT id, rel FROM paths
        WHERE rel = ?1 OR substr(rel, -1 - length(?1)) = '/' || ?1 LIMIT ${MAX_FILES}) h
      CROSS JOIN chunks c ON c.path_id = h.id AND c.title = h.rel`,
    end,
  );
  const rankOf = (id: number) => lexicalRank.get(id) ?? Infinity;
  const depth = (rel: string) => rel.split("/").length;
  rows.sort((a, b) =>
    rankOf(a.id) - rankOf(b.id) || depth(a.rel) - depth(b.rel) || a.rel.length - b.rel.length ||
    a.id - b.id
  );
  return [...new Set(rows.map((r) => r.id))].slice(0, limit);
}
