/** What the graph tools share: the symbol argument, finding the symbol, and the neighbour listing. */
import { z, type ZodRawShape } from "zod";
import { relative } from "../../files/mod.ts";
import {
  driftedFiles,
  driftNotes,
  findSymbol,
  type Neighbour,
  type SymbolRef,
} from "../../search/mod.ts";
import type { Journal } from "../../store/mod.ts";
import { LOOKUP, type ToolAnswer, type ToolContext, type ToolDef } from "../tool.ts";
import {
  DEFAULT_LIST_LIMIT,
  type ListCap,
  type ListLabel,
  neighbourLines as listNeighbours,
} from "../../present/neighbours.ts";

/** The `symbol` argument. */
export const SYMBOL = z.string().min(1).describe(
  "A symbol: name, Class.method or path:name (an ambiguous name lists the candidates)",
);

/** The `limit` argument of a listing tool. */
export const LIMIT = z.number().int().min(1).max(10_000).optional().describe(
  `At most this many entries (default ${DEFAULT_LIST_LIMIT}); the answer says how many more there are`,
);

/** The cap a tool's `limit` argument sets. */
export function capOf(limit: number | undefined): ListCap {
  const n = limit ?? DEFAULT_LIST_LIMIT;
  return { limit: n, hint: `call again with a larger limit (now ${n}) to list them` };
}

/**
 * A look-up tool on one symbol (callers, callees, blast_radius): the
 * `symbol` argument (plus `def.input`), look-up hints, and `answer` called
 * with the journal, the symbol found and the call's arguments, returning
 * its answer and the neighbours it shows (whose files, and the symbol's,
 * get {@link withDrift}'s notes). A name that is unknown or ambiguous
 * throws findSymbol's error, which lists the candidates for the agent.
 */
export function symbolTool(
  def: Pick<ToolDef, "name" | "title" | "description"> & { input?: ZodRawShape },
  answer: (
    // deno-lint-ignore no-explicit-any
    found: { j: Journal; sym: SymbolRef; args: any },
    ctx: ToolContext,
  ) => ToolAnswer & { shows: readonly { path: string }[] },
): ToolDef {
  return {
    ...def,
    input: { symbol: SYMBOL, ...def.input },
    annotations: LOOKUP,
    run(args, ctx) {
      const j = ctx.journal();
      const sym = findSymbol(j, args.symbol, ctx.cwd);
      const { shows, ...out } = answer({ j, sym, args }, ctx);
      return withDrift(ctx, j, [sym.path, ...shows.map((n) => n.path)], out);
    },
  };
}

/** A path as an answer shows it: relative to the server's folder when under it. */
function shown(ctx: ToolContext, path: string): string {
  const rel = relative(ctx.cwd, path);
  return rel.startsWith("..") ? path : rel;
}

/** `path:line`, relative to the server's folder when under it. */
export function at(ctx: ToolContext, path: string, line: number | null): string {
  return `${shown(ctx, path)}:${line ?? 1}`;
}

/**
 * `answer` with a note for each of `paths` (the files it shows lines of)
 * that changed or went away since it was indexed, as `heimdall symbols`,
 * `callers`… note them on stderr: the lines are the journal's, and an agent
 * that goes to them must know they may have moved. The structured answer
 * gets them as `drifted` (absent when none). One stat a file.
 */
export function withDrift(
  ctx: ToolContext,
  j: Journal,
  paths: Iterable<string>,
  answer: ToolAnswer,
): ToolAnswer {
  const drifted = driftedFiles(j, paths);
  if (drifted.length === 0) return answer;
  const notes = driftNotes(drifted, (p) => shown(ctx, p)).map((n) => `note: ${n}`);
  return {
    text: [answer.text, ...notes].join("\n"),
    structured: { ...answer.structured, drifted },
  };
}

/** The symbol and its neighbours, one a line, placed relative to the server's folder (see `present/neighbours.ts`). */
export function neighbourLines(
  ctx: ToolContext,
  sym: SymbolRef,
  list: Neighbour[],
  label: ListLabel,
  cap: ListCap,
  neighbours: "callers" | "callees" = "callers",
): string {
  return listNeighbours(sym, list, label, neighbours, (path, line) => at(ctx, path, line), cap)
    .join("\n");
}
