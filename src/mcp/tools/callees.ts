/** `callees`: what a symbol calls. */
import { callees, findSymbol } from "../../search/mod.ts";
import { LOOKUP, type ToolDef } from "../tool.ts";
import { neighbourLines, SYMBOL } from "./graph_text.ts";

export const calleesTool: ToolDef = {
  name: "callees",
  title: "What this symbol calls",
  description: "What a symbol calls (one hop), and its calls that resolve to no single definition.",
  input: { symbol: SYMBOL },
  annotations: LOOKUP,
  run(a, ctx) {
    const j = ctx.journal();
    const sym = findSymbol(j, a.symbol, ctx.cwd);
    const r = callees(j, sym);
    const text = [
      neighbourLines(ctx, sym, r.hits, "resolved callees"),
      ...r.unresolved.map((u) =>
        `  unresolved ${u.name}${u.module ? ` (from ${u.module})` : ""} — line ${u.line}`
      ),
    ];
    return {
      text: text.join("\n"),
      structured: { symbol: sym, callees: r.hits, unresolved: r.unresolved },
    };
  },
};
