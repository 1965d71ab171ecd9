/**
 * The Memory view's data: decisions, conventions, attempts and notes with
 * their anchors and what happened to them (the timeline), and the badges
 * the code map puts on functions and files. Reads through `src/memory`;
 * writes only through {@link addMemory}, which is `remember`'s own path.
 */
import {
  history,
  type HistoryResult,
  loadMemories,
  type MemoryRow,
  type RememberResult,
  visibleTo,
} from "../memory/mod.ts";
import type { Journal } from "../store/mod.ts";
import type { SharedMemory } from "../team/mod.ts";

/** Newest memories the view loads; older ones stay searchable. */
export const MEMORY_LIMIT = 2000;

/** The Memory view's data: {@link memoryView}. */
export type MemoryViewData = HistoryResult & {
  /** Memories visible to the viewer in the journal, loaded or not. */
  total: number;
};

/**
 * The newest {@link MEMORY_LIMIT} memories visible to `viewer` (superseded
 * and forgotten ones too), newest first, with their events; then every
 * standing decision and convention and every open failed attempt older than
 * those (at most {@link MEMORY_LIMIT} more), since the view lists all that
 * stand now: a convention recorded before 2,000 attempts must not drop out
 * of it. `total` counts every visible memory, so the view can say how many
 * it leaves out.
 */
export function memoryView(j: Journal, viewer: string): MemoryViewData {
  const view = history(j, null, { viewer, limit: MEMORY_LIMIT });
  const shown = new Set(view.memories.map((m) => m.id));
  const standing = j.all<{ id: string }>(
    `SELECT id FROM memories
      WHERE superseded_at IS NULL AND forgotten_at IS NULL
        AND (kind IN ('decision', 'convention') OR (kind = 'attempt' AND status = 'open'))
      ORDER BY recorded_at DESC, id LIMIT ?`,
    MEMORY_LIMIT + shown.size,
  ).map((r) => r.id).filter((id) => !shown.has(id)).slice(0, MEMORY_LIMIT);
  const older = loadMemories(j, standing).filter((m) => visibleTo(m, viewer))
    .map((m) => ({ ...m, via: null }));
  const total = j.all<Pick<MemoryRow, "scope" | "author">>(`SELECT scope, author FROM memories`)
    .filter((m) => visibleTo(m, viewer)).length;
  return { ...view, memories: [...view.memories, ...older], total };
}

/** A badge on the map: current memories on a symbol or file, the worst failure count. */
export interface Badge {
  memories: number;
  decisions: number;
  /** Highest count of an open failed attempt (the ×N badge); 0 when none is open. */
  failures: number;
}

/** Badges by node id and by file path, from current memories' anchors. */
export function badges(
  j: Journal,
  viewer: string,
): { nodes: Record<string, Badge>; files: Record<string, Badge> } {
  const nodes: Record<string, Badge> = {}, files: Record<string, Badge> = {};
  const rows = j.all<
    { node_id: string | null; path: string; kind: string; count: number; status: string | null }
  >(
    `SELECT a.node_id, a.path, m.kind, m.count, m.status FROM memory_anchors a
       JOIN memories m ON m.id = a.memory_id
      WHERE m.superseded_at IS NULL AND m.forgotten_at IS NULL
        AND (m.scope != 'private' OR m.author = ?)`,
    viewer,
  );
  const bump = (b: Badge, r: (typeof rows)[number]) => {
    b.memories++;
    if (r.kind === "decision") b.decisions++;
    if (r.kind === "attempt" && r.status === "open") b.failures = Math.max(b.failures, r.count);
  };
  const empty = (): Badge => ({ memories: 0, decisions: 0, failures: 0 });
  for (const r of rows) {
    if (r.node_id) bump(nodes[r.node_id] ??= empty(), r);
    bump(files[r.path] ??= empty(), r);
  }
  return { nodes, files };
}

/** What the UI sends to record a decision or convention. */
export interface AddMemoryInput {
  kind: string;
  text: string;
  about: string[];
  author: string;
  supersedes?: string[];
  scope?: string;
}

/** Records a memory exactly as `heimdall remember` does (same checks, same author rules). */
export async function addMemory(
  j: Journal,
  shared: SharedMemory,
  input: AddMemoryInput,
): Promise<RememberResult> {
  if (input.kind !== "decision" && input.kind !== "convention") {
    throw new TypeError(
      `Only a decision or a convention is added from the dashboard, not "${input.kind}"`,
    );
  }
  return await shared.remember(j, {
    kind: input.kind,
    text: input.text,
    about: input.about,
    author: input.author,
    ...(input.scope ? { scope: input.scope } : {}),
    taskId: null,
    supersedes: input.supersedes ?? [],
    keep: false,
  });
}
