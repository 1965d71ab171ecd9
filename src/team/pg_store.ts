/**
 * The team store in a shared PostgreSQL: every agent of the team writes here
 * directly, so a claim is visible to everyone at the next query. Every time
 * is the server's `now()`, never a client's clock. The only file that imports
 * `pg`, and only when a team URL is configured (dynamic import).
 */
import { redactDeep } from "../files/mod.ts";
import { PG_MIGRATIONS } from "./pg_schema.ts";
import { newTaskId, planFinish, planHandoff, planResume } from "./task_rules.ts";
import type { Ownership } from "./task_rules.ts";
import { parseTeamUrl, redactUrl, TeamStoreError, TeamUrlError } from "./team_url.ts";
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

/**
 * The slice of `pg.Client` this store uses.
 *
 * @internal
 */
interface PgClient {
  connect(): Promise<unknown>;
  on(event: "error", listener: (e: Error) => void): unknown;
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
  end(): Promise<void>;
  /** pg's wire connection: its socket is destroyed when the server stops answering. */
  connection?: { stream?: { destroy(): void } };
}

/** How long a statement waits for a lock another session holds before the server gives up. */
export const LOCK_WAIT_S = 5;
/**
 * How long any one statement may take before the server cancels it; a
 * socket silent for {@link ANSWER_WAIT_S} (a server or link that stopped
 * answering after login) is given up on by this client.
 */
export const STATEMENT_WAIT_S = 8;
/** How long this client waits for any answer before it drops the connection. */
export const ANSWER_WAIT_S = 10;
/** How long connecting and logging in may take. */
export const CONNECT_WAIT_S = 5;

const ms = (col: string) => `floor(extract(epoch from ${col}) * 1000)::float8`;
const ACTIVE = "c.released_at IS NULL AND c.expires_at > now()";
const CLAIM = `c.id, c.repo, c.path, c.qualname, c.kind, c.struct_hash AS "structHash",
  c.developer, c.agent, c.session, c.task_id AS "taskId", c.task_text AS "taskText",
  ${ms("c.created_at")} AS "createdAt", ${ms("c.expires_at")} AS "expiresAt",
  ${ms("c.released_at")} AS "releasedAt"`;
const TASK = `id, text, owner, owner_agent AS "ownerAgent", owner_session AS "ownerSession", state,
  ${ms("created_at")} AS "createdAt", ${ms("updated_at")} AS "updatedAt"`;
/** SQLSTATE codes: the schema or table is missing (a database never connected to). */
const MISSING = new Set(["3F000", "42P01"]);

/**
 * Connects to the team store at `url` and brings its schema up to date
 * (creating it on first use, under an advisory lock so two first clients do
 * not race). Throws {@link TeamStoreError} naming the URL without its
 * password when the server cannot be reached, refuses us, or is newer.
 * Cost: one connection (a few ms on loopback) and one version query.
 */
export async function openPgTeamStore(url: string): Promise<PgTeamStore> {
  const store = new PgTeamStore(await connect(url), url);
  try {
    store.schemaVersion = await migrate(store.client, url);
  } catch (e) {
    await store.close();
    throw e;
  }
  return store;
}

