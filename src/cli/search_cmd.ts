import { parseFlags } from "./flags.ts";
import { canonicalPath, relative, resolve } from "../files/mod.ts";
import {
  configuredTuning,
  search,
  type SearchHit,
  type SearchKind,
  type SearchRequest,
  searchUsage,
} from "../search/mod.ts";
import { Journal } from "../store/mod.ts";
import { logUsage } from "../config/mod.ts";
import type { Context } from "./context.ts";
import { UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";
import { printable } from "../present/fmt.ts";
import { defaultAuthor } from "../memory/author.ts";

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
  holding all its words higher; -word excludes. --repo R: a root or a folder
  under one, by name (a root's or a folder's directly under one) or by path
  (\`.\` is the one you are in); --path P: a folder or file (relative to the
  current folder, or to every root); --lang L: a language id; --kind
  code|docs|notes|memory; --limit N (default 8). Exit 0 with hits, 1 with
  none.`;

const KINDS: readonly SearchKind[] = ["code", "docs", "notes", "memory"];

const STRING_FLAGS = ["limit", "repo", "path", "lang", "kind"] as const;

/**
 * A search's arguments split into its flags and its query's words, in order
 * (pure): `-word` (an exclusion) and `-1` are words of the query, `-h` and
 * `--name` are flags, a string flag written apart takes the next argument as
 * its value, and everything after `--` is query.
 *
 * @example
 * ```ts
 * import { splitQuery } from "./search_cmd.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(splitQuery(["compute", "-helper", "--limit", "3", "-1"]), {
 *   flags: ["--limit", "3"],
 *   words: ["compute", "-helper", "-1"],
 * });
 * ```
 */
export function splitQuery(args: readonly string[]): { flags: string[]; words: string[] } {
  const flags: string[] = [];
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      words.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith("--")) {
      flags.push(a);
      const name = a.slice(2);
      if (
        !name.includes("=") && (STRING_FLAGS as readonly string[]).includes(name) &&
        i + 1 < args.length
      ) {
        flags.push(args[++i]!);
      }
    } else if (a === "-h") flags.push(a);
    else words.push(a);
  }
  return { flags, words };
}

/** `heimdall search`: ranked, verified places for a question. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { flags, words } = splitQuery(args);
  const { values } = parseFlags(flags, {
    string: STRING_FLAGS,
    boolean: ["json"],
    positionals: false,
  });
  const query = words.join(" ").trim();
  if (query === "") throw new UsageError('Usage: heimdall search "what you are looking for"');
  const limit = values.limit === undefined ? 8 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
    throw new UsageError(
      `Invalid --limit "${values.limit}": expected a whole number from 1 to 200`,
    );
  }
  if (values.kind !== undefined && !KINDS.includes(values.kind as SearchKind)) {
    throw new UsageError(`Invalid --kind "${values.kind}": expected one of ${KINDS.join(", ")}`);
  }
  // Of identical copies, the one in the repository you are in is the one shown.
  const req: SearchRequest = {
    query,
    limit,
    home: ctx.home,
    near: Deno.cwd(),
    viewer: () => defaultAuthor(),
  };
  if (values.repo !== undefined) req.repo = resolveRepoOption(values.repo);
  if (values.path !== undefined) req.pathPrefix = resolvePathOption(values.path);
  if (values.lang !== undefined) req.lang = values.lang.toLowerCase();
  if (values.kind !== undefined) req.kind = values.kind as SearchKind;
  if (ctx.config().teamUrl && (req.kind === undefined || req.kind === "memory")) {
    // The team's memories, copied into the journal before it is read (src/team).
    const { syncTeamMemories } = await import("../team/mod.ts");
    await syncTeamMemories(ctx, (m) => ctx.err(`heimdall search: ${m}`));
  }
  const journal = Journal.open(ctx.home.journal, { readOnly: true });
  try {
    const result = await search(journal, req, configuredTuning(ctx.config()));
    logUsage(ctx.home, searchUsage("cli", result));
    if (values.json) ctx.out(JSON.stringify(result));
    else {
      const paint = colours(ctx.tty && Deno.env.get("NO_COLOR") === undefined);
      for (const h of result.hits) printHit(ctx, h, paint);
      if (result.hits.length === 0) ctx.out(`no match for "${query}"`);
      for (const p of result.pruned) {
        ctx.out(paint.dim(`pruned (stale): ${shown(p.path)} — ${p.reason}`));
      }
      ctx.out(paint.dim(result.summary));
    }
    return result.hits.length > 0 ? EXIT.ok : EXIT.none;
  } finally {
    journal.close();
  }
}

/**
 * A repository written as a path (`.`, `./app`, `../lib`, `/abs`) is the
 * folder it names from here, through any linked folder (roots are recorded
 * by their real path); a name (`app`) is left as it is.
 */
