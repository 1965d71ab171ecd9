/** A row of `paths`, as stored. */
export interface PathRow {
  /** The row's id, which owned rows (nodes' `path_id`, edges' `owner_id`) point at. */
  id: number;
  /** The root the file lies under (the innermost, when roots nest). */
  root_id: number;
  /** The file's absolute path. */
  path: string;
  /** The path relative to its root. */
  rel: string;
  /** `indexed`, or `skipped` / `error` with the reason in {@link PathRow.reason}. */
  state: "indexed" | "skipped" | "error";
  /** Why the file is skipped or in error (`binary`, too large, unreadable…); null when indexed. */
  reason: string | null;
  /** The content hash of the bytes last read (sha1, hex); null when they were not read. */
  hash: string | null;
  /** Size in bytes when last reconciled. */
  size: number;
  /** Modification time (ms since the epoch) when last reconciled. */
  mtime_ms: number;
  /**
   * Status-change time (ms since the epoch) when last reconciled: a rewrite
   * that puts size and mtime back still moves it. Null for rows written
   * before it was recorded, whose next stat screen reads the file again
   * (absent in rows built by hand, which are not compared).
   */
  ctime_ms?: number | null;
  /** The detected language; null when none was recognised. */
  language: string | null;
  /** The file's one-line summary (L1); null when it has none. */
  summary: string | null;
  /** The depth its root asks for (0–3; `max` is 3). */
  requested_depth: number;
  /** min(requested, what this build can do for the language) when it was last reconciled. */
  target_depth: number;
  /** The depth the last reconciliation reached (1 for a skipped file). */
  effective_depth: number;
  /**
   * Why the effective depth is below the requested one (or a partial parse's error); null when it
   * is not.
   */
  depth_reason: string | null;
  /**
   * Bumped by every commit of the path: a commit planned against an older generation is rejected.
   */
  generation: number;
  /**
   * 1 when the file was modified within the racy window of being read, so the next pass re-hashes
   * it.
   */
  racy: number;
  /**
   * The version of the code that derived the row's rows (`derivationOf` in
   * src/extract/derivation.ts); null for rows written before versions were
   * recorded, which count as "1.1.0" (absent in rows built by hand).
   */
  derivation?: string | null;
}

/** The columns a stat screen and a plan need: a row without its texts. */
export type PathStat = Pick<
  PathRow,
  | "id"
  | "root_id"
  | "path"
  | "rel"
  | "state"
  | "reason"
  | "hash"
  | "size"
  | "mtime_ms"
  | "ctime_ms"
  | "language"
  | "target_depth"
  | "effective_depth"
  | "depth_reason"
  | "generation"
  | "racy"
  | "derivation"
>;

/** What a commit writes for one path (the journal assigns id and generation). */
export type PathRecord = Omit<PathRow, "id" | "generation">;

/** A row of `nodes`. */
export interface NodeRecord {
  /** Stable id: a hash of path, kind, qualified name and ordinal (`nodeId`). */
  id: string;
  /** The enclosing node (the file node for a top-level symbol); null for a file node. */
  parent_id: string | null;
  /** `file`, `function`, `class`, `method`, `heading`… */
  kind: string;
  /** The name as written. */
  name: string;
  /** The name qualified by its enclosing definitions (`Class.method`); "" for a file. */
  qualname: string;
  /** First line, 1-based. */
  start_line: number | null;
  /** Last line, inclusive. */
  end_line: number | null;
  /** The declaration line(s) without the body; null when none. */
  signature: string | null;
  /** The doc comment (for a file node, its summary); null when none. */
  doc: string | null;
  /** Structural hash of the definition (for a file node, the content hash); null when none. */
  struct_hash: string | null;
  /** 1 when the symbol came from a parse with errors. */
  partial: number;
  /**
   * 1 when the symbol is defined inside a function that is no symbol (JS/TS:
   * an IIFE, a callback): no other file sees it by its name.
   */
  scoped: number;
}

/** A resolved edge owned by the committing path. */
export interface EdgeRecord {
  /** The node the reference is made from. */
  src: string;
  /** The node it resolved to. */
  dst: string;
  /** `calls`, `imports`, `inherits` or `implements`. */
  kind: string;
  /** The line of the reference, 1-based; null when unknown. */
  line: number | null;
}

