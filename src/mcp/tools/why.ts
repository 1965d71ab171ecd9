/** `why`: what is remembered about a symbol or path, now and before. */
import { z } from "zod";
import { parseInstant, why } from "../../memory/mod.ts";
import { shellPath } from "../../present/shell.ts";
import { LOOKUP, TARGET, type ToolDef } from "../tool.ts";
import { pullTeamMemories } from "./team_memory.ts";

/** History entries the text shows; the structured answer has them all. */
const HISTORY_SHOWN = 10;

export const whyTool: ToolDef = {
  name: "why",
  title: "Why is this code like this?",
  description:
    "The decisions, conventions, attempts, notes and facts attached to a symbol (path:name, " +
    "Class.method, name) or path, and those of the folders that contain it: current ones first, then " +
    "their history, teammates' included. `as_of` answers as it stood at that time.",
  input: {
    target: TARGET,
    as_of: z.string().optional().describe("An instant (ISO 8601 date or time) to answer as of"),
  },
  annotations: LOOKUP,
  async run(a, ctx) {
    const asOf = a.as_of ? parseInstant(a.as_of, "as_of", "end") : null;
    const behind = await pullTeamMemories(ctx);
    const r = why(ctx.journal(), a.target, { asOf, viewer: ctx.author(), cwd: ctx.cwd });
    const lines = [`${a.target}: ${r.current.length} current, ${r.history.length} in history`];
    for (const m of r.current) {
      lines.push(`- ${m.kind} ${m.id} (${m.author}, via ${m.via}): ${m.text}`);
    }
    for (const m of r.history.slice(0, HISTORY_SHOWN)) {
      lines.push(`- [${m.standing}] ${m.kind} ${m.id}: ${m.text}`);
    }
    if (r.history.length > HISTORY_SHOWN) {
      // The rest are in the structured answer; say so rather than end the list as if complete.
      lines.push(
        `- … and ${
          r.history.length - HISTORY_SHOWN
        } older in history (all in the structured answer; \`heimdall history ${
          shellPath(a.target)
        }\` lists them)`,
      );
    }
    if (behind) lines.push(`note: ${behind}`);
    return {
      text: lines.join("\n"),
      structured: { ...r, ...(behind ? { team_warning: behind } : {}) },
    };
  },
};
