/**
 * The task board over MCP: start a task, list tasks, resume one (ownership
 * moves and its whole history arrives in one call), and release claims. The
 * same operations as `heimdall task` and `heimdall release`.
 */
import { z } from "zod";
import { UsageError } from "../../errors/mod.ts";
import {
  currentTask,
  MAX_TASK_TEXT,
  release,
  resume,
  startTask,
  type Task,
} from "../../team/mod.ts";
import { printable } from "../../present/printable.ts";
import { LOOKUP, type ToolDef, WRITES, WRITES_IDEMPOTENT } from "../tool.ts";

/** A task on one line, as `heimdall task list` shows it: a newline in its text is shown as \n. */
const label = (t: Task) => printable(`${t.id} "${t.text}" (${t.state}, ${t.owner})`);

export const startTaskTool: ToolDef = {
  name: "start_task",
  title: "Start a task",
  description:
    "Starts a task you own and makes it your current one: the claims you take and the attempts, decisions " +
    "and notes you record belong to it, and move with it when you hand it over.",
  input: {
    text: z.string().trim().min(1).max(MAX_TASK_TEXT).describe("What you are doing, in one line"),
  },
  annotations: WRITES,
  async run(a, ctx) {
    const task = await ctx.withTeam((team) => startTask(team, a.text));
    return { text: `Started task ${label(task)}`, structured: { task } };
  },
};

/** Which tasks `list_tasks` returns. */
const LISTS = ["mine", "team", "open", "handed_off", "all"] as const;

export const listTasksTool: ToolDef = {
  name: "list_tasks",
  title: "List tasks",
  description:
    "The task board: your tasks (mine), everyone's open and handed-off ones (team), only open ones, only " +
    "those handed off (waiting for someone to resume them), or all including done. Your current task is marked.",
  input: {
    which: z.enum(LISTS).optional().describe("mine (default), team, open, handed_off or all"),
  },
  annotations: LOOKUP,
  async run(a, ctx) {
    const which = a.which ?? "mine";
    const r = await ctx.withTeam(async (team) => {
      const tasks = await team.store.listTasks({ includeDone: which === "all" });
      const keep = (t: Task) =>
        which === "mine"
          ? t.owner === team.who.developer && t.state !== "done"
          : which === "open" || which === "handed_off"
          ? t.state === which
          : true;
      const current = await currentTask(team, { anySession: true });
      return { tasks: tasks.filter(keep), current: current?.id ?? null };
    });
    const lines = r.tasks.map((t) => `${t.id === r.current ? "* " : "  "}${label(t)}`);
    return {
      text: lines.length > 0 ? lines.join("\n") : `No tasks (${which}); start_task starts one`,
      structured: { which, current: r.current, tasks: r.tasks },
    };
  },
};

export const resumeTaskTool: ToolDef = {
  name: "resume_task",
  title: "Resume a task",
  description:
    "Takes a task (yours, or handed to you; take=true for anyone else's): it becomes your current task, its " +
    "active claims move to you, and its whole history comes back in this one answer: events, claims, and " +
    "the attempts, decisions and notes recorded under it.",
  input: {
    task_id: z.string().min(1).describe("The task"),
    take: z.boolean().optional().describe("Take it from someone who did not hand it to you"),
  },
  annotations: WRITES,
  async run(a, ctx) {
    const r = await ctx.withTeam((team) => resume(team, a.task_id, { take: a.take ?? false }));
    const lines = [
      `Resumed task ${label(r.task)}; ${r.claimsMoved} claim(s) moved to you`,
      ...r.events.map((e) =>
        printable(
          `  ${new Date(e.at).toISOString()} ${e.kind} ${e.actor}${e.note ? `: ${e.note}` : ""}`,
        )
      ),
      ...r.memories.map((m) => printable(`  [${m.kind}] ${m.text}`)),
    ];
    return { text: lines.join("\n"), structured: r as unknown as Record<string, unknown> };
  },
};

export const releaseTool: ToolDef = {
  name: "release",
  title: "Release claims",
  description:
    "Releases your claims: on the given symbols or paths, on every claim of a task, or all of them, so " +
    "teammates are no longer warned about them.",
  input: {
    targets: z.array(z.string().min(1)).optional().describe("Symbols or paths"),
    task_id: z.string().optional().describe("Release every claim of this task"),
    all: z.boolean().optional().describe("Release all your claims"),
  },
  annotations: WRITES_IDEMPOTENT,
  async run(a, ctx) {
    const given = [
      a.targets?.length ? "targets" : "",
      a.task_id ? "task_id" : "",
      a.all ? "all" : "",
    ]
      .filter((x) => x !== "");
    if (given.length !== 1) {
      throw new UsageError(
        `release takes exactly one of targets, task_id or all (got ${given.join(", ") || "none"})`,
      );
    }
    const n = await ctx.withTeam((team) =>
      release(
        team,
        a.targets?.length
          ? { names: a.targets, cwd: ctx.cwd }
          : a.task_id
          ? { taskId: a.task_id }
          : { all: true },
        // The server knows no session of its own: the claims its agent's hooks made are its own.
        { anySession: true },
      )
    );
    return { text: `Released ${n} claim(s)`, structured: { released: n } };
  },
};
