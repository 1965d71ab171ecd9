/**
 * The team's shared memory in PostgreSQL (migration 2 of `pg_schema.ts`):
 * each write is one transaction that locks the rows of its anchors' keys
 * (sorted), takes one instant from the server's clock after the locks are
 * held, decides with memory's own rules (pure: `findRepeat`, `passResolves`)
 * on the rows as they are then, writes, and takes the next revision last.
 * Two machines writing about the same code therefore serialise: the second
 * sees the first's row, and its instant is later. Only names, paths,
 * hashes and memory text (already redacted) are sent.
 */
import {
  findRepeat,
  MemoryInputError,
  type MemoryKind,
  type MemoryRow,
  notCurrent,
  passResolves,
  type Repeat,
  type Scope,
  withAccount,
} from "../memory/mod.ts";
import { type PortableAnchor, portableKey, portableSet } from "./memory_anchor.ts";
import type { PgTeamStore } from "./pg_store.ts";

const ms = (col: string) => `floor(extract(epoch from ${col}) * 1000)::float8`;

/** A shared row as memory's {@link MemoryRow} (times in ms), from alias `m`. */
const ROW = `m.id, m.kind, m.text, m.author, m.scope, ${ms("m.valid_from")} AS valid_from,
  ${ms("m.valid_to")} AS valid_to, ${ms("m.recorded_at")} AS recorded_at,
  ${ms("m.superseded_at")} AS superseded_at, m.superseded_by,
  ${ms("m.forgotten_at")} AS forgotten_at, m.forgotten_by, m.task_id, m.outcome, m.status,
  m.count, ${ms("m.last_seen_at")} AS last_seen_at, m.tests, m.fix, m.resolved_by,
  ${ms("m.resolved_at")} AS resolved_at, ${ms("m.updated_at")} AS updated_at`;

/** What every shared write carries. */
interface Common {
  id: string;
  text: string;
  author: string;
  scope: Exclude<Scope, "private">;
  taskId: string | null;
  anchors: PortableAnchor[];
}

/** A decision, convention, note or fact to store. */
export interface SharedRemember extends Common {
  kind: Exclude<MemoryKind, "attempt">;
  /** Null: the server's instant of the write. */
  validFrom: number | null;
  validTo: number | null;
  /** Ids in the store it replaces, whatever their anchors; each must still be current. */
  explicit: string[];
  /** Supersede the current one of its kind on exactly the same anchors. */
  supersede: boolean;
}

/** An attempt to store. */
export interface SharedAttempt extends Common {
  outcome: "failed" | "passed";
  tests: string[];
  fix: string | null;
}

/** What a shared attempt did. */
export interface SharedAttemptResult {
  /** The new row, or the open failure it repeated (count raised). */
  row: MemoryRow;
  /** The revision the write took. */
  rev: number;
  repeat: Omit<Repeat, "row" | "tests"> | null;
  /** Passed: ids of the open failures it resolved. */
  resolved: string[];
}

/**
 * Stores a decision, convention, note or fact, superseding in the same
 * transaction the current one of its kind on the same anchors (when
 * `supersede`) and those named in `explicit`. Throws
 * {@link MemoryInputError} (nothing written) when one named in `explicit`
 * is no longer current by then. Returns the row as stored and the ids
 * superseded, all stamped with one instant of the server's clock.
 */
