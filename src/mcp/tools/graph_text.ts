/** What the graph tools share: the symbol argument and the neighbour listing. */
import { z } from "zod";
import { relative } from "node:path";
import type { Neighbour, SymbolRef } from "../../search/mod.ts";
import type { ToolContext } from "../tool.ts";

/** The `symbol` argument. */
export const SYMBOL = z.string().min(1).describe(
  "A symbol: name, Class.method or path:name (an ambiguous name lists the candidates)",
);

/** `path:line`, relative to the server's folder when under it. */
export function at(ctx: ToolContext, path: string, line: number | null): string {
  const rel = relative(ctx.cwd, path);
  return `${rel.startsWith("..") ? path : rel}:${line ?? 1}`;
}

/** The symbol, then one line per neighbour (distance, edge, kind, name, where, via). */
export function neighbourLines(
  ctx: ToolContext,
  sym: SymbolRef,
  list: Neighbour[],
  label: string,
): string {
  const out = [`${sym.kind} ${sym.qualname} — ${at(ctx, sym.path, sym.line)}`];
  if (list.length === 0) out.push(`  no ${label}`);
  for (const n of list) {
    out.push(
      `  ${n.distance > 1 ? `[${n.distance}] ` : ""}${n.edge} ${n.kind} ${n.qualname || n.name} — ${
        at(ctx, n.path, n.at ?? n.line)
      }${n.via && n.distance > 1 ? ` via ${n.via}` : ""}`,
    );
  }
  return out.join("\n");
}
