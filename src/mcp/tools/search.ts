/** `search`: ranked, verified answers across every root. */
import { z } from "zod";
import { UsageError } from "../../errors/mod.ts";
import { relative } from "../../files/mod.ts";
import { logUsage } from "../../config/mod.ts";
import {
  type CodePlace,
  configuredTuning,
  pathOption,
  printable,
  repoOption,
  search,
  searchUsage,
} from "../../search/mod.ts";
import { LOOKUP, type ToolDef } from "../tool.ts";
import { pullTeamMemories } from "./team_memory.ts";

export const searchTool: ToolDef = {
  name: "search",
  title: "Search every repository",
  description:
    "Ranked answers to a question across every indexed repository, its docs, notes and memories " +
    "(BM25 over names, code and docs; by meaning too when a model is installed), each hit checked against the disk now: STRONG (verified), WEAK " +
    "(partly), REBUILT (moved, found again). Use it before grep/find: one call answers across repos.",
  input: {
    query: z.string().min(1).describe(
      "What you are looking for, in words or identifiers; or an error with its stack trace, " +
        "whose frames find the functions they name",
    ),
    limit: z.number().int().min(1).max(50).optional().describe("Results to return (default 8)"),
    repo: z.string().optional().describe(
      "Only this repository: a root's folder name, or a path (`.` is the server's folder)",
    ),
    path_prefix: z.string().optional().describe(
      "Only paths under this folder or file: absolute, relative to the server's folder, else under every root",
    ),
    lang: z.string().optional().describe("Only this language (typescript, python, markdown…)"),
    kind: z.enum(["code", "docs", "notes", "memory"]).optional().describe(
      "Only this kind of result",
    ),
  },
  annotations: LOOKUP,
  async run(a, ctx) {
    if (a.query.trim() === "") {
      throw new UsageError("Empty query: say what you are looking for, in words or identifiers");
    }
    // The team's memories, copied into the journal before it is read.
    const behind = a.kind === undefined || a.kind === "memory" ? await pullTeamMemories(ctx) : null;
    const res = await search(ctx.journal(), {
      query: a.query,
      ...(a.limit ? { limit: a.limit } : {}),
      // Resolved from the server's folder, as `heimdall search` resolves them from the shell's.
      ...(a.repo ? { repo: repoOption(a.repo, ctx.cwd) } : {}),
      ...(a.path_prefix ? { pathPrefix: pathOption(a.path_prefix, ctx.cwd) } : {}),
      ...(a.lang ? { lang: a.lang } : {}),
      ...(a.kind ? { kind: a.kind } : {}),
      home: ctx.home,
      near: ctx.cwd,
      viewer: () => ctx.author(),
    }, configuredTuning(ctx.config()));
    logUsage(ctx.home, searchUsage("mcp", res));
    const lines = [res.summary];
    for (const h of res.hits) {
      // A whole file or a window of text is shown at the line that matched.
      const line = h.match_line ?? h.line;
      const where = h.path
        ? `${shownFrom(ctx.cwd, h.path)}${line ? `:${line}` : ""}`
        : `${h.source} ${h.ref_id}`;
      const also = h.symbols.slice(1, 3).map((s) => `${s.name}:${s.line}`);
      // One line per hit, whatever a file name holds (a newline is shown as \n).
      lines.push(printable(
        `${h.rank}. [${h.verdict}] ${where}${h.symbol ? ` ${h.symbol}` : ""}${
          h.summary ? ` — ${h.summary}` : ""
        }` +
          (h.reason ? ` (${h.reason})` : "") +
          (also.length > 0 ? `; also: ${also.join(", ")}` : "") +
          (h.copies.length > 0 ? `; same as: ${h.copies.length} other file(s)` : "") +
          sameCode(h.same_code, ctx.cwd),
      ));
    }
    if (behind) lines.push(`note: ${behind}`);
    return {
      text: lines.join("\n"),
      structured: { ...res, ...(behind ? { team_warning: behind } : {}) },
    };
  },
};

/**
 * `; same code in: a.ts:3, b.ts:7 (+2 more)`, the places of a hit's symbol's
 * very lines in other files (relative to `cwd` when below it); empty for none.
 */
function sameCode(places: readonly CodePlace[], cwd: string): string {
  if (places.length === 0) return "";
  const named = places.slice(0, SAME_CODE_NAMED).map((p) => `${shownFrom(cwd, p.path)}:${p.line}`);
  const more = places.length > SAME_CODE_NAMED ? ` (+${places.length - SAME_CODE_NAMED} more)` : "";
  return `; same code in: ${named.join(", ")}${more}`;
}

/** Places of the same code a hit's line names; the structured result holds them all. */
const SAME_CODE_NAMED = 5;

/** `path` relative to `cwd` when below it, else as it is. */
function shownFrom(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel.startsWith("..") ? path : rel;
}
