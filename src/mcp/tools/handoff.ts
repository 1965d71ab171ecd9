/** `handoff`: passes a task, and its claims, to someone else. */
import { z } from "zod";
import { handoff } from "../../team/mod.ts";
import { type ToolDef, WRITES } from "../tool.ts";

export const handoffTool: ToolDef = {
  name: "handoff",
  title: "Hand a task over",
  description:
    "Hands a task and its active claims to another person, with a note for them; everything recorded under " +
    "the task (attempts, decisions, notes) comes back when they resume it.",
  input: {
    task_id: z.string().min(1).describe("The task"),
    to: z.string().min(1).describe("Who takes it over"),
    note: z.string().optional().describe("What they need to know"),
  },
  annotations: WRITES,
  async run(a, ctx) {
    const r = await ctx.withTeam((team) => handoff(team, a.task_id, a.to, a.note ?? null));
    return {
      text: `Task ${r.task.id} handed to ${r.task.owner} with ${r.claimsMoved} claim(s)`,
      structured: r as unknown as Record<string, unknown>,
    };
  },
};
