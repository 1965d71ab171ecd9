/**
 * The team store in the local journal (one machine): the tables of schema
 * migration "team coordination" in `src/store/schema.ts`. Times are ms from
 * SQLite's clock; writes are short IMMEDIATE transactions, so they wait
 * (busy timeout) rather than fail while the reconciler commits.
 */
import { redactSecrets } from "../files/mod.ts";
import type { Journal } from "../store/mod.ts";
import { newTaskId, planFinish, planHandoff, planResume } from "./task_rules.ts";
import type { Ownership } from "./task_rules.ts";
import type {
  ActiveClaim,
  Actor,
  Claim,
  ReleaseFilter,
  SymbolKey,
  Task,
  TaskEvent,
  TaskMove,
  TeamStore,
} from "./types.ts";

/** SQLite's clock in ms; one value per statement. */
const NOW = "CAST(unixepoch('subsec') * 1000 AS INTEGER)";
const ACTIVE = `c.released_at IS NULL AND c.expires_at > ${NOW}`;
const CLAIM = `c.id, c.repo, c.path, c.qualname, c.kind, c.struct_hash AS structHash,
  c.developer, c.agent, c.session, c.task_id AS taskId, c.task_text AS taskText,
  c.created_at AS createdAt, c.expires_at AS expiresAt, c.released_at AS releasedAt`;
const TASK = `id, text, owner, owner_agent AS ownerAgent, owner_session AS ownerSession, state,
  created_at AS createdAt, updated_at AS updatedAt`;

/** {@link TeamStore} on the local journal, opened read-write. */
export class LocalTeamStore implements TeamStore {
  /** Always `local`. */
  readonly kind = "local";
  readonly where: string;

  /** The store in `journal`, which must be open read-write. */
  constructor(readonly journal: Journal) {
    this.where = journal.file;
  }

  now(): Promise<number> {
    return Promise.resolve(this.journal.get<{ t: number }>(`SELECT ${NOW} AS t`)!.t);
  }

  claim(
    who: Actor,
    keys: SymbolKey[],
    options: { ttlSeconds: number; taskId: string | null; taskText: string | null },
  ): Promise<Claim[]> {
    const j = this.journal;
    // Task text and hand-off notes are people's words: secrets in them are redacted here.
    const taskText = options.taskText === null ? null : redactSecrets(options.taskText);
    const ids = j.tx(() =>
      keys.map((k) => {
        const renewed = j.get<{ id: number }>(
          `UPDATE claims AS c SET expires_at = ${NOW} + ? * 1000, task_id = coalesce(?, task_id),
             task_text = coalesce(?, task_text),
             struct_hash = ?, kind = ?, agent = ?
           WHERE ${ACTIVE} AND developer = ? AND coalesce(session, '') = ?
             AND repo = ? AND path = ? AND qualname = ? RETURNING id`,
          options.ttlSeconds,
          options.taskId,
          taskText,
          k.structHash,
          k.kind,
          who.agent,
          who.developer,
          who.session ?? "",
          k.repo,
          k.path,
          k.qualname,
        );
        if (renewed) return renewed.id;
        return j.get<{ id: number }>(
          `INSERT INTO claims (repo, path, qualname, kind, struct_hash, developer, agent, session,
             task_id, task_text, created_at, expires_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${NOW}, ${NOW} + ? * 1000) RETURNING id`,
          k.repo,
          k.path,
          k.qualname,
          k.kind,
          k.structHash,
          who.developer,
          who.agent,
          who.session,
          options.taskId,
          taskText,
          options.ttlSeconds,
        )!.id;
      })
    );
    return Promise.resolve(
      j.all<Claim>(
        `SELECT ${CLAIM} FROM claims c WHERE c.id IN (SELECT value FROM json_each(?)) ORDER BY c.id`,
        JSON.stringify(ids),
      ),
    );
  }

  release(
    who: Actor,
    filter: ReleaseFilter,
    options: { anySession?: boolean } = {},
  ): Promise<number> {
    const j = this.journal;
    const any = options.anySession === true && (who.session ?? "") === "";
    const mine = `${ACTIVE} AND c.developer = ? AND (? OR coalesce(c.session, '') = ?)`;
    const me = [who.developer, any ? 1 : 0, who.session ?? ""];
    const set = `UPDATE claims AS c SET released_at = ${NOW}`;
    return Promise.resolve(j.tx(() => {
      if ("all" in filter) return j.run(`${set} WHERE ${mine}`, ...me);
      if ("taskId" in filter) {
        return j.run(`${set} WHERE ${mine} AND c.task_id = ?`, ...me, filter.taskId);
      }
      let n = 0;
      for (const k of filter.keys) {
        n += j.run(
          `${set} WHERE ${mine} AND c.repo = ? AND c.path = ? AND c.qualname = ?`,
          ...me,
          k.repo,
          k.path,
          k.qualname,
        );
      }
      return n;
    }));
  }

