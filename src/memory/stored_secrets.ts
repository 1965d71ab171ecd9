/**
 * Secrets an older build stored in memory before a rule of the screen
 * existed: found where they are, and redacted in place. The one exception
 * to "superseded, never overwritten": a leaked credential must leave the
 * journal, so only its secret-shaped spans are rewritten, as a write would
 * store them now; ids, times, marks and anchors stay as they were.
 */
import { screenRecord, type StoredSecret } from "../files/mod.ts";
import { looseChunkSecrets, mergeFound } from "../search/mod.ts";
import type { Journal } from "../store/mod.ts";
import { syncSearch } from "./searchable.ts";

/** A memory's screened fields, as stored. */
interface MemoryTexts {
  id: string;
  text: string;
  author: string;
  task_id: string | null;
  tests: string;
  fix: string | null;
  forgotten_by: string | null;
}

/**
 * Memories and personal candidates that hold a secret-shaped value: in a
 * memory's text, author, task, failing tests, fix or who forgot it, or only
 * in its search chunk (`search row`); in a candidate's text, source or
 * author. With `apply`, each is rewritten with those spans redacted (as
 * `remember`, `attempt` and the review queue store text now) and each
 * memory's search chunk and full-text row made again, inside the caller's
 * transaction. Returns where they were, never a value; costs one
 * `screenRecord` per row.
 */
export function redactStoredMemories(j: Journal, apply: boolean): StoredSecret[] {
  const out: StoredSecret[] = [];
  const rows = j.all<MemoryTexts>(
    `SELECT id, text, author, task_id, tests, fix, forgotten_by FROM memories
     ORDER BY recorded_at, id`,
  );
  const chunks = looseChunkSecrets(j, "memory");
  const resync: string[] = [];
  for (const m of rows) {
    const tests = testNames(m.tests);
    const row = screenRecord("memories", m.id, {
      text: m.text,
      author: m.author,
      task_id: m.task_id,
      tests,
      fix: m.fix,
      forgotten_by: m.forgotten_by,
    });
    const found = mergeFound(row?.found, chunks.get(m.id));
    if (found === undefined) continue;
    out.push(found);
    if (!apply) continue;
    if (row) {
      const r = row.redacted;
      j.run(
        `UPDATE memories SET text = ?, author = ?, task_id = ?, tests = ?, fix = ?, forgotten_by = ?
         WHERE id = ?`,
        (r.text as string | undefined) ?? m.text,
        (r.author as string | undefined) ?? m.author,
        (r.task_id as string | undefined) ?? m.task_id,
        r.tests === undefined
          ? m.tests
          : isList(m.tests)
          ? JSON.stringify(r.tests)
          : (r.tests as string[])[0]!,
        (r.fix as string | undefined) ?? m.fix,
        (r.forgotten_by as string | undefined) ?? m.forgotten_by,
        m.id,
      );
    }
    resync.push(m.id);
  }
  if (apply && resync.length > 0) syncSearch(j, resync);

  for (
    const c of j.all<{ id: number; text: string; source: string; author: string }>(
      "SELECT id, text, source, author FROM personal_candidates ORDER BY id",
    )
  ) {
    const row = screenRecord("personal_candidates", c.id, {
      text: c.text,
      source: c.source,
      author: c.author,
    });
    if (row === undefined) continue;
    out.push(row.found);
    if (!apply) continue;
    const r = row.redacted as Partial<Record<"text" | "source" | "author", string>>;
    j.run(
      "UPDATE personal_candidates SET text = ?, source = ?, author = ? WHERE id = ?",
      r.text ?? c.text,
      r.source ?? c.source,
      r.author ?? c.author,
      c.id,
    );
  }
  return out;
}

/** A memory's failing tests, kept as a JSON list; a value that is no list is screened whole. */
function testNames(raw: string): string[] {
  return isList(raw) ? JSON.parse(raw) as string[] : [raw];
}

function isList(raw: string): boolean {
  try {
    const v = JSON.parse(raw);
    return Array.isArray(v) && v.every((t) => typeof t === "string");
  } catch {
    return false;
  }
}
