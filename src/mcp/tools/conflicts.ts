/** `conflicts`: teammates' claims on code within reach of a symbol. */
import { z } from "zod";
import { printable } from "../../present/printable.ts";
import { conflicts } from "../../team/mod.ts";
import { reach, TARGET, type ToolDef, WRITES_IDEMPOTENT } from "../tool.ts";

export const conflictsTool: ToolDef = {
  name: "conflicts",
  title: "Who else is changing code near this",
  description:
    "Active claims by others on a symbol or path, on what it calls and on what calls it, within N call " +
    "hops (default 3), each with a shortest call path. A warning, never a lock. `ack` marks the warnings " +
    "seen so later checks leave them out.",
  input: {
    target: TARGET,
    hops: z.number().int().min(0).max(10).optional().describe("Call hops to look (default 3)"),
    ack: z.boolean().optional().describe("Record these warnings as seen"),
  },
  annotations: WRITES_IDEMPOTENT,
  async run(a, ctx) {
    // The server knows no session of its own unless HEIMDALL_SESSION names one: the
    // claims its agent's hooks made (in the harness's session) are the caller's own.
    const r = await ctx.withTeam((team) =>
      conflicts(team, a.target, {
        ...reach(ctx, a.hops),
        ...(a.ack ? { ack: true } : {}),
        ownInAnySession: true,
      })
    );
    const lines = [
      `${a.target}: ${r.conflicts.length} conflict(s)${
        r.acknowledged ? `, ${r.acknowledged} acknowledged` : ""
      }`,
    ];
    for (const c of r.conflicts) {
      // One conflict a line, whatever a task's text holds.
      lines.push(printable(
        `- ${c.claim.developer}${c.claim.agent ? ` (${c.claim.agent})` : ""} claims ${
          c.claim.qualname || c.claim.path
        } ` +
          `(${c.relation}, ${c.hops} hop(s))${
            c.claim.taskText ? ` for "${c.claim.taskText}"` : ""
          }${c.diverged ? ", changed since" : ""}`,
      ));
    }
    return { text: lines.join("\n"), structured: r as unknown as Record<string, unknown> };
  },
};