/** One connection; `onError` hears of it dying while idle (a server restart, a network cut). */
async function connect(url: string, onError: () => void = () => {}): Promise<PgClient> {
  const { default: pg } = await import("pg");
  let client: PgClient;
  try {
    // Parsing the URL happens here: a value that slipped past parseTeamUrl
    // must not surface as an internal error quoting the password.
    client = new pg.Client({
      connectionString: parseTeamUrl(url),
      connectionTimeoutMillis: CONNECT_WAIT_S * 1000,
      // Every statement is bounded: a teammate's transaction holding a lock,
      // or a server that stopped answering, fails the command in seconds.
      lock_timeout: LOCK_WAIT_S * 1000,
      statement_timeout: STATEMENT_WAIT_S * 1000,
      application_name: "heimdall",
      // bigint ids as numbers: ids stay far below 2^53.
      types: {
        getTypeParser: (oid: number, format?: string) =>
          oid === 20 ? Number : pg.types.getTypeParser(oid, format as "text"),
      },
    });
  } catch (e) {
    if (e instanceof TeamUrlError) throw e;
    throw new TeamUrlError(
      `Invalid team URL "${
        redactUrl(url)
      }": the PostgreSQL driver cannot read it; percent-encode special characters in the user name and password`,
    );
  }
  // Unheard, an idle connection's error would end the process.
  client.on("error", onError);
  try {
    await client.connect();
  } catch (e) {
    // Bounded: a server that stopped answering never acknowledges the goodbye.
    await end(client, false);
    const message = (e as Error).message;
    if (netDenied(e)) {
      const u = new URL(url);
      const host = `${u.hostname}:${u.port || "5432"}`;
      throw new TeamStoreError(
        `Cannot reach the team store "${
          redactUrl(url)
        }": this process is not allowed to connect to ${host}; run it with --allow-net (as \`deno task heimdall\`, the installed \`heimdall\` and the compiled binary do) or --allow-net=${host}`,
      );
    }
    // pg's own words for its connection timer running out.
    if (/^timeout expired$|due to connection timeout/.test(message)) {
      throw noAnswer(redactUrl(url), CONNECT_WAIT_S, "logging in");
    }
    const refused = loginRefused(e, url);
    if (refused !== null) {
      throw new TeamStoreError(`Cannot log in to the team store "${redactUrl(url)}": ${refused}`);
    }
    throw new TeamStoreError(
      /password must be a string/.test(message)
        ? `Cannot log in to the team store "${
          redactUrl(url)
        }": the server asks for a password and none was given; put it in the URL (postgres://USER:PASSWORD@HOST/DB, special characters percent-encoded) or in PGPASSWORD`
        : `Cannot reach the team store "${
          redactUrl(url)
        }": ${message}; check that the server runs and the URL is right, or \`heimdall team disconnect\` to work on this machine's journal`,
    );
  }
  return client;
}

/**
 * What the server said when it refused the login for a reason the URL
 * holds (the password, the user name, the database name), with the fix; null
 * for any other error. The names come from the URL, decoded.
 */
