/**
 * Team coordination: claims on code, conflict warnings within N call hops,
 * tasks and hand-offs, and who knows a piece of code.
 *
 * Owns the team store (the local journal's `claims`, `tasks`, `task_events`
 * and `acks`, or the same tables in a shared PostgreSQL once `heimdall team
 * connect` set `teamUrl`), portable symbol keys (repository, repository-
 * relative path, qualified name, structural hash: never code), and the walks
 * over the local call graph. Never writes the code index, never reads file
 * contents, never sends anything but names, paths, hashes and task text.
 *
 * Contract with memory (`src/memory`): memory rows carry `task_id` (TEXT, an
 * id from {@link startTask}); a task's memories move with it because they
 * point at the task, whose owner changes. `currentTask()` tells memory which
 * task a new row belongs to. With a shared PostgreSQL, memories of scope
 * project and team are stored there too ({@link SharedMemory} decides where
 * a write goes; `pullMemories` copies the team's into the journal, where
 * memory reads them), anchored by the same portable keys as claims.
 */
import { clipped } from "../errors/mod.ts";
import type { Config, HomePaths } from "../config/mod.ts";
import { Journal, JournalError } from "../store/mod.ts";
import { pullMemories } from "./memory_sync.ts";
import { SharedMemory } from "./shared_memory.ts";
import { type ConflictReport, findConflicts } from "./conflicts.ts";
import { currentActor } from "./identity.ts";
import { LocalTeamStore } from "./local_store.ts";
import { type LinkedMemory, taskMemories } from "./memory_link.ts";
import { openPgTeamStore, PgTeamStore } from "./pg_store.ts";
import { type LocalSymbol, RepoResolver, symbolsById } from "./symbol_key.ts";
import { handoffNote, isMine, TaskStateError, taskText } from "./task_rules.ts";
import { TeamStoreError } from "./team_url.ts";
import { resolveTarget, type Target, TargetError } from "./targets.ts";
import { resolve } from "../files/mod.ts";
import { printable } from "../present/fmt.ts";
import type { Actor, Claim, SymbolKey, Task, TaskEvent, TaskMove, TeamStore } from "./types.ts";
import { type Expert, whoKnows as rankWhoKnows } from "./who_knows.ts";

export type * from "./types.ts";
export type { Conflict, ConflictReport, PathStep, Relation } from "./conflicts.ts";
export type { Evidence, Expert } from "./who_knows.ts";
export type { LinkedMemory } from "./memory_link.ts";
export type { Target } from "./targets.ts";
export { HOP_DECAY, rankPeople, WHO_KNOWS_WEIGHTS } from "./who_knows.ts";
export { CLAIM_TTL_RANGE, currentActor, formatDuration, parseDuration } from "./identity.ts";
export { isMine, MAX_TASK_TEXT, TaskStateError } from "./task_rules.ts";
export { TargetError } from "./targets.ts";
export { parseTeamUrl, redactUrl, TeamStoreError, TeamUrlError } from "./team_url.ts";
export { findConflicts } from "./conflicts.ts";
export { openPgTeamStore, PgTeamStore } from "./pg_store.ts";
export { SharedMemory } from "./shared_memory.ts";
export { pullMemories, type PullReport } from "./memory_sync.ts";
export { type PortableAnchor, portableKey, portableOf } from "./memory_anchor.ts";
export { LocalTeamStore } from "./local_store.ts";
export { redactStoredTeamRows } from "./stored_secrets.ts";
export { redactTeamStoreRows } from "./pg_secrets.ts";

/** What opening the team store needs: the CLI's context satisfies it. */
export interface TeamContext {
  /** The home whose journal and config are used. */
  home: HomePaths;
  /** The configuration, as it is now (`teamUrl` picks the store). */
  config(): Config;
}

/** Default claim lifetime: two hours. */
export const DEFAULT_TTL_SECONDS = 7200;
/** Default reach of a conflict check, in call hops. */
export const DEFAULT_HOPS = 3;

