/**
 * What tells a C or C++ function's prototype (`int f(int);`, a declaration
 * without a body) from its definition, in the rows extraction writes: the
 * signature, which stops before a definition's body, ends with the
 * semicolon. A K&R definition's signature ends with one too, its
 * parameters' declarations coming after the list (`int deflate(strm, flush)
 * z_streamp strm; int flush;`), so it is told apart by what follows the
 * list's last `)`: a type and a name before the semicolon, in a C file, over
 * more than one line. A prototype's tail is the semicolon alone, or one word
 * before it (`__THROW;`); C++'s qualifiers (`const override;`) are no C.
 * The resolver and the symbol lookup share it.
 */

/**
 * SQL: node row `n` (with `id`, `path_id`, `kind`, `signature`,
 * `start_line` and `end_line`) is a C or C++ function's prototype.
 *
 * @example
 * ```ts
 * import { prototypeSql } from "./prototype.ts";
 * import { DatabaseSync } from "node:sqlite";
 * import assert from "node:assert/strict";
 * const db = new DatabaseSync(":memory:");
 * db.exec(`CREATE TABLE paths (id INTEGER PRIMARY KEY, language TEXT);
 *   CREATE TABLE nodes (id TEXT, path_id INTEGER, kind TEXT, signature TEXT, start_line INTEGER, end_line INTEGER);
 *   INSERT INTO paths VALUES (1, 'c');
 *   INSERT INTO nodes VALUES ('proto', 1, 'function', 'local void fill_window OF((deflate_state *s));', 78, 78),
 *     ('kr', 1, 'function', 'local void fill_window(s) deflate_state *s;', 1527, 1600),
 *     ('def', 1, 'function', 'void f(int a)', 3, 9);`);
 * const protos = db.prepare(`SELECT n.id FROM nodes n WHERE ${prototypeSql("n")}`).all();
 * assert.deepEqual(protos.map((r) => r.id), ["proto"]);
 * ```
 */
export function prototypeSql(n: string): string {
  const sig = `rtrim(coalesce(${n}.signature, ''))`;
  // What follows the last `)`: rtrim() by every other character of the signature stops there.
  const tail = `substr(${sig}, length(rtrim(${sig}, replace(${sig}, ')', ''))) + 1)`;
  const kr = `(${n}.end_line > ${n}.start_line
    AND (SELECT kr.language FROM paths kr WHERE kr.id = ${n}.path_id) = 'c'
    AND ${tail} GLOB '*[A-Za-z0-9_][ *]*[A-Za-z_]*;')`;
  return `(${n}.kind = 'function' AND ${sig} LIKE '%;' AND NOT ${kr})`;
}