/** An unresolved cross-file reference owned by the committing path. */
export interface PendingRecord {
  /** The node the reference is made from. */
  src: string;
  /** `calls`, `imports`, `inherits` or `implements`. */
  kind: string;
  /** The name as referenced, qualified as written (`sync.Mutex`). */
  target: string;
  /** The last segment of `target` (`Mutex` of `sync.Mutex`), indexed for resolution. */
  name: string;
  /** The module the name is imported from, when the reference names one; else null. */
  module: string | null;
  /** For imports: the module specifier's last segment (`mod` of `./util/mod.ts`), else null. */
  module_tail: string | null;
  /** The line of the reference, 1-based; null when unknown. */
  line: number | null;
  /** For a call in a language with overloads (Java, C#, C++): how many arguments it passes. */
  args?: number | null;
  /** For an import that binds another name (`from m import a as b`): what it imports (`a`). */
  imported?: string | null;
}

/** The text columns of a chunk's full-text row (what the lexical leg matches). */
export interface ChunkFields {
  /** The name, split into words and kept whole (`parseQuery parse query`). */
  name: string;
  /** The enclosing path: qualname or heading path, split. */
  qual: string;
  /** The signature, split. */
  sig: string;
  /** The doc comment, split. */
  doc: string;
  /** The chunk's own text (bounded), identifiers split. */
  body: string;
  /** The file's root-relative path, split. */
  path: string;
}

/** A path-owned unit of search: a symbol, a markdown section, or a file's own text. */
export interface ChunkRecord {
  /** The node it describes (symbol, heading or file node); null when there is none. */
  node_id: string | null;
  /** `docs` for prose files, `code` for everything else. */
  source: "code" | "docs";
  /** Qualname or heading path (the file's rel path for its own chunk). */
  title: string;
  /** First line, 1-based; null for a chunk without lines. */
  start_line: number | null;
  /** Last line, inclusive; null for a chunk without lines. */
  end_line: number | null;
  /** Hash of the chunk's source lines: a reader re-embeds when it changes. */
  text_hash: string;
  /** The text the full-text index holds for it. */
  fts: ChunkFields;
}

/** Every row one path owns: a commit replaces exactly these. */
export interface OwnedRows {
  /** The path's own row. */
  path: PathRecord;
  /** Its file node and symbols. */
  nodes: NodeRecord[];
  /**
   * References it already resolved (a derived file has none: the resolver
   * moves its pending edges here). What contains what is `nodes.parent_id`.
   */
  edges: EdgeRecord[];
  /** Its references that wait for a target. */
  pending: PendingRecord[];
  /** Search chunks; absent means none. */
  chunks?: ChunkRecord[];
  /** What the path's documented symbols teach the learned vocabulary; absent means nothing. */
  vocab?: VocabRows;
}

/**
 * One documented symbol's words for the learned vocabulary: distinct prose
 * stems (its doc comment's first sentence) and distinct code stems (its name,
 * signature and body). Stems hold no whitespace.
 */
export interface VocabSet {
  /** Distinct prose stems of the doc comment's first sentence. */
  prose: string[];
  /** Distinct code stems of the name, signature and body. */
  code: string[];
}

/** What a commit writes for a path's {@link VocabSet}s, prepared off the writer's thread. */
export interface VocabRows {
  /** The sets, one line per symbol: prose stems, a tab, code stems (space-separated). */
  sets: string;
  /** Per prose stem: the code stems of each symbol that has it, one line per symbol. */
  postings: [string, string][];
  /** "p" + prose stem or "c" + code stem → how many of the path's symbols have it. */
  words: [string, number][];
  /** How many symbols the sets describe. */
  symbols: number;
}

/** A row of `roots`. */
export interface RootRow {
  /** The row's id, which `paths.root_id` points at. */
  id: number;
  /** The root's absolute path. */
  path: string;
  /** The depth it asks for, as configured: `max` or `0`–`3`. */
  depth: string;
  /** Files the last full walk skipped because they hold (or are named like) secrets. */
  secrets_skipped: number;
  /** Files the last full walk skipped by ignore rules. */
  ignored_skipped: number;
}

/** A row of `queue`. */
export interface QueueRow {
  /** The absolute path to reconcile. */
  path: string;
  /** Why it was queued (the last enqueue's reason: a hint, a watch event, an audit…). */
  reason: string;
  /** Moves on every enqueue, so a path re-queued during its pass gets exactly one more. */
  seq: number;
  /** When it was (last) queued, ms since the epoch. */
  enqueued_ms: number;
  /** Failed tries so far. */
  attempts: number;
  /** Not due before this time (ms since the epoch): the retry backoff; 0 when due now. */
  not_before: number;
}