function loginRefused(e: unknown, url: string): string | null {
  const code = (e as { code?: string }).code;
  const u = new URL(url);
  const name = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const user = name(u.username);
  const db = name(u.pathname.replace(/^\//, "")) || user;
  const quoted = (s: string) => /^[a-z_][a-z0-9_]*$/.test(s) ? s : `"${s.replaceAll('"', '""')}"`;
  if (code === "28P01") {
    return `the server refused the password for user "${user}"; put the right one in the URL (postgres://USER:PASSWORD@HOST/DB, special characters percent-encoded) or in PGPASSWORD`;
  }
  if (code === "3D000") {
    return `the server has no database "${db}"; create it (CREATE DATABASE ${
      quoted(db)
    }) or fix the database name in the URL`;
  }
  if (code === "28000" && /pg_hba\.conf/.test((e as Error).message)) {
    return `the server does not let user "${user}" in to database "${db}" from this host (${
      (e as Error).message
    }); ask its administrator for a pg_hba.conf entry, or add ?sslmode=verify-full to the URL if it takes only encrypted connections`;
  }
  if (code === "28000" && /role .* does not exist/.test((e as Error).message)) {
    return `the server has no user "${user}"; fix the user name in the URL, or create the role (CREATE ROLE ${
      quoted(user)
    } LOGIN)`;
  }
  return null;
}

/**
 * True when Deno's permissions, not the network, refused the connection: a
 * host outside `--allow-net` (an address is refused by name, a host name
 * already at its lookup, as EPERM).
 */
function netDenied(e: unknown): boolean {
  return e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied ||
    /^Requires net access/.test((e as Error).message) ||
    ((e as { code?: string; syscall?: string }).code === "EPERM" &&
      (e as { syscall?: string }).syscall === "getaddrinfo");
}

/**
 * Sends one statement on `client`, waiting at most {@link ANSWER_WAIT_S}:
 * a silent socket is destroyed (the client is then unusable; `onSilent`
 * hears of it) and the wait ends in {@link TeamStoreError}. A statement the
 * server cancelled for waiting on a lock or running too long is reported
 * the same way. Other errors are passed on as they are.
 */
async function ask<R>(
  client: PgClient,
  sql: string,
  params: unknown[],
  where: string,
  onSilent: () => void = () => {},
): Promise<R[]> {
  const sent = client.query<R>(sql, params);
  // Settled after a timeout, it must not become an unhandled rejection.
  sent.catch(() => {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onSilent();
      client.connection?.stream?.destroy();
      reject(noAnswer(where, ANSWER_WAIT_S));
    }, ANSWER_WAIT_S * 1000);
  });
  try {
    return (await Promise.race([sent, silent])).rows;
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "55P03") {
      throw noAnswer(where, LOCK_WAIT_S, "waiting for a lock another session holds");
    }
    if (code === "57014") throw noAnswer(where, STATEMENT_WAIT_S);
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

function noAnswer(where: string, seconds: number, why = ""): TeamStoreError {
  return new TeamStoreError(
    `Cannot reach the team store "${where}" (no answer in ${seconds} s${
      why ? `: ${why}` : ""
    }); retry, or check the server`,
  );
}

/** The oldest PostgreSQL the schema runs on: `gen_random_uuid()` is built in from 13. */
export const MIN_SERVER_VERSION = 130000;

/**
 * The refusal for a server older than {@link MIN_SERVER_VERSION}
 * (`server_version_num`, e.g. 120017), naming its version and the remedy;
 * undefined for one new enough (pure).
 */
export function oldServerProblem(versionNum: number, where: string): string | undefined {
  if (!(versionNum > 0) || versionNum >= MIN_SERVER_VERSION) return undefined;
  const major = Math.floor(versionNum / 10000);
  return `The team store "${where}" runs PostgreSQL ${major}; heimdall needs PostgreSQL 13 or later (its schema uses the built-in gen_random_uuid()): upgrade the server, or connect to one that is 13 or later`;
}

/** Before a migration: a server too old for the schema is refused by name, not by a failing statement. */
async function refuseOldServer(
  client: { query: <R>(sql: string) => Promise<{ rows: R[] }> },
  url: string,
): Promise<void> {
  const { rows } = await client.query<{ v: string }>(
    "SELECT current_setting('server_version_num') AS v",
  );
  const problem = oldServerProblem(Number(rows[0]?.v ?? 0), redactUrl(url));
  if (problem !== undefined) throw new TeamStoreError(problem);
}

async function migrate(pgClient: PgClient, url: string): Promise<number> {
  const where = redactUrl(url);
  const client = {
    query: <R>(sql: string, params: unknown[] = []) =>
      ask<R>(pgClient, sql, params, where).then((rows) => ({ rows })),
  };
  try {
    const { rows } = await client.query<{ v: number }>(
      "SELECT max(version) AS v FROM heimdall.schema_version",
    );
    const have = rows[0]?.v ?? 0;
    if (have === PG_MIGRATIONS.length) return have;
  } catch (e) {
    if (e instanceof TeamStoreError) throw e;
    if (!MISSING.has((e as { code?: string }).code ?? "")) throw storeError(e, url);
  }
  await refuseOldServer(client, url);
  // The version found before migrating: a user who may not apply a migration is told which.
  let have = 0;
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext('heimdall.schema'))");
    // Created only when missing: PostgreSQL checks the right to create
    // before `IF NOT EXISTS` looks, so a user given a schema made for them
    // (or only the right to use its tables) would be refused here.
    const { rows: found } = await client.query<{ schema: boolean; table: boolean }>(
      `SELECT to_regnamespace('heimdall') IS NOT NULL AS schema,
         to_regclass('heimdall.schema_version') IS NOT NULL AS table`,
    );
    if (!found[0]!.schema) await client.query("CREATE SCHEMA IF NOT EXISTS heimdall");
    if (!found[0]!.table) {
      await client.query(
        `CREATE TABLE IF NOT EXISTS heimdall.schema_version (
           version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
    }
    const { rows } = await client.query<{ v: number }>(
      "SELECT coalesce(max(version), 0) AS v FROM heimdall.schema_version",
    );
    have = rows[0]!.v;
    if (have > PG_MIGRATIONS.length) {
      throw new TeamStoreError(
        `The team store "${
          redactUrl(url)
        }" has schema version ${have}, newer than this build knows (${PG_MIGRATIONS.length}); upgrade heimdall`,
      );
    }
    for (let v = have; v < PG_MIGRATIONS.length; v++) {
      await client.query(PG_MIGRATIONS[v]!);
      await client.query("INSERT INTO heimdall.schema_version (version) VALUES ($1)", [v + 1]);
    }
    await client.query("COMMIT");
    return PG_MIGRATIONS.length;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    if (e instanceof TeamStoreError) throw e;
    if (have > 0 && (e as { code?: string }).code === "42501") {
      throw new TeamStoreError(
        `The team store "${
          redactUrl(url)
        }" has schema version ${have} and this build needs ${PG_MIGRATIONS.length}, which this user may not apply (${
          (e as Error).message
        }); run \`heimdall team connect URL\` once as the schema's owner, then go on as this user`,
      );
    }
    throw storeError(e, url);
  }
}

