/** The records of team coordination, and the store both backends implement. */

/** Who is acting: the person, the agent working for them, and the agent's session. */
export interface Actor {
  /** The person (`$HEIMDALL_AUTHOR`, else git's `user.name`, else `$USER`). */
  developer: string;
  /** The agent working for them (`--agent`, `$HEIMDALL_AGENT`); null when none is named. */
  agent: string | null;
  /** The agent's session (`--session`, `$HEIMDALL_SESSION`); null when none is named. */
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
  /** The repository: the last segment of its `origin` remote, else its folder's name. */
  repo: string;
  /** The file's path, relative to the repository. */
  path: string;
  /** The qualified name; "" for a whole file. */
  qualname: string;
  /** The symbol's kind (`file` for a whole file). */
  kind: string;
  /** The structural hash when claimed; null when unknown. */
  structHash: string | null;
}

/** A claim: someone is about to change a symbol. Times are the store's clock, in ms. */
export interface Claim extends SymbolKey {
  /** The claim's id in its store. */
  id: number;
  /** Who claimed it. */
  developer: string;
  /** The agent that claimed it, if named. */
  agent: string | null;
  /** The session that claimed it, if named. */
  session: string | null;
  /** The task it belongs to, if any. */
  taskId: string | null;
  /** That task's text (redacted), for people reading the claim. */
  taskText: string | null;
  /** When it was made (a renewal keeps it; it moves `expiresAt`). */
  createdAt: number;
  /** When it expires unless renewed. */
  expiresAt: number;
  /** When it was released; null while it is not. */
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
  /** The task's id. */
  id: string;
  /** What the task is (redacted). */
  text: string;
  /** The developer who owns it now. */
  owner: string;
  /** The owner's agent, if named. */
  ownerAgent: string | null;
  /** The owner's session, if named. */
  ownerSession: string | null;
  /** Open, handed off, or done. */
  state: TaskState;
  /** When it was started. */
  createdAt: number;
  /** When it last changed hands or state. */
  updatedAt: number;
}

/** One step of a task's history. */
export interface TaskEvent {
  /** The task it happened to. */
  taskId: string;
  /** What happened. */
  kind: "start" | "handoff" | "resume" | "done";
  /** Who did it. */
  actor: string;
  /** For a hand-off, who it went to; else null. */
  to: string | null;
  /** The note given with it, if any. */
  note: string | null;
  /** When it happened. */
  at: number;
}

/** A task and how many active claims moved with it. */
export interface TaskMove {
  /** The task, as it now stands. */
  task: Task;
  /** Active claims that moved with it (for `finish`, the ones released). */
  claimsMoved: number;
}

/** What to release: some symbols, a task's claims, or everything the actor holds. */
export type ReleaseFilter = { keys: Pick<SymbolKey, "repo" | "path" | "qualname">[] } | {
  taskId: string;
} | { all: true };

/**
 * Claims, tasks, their history and acknowledged warnings: in the local
 * journal, or in a shared PostgreSQL. Every timestamp comes from the store's
 * own clock, never the client's; "active" means not released and not expired
 * by that clock at the time of the query.
 */
export interface TeamStore {
  /** Which backend: this machine's journal or a shared PostgreSQL. */
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
  release(who: Actor, filter: ReleaseFilter, options?: { anySession?: boolean }): Promise<number>;
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
  /** The task with this id; undefined when there is none. */
  getTask(id: string): Promise<Task | undefined>;
  /** Open and handed-off tasks (all with `includeDone`), most recently changed first. */
  listTasks(options: { includeDone: boolean }): Promise<Task[]>;
  /**
   * The open task this actor (developer and session) started or resumed
   * last; with `anySession`, an actor in no session takes its developer's
   * last changed open task of any session.
   */
  currentTask(who: Actor, options?: { anySession?: boolean }): Promise<Task | undefined>;
  /** Moves a task and its active claims to `to`; throws TaskStateError when not allowed. */
  handoff(who: Actor, id: string, to: string, note: string | null): Promise<TaskMove>;
  /** The actor takes a task and its active claims; throws TaskStateError when not allowed. */
  resume(who: Actor, id: string, take: boolean): Promise<TaskMove>;
  /** Closes a task and releases its claims. */
  finish(who: Actor, id: string): Promise<TaskMove>;
  /** The task's history, oldest first. */
  taskEvents(id: string): Promise<TaskEvent[]>;
  /** The task's claims, active ones first. */
  taskClaims(id: string): Promise<Claim[]>;
  /** Closes the store's connection (a no-op for the local journal's). */
  close(): Promise<void>;
}