export function storeRemember(
  store: PgTeamStore,
  w: SharedRemember,
): Promise<{ row: MemoryRow; rev: number; superseded: string[] }> {
  return store.transaction(async () => {
    const explicitKeys = w.explicit.length === 0 ? [] : (await store.query<{ key: string }>(
      "SELECT key FROM heimdall.memory_anchors WHERE memory_id = ANY($1)",
      [w.explicit],
    )).map((r) => r.key);
    const t = await lockAndStamp(store, [...w.anchors.map(portableKey), ...explicitKeys]);
    const replaced = new Set<string>();
    if (w.explicit.length > 0) {
      const rows = await store.query<Pick<MemoryRow, "id" | "forgotten_at" | "superseded_by">>(
        `SELECT id, ${ms("forgotten_at")} AS forgotten_at, superseded_by
         FROM heimdall.memories WHERE id = ANY($1) ORDER BY id FOR UPDATE`,
        [w.explicit],
      );
      for (const r of rows) {
        if (r.forgotten_at !== null || r.superseded_by !== null) throw notCurrent(r);
        replaced.add(r.id);
      }
    }
    const set = portableSet(w.anchors);
    if (w.supersede) {
      for (
        const r of await store.query<{ id: string }>(
          // One whose valid time ended before the new one's begins is history: it stays.
          `SELECT id FROM heimdall.memories
           WHERE anchor_set = $1 AND kind = $2 AND superseded_at IS NULL AND forgotten_at IS NULL
             AND (valid_to IS NULL
               OR valid_to > coalesce(to_timestamp($3::float8 / 1000), $4::timestamptz))
           ORDER BY id FOR UPDATE`,
          [set, w.kind, w.validFrom, t],
        )
      ) replaced.add(r.id);
    }
    await insertRow(store, w, t, set, {
      kind: w.kind,
      validFrom: w.validFrom,
      validTo: w.validTo,
      outcome: null,
      status: null,
      tests: "[]",
      fix: null,
    });
    const superseded = [...replaced];
    if (superseded.length > 0) {
      await store.query(
        `UPDATE heimdall.memories SET superseded_at = $2::timestamptz, superseded_by = $3,
           updated_at = $2::timestamptz WHERE id = ANY($1)`,
        [superseded, t, w.id],
      );
    }
    await bumpRevision(store, [w.id, ...superseded]);
    return { ...(await rowById(store, w.id)), superseded };
  });
}

/**
 * Stores an attempt. A failure repeating an open failure on exactly the same
 * anchors (same failing tests, or wording alike: memory's `findRepeat`)
 * raises that one's count instead; a pass resolves the open failures sharing
 * an anchor with it whose failing tests it covers (`passResolves`). One
 * transaction, one instant of the server's clock.
 */
export function storeAttempt(store: PgTeamStore, w: SharedAttempt): Promise<SharedAttemptResult> {
  return store.transaction(async () => {
    const keys = w.anchors.map(portableKey);
    const t = await lockAndStamp(store, keys);
    const set = portableSet(w.anchors);
    if (w.outcome === "failed") {
      const open = await store.query<MemoryRow>(
        `SELECT ${ROW} FROM heimdall.memories m
         WHERE m.anchor_set = $1 AND m.kind = 'attempt' AND m.status = 'open'
           AND m.superseded_at IS NULL AND m.forgotten_at IS NULL
         ORDER BY m.recorded_at DESC, m.id FOR UPDATE`,
        [set],
      );
      const repeat = findRepeat(open, w.tests, w.text);
      if (repeat) {
        await store.query(
          `UPDATE heimdall.memories SET count = count + 1, last_seen_at = $2::timestamptz,
             tests = $3, updated_at = $2::timestamptz WHERE id = $1`,
          [repeat.row.id, t, JSON.stringify(repeat.tests)],
        );
        await bumpRevision(store, [repeat.row.id]);
        return {
          ...(await rowById(store, repeat.row.id)),
          repeat: { matchedBy: repeat.matchedBy, similarity: repeat.similarity },
          resolved: [],
        };
      }
    }
    await insertRow(store, w, t, set, {
      kind: "attempt",
      validFrom: null,
      validTo: null,
      outcome: w.outcome,
      status: w.outcome === "failed" ? "open" : null,
      tests: JSON.stringify(w.tests),
      fix: w.fix,
    });
    let resolved: string[] = [];
    if (w.outcome === "passed") {
      const failures = await store.query<MemoryRow>(
        `SELECT ${ROW} FROM heimdall.memories m
         WHERE m.id IN (SELECT memory_id FROM heimdall.memory_anchors WHERE key = ANY($1))
           AND m.status = 'open' AND m.forgotten_at IS NULL AND m.superseded_at IS NULL
         ORDER BY m.recorded_at, m.id FOR UPDATE`,
        [keys],
      );
      resolved = failures.filter((f) => passResolves(f, w.tests)).map((f) => f.id);
      if (resolved.length > 0) {
        await store.query(
          `UPDATE heimdall.memories SET status = 'resolved', resolved_by = $2,
             resolved_at = $3::timestamptz, updated_at = $3::timestamptz WHERE id = ANY($1)`,
          [resolved, w.id, t],
        );
      }
    }
    await bumpRevision(store, [w.id, ...resolved]);
    return { ...(await rowById(store, w.id)), repeat: null, resolved };
  });
}

