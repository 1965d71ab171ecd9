/** `who_knows`: the people who know a piece of code. */
import { z } from "zod";
import { plural } from "../../present/fmt.ts";
import { TeamStoreError, whoKnows, whoKnowsFromCopies } from "../../team/mod.ts";
import { LOOKUP, reach, TARGET, type ToolDef } from "../tool.ts";

/** People the text shows; the structured answer has them all. */
const PEOPLE_SHOWN = 10;

export const whoKnowsTool: ToolDef = {
  name: "who_knows",
  title: "Who knows this code",
  description:
    "People ranked by their claims, attempts and decisions on a symbol or path and its call neighbours " +
    "within N hops (default 1): whom to ask before changing it.",
  input: {
    target: TARGET,
    hops: z.number().int().min(0).max(5).optional().describe("Call hops to include (default 1)"),
  },
  annotations: LOOKUP,
  async run(a, ctx) {
    let r;
    let behind: string | null = null;
    try {
      r = await ctx.withTeam((team) => whoKnows(team, a.target, reach(ctx, a.hops)));
    } catch (e) {
      if (!(e instanceof TeamStoreError)) throw e;
      // A read: the memories copied here still rank people, without the store's claims.
      behind =
        `${e.message}; ranked by this machine's copy of the team's memories as of its last sync, without claims`;
      r = await whoKnowsFromCopies(ctx, a.target, reach(ctx, a.hops));
    }
    const lines = [
      `${a.target}: ${plural(r.experts.length, "person", "people")} across ${
        plural(r.symbols, "symbol")
      }`,
    ];
    for (const e of r.experts.slice(0, PEOPLE_SHOWN)) {
      const what = [
        e.decisions ? `${e.decisions} decision(s)` : "",
        e.attempts ? `${e.attempts} attempt(s)` : "",
        e.claims ? `${e.claims} claim(s)` : "",
        e.conventions ? `${e.conventions} convention(s)` : "",
        e.other ? `${e.other} other` : "",
      ].filter((x) => x).join(", ");
      lines.push(`- ${e.person} (score ${e.score.toFixed(2)}): ${what}; on ${e.about.join(", ")}`);
    }
    if (r.experts.length > PEOPLE_SHOWN) {
      lines.push(`- … and ${r.experts.length - PEOPLE_SHOWN} more (all in the structured answer)`);
    }
    if (behind) lines.push(`note: ${behind}`);
    return {
      text: lines.join("\n"),
      structured: { ...r, ...(behind ? { team_warning: behind } : {}) } as unknown as Record<
        string,
        unknown
      >,
    };
  },
};