/**
 * Opens the team store: the shared PostgreSQL when `teamUrl` is set (it
 * connects and brings the schema up to date; {@link TeamStoreError} when it
 * cannot), else this machine's journal, opened read-write (migrated if needed).
 */
export async function openTeamStore(ctx: TeamContext): Promise<TeamStore> {
  const url = ctx.config().teamUrl;
  if (url) return await openPgTeamStore(url);
  return new LocalTeamStore(Journal.open(ctx.home.journal));
}

/**
 * An open team store, the acting person, and the local code index (opened
 * read-only on first use; with the local store it is the same journal).
 */
export interface Team {
  /** The team store. */
  store: TeamStore;
  /** Who is acting. */
  who: Actor;
  /** The local code index, read-only (opened on first use). */
  index(): Journal;
  /**
   * With a shared store, pulls the team's memories into this machine's
   * journal (when there is one) so that what reads them sees every
   * teammate's; nothing with the local store. Throws TeamStoreError.
   */
  syncMemories(): Promise<void>;
  /**
   * Memory through this team's store (see {@link SharedMemory}): shared
   * writes go to the shared PostgreSQL on its connection; with the local
   * store, memory's own functions.
   */
  memory(): SharedMemory;
  /** Closes the store and the index. */
  close(): Promise<void>;
}

/** Opens the store for `who` (default: {@link currentActor}). Close it when done. */
export async function openTeam(ctx: TeamContext, who: Actor = currentActor()): Promise<Team> {
  const store = await openTeamStore(ctx);
  let index: Journal | undefined;
  return {
    store,
    who,
    index() {
      if (store instanceof LocalTeamStore) return store.journal;
      return (index ??= Journal.open(ctx.home.journal, { readOnly: true }));
    },
    async syncMemories() {
      if (store instanceof PgTeamStore) await pullInto(ctx, store);
    },
    memory: () => SharedMemory.over(store),
    async close() {
      index?.close();
      await store.close();
    },
  };
}

/** Pulls the team's memories into the journal at `ctx`, when it exists. */
async function pullInto(ctx: TeamContext, store: PgTeamStore): Promise<void> {
  try {
    Deno.statSync(ctx.home.journal);
  } catch {
    return; // nothing indexed here yet: nothing would read the copies
  }
  const j = Journal.open(ctx.home.journal);
  try {
    await pullMemories(j, store);
  } finally {
    j.close();
  }
}

/**
 * Before a read of memory (search, export): with a shared store configured,
 * pulls the team's memories into this machine's journal. Nothing without
 * one (and `pg` is not loaded). A store that cannot be reached is reported
 * through `warn` and the read goes on with the copies as of the last pull.
 */
export async function syncTeamMemories(
  ctx: TeamContext,
  warn: (message: string) => void,
): Promise<void> {
  const url = ctx.config().teamUrl;
  if (!url) return;
  let store: PgTeamStore | undefined;
  try {
    store = await openPgTeamStore(url);
    await pullInto(ctx, store);
  } catch (e) {
    if (!(e instanceof TeamStoreError)) throw e;
    warn(`${e.message}; showing this machine's copy of the team's memories as of its last sync`);
  } finally {
    await store?.close();
  }
}

/** What a claim did. */
export interface ClaimResult {
  /** The claims made or renewed. */
  claims: Claim[];
  /** The task the claims belong to (given, or the actor's current one), if any. */
  task: Task | null;
  /** What the names given resolved to. */
  targets: Target[];
}

/**
 * Claims the code `names` refer to (paths or symbols, resolved in the local
 * index) for `team.who`, under `taskId` or else the actor's current task,
 * until `ttlSeconds` from the store's now. Throws TargetError for a name the
 * index cannot place, TaskStateError for an unknown or finished task.
 */
