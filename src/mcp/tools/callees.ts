/** `callees`: what a symbol calls. */
import { callees } from "../../search/mod.ts";
import { neighbourLines, symbolTool } from "./graph_text.ts";

export const calleesTool = symbolTool({
  name: "callees",
  title: "What this symbol calls",
  description: "What a symbol calls (one hop), and its calls that resolve to no single definition.",
}, ({ j, sym }, ctx) => {
  const r = callees(j, sym);
  const text = [
    neighbourLines(ctx, sym, r.hits, "resolved callees", "callees"),
    ...r.unresolved.map((u) =>
      `  unresolved ${u.name}${u.module ? ` (from ${u.module})` : ""} — line ${u.line}`
    ),
  ];
  return {
    text: text.join("\n"),
    structured: { symbol: sym, callees: r.hits, unresolved: r.unresolved },
  };
});
