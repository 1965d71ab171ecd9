import { parseArgs } from "node:util";
import { relative } from "node:path";
import { simpleSearch } from "../search/mod.ts";
import { Journal } from "../store/mod.ts";
import type { Context } from "./context.ts";
import { UsageError } from "./errors.ts";
import { EXIT } from "./exit_codes.ts";

export const HELP = `heimdall search QUERY… [--limit N] [--json]
  "Did I already solve this?": ranks files across every root by the query's
  words in symbol names, signatures, doc comments, paths and summaries; one
  line per file with its best symbol, each checked against the disk now.
  Exit 0 with hits, 1 with none.`;

/** `heimdall search`: ranked files for a question. */
export function run(args: string[], ctx: Context): number {
  const { values, positionals } = parseArgs({
    args,
    options: { limit: { type: "string" }, json: { type: "boolean" } },
    allowPositionals: true,
  });
  const query = positionals.join(" ").trim();
  if (query === "") throw new UsageError('Usage: heimdall search "what you are looking for"');
  const limit = values.limit === undefined ? 8 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
    throw new UsageError(
      `Invalid --limit "${values.limit}": expected a whole number from 1 to 200`,
    );
  }
  const journal = Journal.open(ctx.home.journal, { readOnly: true });
  try {
    const t0 = performance.now();
    const hits = simpleSearch(journal, query, limit);
    const took = Math.round(performance.now() - t0);
    if (values.json) ctx.out(JSON.stringify({ query, took_ms: took, hits }));
    else {
      const cwd = Deno.cwd();
      for (const h of hits) {
        const shown = h.path.startsWith(cwd + "/") ? relative(cwd, h.path) : h.path;
        const what = h.symbol ? `${h.symbol} — ` : "";
        const state = h.state === "fresh" ? "" : ` [${h.state} since indexed]`;
        ctx.out(
          `${h.rank}. cov ${Math.round(h.coverage * 100)}%  ${what}${shown}:${h.line}${state}`,
        );
        if (h.summary) ctx.out(`   ${h.summary}`);
      }
      if (hits.length === 0) ctx.out(`no match for "${query}"`);
    }
    return hits.length > 0 ? EXIT.ok : EXIT.none;
  } finally {
    journal.close();
  }
}
