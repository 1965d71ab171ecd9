/** `claim`: tells teammates you are about to change some code. */
import { z } from "zod";
import { claim } from "../../team/mod.ts";
import { type ToolDef, WRITES_IDEMPOTENT } from "../tool.ts";

export const claimTool: ToolDef = {
  name: "claim",
  title: "Claim code you are about to change",
  description:
    "Claims symbols or paths for you (and your current task) for a while (default 2 h), so teammates and " +
    "their agents are warned when they change code within reach. Claiming what you already hold renews it.",
  input: {
    targets: z.array(z.string().min(1)).min(1).describe("Symbols or paths"),
    ttl_minutes: z.number().int().min(1).max(7 * 24 * 60).optional().describe(
      "How long (default 120)",
    ),
    task_id: z.string().optional().describe(
      "The task the claims belong to (default: your current task)",
    ),
  },
  annotations: WRITES_IDEMPOTENT,
  async run(a, ctx) {
    const r = await ctx.withTeam((team) =>
      claim(team, a.targets, {
        cwd: ctx.cwd,
        ...(a.ttl_minutes ? { ttlSeconds: a.ttl_minutes * 60 } : {}),
        ...(a.task_id ? { taskId: a.task_id } : {}),
        anySession: true,
      })
    );
    const until = r.claims[0] ? new Date(r.claims[0].expiresAt).toISOString() : null;
    return {
      text: `Claimed ${r.claims.length} symbol(s)${r.task ? ` for task ${r.task.id}` : ""}${
        until ? ` until ${until}` : ""
      }`,
      structured: { claims: r.claims, task: r.task },
    };
  },
};
