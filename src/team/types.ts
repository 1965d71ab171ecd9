/** The records of team coordination, and the store both backends implement. */

/** Who is acting: the person, the agent working for them, and the agent's session. */
export interface Actor {
  developer: string;
  agent: string | null;
  session: string | null;
}

/**
 * A symbol named the same way on every machine: node ids hash absolute paths
 * and are local, so the shared store keys code by repository name,
 * repository-relative path and qualified name. `qualname` is "" for a whole
 * file. `structHash` tells overloads apart and shows whether the code changed
 * since it was claimed. Names, paths and hashes only: never code.
 */
export interface SymbolKey {
  repo: string;
  path: string;
  qualname: string;
  kind: string;
  structHash: string | null;
}

/** A claim: someone is about to change a symbol. Times are the store's clock, in ms. */
export interface Claim extends SymbolKey {
  id: number;
  developer: string;
  agent: string | null;
  session: string | null;
  taskId: string | null;
  taskText: string | null;
  createdAt: number;
  expiresAt: number;
  releasedAt: number | null;
}

/** An active claim as one viewer sees it. */
export interface ActiveClaim extends Claim {
  /** The viewer acknowledged the warning about this claim. */
  acked: boolean;
}

/** Where a task stands. */
export type TaskState = "open" | "handed_off" | "done";

/** A unit of work that owns claims and memory rows, and moves between people. */
export interface Task {
  id: string;
  text: string;
  owner: string;
  ownerAgent: string | null;
  ownerSession: string | null;
  state: TaskState;
  createdAt: number;
  updatedAt: number;
}

/** One step of a task's history. */
export interface TaskEvent {
  taskId: string;
  kind: "start" | "handoff" | "resume" | "done";
  actor: string;
  to: string | null;
  note: string | null;
  at: number;
}

/** A task and how many active claims moved with it. */
export interface TaskMove {
  task: Task;
  claimsMoved: number;
}

/** What to release: some symbols, a task's claims, or everything the actor holds. */
export type ReleaseFilter = { keys: SymbolKey[] } | { taskId: string } | { all: true };

/**
 * Claims, tasks, their history and acknowledged warnings: in the local
 * journal, or in a shared PostgreSQL. Every timestamp comes from the store's
 * own clock, never the client's; "active" means not released and not expired
 * by that clock at the time of the query.
 */
export interface TeamStore {
  readonly kind: "local" | "postgres";
  /** Where the data lives, for a person (a URL without its password). */
  readonly where: string;
  /** The store's clock, ms since the epoch. */
  now(): Promise<number>;
  /**
   * Claims `keys` for `who` until `ttlSeconds` from now. A key the same actor
   * (developer and session) already holds is renewed, not duplicated.
   */
  claim(
    who: Actor,
    keys: SymbolKey[],
    options: { ttlSeconds: number; taskId: string | null; taskText: string | null },
  ): Promise<Claim[]>;
  /** Releases the actor's active claims matching `filter`; returns how many. */
  release(who: Actor, filter: ReleaseFilter): Promise<number>;
  /**
   * Active claims, oldest first: everyone's, or with `viewer` everyone's but
   * the viewer's own, each saying whether the viewer acknowledged it.
   */
  activeClaims(viewer: Actor | null): Promise<ActiveClaim[]>;
  /** Every claim ever made on these symbols (released and expired too), newest first. */
  claimHistory(keys: Pick<SymbolKey, "repo" | "path" | "qualname">[]): Promise<Claim[]>;
  /** Records that the actor saw the warnings about these claims. */
  ack(who: Actor, claimIds: number[]): Promise<void>;
  /** Starts a task owned by the actor; it becomes the actor's current task. */
  startTask(who: Actor, text: string): Promise<Task>;
  getTask(id: string): Promise<Task | undefined>;
  /** Open and handed-off tasks (all with `includeDone`), most recently changed first. */
  listTasks(options: { includeDone: boolean }): Promise<Task[]>;
  /** The open task this actor (developer and session) started or resumed last. */
  currentTask(who: Actor): Promise<Task | undefined>;
  /** Moves a task and its active claims to `to`; throws TaskStateError when not allowed. */
  handoff(who: Actor, id: string, to: string, note: string | null): Promise<TaskMove>;
  /** The actor takes a task and its active claims; throws TaskStateError when not allowed. */
  resume(who: Actor, id: string, take: boolean): Promise<TaskMove>;
  /** Closes a task and releases its claims. */
  finish(who: Actor, id: string): Promise<TaskMove>;
  taskEvents(id: string): Promise<TaskEvent[]>;
  /** The task's claims, active ones first. */
  taskClaims(id: string): Promise<Claim[]>;
  close(): Promise<void>;
}
