/**
 * Secrets an older build stored in memory before a rule of the screen
 * existed: found where they are, and redacted in place. The one exception
 * to "superseded, never overwritten": a leaked credential must leave the
 * journal, so only its secret-shaped spans are rewritten, as a write would
 * store them now; ids, times, marks and anchors stay as they were.
 */
import { screenRecord, type StoredSecret } from "../files/mod.ts";
import { looseChunkSecrets, mergeFound } from "../search/mod.ts";
import { ID_PAGE, type Journal, pagesById } from "../store/mod.ts";
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
  const chunks = looseChunkSecrets(j, "memory");
  // Paged by id, the hits kept aside: a journal's memories are never held whole.
  const fixes: { m: MemoryTexts; redacted: Record<string, string | string[]> | undefined }[] = [];
  const memoryPages = pagesById<MemoryTexts>(
    j,
    `SELECT id, text, author, task_id, tests, fix, forgotten_by FROM memories
     WHERE id > ? ORDER BY id LIMIT ${ID_PAGE}`,
    "",
  );
  for (const rows of memoryPages) {
    for (const m of rows) {
      const row = screenRecord("memories", m.id, {
        text: m.text,
        author: m.author,
        task_id: m.task_id,
        tests: testNames(m.tests),
        fix: m.fix,
        forgotten_by: m.forgotten_by,
      });
      const found = mergeFound(row?.found, chunks.get(m.id));
      if (found === undefined) continue;
      out.push(found);
      fixes.push({ m, redacted: row?.redacted });
    }
  }
  if (apply) {
    for (const { m, redacted: r } of fixes) {
      if (r === undefined) continue; // only its search row: made again below
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
    if (fixes.length > 0) syncSearch(j, fixes.map((f) => f.m.id));
  }

  type Candidate = { id: number; text: string; source: string; author: string };
  const candidates: { c: Candidate; redacted: Record<string, string | string[]> }[] = [];
  const candidatePages = pagesById<Candidate>(
    j,
    `SELECT id, text, source, author FROM personal_candidates WHERE id > ? ORDER BY id LIMIT ${ID_PAGE}`,
    0,
  );
  for (const rows of candidatePages) {
    for (const c of rows) {
      const row = screenRecord("personal_candidates", c.id, {
        text: c.text,
        source: c.source,
        author: c.author,
      });
      if (row === undefined) continue;
      out.push(row.found);
      candidates.push({ c, redacted: row.redacted });
    }
  }
  if (apply) {
    for (const { c, redacted } of candidates) {
      const r = redacted as Partial<Record<"text" | "source" | "author", string>>;
      j.run(
        "UPDATE personal_candidates SET text = ?, source = ?, author = ? WHERE id = ?",
        r.text ?? c.text,
        r.source ?? c.source,
        r.author ?? c.author,
        c.id,
      );
    }
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