/** Ends `client`: politely, waiting at most a second, or (`dead`) by dropping its socket. */
async function end(client: PgClient, dead: boolean): Promise<void> {
  if (!dead) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ended = await Promise.race([
      client.end().then(() => true, () => true),
      new Promise<false>((done) => timer = setTimeout(() => done(false), 1000)),
    ]);
    clearTimeout(timer);
    if (ended) return;
  }
  client.connection?.stream?.destroy();
}

function storeError(e: unknown, url: string): TeamStoreError {
  const code = (e as { code?: string }).code;
  const remedy = code === "42501"
    ? "the user may not create schema heimdall; grant it CREATE on the database, or create the schema for it"
    : "check the server, or `heimdall team disconnect` to work on this machine's journal";
  return new TeamStoreError(
    `The team store "${redactUrl(url)}" failed: ${(e as Error).message}; ${remedy}`,
  );
}

/**
 * {@link TeamStore} on one PostgreSQL connection. A connection that died
 * while idle is replaced before the next query (a long-lived MCP server
 * outlives server restarts); a query that fails is never retried, so a
 * write is never applied twice.
 */
export class PgTeamStore implements TeamStore {
  /** Always `postgres`. */
  readonly kind = "postgres";
  readonly where: string;
  /** The schema version found or created on connect. */
  schemaVersion = 0;
  #client: PgClient;
  #broken = false;
  #inTx = false;
  #storeId: string | undefined;
  /** Holds the password, if any: never shown. */
  readonly #url: string;

  /** A store on `client`, connected to `url` (kept to reconnect; never shown). */
  constructor(client: PgClient, url: string) {
    this.#client = client;
    this.#url = url;
    client.on("error", () => this.#broken = true);
    this.where = redactUrl(url);
  }

  /** The connection in use. */
  get client(): PgClient {
    return this.#client;
  }

  async now(): Promise<number> {
    return (await this.#q<{ t: number }>(`SELECT ${ms("now()")} AS t`))[0]!.t;
  }

  claim(
    who: Actor,
    keys: SymbolKey[],
    options: { ttlSeconds: number; taskId: string | null; taskText: string | null },
  ): Promise<Claim[]> {
    return this.transaction(async () => {
      // One claimer per person at a time: two of their claims at once (an
      // agent's parallel edits, each hook claiming what it changed) would
      // each find nothing to renew and both insert the same symbol.
      await this.#q("SELECT pg_advisory_xact_lock(hashtext('heimdall.claim'), hashtext($1))", [
        JSON.stringify([who.developer, who.session ?? ""]),
      ]);
      return await this.#claim(who, keys, options);
    });
  }

