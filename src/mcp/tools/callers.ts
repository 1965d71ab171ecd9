/** `callers`: who calls a symbol. */
import { callers } from "../../search/mod.ts";
import { neighbourLines, symbolTool } from "./graph_text.ts";

export const callersTool = symbolTool({
  name: "callers",
  title: "Who calls this symbol",
  description: "Every call site of a symbol (one hop), resolved across files and repositories.",
}, ({ j, sym }, ctx) => {
  const r = callers(j, sym);
  return {
    text: neighbourLines(ctx, sym, r.hits, "callers") +
      (r.unresolvedByName > 0
        ? `\n  (+${r.unresolvedByName} call(s) by this name that resolve to no single definition)`
        : ""),
    structured: { symbol: sym, callers: r.hits, unresolved_calls_by_name: r.unresolvedByName },
  };
});
