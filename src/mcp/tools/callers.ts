/** `callers`: who calls a symbol. */
import { callers } from "../../search/mod.ts";
import { neighbourLines, symbolTool } from "./graph_text.ts";

export const callersTool = symbolTool({
  name: "callers",
  title: "Who calls this symbol",
  description:
    "Every caller of a symbol (one hop, each at the line of its first call), resolved across files and repositories.",
}, ({ j, sym }, ctx) => {
  const r = callers(j, sym);
  return {
    text: neighbourLines(ctx, sym, r.hits, "callers") +
      (r.unresolvedByName > 0
        ? `\n  (+${r.unresolvedByName} more caller(s) whose call by this name resolves to no single definition)`
        : ""),
    structured: { symbol: sym, callers: r.hits, unresolved_calls_by_name: r.unresolvedByName },
  };
});
