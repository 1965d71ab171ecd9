/** The rows and values of memory, as stored and as returned. */

import { UsageError } from "../errors/mod.ts";

/**
 * What a memory is. A `preference` is one person's accepted rule or habit
 * (personal memory, from the review queue); a `page` is a project's
 * knowledge page written by `heimdall reflect`.
 */
export const KINDS = [
  "decision",
  "convention",
  "attempt",
  "note",
  "fact",
  "preference",
  "page",
] as const;
/** One of {@link KINDS}. */
export type MemoryKind = (typeof KINDS)[number];

/**
 * Longest memory text, fix or test list, in characters (a paragraph, not a
 * file): what a write accepts and what an import of an export reads back.
 */
export const MAX_TEXT = 65_536;

/**
 * Longest other string a memory or a note keeps (an author, a task id, a
 * note's title or keywords, an id, a path), in characters: what a write
 * accepts and what an import of an export reads back.
 */
export const MAX_FIELD = 4_096;

/**
 * Most anchors one memory keeps: what a write accepts and what an import of
 * an export reads back.
 */
export const MAX_ANCHORS = 256;

/** Who may see a memory: its author only, everyone on the project, or the team store too. */
export const SCOPES = ["private", "project", "team"] as const;
/** One of {@link SCOPES}. */
export type Scope = (typeof SCOPES)[number];

/** A row of `memories`. Times are milliseconds since the epoch (UTC). */
export interface MemoryRow {
  /** The memory's id. */
  id: string;
  /** What it is. */
  kind: MemoryKind;
  /** What it says (secrets redacted). */
  text: string;
  /** Who recorded it. */
  author: string;
  /** Who may see it. */
  scope: Scope;
  /** Valid time: when what it says became true, and stopped being true (null: still is). */
  valid_from: number;
  /** When it stopped being true; null while it still is. */
  valid_to: number | null;
  /** Record time: when it was written, and when a newer memory replaced it. */
  recorded_at: number;
  /** When a newer memory replaced it; null while it is current. */
  superseded_at: number | null;
  /** The memory that replaced it. */
  superseded_by: string | null;
  /** When it was forgotten; null unless it was. */
  forgotten_at: number | null;
  /** Who forgot it. */
  forgotten_by: string | null;
  /** The task it was recorded under, if any. */
  task_id: string | null;
  /** Attempts only: `failed` or `passed`. */
  outcome: "failed" | "passed" | null;
  /** Failed attempts only: `open` until a passing attempt resolves it. */
  status: "open" | "resolved" | null;
  /** How many times this same failure was seen (1 for everything else). */
  count: number;
  /** When this failure was last seen (the time of recording for everything else). */
  last_seen_at: number;
  /** JSON array of test names, sorted. */
  tests: string;
  /** Passing attempts: what fixed it (a commit, a URL), as given. */
  fix: string | null;
  /** Failed attempts: the passing attempt that resolved it, and when. */
  resolved_by: string | null;
  /** When that passing attempt resolved it. */
  resolved_at: number | null;
  /** Record time of the last change to this row (import keeps the later copy). */
  updated_at: number;
}

/**
 * Where an anchor points.
 *
 * @internal
 */
export type AnchorTarget = "symbol" | "file" | "folder";

/** How an anchor stands against the current index. */
export type AnchorState = "active" | "moved" | "orphaned";

/** A row of `memory_anchors`, without its memory id. */
export interface AnchorRow {
  /** Its place among its memory's anchors, from 0. */
  ord: number;
  /** Whether it points at a symbol, a file or a folder. */
  target: AnchorTarget;
  /** The anchor as it was first written (`path:qualname` or the path). */
  original: string;
  /** Absolute path of the file (symbol, file) or folder, where it is now. */
  path: string;
  /** The root holding `path` when it was last seen (used to rebase on import). */
  root: string | null;
  /** Symbols: qualified name and kind. */
  symbol: string | null;
  /** The symbol's kind; null for a file or folder. */
  symbol_kind: string | null;
  /** Symbol name, or the file or folder name. */
  name: string;
  /** The symbol's node when last seen; null for a file or folder. */
  node_id: string | null;
  /** Symbols: structural hash; files: content hash; as last seen. */
  struct_hash: string | null;
  /** Symbols: hash of the body with the symbol's own name blanked, to follow a rename. */
  shape: string | null;
  /** The symbol's first line when last seen. */
  start_line: number | null;
  /** The symbol's last line when last seen. */
  end_line: number | null;
  /** Whether it still points where it was written, was moved, or is orphaned. */
  state: AnchorState;
  /** Where it was before its last move, `path:qualname`. */
  moved_from: string | null;
  /** When `state` last changed. */
  state_at: number;
  /** Orphaned symbols: content hash of their file at the last search, so an unchanged file is not searched again. */
  checked: string | null;
}

/** A memory with its anchors. */
export interface Memory extends MemoryRow {
  /** What it is attached to, in order. */
  anchors: AnchorRow[];
}

/** Bad input to a memory function: the message names the value and the remedy. */
export class MemoryInputError extends UsageError {
  /** A memory input refused, `message` naming the value and the remedy. */
  constructor(message: string) {
    super(message);
    this.name = "MemoryInputError";
  }
}
