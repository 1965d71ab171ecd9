/**
 * What team coordination reads from memory (`src/memory`, journal migration
 * "memory"): the contract is the `memories.task_id` column (a task id from
 * this folder, TEXT) and `memory_anchors.node_id`. Read-only.
 */
import type { Journal } from "../store/mod.ts";

/** A memory row as a task or a ranking needs it. */
export interface LinkedMemory {
  /** The memory's id. */
  id: string;
  /** Its kind (`decision`, `attempt`, `note`…). */
  kind: string;
  /** What it says. */
  text: string;
  /** Who recorded it. */
  author: string;
  /** For an attempt, `failed` or `passed`; else null. */
  outcome: string | null;
  /** For a failed attempt, `open` or `resolved`; else null. */
  status: string | null;
  /** How many times the same failure was seen (1 for everything else). */
  count: number;
  /** When it was recorded (ms since the epoch). */
  recordedAt: number;
}

/** A memory anchored to a node of the local index, for who-knows. */
export interface AnchoredMemory {
  id: string;
  kind: string;
  author: string;
  node: string;
  recordedAt: number;
}

/** A memory anchored to a whole file (no symbol of it), for who-knows. */
export interface FileAnchoredMemory {
  id: string;
  kind: string;
  author: string;
  /** The file's absolute path. */
  path: string;
  recordedAt: number;
}

/**
 * The task's current memories (not superseded, not forgotten), oldest first;
 * private ones only when `viewer` wrote them.
 */
export function taskMemories(j: Journal, taskId: string, viewer: string): LinkedMemory[] {
  return j.all<LinkedMemory>(
    `SELECT id, kind, text, author, outcome, status, count, recorded_at AS recordedAt
     FROM memories WHERE task_id = ? AND superseded_at IS NULL AND forgotten_at IS NULL
       AND (scope != 'private' OR author = ?)
     ORDER BY recorded_at, id`,
    taskId,
    viewer,
  );
}

/**
 * Memories anchored to any of `nodeIds` that were not forgotten (superseded
 * ones count: their authors knew the code then), private ones left out like
 * memory's own `memoryAuthors`. One row per memory and node.
 */
export function anchoredMemories(j: Journal, nodeIds: readonly string[]): AnchoredMemory[] {
  return j.all<AnchoredMemory>(
    `SELECT m.id, m.kind, m.author, a.node_id AS node, m.recorded_at AS recordedAt
     FROM memory_anchors a JOIN memories m ON m.id = a.memory_id
     WHERE a.node_id IN (SELECT value FROM json_each(?)) AND m.forgotten_at IS NULL
       AND m.scope != 'private'`,
    JSON.stringify(nodeIds),
  );
}

/**
 * Memories anchored to any of the files at `paths` as a whole (`--about
 * FILE`: no node, only the path), that were not forgotten, private ones left
 * out as {@link anchoredMemories} does. One row per memory and file.
 */
export function fileAnchoredMemories(j: Journal, paths: readonly string[]): FileAnchoredMemory[] {
  return j.all<FileAnchoredMemory>(
    `SELECT DISTINCT m.id, m.kind, m.author, a.path, m.recorded_at AS recordedAt
     FROM memory_anchors a JOIN memories m ON m.id = a.memory_id
     WHERE a.target = 'file' AND a.path IN (SELECT value FROM json_each(?))
       AND m.forgotten_at IS NULL AND m.scope != 'private'`,
    JSON.stringify(paths),
  );
}
