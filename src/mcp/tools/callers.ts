/** `callers`: who calls a symbol. */
import { CALLERS } from "../../present/neighbours.ts";
import { callers } from "../../search/mod.ts";
import { capOf, LIMIT, neighbourLines, symbolTool } from "./graph_text.ts";

export const callersTool = symbolTool({
  name: "callers",
  title: "Who calls this symbol",
  description:
    "Every caller of a symbol (one hop, each at the line of its first call), resolved across files and repositories; the first `limit` (default 100) and how many there are in all.",
  input: { limit: LIMIT },
}, ({ j, sym, args }, ctx) => {
  const r = callers(j, sym);
  const cap = capOf(args.limit);
  return {
    shows: r.hits.slice(0, cap.limit),
    text: neighbourLines(ctx, sym, r.hits, CALLERS, cap) +
      (r.unresolvedByName > 0
        ? `\n  (+${r.unresolvedByName} more caller(s) whose call by this name resolves to no single definition)`
        : ""),
    structured: {
      symbol: sym,
      callers: r.hits.slice(0, cap.limit),
      total: r.hits.length,
      unresolved_calls_by_name: r.unresolvedByName,
    },
  };
});
