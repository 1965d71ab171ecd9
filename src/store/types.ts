/** A row of `paths`, as stored. */
export interface PathRow {
  id: number;
  root_id: number;
  path: string;
  rel: string;
  state: "indexed" | "skipped" | "error";
  reason: string | null;
  hash: string | null;
  size: number;
  mtime_ms: number;
  language: string | null;
  summary: string | null;
  requested_depth: number;
  /** min(requested, what this build can do for the language) when it was last reconciled. */
  target_depth: number;
  effective_depth: number;
  depth_reason: string | null;
  generation: number;
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
  id: string;
  parent_id: string | null;
  kind: string;
  name: string;
  qualname: string;
  start_line: number | null;
  end_line: number | null;
  signature: string | null;
  doc: string | null;
  struct_hash: string | null;
  partial: number;
}

/** A resolved edge owned by the committing path. */
export interface EdgeRecord {
  src: string;
  dst: string;
  kind: string;
  line: number | null;
}

/** An unresolved cross-file reference owned by the committing path. */
export interface PendingRecord {
  src: string;
  kind: string;
  target: string;
  /** The last segment of `target` (`Mutex` of `sync.Mutex`), indexed for resolution. */
  name: string;
  module: string | null;
  /** For imports: the module specifier's last segment (`mod` of `./util/mod.ts`), else null. */
  module_tail: string | null;
  line: number | null;
}

/** The text columns of a chunk's full-text row (what the lexical leg matches). */
export interface ChunkFields {
  /** The name, split into words and kept whole (`parseQuery parse query`). */
  name: string;
  /** The enclosing path: qualname or heading path, split. */
  qual: string;
  sig: string;
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
  source: "code" | "docs";
  /** Qualname or heading path (the file's rel path for its own chunk). */
  title: string;
  start_line: number | null;
  end_line: number | null;
  /** Hash of the chunk's source lines: a reader re-embeds when it changes. */
  text_hash: string;
  fts: ChunkFields;
}

/** Every row one path owns: a commit replaces exactly these. */
export interface OwnedRows {
  path: PathRecord;
  nodes: NodeRecord[];
  edges: EdgeRecord[];
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
  prose: string[];
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
  id: number;
  path: string;
  depth: string;
  secrets_skipped: number;
  ignored_skipped: number;
}

/** A row of `queue`. */
export interface QueueRow {
  path: string;
  reason: string;
  seq: number;
  enqueued_ms: number;
  attempts: number;
  not_before: number;
}