  activeClaims(viewer: Actor | null): Promise<ActiveClaim[]> {
    const rows = viewer === null
      ? this.journal.all<ActiveClaim>(
        `SELECT ${CLAIM}, 0 AS acked FROM claims c WHERE ${ACTIVE} ORDER BY c.id`,
      )
      : this.journal.all<ActiveClaim>(
        // Acknowledged in this session, or by the person in none (`heimdall conflicts --ack`
        // at a terminal, an MCP server), which holds for every session of theirs.
        `SELECT ${CLAIM}, EXISTS (SELECT 1 FROM acks a WHERE a.claim_id = c.id
           AND a.developer = ?1 AND a.session IN (?2, '')) AS acked FROM claims c
         WHERE ${ACTIVE} AND NOT (c.developer = ?1 AND coalesce(c.session, '') = ?2) ORDER BY c.id`,
        viewer.developer,
        viewer.session ?? "",
      );
    for (const r of rows) r.acked = Boolean(r.acked);
    return Promise.resolve(rows);
  }

  claimHistory(keys: Pick<SymbolKey, "repo" | "path" | "qualname">[]): Promise<Claim[]> {
    return Promise.resolve(this.journal.all<Claim>(
      `SELECT ${CLAIM} FROM claims c
       WHERE (c.qualname, c.path, c.repo) IN
         (SELECT value ->> '$.qualname', value ->> '$.path', value ->> '$.repo' FROM json_each(?))
       ORDER BY c.created_at DESC, c.id DESC`,
      JSON.stringify(keys.map((k) => ({ repo: k.repo, path: k.path, qualname: k.qualname }))),
    ));
  }

  ack(who: Actor, claimIds: number[]): Promise<void> {
    const j = this.journal;
    j.tx(() => {
      for (const id of claimIds) {
        j.run(
          `INSERT INTO acks (developer, session, claim_id, at) VALUES (?, ?, ?, ${NOW})
           ON CONFLICT DO NOTHING`,
          who.developer,
          who.session ?? "",
          id,
        );
      }
    });
    return Promise.resolve();
  }

  startTask(who: Actor, text: string): Promise<Task> {
    const j = this.journal;
    const id = newTaskId();
    j.tx(() => {
      j.run(
        `INSERT INTO tasks (id, text, owner, owner_agent, owner_session, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'open', ${NOW}, ${NOW})`,
        id,
        redactSecrets(text),
        who.developer,
        who.agent,
        who.session,
      );
      this.#event(id, "start", who.developer, null, null);
    });
    return Promise.resolve(this.#task(id)!);
  }

  /** The task with this id; undefined when there is none. */
  getTask(id: string): Promise<Task | undefined> {
    return Promise.resolve(this.#task(id));
  }

  listTasks(options: { includeDone: boolean }): Promise<Task[]> {
    return Promise.resolve(this.journal.all<Task>(
      `SELECT ${TASK} FROM tasks ${options.includeDone ? "" : "WHERE state != 'done'"}
       ORDER BY updated_at DESC, rowid DESC`,
    ));
  }

  currentTask(who: Actor, options: { anySession?: boolean } = {}): Promise<Task | undefined> {
    const any = options.anySession === true && (who.session ?? "") === "";
    return Promise.resolve(this.journal.get<Task>(
      `SELECT ${TASK} FROM tasks
       WHERE owner = ? AND (? OR coalesce(owner_session, '') = ?) AND state = 'open'
       ORDER BY updated_at DESC, rowid DESC LIMIT 1`,
      who.developer,
      any ? 1 : 0,
      who.session ?? "",
    ));
  }

  handoff(who: Actor, id: string, to: string, note: string | null): Promise<TaskMove> {
    return Promise.resolve(this.#move(id, (t) => planHandoff(t, id, who, to), {
      kind: "handoff",
      actor: who.developer,
      to,
      note,
    }));
  }

