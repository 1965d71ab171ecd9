/** Who may move a task where, decided in pure code; the stores apply it in one transaction. */
import { clipped, UsageError } from "../errors/mod.ts";
import type { Actor, Claim, Task, TaskState } from "./types.ts";

/** A task move that is not allowed; the message says why and what to do. */
export class TaskStateError extends UsageError {
  /** A move of task `taskId` refused for the reason `message` gives. */
  constructor(message: string, readonly taskId: string) {
    super(message);
  }
}

/** The owner columns a move writes. */
export interface Ownership {
  owner: string;
  ownerAgent: string | null;
  ownerSession: string | null;
  state: TaskState;
}

function existing(task: Task | undefined, id: string): Task {
  if (!task) {
    throw new TaskStateError(
      `No task "${clipped(id)}"; \`heimdall task list\` shows the tasks`,
      id,
    );
  }
  if (task.state === "done") {
    throw new TaskStateError(
      `Task "${id}" is done; start a new one with \`heimdall task start\``,
      id,
    );
  }
  return task;
}

/**
 * The longest task text: a task is said in a line (`task list`, every claim
 * and conflict warning naming it, and the session start of whoever owns it
 * repeat it), so a pasted log is refused, not repeated everywhere.
 */
export const MAX_TASK_TEXT = 500;

/**
 * The text a task starts with, trimmed; throws a UsageError when it is empty
 * or longer than {@link MAX_TASK_TEXT} characters, naming the length.
 */
export function taskText(text: string): string {
  const t = text.trim();
  if (t === "") throw new UsageError('Usage: heimdall task start "what you are doing"');
  if (t.length > MAX_TASK_TEXT) {
    throw new UsageError(
      `Task text too long: ${t.length} characters, at most ${MAX_TASK_TEXT}; say what you are doing in a line, and put the details in a note (\`heimdall remember --kind note --task ID\`)`,
    );
  }
  return t;
}

/**
 * The longest hand-off note: what a memory's text may hold. Whoever resumes
 * the task is shown it whole (an agent, in its context), so a pasted log
 * is refused, not handed on.
 */
export const MAX_HANDOFF_NOTE = 65_536;

/**
 * A hand-off's note as it is kept: null for none; throws a UsageError when
 * it is longer than {@link MAX_HANDOFF_NOTE} characters, naming the length.
 */
export function handoffNote(note: string | null): string | null {
  if (note === null || note.length <= MAX_HANDOFF_NOTE) return note;
  throw new UsageError(
    `Hand-off note too long: ${note.length} characters, at most ${MAX_HANDOFF_NOTE}; say what they need to know in a paragraph, and put the details in a note on the task (\`heimdall remember --kind note --task ID\`)`,
  );
}

/** The longest name a hand-off takes (what memory keeps of an author). */
const MAX_PERSON = 4_096;

/**
 * Hand-off: only the owner hands a task on, to someone else. The new owner
 * has no agent or session until they resume it. The name is taken trimmed,
 * as a developer's own name is (`$HEIMDALL_AUTHOR`, git's `user.name`), so
 * that `--to " bob"` reaches bob; a name with a line break or another
 * control character, or longer than 4,096 characters, names no one.
 */
export function planHandoff(task: Task | undefined, id: string, who: Actor, to: string): Ownership {
  const t = existing(task, id);
  if (t.owner !== who.developer) {
    throw new TaskStateError(
      `Task "${id}" belongs to ${t.owner}, not ${who.developer}; its owner hands it off (or take it first with \`heimdall task resume ${id} --take\`)`,
      id,
    );
  }
  to = to.trim();
  if (to === "") {
    throw new TaskStateError(`Hand-off of "${id}" names nobody; pass --to PERSON`, id);
  }
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x1f\x7f]/.test(to) || to.length > MAX_PERSON) {
    throw new TaskStateError(
      `Hand-off of "${id}" to ${
        JSON.stringify(to.length > 80 ? `${to.slice(0, 77)}...` : to)
      }: a person's name is one line of at most ${MAX_PERSON} characters; pass --to with their name as HEIMDALL_AUTHOR or git's user.name gives it`,
      id,
    );
  }
  if (to === who.developer) {
    throw new TaskStateError(`Task "${id}" is already ${to}'s; hand it to someone else`, id);
  }
  return { owner: to, ownerAgent: null, ownerSession: null, state: "handed_off" };
}

/**
 * Resume: the owner (the person it was handed to, or its starter in a new
 * session) picks it up; anyone else must say `take` to take it over.
 */
export function planResume(
  task: Task | undefined,
  id: string,
  who: Actor,
  take: boolean,
): Ownership {
  const t = existing(task, id);
  if (t.owner !== who.developer && !take) {
    throw new TaskStateError(
      `Task "${id}" belongs to ${t.owner}; pass --take to take it over from them`,
      id,
    );
  }
  return { owner: who.developer, ownerAgent: who.agent, ownerSession: who.session, state: "open" };
}

/** Done: only the owner closes a task. */
export function planFinish(task: Task | undefined, id: string, who: Actor): Ownership {
  const t = existing(task, id);
  if (t.owner !== who.developer) {
    throw new TaskStateError(
      `Task "${id}" belongs to ${t.owner}; only its owner marks it done`,
      id,
    );
  }
  return { owner: t.owner, ownerAgent: t.ownerAgent, ownerSession: t.ownerSession, state: "done" };
}

/** True when `claim` was made by this actor: the same developer in the same session. */
export function isMine(claim: Pick<Claim, "developer" | "session">, who: Actor): boolean {
  return claim.developer === who.developer && (claim.session ?? "") === (who.session ?? "");
}

/** A fresh task id: 8 hex digits, unique across machines without asking anyone. */
export function newTaskId(): string {
  return crypto.randomUUID().replaceAll("-", "").slice(0, 8);
}