function resolveRepoOption(r: string): string {
  const path = r === "." || r === ".." || r.startsWith("./") || r.startsWith("../") ||
    r.startsWith("/");
  return path ? canonicalPath(resolve(r)) : r;
}

/**
 * An absolute path, or one that exists from here, is taken as it is (through
 * any linked folder); anything else is relative to every root.
 */
function resolvePathOption(p: string): string {
  if (p.startsWith("/")) return canonicalPath(resolve(p));
  const abs = resolve(p);
  try {
    Deno.statSync(abs);
    return canonicalPath(abs);
  } catch {
    return p;
  }
}

function printHit(ctx: Context, h: SearchHit, paint: Paint): void {
  const verdict = paint.verdict(h.verdict, `[${h.verdict}]`);
  const where = h.path === null ? "" : `${shown(h.path)}${h.line !== null ? `:${h.line}` : ""}`;
  const what = h.symbol !== null ? `${paint.bold(printable(h.symbol))}${where ? " — " : ""}` : "";
  const more = h.others > 0 ? paint.dim(` (+${h.others} more)`) : "";
  const when = h.freshness.checked === "text" ? h.source : `verified now (${h.freshness.checked})`;
  ctx.out(
    `${h.rank}. ${verdict} cov ${Math.round(h.coverage * 100)}%  ${what}${where}${more}  ${
      paint.dim(when)
    }`,
  );
  if (h.summary) ctx.out(`   ${printable(h.summary)}`);
  const also = h.symbols.slice(1, 3).map((s) => printable(`${s.name}:${s.line}`));
  if (also.length > 0) ctx.out(`   ${paint.dim(`also: ${also.join(", ")}`)}`);
  if (h.copies.length > 0) {
    const list = h.copies.slice(0, 3).map(shown).join(", ");
    const more = h.copies.length > 3 ? ` (+${h.copies.length - 3} more)` : "";
    ctx.out(`   ${paint.dim(`same as: ${list}${more}`)}`);
  }
  if (h.reason) ctx.out(`   ${paint.dim(`why: ${printable(h.reason)}`)}`);
}

/** A path as printed: relative to here when below it; a newline in its name escaped. */
function shown(path: string): string {
  const cwd = Deno.cwd();
  return printable(path.startsWith(cwd + "/") ? relative(cwd, path) : path);
}

interface Paint {
  bold(s: string): string;
  dim(s: string): string;
  verdict(v: string, s: string): string;
}

function colours(on: boolean): Paint {
  if (!on) return { bold: (s) => s, dim: (s) => s, verdict: (_v, s) => s };
  const code: Record<string, string> = { STRONG: "32", WEAK: "33", REBUILT: "36" };
  return {
    bold: (s) => `\x1b[1m${s}\x1b[0m`,
    dim: (s) => `\x1b[2m${s}\x1b[0m`,
    verdict: (v, s) => `\x1b[${code[v] ?? "0"}m${s}\x1b[0m`,
  };
}