export async function claim(
  team: Team,
  names: readonly string[],
  options: { ttlSeconds?: number; taskId?: string | null; cwd?: string; anySession?: boolean } = {},
): Promise<ClaimResult> {
  const j = team.index();
  const targets = names.map((n) => resolveTarget(j, n, options.cwd));
  return { ...(await claimSymbols(team, targets.map((t) => t.symbol), options)), targets };
}

/**
 * Claims nodes of the local index by id (what a hook knows after an edit);
 * ids no longer in the index are skipped. Otherwise as {@link claim}.
 */
export async function claimNodes(
  team: Team,
  nodeIds: readonly string[],
  options: { ttlSeconds?: number; taskId?: string | null } = {},
): Promise<Omit<ClaimResult, "targets">> {
  const found = symbolsById(team.index(), nodeIds);
  return await claimSymbols(team, nodeIds.flatMap((id) => found.get(id) ?? []), options);
}

async function claimSymbols(
  team: Team,
  symbols: readonly LocalSymbol[],
  options: { ttlSeconds?: number; taskId?: string | null; anySession?: boolean },
): Promise<Omit<ClaimResult, "targets">> {
  const task = await taskFor(team, options.taskId ?? null, options.anySession ?? false);
  const repos = new RepoResolver();
  const claims = symbols.length === 0 ? [] : await team.store.claim(
    team.who,
    symbols.map((s) => repos.keyOf(s)),
    {
      ttlSeconds: options.ttlSeconds ?? DEFAULT_TTL_SECONDS,
      taskId: task?.id ?? null,
      taskText: task?.text ?? null,
    },
  );
  return { claims, task };
}

async function taskFor(
  team: Team,
  taskId: string | null,
  anySession: boolean,
): Promise<Task | null> {
  if (taskId === null) return (await team.store.currentTask(team.who, { anySession })) ?? null;
  const task = await team.store.getTask(taskId);
  if (!task || task.state === "done") {
    throw new TaskStateError(
      task
        ? `Task "${taskId}" is done; claim under an open task (\`heimdall task list\`)`
        : `No task "${clipped(taskId)}"; \`heimdall task list\` shows the tasks`,
      taskId,
    );
  }
  // Claims under a task move and end with it: only its owner may add to it,
  // or its owner would hand off or release your claims without you knowing.
  // An actor in no session (with `anySession`) owns its person's tasks of every session.
  const owner = { developer: task.owner, session: task.ownerSession };
  const own = anySession && (team.who.session ?? "") === ""
    ? task.owner === team.who.developer
    : isMine(owner, team.who);
  if (!own) {
    throw new TaskStateError(
      `Task "${taskId}" belongs to ${printable(task.owner)}${
        task.ownerSession ? ` (session ${printable(task.ownerSession)})` : ""
      }, not to you; claim under your own task, or take it first with \`heimdall task resume ${taskId} --take\``,
      taskId,
    );
  }
  return task;
}

/**
 * Releases the actor's claims on `names`, on a task, or all of them; returns
 * how many. With `anySession`, an actor in no session (an agent's MCP
 * server) releases its developer's claims of every session.
 */
export async function release(
  team: Team,
  what: { names: readonly string[]; cwd?: string } | { taskId: string } | { all: true },
  options: { anySession?: boolean } = {},
): Promise<number> {
  const any = options.anySession === true && (team.who.session ?? "") === "";
  if ("names" in what) {
    const j = team.index();
    const repos = new RepoResolver();
    const mine = (await team.store.activeClaims(null)).filter((c) =>
      any ? c.developer === team.who.developer : isMine(c, team.who)
    );
    const keys: Pick<SymbolKey, "repo" | "path" | "qualname">[] = what.names.flatMap((n) => {
      let target: Target;
      try {
        target = resolveTarget(j, n, what.cwd);
      } catch (e) {
        // The code may be gone from the index (renamed, deleted) while the
        // claim on it lives on: match the name stored on the claim.
        if (!(e instanceof TargetError)) throw e;
        const held = claimsNamed(
          mine,
          n,
          repos.placeOf(resolve(what.cwd ?? Deno.cwd(), n), null, false),
        );
        if (held.length === 0) throw e;
        return held;
      }
      const key = repos.keyOf(target.symbol);
      // A file covers the claims on the symbols in it, as they are named now or were.
      return target.isFile
        ? [key, ...mine.filter((c) => c.repo === key.repo && c.path === key.path)]
        : [key];
    });
    return await team.store.release(team.who, { keys }, options);
  }
  return await team.store.release(team.who, what, options);
}