/**
 * Joins an agent's account of a failure to the open shared failure on exactly
 * `w.anchors` that `w.tests`/`w.text` would repeat (memory's
 * `describeFailure`); its count stays. Returns the failure's row, or
 * undefined when none matches (nothing written).
 */
export function storeDescribe(
  store: PgTeamStore,
  w: Omit<SharedAttempt, "outcome" | "fix">,
): Promise<MemoryRow | undefined> {
  return store.transaction(async () => {
    const t = await lockAndStamp(store, w.anchors.map(portableKey));
    const open = await store.query<MemoryRow>(
      `SELECT ${ROW} FROM heimdall.memories m
       WHERE m.anchor_set = $1 AND m.kind = 'attempt' AND m.status = 'open'
         AND m.superseded_at IS NULL AND m.forgotten_at IS NULL
       ORDER BY m.recorded_at DESC, m.id FOR UPDATE`,
      [portableSet(w.anchors)],
    );
    const repeat = findRepeat(open, w.tests, w.text);
    if (!repeat) return undefined;
    const text = withAccount(repeat.row.text, w.text);
    if (text !== undefined) {
      await store.query(
        `UPDATE heimdall.memories SET text = $2, updated_at = $3::timestamptz WHERE id = $1`,
        [repeat.row.id, text, t],
      );
      await bumpRevision(store, [repeat.row.id]);
    }
    return (await rowById(store, repeat.row.id)).row;
  });
}

/**
 * Marks a shared memory forgotten by `author`, at the server's instant.
 * Returns undefined when the store has no such id (it is this machine's
 * own); throws {@link MemoryInputError} when it was forgotten already.
 */
export function storeForget(
  store: PgTeamStore,
  id: string,
  author: string,
): Promise<MemoryRow | undefined> {
  return store.transaction(async () => {
    const [row] = await store.query<MemoryRow>(
      `SELECT ${ROW} FROM heimdall.memories m WHERE m.id = $1 FOR UPDATE`,
      [id],
    );
    if (!row) return undefined;
    if (row.forgotten_at !== null) {
      throw new MemoryInputError(
        `Memory ${id} was already forgotten on ${
          new Date(row.forgotten_at).toISOString()
        } by ${row.forgotten_by}`,
      );
    }
    await store.query(
      `WITH t AS (SELECT clock_timestamp() AS t)
       UPDATE heimdall.memories SET forgotten_at = t.t, forgotten_by = $2, updated_at = t.t
       FROM t WHERE id = $1`,
      [id, author],
    );
    await bumpRevision(store, [id]);
    return (await rowById(store, id)).row;
  });
}

/** One changed row, as {@link storeChanges} returns it. */
export interface SharedChange {
  row: MemoryRow;
  anchors: PortableAnchor[];
  rev: number;
}

/** Where a copy stands in the store's change feed: after this revision and id. */
export interface FeedCursor {
  rev: number;
  id: string;
}

/**
 * The rows written after `after` (by revision, then id), at most `limit`,
 * oldest change first, each with its anchors. Reading them all, batch after
 * batch, from any cursor misses nothing: revisions commit in order.
 * `wentBack` is true when the store has gone back in time (restored from an
 * older backup): its feed is behind the cursor, or the row the cursor
 * stands on is gone or older (rows are never deleted, and a row's revision
 * only grows); revisions then count again from the backup's, and some after
 * the cursor's were given out already. One round trip.
 */
export async function storeChanges(
  store: PgTeamStore,
  after: FeedCursor,
  limit: number,
): Promise<{ changes: SharedChange[]; wentBack: boolean }> {
  // The feed's row, joined to the changes: the one row there is when nothing changed.
  const rows = await store.query<
    SharedChange & MemoryRow & { feed: number; at_cursor: number | null }
  >(
    `SELECT f.rev AS feed,
       (SELECT c.rev FROM heimdall.memories c WHERE c.id = $2) AS at_cursor, x.*
     FROM heimdall.memory_feed f LEFT JOIN LATERAL (
       SELECT ${ROW}, m.rev, (SELECT json_agg(json_build_object(
           'target', a.target, 'repo', a.repo, 'path', a.path, 'qualname', a.qualname,
           'kind', a.kind, 'name', a.name, 'structHash', a.struct_hash, 'shape', a.shape)
           ORDER BY a.ord) FROM heimdall.memory_anchors a WHERE a.memory_id = m.id) AS anchors
       FROM heimdall.memories m WHERE (m.rev, m.id) > ($1, $2) ORDER BY m.rev, m.id LIMIT $3
     ) x ON true ORDER BY x.rev, x.id`,
    [after.rev, after.id, limit],
  );
  const head = rows[0];
  return {
    wentBack: head !== undefined && (head.feed < after.rev ||
      (after.id !== "" && (head.at_cursor === null || head.at_cursor < after.rev))),
    changes: rows.filter((r) => r.id !== null).map((
      { rev, anchors, feed: _feed, at_cursor: _at, ...row },
    ) => ({ row: row as MemoryRow, anchors: anchors ?? [], rev })),
  };
}

