/**
 * `heimdall search` in this process: the command's help, and the search a
 * command line asks for run against the journal. A warm server answers the
 * same request (`src/harness/search_request.ts`).
 */
import { configuredTuning, search, searchUsage } from "../search/mod.ts";
import { Journal } from "../store/mod.ts";
import { logUsage } from "../config/mod.ts";
import type { Context } from "./context.ts";
import { EXIT } from "./exit_codes.ts";
import { printSearch, searchArgs } from "./search_view.ts";
import { searchRequest } from "../harness/search_request.ts";

export const HELP =
  `heimdall search QUERY… [--limit N] [--repo R] [--path P] [--lang L] [--kind K] [--json]
  "Did I already solve this?": ranks files, docs and notes across every root
  (BM25 over names, signatures, doc comments, bodies, paths, headings and
  notes; by meaning too when a model is installed), one result per file
  named by the symbols in it that answer, best first, each checked against
  the disk now:
    STRONG   the file is as indexed and its own text covers the query
    WEAK     it changed since indexed, covers little, or matched by meaning only
    REBUILT  it moved: found again by content or symbol, shown at the new path
  Hits whose file is gone and not found are pruned. "a phrase" ranks chunks
  holding all its words higher; -word excludes. A pasted stack trace (its
  frame lines, in one quoted argument) finds the functions its frames name. --repo R: a root or a folder
  under one, by name (a root's or a folder's directly under one) or by path
  (\`.\` is the one you are in); --path P: a folder or file (relative to the
  current folder, or to every root); --lang L: a language id; --kind
  code|docs|notes|memory; --limit N (default 8). Exit 0 with hits, 1 with
  none. Answered by the hooks' warm server when one runs, the same answer
  sooner; a search that found none starts one for the next (it goes after
  10 idle minutes; HEIMDALL_HOOK_SERVER=0: always in this process).`;

/** `heimdall search`: ranked, verified places for a question, answered in this process. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const asked = searchArgs(args);
  if (ctx.config().teamUrl && (asked.kind === undefined || asked.kind === "memory")) {
    // The team's memories, copied into the journal before it is read (src/team).
    const { syncTeamMemories } = await import("../team/mod.ts");
    await syncTeamMemories(ctx, (m) => ctx.err(`heimdall search: ${m}`));
  }
  const journal = Journal.open(ctx.home.journal, { readOnly: true });
  try {
    const result = await search(
      journal,
      searchRequest(asked, ctx.home),
      configuredTuning(ctx.config()),
    );
    logUsage(ctx.home, searchUsage("cli", result));
    printSearch(ctx, asked, result);
    return result.hits.length > 0 ? EXIT.ok : EXIT.none;
  } finally {
    journal.close();
  }
}
