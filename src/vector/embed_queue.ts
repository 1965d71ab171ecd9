/**
 * The embedding pass's order of work (see embed_pass.ts): chunks of just
 * committed paths first, then notes and memories, then the backlog root by
 * root, most recently touched root first, each root walked in chunk order
 * with a cursor so that taking a batch never rescans what is done.
 */
import type { Journal } from "../store/mod.ts";
import type { ChunkToEmbed } from "./embed_text.ts";

/** Committed paths remembered for priority; past this a bulk pass is running and the backlog order takes over. */
const PRIORITY_MAX = 1024;
/** Roots are re-ordered by recency at most this often. */
const ROOT_ORDER_MS = 60_000;

const CHUNK_COLUMNS =
  `c.id, c.path_id, c.node_id, c.source, c.title, c.start_line, c.end_line, c.text_hash,
  c.text, n.kind, n.signature, n.doc, p.path, p.hash, p.rel, p.summary`;
const CHUNK_JOINS = `FROM chunks c LEFT JOIN nodes n ON n.id = c.node_id
  LEFT JOIN paths p ON p.id = c.path_id`;
/** No vector of the model for the chunk's current text. */
export const MISSING = `NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = c.id
  AND v.embedding_model = ? AND v.text_hash = c.text_hash)`;

/** Which chunks need a vector next. One instance per embedding pass. */
export class EmbedQueue {
  readonly #priority = new Set<number>();
  #roots: number[] = [];
  #rootsAt = -Infinity;
  #rootIdx = 0;
  #cursor = 0;
  /** True once a backlog round found nothing left; reset by {@link restart}. */
  #roundDone = false;
  /** The round just ended (read once by {@link roundEnded}). */
  #ended = false;

  constructor(readonly journal: Journal) {}

  /**
   * These paths were just committed: their chunks go first. A bulk commit
   * (many paths) restarts the backlog round instead.
   */
  noteCommitted(pathIds: readonly number[]): void {
    if (this.#priority.size + pathIds.length > PRIORITY_MAX) {
      this.#priority.clear();
      this.restart();
      return;
    }
    for (const id of pathIds) this.#priority.add(id);
  }

  /** Starts a new backlog round from the most recent root (a model switch, a bulk commit, a failure). */
  restart(): void {
    this.#roundDone = false;
    this.#ended = false;
    this.#rootIdx = 0;
    this.#cursor = 0;
    this.#rootsAt = -Infinity;
  }

  /** True once after a backlog round has gone through every root. */
  roundEnded(): boolean {
    const ended = this.#ended;
    this.#ended = false;
    return ended;
  }

  /** Chunks without a vector of `model` for their current text. */
  pendingCount(model: string): number {
    return this.journal.get<{ n: number }>(
      `SELECT count(*) AS n FROM chunks c WHERE ${MISSING}`,
      model,
    )!.n;
  }

  /**
   * Up to `size` chunks needing a vector of `model`, in the order above;
   * `skip` drops chunks known to be unreadable now (their file changed).
   */
  take(model: string, size: number, skip: (c: ChunkToEmbed) => boolean): ChunkToEmbed[] {
    const j = this.journal;
    const out: ChunkToEmbed[] = [];
    const room = () => size - out.length;
    while (this.#priority.size > 0 && room() > 0) {
      const ids = [...this.#priority].slice(0, 64);
      const fresh = j.all<ChunkToEmbed>(
        `SELECT ${CHUNK_COLUMNS} ${CHUNK_JOINS}
         WHERE c.path_id IN (${ids.map(() => "?").join(",")}) AND ${MISSING} ORDER BY c.id`,
        ...ids,
        model,
      ).filter((r) => !skip(r));
      const take = fresh.slice(0, room());
      out.push(...take);
      // A path leaves the set once nothing of it is left beyond this batch.
      const left = new Set(fresh.slice(take.length).map((r) => r.path_id));
      for (const id of ids) if (!left.has(id)) this.#priority.delete(id);
    }
    if (room() > 0) {
      out.push(
        ...j.all<ChunkToEmbed>(
          `SELECT ${CHUNK_COLUMNS} ${CHUNK_JOINS}
           WHERE c.path_id IS NULL AND ${MISSING} ORDER BY c.id LIMIT ?`,
          model,
          room(),
        ).filter((r) => !out.some((o) => o.id === r.id)),
      );
    }
    while (room() > 0 && !this.#roundDone) {
      const root = this.#currentRoot();
      if (root === undefined) {
        this.#roundDone = true;
        this.#ended = true;
        break;
      }
      const rows = j.all<ChunkToEmbed>(
        `SELECT ${CHUNK_COLUMNS} ${CHUNK_JOINS}
         WHERE c.id > ? AND p.root_id = ? AND ${MISSING} ORDER BY c.id LIMIT ?`,
        this.#cursor,
        root,
        model,
        room(),
      );
      if (rows.length === 0) {
        this.#rootIdx++;
        this.#cursor = 0;
        continue;
      }
      this.#cursor = rows[rows.length - 1]!.id;
      for (const r of rows) {
        if (!skip(r) && !out.some((o) => o.id === r.id)) out.push(r);
      }
    }
    return out;
  }

  /** Roots by recency (newest file modification first), refreshed every minute. */
  #currentRoot(): number | undefined {
    const now = Date.now();
    if (now - this.#rootsAt > ROOT_ORDER_MS) {
      const before = this.#roots[this.#rootIdx];
      this.#roots = this.journal.all<{ root_id: number }>(
        `SELECT root_id FROM paths GROUP BY root_id ORDER BY max(mtime_ms) DESC, root_id`,
      ).map((r) => r.root_id);
      this.#rootsAt = now;
      // Keep the place: a root being worked on stays current.
      const at = before === undefined ? -1 : this.#roots.indexOf(before);
      if (at >= 0) this.#rootIdx = at;
      else if (before !== undefined) this.#cursor = 0;
    }
    return this.#roots[this.#rootIdx];
  }
}
