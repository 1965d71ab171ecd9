import { UsageError } from "../errors/mod.ts";
import { resolve } from "node:path";
import type { Journal } from "../store/mod.ts";

/** A node with the file it lives in. */
export interface SymbolRef {
  /** The node's id. */
  id: string;
  /** Its kind (`function`, `class`…). */
  kind: string;
  /** Its name. */
  name: string;
  /** Its qualified name (`Class.method`). */
  qualname: string;
  /** The file it lives in (absolute). */
  path: string;
  /** Its first line, 1-based. */
  line: number | null;
  /** Its last line, inclusive. */
  endLine: number | null;
  /** Its signature, when it has one. */
  signature: string | null;
}

const SELECT = `SELECT n.id, n.kind, n.name, n.qualname, p.path, n.start_line AS line,
  n.end_line AS endLine, n.signature FROM nodes n JOIN paths p ON p.id = n.path_id`;

/** A symbol name matched nothing, or more than one thing. */
export class SymbolLookupError extends UsageError {
  /** `query` matched none (`candidates` empty) or several of `candidates`. */
  constructor(readonly query: string, readonly candidates: SymbolRef[]) {
    super(
      candidates.length === 0
        ? `No symbol "${query}" in the index; check the spelling, or \`heimdall symbols PATH\` to list a file's symbols`
        : `"${query}" is ambiguous: ${candidates.length} symbols match; name one as path:name or Class.method:\n` +
          candidates.slice(0, 20).map((c) => `  ${c.path}:${c.line ?? 1}  ${c.kind} ${c.qualname}`)
            .join("\n"),
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
  const candidates = symbolCandidates(j, query, cwd);
  if (candidates.length !== 1) throw new SymbolLookupError(query, candidates);
  return candidates[0]!;
}

/** Every symbol `query` could mean (see {@link findSymbol}). */
export function symbolCandidates(j: Journal, query: string, cwd = Deno.cwd()): SymbolRef[] {
  const colon = query.lastIndexOf(":");
  if (colon > 0) {
    const file = query.slice(0, colon);
    const name = query.slice(colon + 1);
    const abs = resolve(cwd, file);
    const rows = j.all<SymbolRef>(
      `${SELECT} WHERE (p.path = ? OR p.rel = ? OR p.path LIKE '%/' || ?) AND (n.qualname = ? OR n.name = ?)
       AND n.kind != 'file' ORDER BY n.start_line`,
      abs,
      file,
      file,
      name,
      name,
    );
    return preferExact(rows, name);
  }
  if (query.includes(".") || query.includes("::")) {
    const q = query.replaceAll("::", ".");
    return j.all<SymbolRef>(
      `${SELECT} WHERE (n.qualname = ? OR n.qualname LIKE '%.' || ?) AND n.kind != 'file'
       ORDER BY p.path, n.start_line LIMIT 50`,
      q,
      q,
    );
  }
  return j.all<SymbolRef>(
    `${SELECT} WHERE n.name = ? AND n.kind NOT IN ('file', 'heading') ORDER BY p.path, n.start_line LIMIT 50`,
    query,
  );
}

function preferExact(rows: SymbolRef[], name: string): SymbolRef[] {
  const exact = rows.filter((r) => r.qualname === name);
  return exact.length > 0 ? exact : rows;
}

/** A file's symbols in line order, with their nesting depth. */
export function outline(j: Journal, path: string): (SymbolRef & { depth: number })[] {
  const rows = j.all<SymbolRef & { parent: string | null }>(
    `SELECT n.id, n.kind, n.name, n.qualname, p.path, n.start_line AS line, n.end_line AS endLine,
       n.signature, n.parent_id AS parent FROM nodes n JOIN paths p ON p.id = n.path_id
     WHERE p.path = ? AND n.kind != 'file' ORDER BY n.start_line, n.end_line DESC`,
    path,
  );
  const depth = new Map<string, number>();
  return rows.map(({ parent, ...r }) => {
    const d = parent && depth.has(parent) ? depth.get(parent)! + 1 : 0;
    depth.set(r.id, d);
    return { ...r, depth: d };
  });
}
