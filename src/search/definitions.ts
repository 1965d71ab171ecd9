/**
 * A definition with its file: the one query that joins a node of the index
 * to the path (and root) it lives in. Symbol look-ups (`findSymbol`,
 * `outline`), the hook's edit regions, memory anchors and the team's
 * portable keys all read definitions through it, each with its own filter,
 * and keep the columns they need.
 */
import type { Journal } from "../store/mod.ts";

/** One node of the index with the file it lives in, as last reconciled. */
export interface Definition {
  /** The node's id. */
  id: string;
  /** Its kind (`function`, `class`, `heading`, `file`…). */
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
  /** Its structural hash (the same code elsewhere has the same one). */
  structHash: string | null;
  /** The id of the node it is nested in, if any. */
  parent: string | null;
  /** Its file's content hash (null for a file recorded as skipped). */
  fileHash: string | null;
  /** Its file's path relative to its root. */
  rel: string;
  /** The root its file is under; null only for a row whose root is gone (drift). */
  root: string | null;
}

/**
 * Which definitions to read: every condition given must hold. `kind` keeps
 * `file` nodes out (`"symbol"`), file and heading nodes out (`"code"`), or
 * only file nodes (`"file"`); by default every node qualifies.
 */
export interface DefinitionQuery {
  /** These node ids. */
  ids?: readonly string[];
  /** In the file at this absolute path. */
  path?: string;
  /** In the file with this row id. */
  pathId?: number;
  /** Not in the file with this row id. */
  notPathId?: number;
  /** In a file below this folder (absolute, without a trailing `/`). */
  under?: string;
  /**
   * In a file named as a person writes it: absolute (as typed, `abs`, or
   * with its linked folders resolved, `real`), root-relative, or a path suffix.
   */
  fileLike?: { abs: string; real?: string; written: string };
  /** With this name. */
  name?: string;
  /** With one of these names. */
  names?: readonly string[];
  /** With this qualified name. */
  qualname?: string;
  /** With one of these qualified names. */
  qualnames?: readonly string[];
  /** With this qualified name or this (unqualified) name. */
  nameOrQualname?: string;
  /** With this qualified name, or one ending in `.` and it. */
  qualnameOrSuffix?: string;
  /** With this structural hash. */
  structHash?: string;
  /** Which kinds of node qualify (see the interface's comment). */
  kind?: "symbol" | "code" | "file";
  /** `line`: by first line; `nesting`: by first line, outer before inner; `path`: by file, then line. */
  order?: "line" | "nesting" | "path";
  /** At most this many. */
  limit?: number;
}

const SELECT = `SELECT n.id, n.kind, n.name, n.qualname, p.path, n.start_line AS line,
  n.end_line AS endLine, n.signature, n.struct_hash AS structHash, n.parent_id AS parent,
  p.hash AS fileHash, p.rel, r.path AS root
  FROM nodes n JOIN paths p ON p.id = n.path_id LEFT JOIN roots r ON r.id = p.root_id`;

const KIND = {
  symbol: "n.kind != 'file'",
  code: "n.kind NOT IN ('file', 'heading')",
  file: "n.kind = 'file'",
} as const;

const ORDER = {
  line: "n.start_line",
  nesting: "n.start_line, n.end_line DESC",
  path: "p.path, n.start_line",
} as const;

/**
 * The columns `keys` of a definition, in that order (pure): each reader
 * keeps what it needs, in the order its answers have always had.
 *
 * @example
 * ```ts
 * import { type Definition, pickColumns } from "./definitions.ts";
 * const d = { id: "n1", kind: "function", name: "f", qualname: "f" } as Definition;
 * console.assert(JSON.stringify(pickColumns(d, ["name", "id"])) === '{"name":"f","id":"n1"}');
 * ```
 */
export function pickColumns<K extends keyof Definition>(
  d: Definition,
  keys: readonly K[],
): Pick<Definition, K> {
  const out = {} as Pick<Definition, K>;
  for (const k of keys) out[k] = d[k];
  return out;
}

/**
 * The definitions `q` names, read from the journal only (the disk may have
 * moved on since: search's verification says so). Indexed look-ups, except a
 * qualified-name suffix or a file named by suffix, which scan. Names and
 * paths match by their exact characters. Unordered
 * unless `q.order` says otherwise.
 */
export function definitions(j: Journal, q: DefinitionQuery): Definition[] {
  const where: string[] = [];
  const params: (string | number)[] = [];
  const cond = (sql: string, ...values: (string | number)[]) => {
    where.push(sql);
    params.push(...values);
  };
  if (q.ids !== undefined) cond("n.id IN (SELECT value FROM json_each(?))", JSON.stringify(q.ids));
  if (q.path !== undefined) cond("p.path = ?", q.path);
  if (q.pathId !== undefined) cond("n.path_id = ?", q.pathId);
  if (q.notPathId !== undefined) cond("n.path_id != ?", q.notPathId);
  if (q.under !== undefined) {
    // Compared, not LIKE: `_` and `%` are a folder name's characters.
    cond("substr(p.path, 1, length(?)) = ?", `${q.under}/`, `${q.under}/`);
  }
  if (q.fileLike !== undefined) {
    const { abs, real, written } = q.fileLike;
    // Compared, not LIKE: `_` and `%` are a file name's characters, and its case counts.
    cond(
      "(p.path IN (?, ?) OR p.rel = ? OR substr(p.path, -1 - length(?)) = '/' || ?)",
      abs,
      real ?? abs,
      written,
      written,
      written,
    );
  }
  if (q.name !== undefined) cond("n.name = ?", q.name);
  if (q.names !== undefined) {
    cond("n.name IN (SELECT value FROM json_each(?))", JSON.stringify(q.names));
  }
  if (q.qualname !== undefined) cond("n.qualname = ?", q.qualname);
  if (q.qualnames !== undefined) {
    cond("n.qualname IN (SELECT value FROM json_each(?))", JSON.stringify(q.qualnames));
  }
  if (q.nameOrQualname !== undefined) {
    cond("(n.qualname = ? OR n.name = ?)", q.nameOrQualname, q.nameOrQualname);
  }
  if (q.qualnameOrSuffix !== undefined) {
    cond(
      "(n.qualname = ? OR substr(n.qualname, -1 - length(?)) = '.' || ?)",
      q.qualnameOrSuffix,
      q.qualnameOrSuffix,
      q.qualnameOrSuffix,
    );
  }
  if (q.structHash !== undefined) cond("n.struct_hash = ?", q.structHash);
  if (q.kind !== undefined) where.push(KIND[q.kind]);
  const sql = `${SELECT}${where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""}${
    q.order !== undefined ? ` ORDER BY ${ORDER[q.order]}` : ""
  }${q.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(q.limit))}` : ""}`;
  return j.all<Definition>(sql, ...params);
}
