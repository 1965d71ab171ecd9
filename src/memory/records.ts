/**
 * Reading and writing memory rows. Every write here runs inside the caller's
 * transaction; memory rows are never deleted, only marked.
 */
import { redactDeep, redactSecrets } from "../files/mod.ts";
import type { Journal } from "../store/mod.ts";
import type { AnchorRow, Memory, MemoryRow } from "./types.ts";

/** Every column of `memories`, in table order (export writes them in this order). */
export const MEMORY_COLUMNS = [
  "id",
  "kind",
  "text",
  "author",
  "scope",
  "valid_from",
  "valid_to",
  "recorded_at",
  "superseded_at",
  "superseded_by",
  "forgotten_at",
  "forgotten_by",
  "task_id",
  "outcome",
  "status",
  "count",
  "last_seen_at",
  "tests",
  "fix",
  "resolved_by",
  "resolved_at",
  "updated_at",
] as const satisfies readonly (keyof MemoryRow)[];

/** Every column of `memory_anchors` but `memory_id`, in table order. */
export const ANCHOR_COLUMNS = [
  "ord",
  "target",
  "original",
  "path",
  "root",
  "symbol",
  "symbol_kind",
  "name",
  "node_id",
  "struct_hash",
  "shape",
  "start_line",
  "end_line",
  "state",
  "moved_from",
  "state_at",
  "checked",
] as const satisfies readonly (keyof AnchorRow)[];

/** Columns holding what a person or an agent wrote, free text whose secrets are redacted. */
export const FREE_TEXT_COLUMNS = ["text", "author", "task_id", "forgotten_by", "fix"] as const;

/**
 * The row as stored: secrets in its people's words (text, author, task,
 * who forgot it, fix, failing tests) redacted. Every write of a memory row
 * goes through here, whatever wrote it (remember, attempt, import, a pull
 * from the team store), so none can store one. Returns `m` itself when
 * nothing was redacted.
 */
export function redactRow(m: MemoryRow): MemoryRow {
  let out = m;
  for (const c of FREE_TEXT_COLUMNS) {
    const v = m[c];
    const clean = v === null ? null : redactSecrets(v);
    if (clean !== v) out = { ...out, [c]: clean };
  }
  const tests = redactTests(m.tests);
  return tests === m.tests ? out : { ...out, tests };
}

/** A JSON list of test names with secrets in each name redacted; other text redacted whole. */
function redactTests(tests: string): string {
  try {
    const list = JSON.parse(tests);
    const clean = redactDeep(list);
    return clean === list ? tests : JSON.stringify(clean);
  } catch {
    return redactSecrets(tests);
  }
}

/** Inserts a memory row (all columns), secrets redacted ({@link redactRow}). */
export function insertMemory(j: Journal, row: MemoryRow): void {
  const m = redactRow(row);
  j.run(
    `INSERT INTO memories (${MEMORY_COLUMNS.join(", ")}) VALUES (${
      MEMORY_COLUMNS.map(() => "?").join(", ")
    })`,
    ...MEMORY_COLUMNS.map((c) => m[c]),
  );
}

/** Replaces a memory row's columns by `m`'s (same id), secrets redacted ({@link redactRow}). */
export function replaceMemory(j: Journal, row: MemoryRow): void {
  const m = redactRow(row);
  const cols = MEMORY_COLUMNS.filter((c) => c !== "id");
  j.run(
    `UPDATE memories SET ${cols.map((c) => `${c} = ?`).join(", ")} WHERE id = ?`,
    ...cols.map((c) => m[c]),
    m.id,
  );
}

/** Inserts a memory's anchors. */
export function insertAnchors(j: Journal, memoryId: string, anchors: readonly AnchorRow[]): void {
  const stmt = j.stmt(
    `INSERT INTO memory_anchors (memory_id, ${ANCHOR_COLUMNS.join(", ")}) VALUES (?, ${
      ANCHOR_COLUMNS.map(() => "?").join(", ")
    })`,
  );
  for (const a of anchors) stmt.run(memoryId, ...ANCHOR_COLUMNS.map((c) => a[c]));
}

/** Replaces every anchor of a memory (import of a newer copy). */
export function replaceAnchors(j: Journal, memoryId: string, anchors: readonly AnchorRow[]): void {
  j.run("DELETE FROM memory_anchors WHERE memory_id = ?", memoryId);
  insertAnchors(j, memoryId, anchors);
}

/** Updates one anchor's columns named in `patch`. */
export function updateAnchor(
  j: Journal,
  memoryId: string,
  ord: number,
  patch: Partial<Omit<AnchorRow, "ord">>,
): void {
  const cols = Object.keys(patch) as (keyof typeof patch)[];
  if (cols.length === 0) return;
  j.run(
    `UPDATE memory_anchors SET ${
      cols.map((c) => `${c} = ?`).join(", ")
    } WHERE memory_id = ? AND ord = ?`,
    ...cols.map((c) => patch[c] ?? null),
    memoryId,
    ord,
  );
}

/** One memory row by id. */
export function getMemoryRow(j: Journal, id: string): MemoryRow | undefined {
  return j.get<MemoryRow>("SELECT * FROM memories WHERE id = ?", id);
}

/** The anchors of one memory, in order. */
export function anchorsOf(j: Journal, id: string): AnchorRow[] {
  return j.all<AnchorRow>(
    `SELECT ${ANCHOR_COLUMNS.join(", ")} FROM memory_anchors WHERE memory_id = ? ORDER BY ord`,
    id,
  );
}

/** Memories with their anchors, in the order of `ids` (unknown ids are left out). */
export function loadMemories(j: Journal, ids: readonly string[]): Memory[] {
  const out: Memory[] = [];
  for (const id of ids) {
    const row = getMemoryRow(j, id);
    if (row) out.push({ ...row, anchors: anchorsOf(j, id) });
  }
  return out;
}

/** The fewest characters of an id that name a memory by prefix. */
export const MIN_PREFIX = 4;

/**
 * The memory `idOrPrefix` names: an exact id, or a prefix of at least
 * {@link MIN_PREFIX} characters that only one id starts with. Returns the
 * candidates when there are several, none when nothing matches or a prefix
 * is shorter.
 */
export function findMemoryIds(j: Journal, idOrPrefix: string): string[] {
  if (getMemoryRow(j, idOrPrefix)) return [idOrPrefix];
  if (idOrPrefix.length < MIN_PREFIX) return [];
  return j.all<{ id: string }>(
    "SELECT id FROM memories WHERE id >= ? AND id < ? ORDER BY id LIMIT 20",
    idOrPrefix,
    idOrPrefix + "\uffff",
  ).map((r) => r.id);
}

const ID_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/**
 * A new memory id: `m` and 10 random base-32 characters (50 bits), unique
 * across machines so export/import never collide, and short enough to type
 * (any unique prefix of 4 or more characters works too).
 */
export function newMemoryId(): string {
  let id = "m";
  for (const b of crypto.getRandomValues(new Uint8Array(10))) id += ID_ALPHABET[b % 32]!;
  return id;
}

/** A new memory id not yet in the journal. */
export function freshMemoryId(j: Journal): string {
  for (;;) {
    const id = newMemoryId();
    if (!getMemoryRow(j, id)) return id;
  }
}

/** How many memories and anchors the journal holds (a rebuild must keep every one). */
export function memoryCounts(j: Journal): { memories: number; anchors: number } {
  return {
    memories: j.get<{ n: number }>("SELECT count(*) AS n FROM memories")!.n,
    anchors: j.get<{ n: number }>("SELECT count(*) AS n FROM memory_anchors")!.n,
  };
}
