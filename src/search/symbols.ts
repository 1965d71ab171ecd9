import { clipped, UsageError } from "../errors/mod.ts";
import { canonicalPath, resolve } from "../files/mod.ts";
import { detectLanguage } from "../extract/language.ts";
import { type Journal, prototypeSql } from "../store/mod.ts";
import { type Definition, definitions, pickColumns } from "./definitions.ts";
import { isInClass, sameMethod } from "./graph_query.ts";
import { printable } from "../present/printable.ts";

/** A node with the file it lives in: the columns of a {@link Definition} a look-up answers with. */
export type SymbolRef = Pick<
  Definition,
  "id" | "kind" | "name" | "qualname" | "path" | "line" | "endLine" | "signature"
>;

/** The {@link SymbolRef} of a definition (the same fields, in the same order). */
export function symbolRef(d: Definition): SymbolRef {
  return pickColumns(d, ["id", "kind", "name", "qualname", "path", "line", "endLine", "signature"]);
}

/** At most this many candidates are read for a name; one more says there are more. */
const CANDIDATES = 50;

/** At most this many candidates are listed in an ambiguity's message. */
const LISTED = 20;

/** A symbol name matched nothing, or more than one thing. */
export class SymbolLookupError extends UsageError {
  /**
   * `query` matched none (`candidates` empty) or several of `candidates`
   * (more than {@link CANDIDATES} of them when the list holds one more).
   */
  constructor(
    readonly query: string,
    readonly candidates: SymbolRef[],
    near: readonly SymbolRef[] = [],
    /** What to say instead, when the query's shape tells more than its spelling (a file's name). */
    said?: string,
  ) {
    super(
      said ??
        (candidates.length === 0 && near.length > 0
          ? `No symbol "${clipped(query)}" in the index; did you mean ${
            near.map((c) => printable(`${c.path}:${c.qualname}`)).join(" or ")
          }? A symbol is named as name, Class.method, path:name or path:line`
          : candidates.length === 0
          ? `No symbol "${
            clipped(query)
          }" in the index; check the spelling, or \`heimdall symbols PATH\` to list a file's symbols`
          : `"${clipped(query)}" is ambiguous: ${
            candidates.length > CANDIDATES ? `more than ${CANDIDATES}` : candidates.length
          } symbols match; name one as path:name, Class.method or path:line:\n` +
            // A file's name is text from the disk: a newline in it must not start a line of its own.
            candidates.slice(0, LISTED).map((c) =>
              printable(`  ${c.path}:${c.line ?? 1}  ${c.kind} ${c.qualname}`)
            ).join("\n") +
            (candidates.length > LISTED
              ? `\n  … and ${
                candidates.length > CANDIDATES ? "more" : `${candidates.length - LISTED} more`
              }; name a file (path:name) to narrow them`
              : "")),
    );
    this.name = "SymbolLookupError";
  }
}

/**
 * Finds the one symbol a person means by `path:name`, `Class.method` or
 * `name`. Throws {@link SymbolLookupError} listing the candidates when the
 * name is ambiguous, or saying so when nothing matches.
 */
export function findSymbol(j: Journal, query: string, cwd = Deno.cwd()): SymbolRef {
  // `gzip.py:` (a name left out, not C++'s `ns::`): no spelling of it near a symbol
  // helps, and its extension looked like a symbol named `py`.
  if (/[^:]:$/.test(query)) {
    const list = `\`heimdall symbols ${clipped(query.slice(0, -1))}\``;
    throw new SymbolLookupError(
      query,
      [],
      [],
      `"${clipped(query)}" names no symbol after its colon: write path:name or path:line, ` +
        `or ${list} to list that file's symbols`,
    );
  }
  const candidates = symbolCandidates(j, query, cwd);
  if (candidates.length === 0 && !query.includes(":") && detectLanguage(query) !== undefined) {
    // `gzip.py`: a file's name, whose extension was looked up as a symbol `py`.
    const file = clipped(query);
    throw new SymbolLookupError(
      query,
      [],
      [],
      `"${file}" names a file, not a symbol: write ${file}:name or ${file}:line, ` +
        `or \`heimdall symbols ${file}\` to list its symbols`,
    );
  }
  if (candidates.length === 0) throw new SymbolLookupError(query, [], nearSymbols(j, query));
  if (candidates.length !== 1) throw new SymbolLookupError(query, candidates);
  return candidates[0]!;
}