  /** One statement: renews what the actor already holds, inserts the rest. */
  #claim(
    who: Actor,
    keys: SymbolKey[],
    options: { ttlSeconds: number; taskId: string | null; taskText: string | null },
  ): Promise<Claim[]> {
    return this.#q<Claim>(
      // A symbol named twice (`claim main src/app.ts:main`, two edits in one
      // function) is one claim.
      `WITH k AS (
         SELECT DISTINCT ON (repo, path, qualname) *
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
           AS k(repo, path, qualname, kind, struct_hash)),
       renewed AS (
         UPDATE heimdall.claims c SET expires_at = now() + make_interval(secs => $6),
           task_id = coalesce($7, c.task_id), task_text = coalesce($8, c.task_text),
           struct_hash = k.struct_hash, kind = k.kind, agent = $11
         FROM k WHERE ${ACTIVE} AND c.developer = $9 AND coalesce(c.session, '') = $10
           AND c.repo = k.repo AND c.path = k.path AND c.qualname = k.qualname
         RETURNING c.*),
       inserted AS (
         INSERT INTO heimdall.claims (repo, path, qualname, kind, struct_hash, developer, agent,
           session, task_id, task_text, expires_at)
         SELECT k.repo, k.path, k.qualname, k.kind, k.struct_hash, $9, $11, $12, $7, $8,
           now() + make_interval(secs => $6)
         FROM k WHERE NOT EXISTS (SELECT 1 FROM renewed r
           WHERE r.repo = k.repo AND r.path = k.path AND r.qualname = k.qualname)
         RETURNING *)
       SELECT ${CLAIM} FROM (SELECT * FROM renewed UNION ALL SELECT * FROM inserted) c ORDER BY c.id`,
      [
        keys.map((k) => k.repo),
        keys.map((k) => k.path),
        keys.map((k) => k.qualname),
        keys.map((k) => k.kind),
        keys.map((k) => k.structHash),
        options.ttlSeconds,
        options.taskId,
        options.taskText,
        who.developer,
        who.session ?? "",
        who.agent,
        who.session,
      ],
    );
  }

  async release(
    who: Actor,
    filter: ReleaseFilter,
    options: { anySession?: boolean } = {},
  ): Promise<number> {
    const any = options.anySession === true && (who.session ?? "") === "";
    const base = `UPDATE heimdall.claims c SET released_at = now()
      WHERE ${ACTIVE} AND c.developer = $1 AND ($3::boolean OR coalesce(c.session, '') = $2)`;
    const me = [who.developer, who.session ?? "", any];
    let rows: unknown[];
    if ("all" in filter) rows = await this.#q(`${base} RETURNING c.id`, me);
    else if ("taskId" in filter) {
      rows = await this.#q(`${base} AND c.task_id = $4 RETURNING c.id`, [...me, filter.taskId]);
    } else {
      rows = await this.#q(
        `${base} AND (c.repo, c.path, c.qualname) IN
           (SELECT * FROM unnest($4::text[], $5::text[], $6::text[])) RETURNING c.id`,
        [
          ...me,
          filter.keys.map((k) => k.repo),
          filter.keys.map((k) => k.path),
          filter.keys.map((k) => k.qualname),
        ],
      );
    }
    return rows.length;
  }

  activeClaims(viewer: Actor | null): Promise<ActiveClaim[]> {
    if (viewer === null) {
      return this.#q<ActiveClaim>(
        `SELECT ${CLAIM}, false AS acked FROM heimdall.claims c WHERE ${ACTIVE} ORDER BY c.id`,
      );
    }
    return this.#q<ActiveClaim>(
      // Acknowledged in this session, or by the person in none (a terminal, an MCP server).
      `SELECT ${CLAIM}, EXISTS (SELECT 1 FROM heimdall.acks a WHERE a.claim_id = c.id
         AND a.developer = $1 AND a.session IN ($2, '')) AS acked FROM heimdall.claims c
       WHERE ${ACTIVE} AND NOT (c.developer = $1 AND coalesce(c.session, '') = $2) ORDER BY c.id`,
      [viewer.developer, viewer.session ?? ""],
    );
  }

  claimHistory(keys: Pick<SymbolKey, "repo" | "path" | "qualname">[]): Promise<Claim[]> {
    return this.#q<Claim>(
      `SELECT ${CLAIM} FROM heimdall.claims c
       WHERE (c.qualname, c.path, c.repo) IN
         (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]))
       ORDER BY c.created_at DESC, c.id DESC`,
      [keys.map((k) => k.qualname), keys.map((k) => k.path), keys.map((k) => k.repo)],
    );
  }

  async ack(who: Actor, claimIds: number[]): Promise<void> {
    await this.#q(
      `INSERT INTO heimdall.acks (developer, session, claim_id)
       SELECT $1, $2, id FROM unnest($3::bigint[]) AS id ON CONFLICT DO NOTHING`,
      [who.developer, who.session ?? "", claimIds],
    );
  }

  async startTask(who: Actor, text: string): Promise<Task> {
    const id = newTaskId();
    const rows = await this.#q<Task>(
      `WITH t AS (
         INSERT INTO heimdall.tasks (id, text, owner, owner_agent, owner_session, state)
         VALUES ($1, $2, $3, $4, $5, 'open') RETURNING *),
       e AS (INSERT INTO heimdall.task_events (task_id, kind, actor) SELECT id, 'start', $3 FROM t)
       SELECT ${TASK} FROM t`,
      [id, text, who.developer, who.agent, who.session],
    );
    return rows[0]!;
  }

  /** The task with this id; undefined when there is none. */
  async getTask(id: string): Promise<Task | undefined> {
    return (await this.#q<Task>(`SELECT ${TASK} FROM heimdall.tasks WHERE id = $1`, [id]))[0];
  }

  listTasks(options: { includeDone: boolean }): Promise<Task[]> {
    return this.#q<Task>(
      `SELECT ${TASK} FROM heimdall.tasks ${options.includeDone ? "" : "WHERE state != 'done'"}
       ORDER BY updated_at DESC, created_at DESC`,
    );
  }

  async currentTask(who: Actor, options: { anySession?: boolean } = {}): Promise<Task | undefined> {
    const any = options.anySession === true && (who.session ?? "") === "";
    return (await this.#q<Task>(
      `SELECT ${TASK} FROM heimdall.tasks
       WHERE owner = $1 AND ($3 OR coalesce(owner_session, '') = $2) AND state = 'open'
       ORDER BY updated_at DESC, created_at DESC LIMIT 1`,
      [who.developer, who.session ?? "", any],
    ))[0];
  }

  handoff(who: Actor, id: string, to: string, note: string | null): Promise<TaskMove> {
    return this.#move(id, (t) => planHandoff(t, id, who, to), {
      kind: "handoff",
      actor: who.developer,
      to,
      note,
    });
  }

  resume(who: Actor, id: string, take: boolean): Promise<TaskMove> {
    return this.#move(id, (t) => planResume(t, id, who, take), {
      kind: "resume",
      actor: who.developer,
      to: null,
      note: null,
    });
  }

  finish(who: Actor, id: string): Promise<TaskMove> {
    return this.#move(id, (t) => planFinish(t, id, who), {
      kind: "done",
      actor: who.developer,
      to: null,
      note: null,
    });
  }

  /** The task's history, oldest first. */
  taskEvents(id: string): Promise<TaskEvent[]> {
    return this.#q<TaskEvent>(
      `SELECT task_id AS "taskId", kind, actor, to_person AS "to", note, ${ms("at")} AS at
       FROM heimdall.task_events WHERE task_id = $1 ORDER BY id`,
      [id],
    );
  }

  taskClaims(id: string): Promise<Claim[]> {
    return this.#q<Claim>(
      `SELECT ${CLAIM} FROM heimdall.claims c WHERE c.task_id = $1
       ORDER BY (${ACTIVE}) DESC, c.id`,
      [id],
    );
  }

  /** Ends the connection; one that stopped answering is dropped without waiting. */
  async close(): Promise<void> {
    await end(this.#client, this.#broken);
  }

  /** This database's id (made by migration 2): what copies of its memories are keyed by. */
  async storeId(): Promise<string> {
    return (this.#storeId ??= (await this.#q<{ id: string }>(
      "SELECT id::text AS id FROM heimdall.store",
    ))[0]!.id);
  }

  /**
   * Runs one statement; errors as {@link PgTeamStore} documents (a SQLSTATE
   * error as it is, a lost connection as {@link TeamStoreError}).
   */
  query<R>(sql: string, params: unknown[] = []): Promise<R[]> {
    return this.#q<R>(sql, params);
  }

  /**
   * Runs `fn` in one transaction on this connection: committed when it
   * returns, rolled back when it throws (the error is rethrown). A
   * connection lost inside it is never replaced mid-way: the transaction
   * fails with {@link TeamStoreError}, and nothing of it was applied.
   */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    await this.#q("BEGIN");
    this.#inTx = true;
    try {
      const result = await fn();
      await this.#q("COMMIT");
      return result;
    } catch (e) {
      if (!this.#broken) {
        await ask(this.#client, "ROLLBACK", [], this.where, () => this.#broken = true)
          .catch(() => {});
      }
      throw e;
    } finally {
      this.#inTx = false;
    }
  }

  async #q<R>(sql: string, params: unknown[] = []): Promise<R[]> {
    if (this.#broken && this.#inTx) {
      throw new TeamStoreError(
        `Lost the team store "${this.where}" in the middle of a transaction; nothing of it was applied, retry`,
      );
    }
    if (this.#broken) {
      await end(this.#client, true);
      this.#client = await connect(this.#url, () => this.#broken = true);
      this.#broken = false;
    }
    try {
      // The one door to the shared database: no secret in any text sent
      // (task text, hand-off notes, memory text, tests) leaves this machine.
      return await ask<R>(
        this.#client,
        sql,
        redactDeep(params),
        this.where,
        () => this.#broken = true,
      );
    } catch (e) {
      // SQL errors (a SQLSTATE) are bugs and surface as they are; a lost
      // connection is the environment's.
      if (e instanceof TeamStoreError) throw e;
      if (/^[0-9A-Z]{5}$/.test((e as { code?: string }).code ?? "")) throw e;
      throw new TeamStoreError(
        `Lost the team store "${this.where}": ${(e as Error).message}; check the server and retry`,
      );
    }
  }

  /** Locks the task row, decides (pure), writes: one transaction, so moves of one task serialise. */
  async #move(
    id: string,
    plan: (task: Task | undefined) => Ownership,
    event: Omit<TaskEvent, "taskId" | "at">,
  ): Promise<TaskMove> {
    return await this.transaction(async () => {
      const current = (await this.#q<Task>(
        `SELECT ${TASK} FROM heimdall.tasks WHERE id = $1 FOR UPDATE`,
        [id],
      ))[0];
      const next = plan(current);
      const task = (await this.#q<Task>(
        `UPDATE heimdall.tasks SET owner = $2, owner_agent = $3, owner_session = $4, state = $5,
           updated_at = now() WHERE id = $1 RETURNING ${TASK}`,
        [id, next.owner, next.ownerAgent, next.ownerSession, next.state],
      ))[0]!;
      if (next.state !== "done") {
        // A claim handed to another person is theirs now: a warning about it
        // acknowledged while it was someone else's is shown again.
        await this.#q(
          `DELETE FROM heimdall.acks a USING heimdall.claims c
           WHERE a.claim_id = c.id AND ${ACTIVE} AND c.task_id = $1 AND c.developer <> $2`,
          [id, next.owner],
        );
      }
      const moved = next.state === "done"
        ? await this.#q(
          `UPDATE heimdall.claims c SET released_at = now() WHERE ${ACTIVE} AND c.task_id = $1
           RETURNING c.id`,
          [id],
        )
        : await this.#q(
          // The new owner's own claims on the same code merge into the
          // task's (one active claim per person and symbol, the later expiry kept).
          `WITH moving AS (SELECT c.id, c.repo, c.path, c.qualname FROM heimdall.claims c
             WHERE ${ACTIVE} AND c.task_id = $1 FOR UPDATE),
           merged AS (
             UPDATE heimdall.claims d SET released_at = now() FROM moving m
             WHERE d.released_at IS NULL AND d.expires_at > now() AND d.developer = $2
               AND coalesce(d.session, '') = coalesce($4, '') AND d.task_id IS DISTINCT FROM $1
               AND d.repo = m.repo AND d.path = m.path AND d.qualname = m.qualname
             RETURNING m.id, d.expires_at)
           UPDATE heimdall.claims c SET developer = $2, agent = $3, session = $4,
             expires_at = greatest(c.expires_at,
               (SELECT max(g.expires_at) FROM merged g WHERE g.id = c.id))
           WHERE c.id IN (SELECT id FROM moving) RETURNING c.id`,
          [id, next.owner, next.ownerAgent, next.ownerSession],
        );
      await this.#q(
        `INSERT INTO heimdall.task_events (task_id, kind, actor, to_person, note)
         VALUES ($1, $2, $3, $4, $5)`,
        [id, event.kind, event.actor, event.to, event.note],
      );
      return { task, claimsMoved: moved.length };
    });
  }
}