  resume(who: Actor, id: string, take: boolean): Promise<TaskMove> {
    return Promise.resolve(this.#move(id, (t) => planResume(t, id, who, take), {
      kind: "resume",
      actor: who.developer,
      to: null,
      note: null,
    }));
  }

  finish(who: Actor, id: string): Promise<TaskMove> {
    return Promise.resolve(this.#move(id, (t) => planFinish(t, id, who), {
      kind: "done",
      actor: who.developer,
      to: null,
      note: null,
    }));
  }

  /** The task's history, oldest first. */
  taskEvents(id: string): Promise<TaskEvent[]> {
    return Promise.resolve(this.journal.all<TaskEvent>(
      `SELECT task_id AS taskId, kind, actor, to_person AS "to", note, at FROM task_events
       WHERE task_id = ? ORDER BY id`,
      id,
    ));
  }

  taskClaims(id: string): Promise<Claim[]> {
    return Promise.resolve(this.journal.all<Claim>(
      `SELECT ${CLAIM} FROM claims c WHERE c.task_id = ?
       ORDER BY (${ACTIVE}) DESC, c.id`,
      id,
    ));
  }

  /** Closes the journal. */
  close(): Promise<void> {
    this.journal.close();
    return Promise.resolve();
  }

  #task(id: string): Task | undefined {
    return this.journal.get<Task>(`SELECT ${TASK} FROM tasks WHERE id = ?`, id);
  }

  #event(
    id: string,
    kind: TaskEvent["kind"],
    actor: string,
    to: string | null,
    note: string | null,
  ) {
    this.journal.run(
      `INSERT INTO task_events (task_id, kind, actor, to_person, note, at) VALUES (?, ?, ?, ?, ?, ${NOW})`,
      id,
      kind,
      actor,
      to,
      note === null ? null : redactSecrets(note),
    );
  }

  /** Reads, decides (pure), writes: one transaction, so two moves of one task serialise. */
  #move(
    id: string,
    plan: (task: Task | undefined) => Ownership,
    event: Omit<TaskEvent, "taskId" | "at">,
  ): TaskMove {
    const j = this.journal;
    const claimsMoved = j.tx(() => {
      const next = plan(this.#task(id));
      j.run(
        `UPDATE tasks SET owner = ?, owner_agent = ?, owner_session = ?, state = ?, updated_at = ${NOW}
         WHERE id = ?`,
        next.owner,
        next.ownerAgent,
        next.ownerSession,
        next.state,
        id,
      );
      if (next.state !== "done") {
        // A claim handed to another person is theirs now: a warning about it
        // acknowledged while it was someone else's is shown again.
        j.run(
          `DELETE FROM acks WHERE claim_id IN (SELECT c.id FROM claims AS c
             WHERE ${ACTIVE} AND c.task_id = ? AND c.developer != ?)`,
          id,
          next.owner,
        );
        // The new owner's own claims on the same code merge into the task's
        // (one active claim per person and symbol, the later expiry kept).
        const d = `d.released_at IS NULL AND d.expires_at > ${NOW} AND d.developer = ?
          AND coalesce(d.session, '') = ? AND coalesce(d.task_id, '') != ?`;
        const same = "d.repo = c.repo AND d.path = c.path AND d.qualname = c.qualname";
        const to = [next.owner, next.ownerSession ?? "", id];
        j.run(
          `UPDATE claims AS c SET expires_at = (SELECT max(d.expires_at) FROM claims AS d
             WHERE ${d} AND ${same}) WHERE ${ACTIVE} AND c.task_id = ? AND EXISTS
             (SELECT 1 FROM claims AS d WHERE ${d} AND ${same} AND d.expires_at > c.expires_at)`,
          ...to,
          id,
          ...to,
        );
        j.run(
          `UPDATE claims AS d SET released_at = ${NOW} WHERE ${d} AND EXISTS
             (SELECT 1 FROM claims AS c WHERE ${ACTIVE} AND c.task_id = ? AND ${same})`,
          ...to,
          id,
        );
      }
      const moved = next.state === "done"
        ? j.run(`UPDATE claims AS c SET released_at = ${NOW} WHERE ${ACTIVE} AND c.task_id = ?`, id)
        : j.run(
          `UPDATE claims AS c SET developer = ?, agent = ?, session = ? WHERE ${ACTIVE} AND c.task_id = ?`,
          next.owner,
          next.ownerAgent,
          next.ownerSession,
          id,
        );
      this.#event(id, event.kind, event.actor, event.to, event.note);
      return moved;
    });
    return { task: this.#task(id)!, claimsMoved };
  }
}
