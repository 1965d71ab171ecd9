/**
 * What the memory tools share with a team store, as the CLI's `remember`,
 * `attempt`, `why` and `search` do it: shared writes go through the store
 * (`SharedMemory`), and reads pull the team's memories into this journal
 * first.
 */
import { z } from "zod";
import { SharedMemory, TeamStoreError } from "../../team/mod.ts";
import type { Journal } from "../../store/mod.ts";
import { type ToolAnswer, type ToolContext, type ToolDef, WRITES } from "../tool.ts";
import { isBusy } from "../write_turn.ts";

/**
 * Runs `fn` with memory through the server's team store: with a shared
 * PostgreSQL, memories of scope project and team are decided and stored
 * there and copied here; private ones, and everything without a shared
 * store, stay in this journal. When the shared store cannot be reached,
 * `fn` gets memory over this journal alone, like the CLI's: private writes
 * go on (never touching the team's copies), shared ones throw
 * TeamStoreError. `fn` also gets the actor's current task (null without a
 * store): what an agent records belongs to the task it works on, and moves
 * with it. Costs, with a shared store, what the write costs there (see
 * `SharedMemory`); after a failed connect, one more connect attempt.
 */
async function withTeamMemory<T>(
  ctx: ToolContext,
  fn: (memory: SharedMemory, currentTask: string | null) => Promise<T>,
): Promise<T> {
  let started = false;
  try {
    return await ctx.withTeam(async (team) => {
      // The server knows no session of its own: its agent's task is the one its hooks started.
      const task = (await team.store.currentTask(team.who, { anySession: true }))?.id ?? null;
      started = true;
      return await fn(team.memory(), task);
    });
  } catch (e) {
    // A store lost in the middle of a write is the write's error: never written twice.
    if (started || !(e instanceof TeamStoreError)) throw e;
  }
  const memory = await SharedMemory.open(ctx);
  try {
    return await fn(memory, null);
  } finally {
    await memory.close();
  }
}

/** The arguments every memory write takes: its task and who sees it. */
export const RECORD_INPUT = {
  task_id: z.string().optional().describe("The task it belongs to (default: your current task)"),
  scope: z.enum(["private", "project", "team"]).optional().describe(
    "Who sees it (default project)",
  ),
};

/**
 * Who records a memory and for whom: the task it belongs to (given, else the
 * current one), author, folder, and the scope when the call gives one.
 */
export interface Recorder {
  taskId: string | null;
  author: string;
  cwd: string;
  scope?: string;
}

/**
 * A tool that writes one memory (remember, record_attempt): `def` with
 * write hints, each call one write through {@link recordMemory}. `write`
 * gets the memory, the writable journal, who records it and the call's
 * arguments (`input` should take {@link RECORD_INPUT}); `answer` turns what
 * it returns into the tool's answer.
 */
export function memoryTool<T>(
  def: Pick<ToolDef, "name" | "title" | "description" | "input"> & {
    // deno-lint-ignore no-explicit-any
    write: (memory: SharedMemory, j: Journal, by: Recorder, args: any) => Promise<T>;
    // deno-lint-ignore no-explicit-any
    answer: (written: T, args: any) => ToolAnswer;
  },
): ToolDef {
  const { write, answer, ...tool } = def;
  return {
    ...tool,
    annotations: WRITES,
    async run(args, ctx) {
      const written = await recordMemory(
        ctx,
        def.name,
        args,
        (memory, by) => write(memory, ctx.writable(), by, args),
      );
      return answer(written, args);
    },
  };
}

/**
 * One memory write of tool `tool` through {@link withTeamMemory}: `write`
 * gets the memory and who records it, from the call's {@link RECORD_INPUT}
 * arguments (its task, else the actor's current one); a team store that
 * cannot be reached fails with {@link forAgent}'s remedy. Costs what
 * `write` costs.
 */
async function recordMemory<T>(
  ctx: ToolContext,
  tool: string,
  args: { task_id?: string; scope?: string },
  write: (memory: SharedMemory, by: Recorder) => Promise<T>,
): Promise<T> {
  const by = (currentTask: string | null): Recorder => ({
    taskId: args.task_id ?? currentTask,
    author: ctx.author(),
    cwd: ctx.cwd,
    ...(args.scope ? { scope: args.scope } : {}),
  });
  try {
    return await withTeamMemory(ctx, (memory, currentTask) => write(memory, by(currentTask)));
  } catch (e) {
    throw forAgent(e, tool);
  }
}

/**
 * The error a tool reports for `e`: a team store that cannot be reached
 * gets the agent's remedy (the same call with scope private) added; any
 * other error is itself.
 */
function forAgent(e: unknown, tool: string): unknown {
  if (!(e instanceof TeamStoreError)) return e;
  return new TeamStoreError(
    `${e.message}. To keep it on this machine only, call ${tool} again with scope "private".`,
  );
}

/**
 * Before a read of memory: with a shared store configured, pulls what the
 * team wrote since the last pull into this journal (one round trip when
 * nothing changed; see `pullMemories`). Returns null, or, when the store
 * cannot be reached or another process holds the journal's write lock (the
 * copy is not waited for: the read goes on), a warning for the agent: the
 * read then answers from this machine's copies as of their last pull.
 * Nothing without a shared store.
 */
export async function pullTeamMemories(ctx: ToolContext): Promise<string | null> {
  if (!ctx.config().teamUrl) return null;
  const asOfLastSync = "showing this machine's copy of the team's memories as of its last sync";
  try {
    await ctx.withTeam((team) => team.syncMemories());
    return null;
  } catch (e) {
    if (isBusy(e)) {
      return `The team's latest memories could not be copied here: another process is writing to the journal; ${asOfLastSync}`;
    }
    if (!(e instanceof TeamStoreError)) throw e;
    return `${e.message}; ${asOfLastSync}`;
  }
}