/** At most this many symbols a name that matched none is said to be near. */
const NEAR = 3;

/**
 * The symbols `query`, which matched none, most likely meant when written
 * with another separator: a module path (`pkg.util.compute_total`), a
 * method as docs write it (`Session#open`, `Session->open`), a file joined
 * by `::` or `/`. They are the symbols named as its last part whose
 * qualified name ends it; none when its last part is all of it.
 */
export function nearSymbols(j: Journal, query: string): SymbolRef[] {
  const parts = query.split(/::|->|[.#/:\\]/).filter((p) => p !== "");
  const last = parts.at(-1);
  if (last === undefined || parts.length < 2) return [];
  const dotted = parts.join(".");
  return definitions(j, { name: last, kind: "code", order: "path", limit: CANDIDATES + 1 })
    .map(symbolRef)
    .filter((c) => dotted === c.qualname || dotted.endsWith(`.${c.qualname}`))
    .slice(0, NEAR);
}

/**
 * Every symbol `query` could mean (see {@link findSymbol}). `::` separates
 * names (C++, Rust, PHP) as `.` does; only a lone `:` splits a file from a
 * name. Of a C++ method declared in its class and defined out of it, only
 * the definition is a candidate: the two are one method (see `sameMethod`).
 */
export function symbolCandidates(j: Journal, query: string, cwd = Deno.cwd()): SymbolRef[] {
  return withoutPrototypes(j, withoutDeclarationHalves(j, candidatesOf(j, query, cwd)));
}

/**
 * `rows` without a C or C++ function's prototype (`static void f(int);`, a
 * header's declaration) when a definition of its name is among them too:
 * the prototype is no second function (the resolver lands its calls on the
 * definition), and `callers f` of a file that declares `f` before its use
 * was ambiguous between the two.
 */
function withoutPrototypes(j: Journal, rows: SymbolRef[]): SymbolRef[] {
  const functions = rows.filter((r) => r.kind === "function");
  if (functions.length < 2) return rows;
  const prototypes = new Set(
    j.all<{ id: string }>(
      `SELECT n.id FROM nodes n JOIN paths q ON q.id = n.path_id
       WHERE n.id IN (SELECT value FROM json_each(?)) AND q.language IN ('c', 'cpp')
         AND ${prototypeSql("n")}`,
      JSON.stringify(functions.map((r) => r.id)),
    ).map((r) => r.id),
  );
  const defined = new Set(functions.filter((r) => !prototypes.has(r.id)).map((r) => r.name));
  return rows.filter((r) => !prototypes.has(r.id) || !defined.has(r.name));
}

function candidatesOf(j: Journal, query: string, cwd: string): SymbolRef[] {
  const colon = fileColon(query);
  if (colon > 0) {
    const file = query.slice(0, colon);
    const name = query.slice(colon + 1).replaceAll("::", ".");
    // Typed through a linked folder, it names the rows of the real one (as
    // `symbols PATH` does); a root recorded through a link keeps the typed name.
    const abs = resolve(cwd, file);
    const fileLike = { abs, real: canonicalPath(abs), written: file };
    if (/^[0-9]+$/.test(name)) {
      const atLine = symbolsAtLine(
        definitions(j, { fileLike, kind: "symbol", order: "line" }),
        +name,
      );
      if (atLine.length > 0) return atLine;
    }
    const rows = definitions(
      j,
      name.includes(".")
        ? { fileLike, qualnameOrSuffix: name, kind: "symbol", order: "line" }
        : { fileLike, nameOrQualname: name, kind: "symbol", order: "line" },
    ).map(symbolRef);
    return preferExact(rows, name);
  }
  if (query.includes(".") || query.includes("::")) {
    const q = query.replaceAll("::", ".");
    return definitions(j, {
      qualnameOrSuffix: q,
      kind: "symbol",
      order: "path",
      limit: CANDIDATES + 1,
    })
      .map(symbolRef);
  }
  return definitions(j, { name: query, kind: "code", order: "path", limit: CANDIDATES + 1 }).map(
    symbolRef,
  );
}

/**
 * The index of the colon that ends the file of a `path:name` (pure): the
 * last `:` that is not half of a `::`; -1 when there is none.
 *
 * @example
 * ```ts
 * import { fileColon } from "./symbols.ts";
 * console.assert(fileColon("db/db_impl.cc:DBImpl::Write") === 13);
 * console.assert(fileColon("DBImpl::Write") === -1);
 * ```
 */
export function fileColon(query: string): number {
  for (let i = query.length - 1; i >= 0; i--) {
    if (query[i] !== ":") continue;
    if (query[i - 1] === ":") {
      i--;
      continue;
    }
    if (query[i + 1] !== ":") return i;
  }
  return -1;
}

/** `rows` without a declaration whose one definition is among them too. */
function withoutDeclarationHalves(j: Journal, rows: SymbolRef[]): SymbolRef[] {
  if (rows.length < 2) return rows;
  const ids = new Set(rows.map((r) => r.id));
  const drop = new Set<string>();
  for (const r of rows) {
    if (r.kind !== "method") continue;
    const [, ...others] = sameMethod(j, r.id);
    const other = others[0];
    // A declaration lists its definitions, a definition its one declaration: a pair
    // names each other, and the definition (not in its class) is the one kept.
    if (others.length !== 1 || other === undefined || !ids.has(other)) continue;
    if (!sameMethod(j, other).includes(r.id)) continue;
    if (isInClass(j, r.id)) drop.add(r.id);
  }
  return drop.size === 0 ? rows : rows.filter((r) => !drop.has(r.id));
}

/**
 * Of a file's definitions (in line order), the ones `path:LINE` names (pure):
 * those starting on that line, else the innermost one around it in each
 * file. This is how overloads, which share a name, are told apart: the
 * ambiguity message lists each as `path:line`.
 */
function symbolsAtLine(defs: readonly Definition[], line: number): SymbolRef[] {
  const starting = defs.filter((d) => d.line === line);
  if (starting.length > 0) return starting.map(symbolRef);
  const inner = new Map<string, Definition>();
  for (const d of defs) {
    if (d.line === null || d.endLine === null || d.line > line || d.endLine < line) continue;
    const cur = inner.get(d.path);
    if (!cur || (cur.line ?? 0) <= d.line) inner.set(d.path, d);
  }
  return [...inner.values()].map(symbolRef);
}

function preferExact(rows: SymbolRef[], name: string): SymbolRef[] {
  const exact = rows.filter((r) => r.qualname === name);
  return exact.length > 0 ? exact : rows;
}

/** At most this many characters of a signature in an outline, as extraction cuts one. */
const OUTLINE_SIGNATURE = 200;

/**
 * A file's symbols in line order, with their nesting depth. A signature
 * stored longer (a Python `__all__` keeps its whole list, which the call
 * graph reads) is cut to {@link OUTLINE_SIGNATURE} characters.
 */
export function outline(j: Journal, path: string): (SymbolRef & { depth: number })[] {
  const rows = definitions(j, { path, kind: "symbol", order: "nesting" })
    .map((d) => ({ ...symbolRef(d), parent: d.parent }))
    .map((r) =>
      r.signature !== null && r.signature.length > OUTLINE_SIGNATURE
        ? { ...r, signature: r.signature.slice(0, OUTLINE_SIGNATURE - 1) + "…" }
        : r
    );
  const depth = new Map<string, number>();
  return rows.map(({ parent, ...r }) => {
    const d = parent && depth.has(parent) ? depth.get(parent)! + 1 : 0;
    depth.set(r.id, d);
    return { ...r, depth: d };
  });
}