/** The claims among `mine` that `name` names: by qualified name, `path:name`, or path. */
function claimsNamed(
  mine: readonly Claim[],
  name: string,
  placed: { repo: string; path: string },
): Claim[] {
  return mine.filter((c) =>
    (c.qualname !== "" &&
      (c.qualname === name || c.qualname.endsWith(`.${name}`) ||
        `${c.path}:${c.qualname}`.endsWith(name))) ||
    (c.repo === placed.repo && c.path === placed.path) || c.path === name ||
    name.endsWith(`/${c.path}`)
  );
}

/**
 * Active claims by others on the code `name` refers to, on what it calls and
 * on what calls it, within `hops` (default 3), each with a shortest call path.
 * With `ack`, the warnings returned are recorded as seen, so the next check
 * leaves them out (for this person, on every machine of a shared store).
 * With `ownInAnySession`, an actor in no session (an agent's MCP server,
 * which cannot name its harness's session) counts its developer's claims of
 * every session as its own.
 */
export async function conflicts(
  team: Team,
  name: string,
  options: {
    hops?: number;
    includeAcked?: boolean;
    ack?: boolean;
    cwd?: string;
    ownInAnySession?: boolean;
  } = {},
): Promise<ConflictReport & { target: Target }> {
  const target = resolveTarget(team.index(), name, options.cwd);
  return { ...(await conflictsAt(team, target.nodes, options)), target };
}

/** {@link conflicts} for nodes of the local index by id (what a hook knows). */
export async function conflictsAt(
  team: Team,
  nodeIds: readonly string[],
  options: { hops?: number; includeAcked?: boolean; ack?: boolean; ownInAnySession?: boolean } = {},
): Promise<ConflictReport> {
  const report = await findConflicts(team.index(), team.store, team.who, nodeIds, {
    hops: options.hops ?? DEFAULT_HOPS,
    includeAcked: options.includeAcked ?? false,
    ownInAnySession: options.ownInAnySession ?? false,
  });
  if (options.ack && report.conflicts.length > 0) {
    await team.store.ack(team.who, report.conflicts.map((c) => c.claim.id));
  }
  return report;
}

/**
 * Starts a task owned by the actor; it becomes their current task. Throws a
 * UsageError for text that is empty or over {@link MAX_TASK_TEXT} characters.
 */
export function startTask(team: Team, text: string): Promise<Task> {
  return team.store.startTask(team.who, taskText(text));
}

/**
 * The actor's current task: the open one they started or resumed last in
 * this session. With `anySession`, an actor in no session (an agent's MCP
 * server, which cannot name its harness's session) takes its developer's
 * last changed open task of any session: the one its hooks started from
 * the prompt, or one it started itself.
 */
export async function currentTask(
  team: Team,
  options: { anySession?: boolean } = {},
): Promise<Task | null> {
  return (await team.store.currentTask(team.who, options)) ?? null;
}

/**
 * Hands a task and its active claims to `to` (trimmed, as a developer's own
 * name is), with an optional note for them (at most `MAX_HANDOFF_NOTE`
 * characters: a longer one is refused, nothing moved).
 */
export function handoff(
  team: Team,
  id: string,
  to: string,
  note: string | null = null,
): Promise<TaskMove> {
  return team.store.handoff(team.who, id, to.trim(), handoffNote(note));
}