/** The ids among `ids` that the store holds. */
export async function storedIds(store: PgTeamStore, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  return new Set(
    (await store.query<{ id: string }>("SELECT id FROM heimdall.memories WHERE id = ANY($1)", [
      [...ids],
    ])).map((r) => r.id),
  );
}

/**
 * Locks the rows of `keys` (created when new), in one sorted order every
 * writer shares, then reads the server's clock: an instant later than any
 * write about the same code that committed before. Returns it as text, to
 * be passed back as `$n::timestamptz` without losing precision.
 */
async function lockAndStamp(store: PgTeamStore, keys: readonly string[]): Promise<string> {
  const sorted = [...new Set(keys)];
  await store.query(
    `INSERT INTO heimdall.memory_locks (key)
     SELECT k FROM unnest($1::text[]) AS k ORDER BY k ON CONFLICT DO NOTHING`,
    [sorted],
  );
  await store.query(
    "SELECT key FROM heimdall.memory_locks WHERE key = ANY($1) ORDER BY key FOR UPDATE",
    [sorted],
  );
  return (await store.query<{ t: string }>("SELECT clock_timestamp()::text AS t"))[0]!.t;
}

async function insertRow(
  store: PgTeamStore,
  w: Common,
  t: string,
  set: string,
  f: {
    kind: MemoryKind;
    validFrom: number | null;
    validTo: number | null;
    outcome: string | null;
    status: string | null;
    tests: string;
    fix: string | null;
  },
): Promise<void> {
  await store.query(
    `INSERT INTO heimdall.memories (id, kind, text, author, scope, valid_from, valid_to,
       recorded_at, task_id, outcome, status, count, last_seen_at, tests, fix, updated_at,
       anchor_set, rev)
     VALUES ($1, $2, $3, $4, $5, coalesce(to_timestamp($6::float8 / 1000), $8::timestamptz),
       to_timestamp($7::float8 / 1000), $8::timestamptz, $9, $10, $11, 1, $8::timestamptz, $12,
       $13, $8::timestamptz, $14, 0)`,
    [
      w.id,
      f.kind,
      w.text,
      w.author,
      w.scope,
      f.validFrom,
      f.validTo,
      t,
      w.taskId,
      f.outcome,
      f.status,
      f.tests,
      f.fix,
      set,
    ],
  );
  const a = w.anchors;
  await store.query(
    `INSERT INTO heimdall.memory_anchors (memory_id, ord, key, target, repo, path, qualname, kind,
       name, struct_hash, shape)
     SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[],
       $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])`,
    [
      w.id,
      a.map((_, i) => i),
      a.map(portableKey),
      a.map((x) => x.target),
      a.map((x) => x.repo),
      a.map((x) => x.path),
      a.map((x) => x.qualname),
      a.map((x) => x.kind),
      a.map((x) => x.name),
      a.map((x) => x.structHash),
      a.map((x) => x.shape),
    ],
  );
}

/** Takes the next revision (the transaction's last lock) and gives it to `ids`. */
export async function bumpRevision(store: PgTeamStore, ids: readonly string[]): Promise<void> {
  await store.query(
    `WITH f AS (UPDATE heimdall.memory_feed SET rev = rev + 1 RETURNING rev)
     UPDATE heimdall.memories m SET rev = f.rev FROM f WHERE m.id = ANY($1)`,
    [[...ids]],
  );
}

async function rowById(store: PgTeamStore, id: string): Promise<{ row: MemoryRow; rev: number }> {
  const [{ rev, ...row }] = await store.query<MemoryRow & { rev: number }>(
    `SELECT ${ROW}, m.rev FROM heimdall.memories m WHERE m.id = $1`,
    [id],
  ) as [MemoryRow & { rev: number }];
  return { row, rev };
}
