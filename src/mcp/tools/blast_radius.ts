/** `blast_radius`: what may break when a symbol changes. */
import { z } from "zod";
import { dependentsWithin } from "../../present/neighbours.ts";
import { blastRadius } from "../../search/mod.ts";
import { capOf, LIMIT, neighbourLines, symbolTool } from "./graph_text.ts";

export const blastRadiusTool = symbolTool({
  name: "blast_radius",
  title: "What may break if this changes",
  description:
    "Everything that may break when a symbol changes: callers, subclasses and importers up to N hops, each with its distance and the symbol it is reached through; the nearest `limit` (default 100) and how many there are in all.",
  input: {
    depth: z.number().int().min(1).max(10).optional().describe("Hops (default 3)"),
    limit: LIMIT,
  },
}, ({ j, sym, args }, ctx) => {
  const depth = args.depth ?? 3;
  const hits = blastRadius(j, sym, depth);
  const cap = capOf(args.limit);
  return {
    shows: hits.slice(0, cap.limit),
    text: neighbourLines(ctx, sym, hits, dependentsWithin(depth), cap),
    structured: { symbol: sym, depth, hits: hits.slice(0, cap.limit), total: hits.length },
  };
});
