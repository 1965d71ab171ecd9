/** `callees`: what a symbol calls. */
import { plural } from "../../present/fmt.ts";
import { moreThan, RESOLVED_CALLEES } from "../../present/neighbours.ts";
import { printable } from "../../present/printable.ts";
import { callees } from "../../search/mod.ts";
import { capOf, LIMIT, neighbourLines, symbolTool } from "./graph_text.ts";

export const calleesTool = symbolTool({
  name: "callees",
  title: "What this symbol calls",
  description:
    "What a symbol calls (one hop), and its calls that resolve to no single definition; the first `limit` of each (default 100) and how many there are in all.",
  input: { limit: LIMIT },
}, ({ j, sym, args }, ctx) => {
  const r = callees(j, sym);
  const cap = capOf(args.limit);
  const left = moreThan(r.unresolved, cap);
  const text = [
    neighbourLines(ctx, sym, r.hits, RESOLVED_CALLEES, cap, "callees"),
    ...r.unresolved.slice(0, cap.limit).map((u) =>
      printable(`  unresolved ${u.name}${u.module ? ` (from ${u.module})` : ""} — line ${u.line}`)
    ),
    ...(left > 0 ? [`  … and ${plural(left, "more unresolved call")}; ${cap.hint}`] : []),
  ];
  return {
    shows: r.hits.slice(0, cap.limit),
    text: text.join("\n"),
    structured: {
      symbol: sym,
      callees: r.hits.slice(0, cap.limit),
      total: r.hits.length,
      unresolved: r.unresolved.slice(0, cap.limit),
      unresolved_total: r.unresolved.length,
    },
  };
});