/** A task picked up: its claims, history and memories. */
export interface Resumed extends TaskMove {
  /** The task's claims, active ones first. */
  claims: Claim[];
  /** The task's history, oldest first. */
  events: TaskEvent[];
  /** Attempts, notes and decisions recorded under the task (memory rows). */
  memories: LinkedMemory[];
}

/**
 * The actor takes task `id` (theirs, or handed to them; anyone else's with
 * `take`): its active claims move to them, and everything recorded under it
 * comes back. Memories are read from this machine's journal (with a shared
 * store, after pulling the team's).
 */
export async function resume(
  team: Team,
  id: string,
  options: { take?: boolean } = {},
): Promise<Resumed> {
  const moved = await team.store.resume(team.who, id, options.take ?? false);
  await team.syncMemories();
  const [claims, events] = await Promise.all([
    team.store.taskClaims(id),
    team.store.taskEvents(id),
  ]);
  return { ...moved, claims, events, memories: memoriesOf(team, id) };
}

/** A task's claims, history and memories, without moving it. */
export async function showTask(
  team: Team,
  id: string,
): Promise<Omit<Resumed, "claimsMoved"> | null> {
  const task = await team.store.getTask(id);
  if (!task) return null;
  await team.syncMemories();
  const [claims, events] = await Promise.all([
    team.store.taskClaims(id),
    team.store.taskEvents(id),
  ]);
  return { task, claims, events, memories: memoriesOf(team, id) };
}

function memoriesOf(team: Team, id: string): LinkedMemory[] {
  try {
    return taskMemories(team.index(), id, team.who.developer);
  } catch (e) {
    // With a shared store there may be no local journal yet: nothing recorded here.
    if (e instanceof JournalError) return [];
    throw e;
  }
}

/**
 * Who holds files under the folder `project` now: every active claim whose
 * repository and path place it there (a claim in another repository, or in
 * one this machine has not got, is left out). For `heimdall reflect`.
 */
export async function claimsUnder(
  team: Team,
  project: string,
): Promise<{ path: string; developer: string }[]> {
  const repos = new RepoResolver();
  const here = repos.placeOf(project, project, true);
  const prefix = here.path === "" ? "" : `${here.path}/`;
  const top = here.path === "" ? project : project.slice(0, project.length - here.path.length - 1);
  return (await team.store.activeClaims(null))
    .filter((c) => c.repo === here.repo && c.path.startsWith(prefix))
    .map((c) => ({ path: `${top}/${c.path}`, developer: c.developer }));
}

/**
 * {@link whoKnows} when the team store cannot be reached: people ranked by
 * the memories in this machine's journal alone (its copies of the team's
 * as of the last pull, and its own), without claims, which live in the
 * store. Throws JournalError when nothing is indexed, TargetError for a name
 * the index cannot place.
 */
export async function whoKnowsFromCopies(
  ctx: TeamContext,
  name: string,
  options: { hops?: number; cwd?: string } = {},
): Promise<{ target: Target; experts: Expert[]; symbols: number }> {
  const j = Journal.open(ctx.home.journal, { readOnly: true });
  try {
    const target = resolveTarget(j, name, options.cwd);
    const { experts, symbols } = await rankWhoKnows(j, null, target.nodes, {
      hops: options.hops ?? 1,
    });
    return { target, experts, symbols };
  } finally {
    j.close();
  }
}

/**
 * People ranked by their claims, attempts and decisions on the code `name`
 * refers to and its call neighbours within `hops` (default 1); weights in
 * {@link WHO_KNOWS_WEIGHTS}, halved per hop.
 */
export async function whoKnows(
  team: Team,
  name: string,
  options: { hops?: number; cwd?: string } = {},
): Promise<{ target: Target; experts: Expert[]; symbols: number }> {
  await team.syncMemories();
  const j = team.index();
  const target = resolveTarget(j, name, options.cwd);
  const { experts, symbols } = await rankWhoKnows(j, team.store, target.nodes, {
    hops: options.hops ?? 1,
  });
  return { target, experts, symbols };
}
