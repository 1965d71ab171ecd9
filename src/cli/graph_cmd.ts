import { parseFlags, wholeNumber } from "./flags.ts";
import { relative } from "../files/mod.ts";
import { typedPath } from "./path_arg.ts";
import {
  blastRadius,
  callees,
  callers,
  driftedFiles,
  driftNotes,
  findSymbol,
  indexedFile,
  type Neighbour,
  outline,
  type SymbolRef,
} from "../search/mod.ts";
import { Journal } from "../store/mod.ts";
import type { Context } from "./context.ts";
import { UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";
import {
  CALLERS,
  DEFAULT_LIST_LIMIT,
  dependentsWithin,
  type ListCap,
  type ListLabel,
  moreThan,
  neighbourLines,
  RESOLVED_CALLEES,
} from "../present/neighbours.ts";
import { plural, printable } from "../present/fmt.ts";

/** A path as printed: relative to the current folder when under it. */
const shownPath = (path: string) => {
  const cwd = Deno.cwd();
  return path.startsWith(cwd + "/") ? relative(cwd, path) : path;
};

const where = (s: { path: string; line: number | null }) => `${shownPath(s.path)}:${s.line ?? 1}`;

/**
 * Notes on stderr each of `paths` that changed or went away since it was
 * indexed, with the remedy: the answer's lines come from the journal (see
 * `driftNotes`). One stat a file.
 */
function noteDrift(ctx: Context, j: Journal, command: string, paths: Iterable<string>): void {
  for (const note of driftNotes(driftedFiles(j, paths), shownPath)) {
    ctx.err(`heimdall ${command}: note: ${note}`);
  }
}

function withJournal(ctx: Context, fn: (j: Journal) => number): number {
  const j = Journal.open(ctx.home.journal, { readOnly: true });
  try {
    return fn(j);
  } finally {
    j.close();
  }
}

function parse(args: string[], extra: readonly string[] = []) {
  const { values, positionals } = parseFlags(args, {
    string: [...extra, "limit"],
    boolean: ["json"],
  });
  if (positionals.length !== 1 || positionals[0]!.trim() === "") {
    throw new UsageError(
      "Expected exactly one SYMBOL (name, Class.method, path:name or path:line)",
    );
  }
  const limit = wholeNumber(values.limit, "--limit", 1, 1_000_000, DEFAULT_LIST_LIMIT);
  const cap: ListCap = { limit, hint: `--limit ${limit * 10} lists more` };
  return {
    values: values as Record<string, string | boolean | undefined>,
    name: positionals[0]!,
    cap,
  };
}

/**
 * Answers `command` about the symbol `name` from a read-only journal: `ask`
 * finds its neighbours, each file the answer points at that changed or went
 * away since it was indexed gets a note on stderr (see {@link noteDrift}),
 * then `show` prints the answer and returns the exit code. Throws
 * SymbolLookupError for an unknown or ambiguous name.
 */
function answerAbout<A extends { hits: Neighbour[] }>(
  ctx: Context,
  command: string,
  name: string,
  ask: (j: Journal, sym: SymbolRef) => A,
  show: (sym: SymbolRef, answer: A) => number,
): number {
  return withJournal(ctx, (j) => {
    const sym = findSymbol(j, name);
    const answer = ask(j, sym);
    noteDrift(ctx, j, command, [sym.path, ...answer.hits.map((h) => h.path)]);
    return show(sym, answer);
  });
}

/** Prints a symbol's neighbours, one a line (see `neighbourLines`). */
function printNeighbours(
  ctx: Context,
  sym: SymbolRef,
  list: Neighbour[],
  label: ListLabel,
  cap: ListCap,
  neighbours: "callers" | "callees" = "callers",
): void {
  const place = (path: string, line: number | null) => where({ path, line });
  for (const line of neighbourLines(sym, list, label, neighbours, place, cap)) ctx.out(line);
}

/** A listing as `--json` gives it: the first `cap.limit`, how many there are in all. */
function capped<T>(list: readonly T[], cap: ListCap): { shown: T[]; total: number } {
  return { shown: list.slice(0, cap.limit), total: list.length };
}

export const SYMBOLS_HELP = `heimdall symbols PATH [--json]
  The outline of a file: its definitions in line order, nested, with kinds,
  line ranges and signatures. PATH is absolute, relative to the current
  folder, or the file's path in its root or the end of it (Lib/gzip.py):
  then the file found is named first, and an end several files share lists
  them.`;

/** `heimdall symbols PATH`. */
export function symbols(args: string[], ctx: Context): number {
  const { values, positionals } = parseFlags(args, { boolean: ["json"] });
  if (positionals.length !== 1) throw new UsageError("Usage: heimdall symbols PATH");
  const typed = typedPath(positionals[0]!, "PATH", "name a file");
  return withJournal(ctx, (j) => {
    const { path, row, byEnd } = indexedFile(
      j,
      typed,
      ctx.config().roots,
      ctx.home.ignore,
      positionals[0],
    );
    noteDrift(ctx, j, "symbols", [path]);
    const list = outline(j, path);
    if (values.json) {
      ctx.out(
        JSON.stringify({ path, language: row.language, depth: row.effective_depth, symbols: list }),
      );
    } else {
      // Names and signatures are the file's own text: an escape sequence in
      // a heading or a declaration must not drive the terminal.
      // Found by the end of its path: which file that is.
      if (byEnd && list.length > 0) ctx.out(printable(`${path}:`));
      if (list.length === 0) {
        ctx.out(printable(
          `${path}: no symbols (L${row.effective_depth}${
            row.depth_reason ? `: ${row.depth_reason}` : ""
          })`,
        ));
      }
      for (const s of list) {
        const lines = `${s.line}-${s.endLine}`.padEnd(9);
        ctx.out(printable(
          `${lines} ${"  ".repeat(s.depth)}${s.kind} ${s.name}${
            s.signature ? `  ${s.signature}` : ""
          }`,
        ));
      }
    }
    return EXIT.ok;
  });
}

export const CALLERS_HELP = `heimdall callers SYMBOL [--limit N] [--json]
  Who calls SYMBOL (name, Class.method, path:name or path:line), one hop; an ambiguous
  name lists the candidates. The first N callers (default 100) and how many
  more there are (--json: \`total\`).`;

/** `heimdall callers SYMBOL`. */
export function callersCmd(args: string[], ctx: Context): number {
  const { values, name, cap } = parse(args);
  return answerAbout(ctx, "callers", name, callers, (sym, { hits, unresolvedByName }) => {
    if (values.json) {
      const { shown, total } = capped(hits, cap);
      ctx.out(
        JSON.stringify({
          symbol: sym,
          callers: shown,
          total,
          unresolved_calls_by_name: unresolvedByName,
        }),
      );
    } else {
      printNeighbours(ctx, sym, hits, CALLERS, cap);
      if (unresolvedByName > 0) {
        ctx.out(
          `  (+${unresolvedByName} more caller(s) whose call named ${sym.name} resolves to no single definition)`,
        );
      }
    }
    return hits.length > 0 ? EXIT.ok : EXIT.none;
  });
}

export const CALLEES_HELP = `heimdall callees SYMBOL [--limit N] [--json]
  What SYMBOL calls, one hop, and its calls that resolve to no single
  definition (by name): the first N of each (default 100) and how many more
  there are (--json: \`total\`, \`unresolved_total\`).`;

/** `heimdall callees SYMBOL`. */
export function calleesCmd(args: string[], ctx: Context): number {
  const { values, name, cap } = parse(args);
  return answerAbout(ctx, "callees", name, callees, (sym, { hits, unresolved }) => {
    if (values.json) {
      const resolved = capped(hits, cap);
      const open = capped(unresolved, cap);
      ctx.out(JSON.stringify({
        symbol: sym,
        callees: resolved.shown,
        total: resolved.total,
        unresolved: open.shown,
        unresolved_total: open.total,
      }));
    } else {
      printNeighbours(ctx, sym, hits, RESOLVED_CALLEES, cap, "callees");
      for (const u of unresolved.slice(0, cap.limit)) {
        ctx.out(printable(
          `  unresolved ${u.name}${u.module ? ` (from ${u.module})` : ""} — line ${u.line}`,
        ));
      }
      const left = moreThan(unresolved, cap);
      if (left > 0) ctx.out(`  … and ${plural(left, "more unresolved call")}; ${cap.hint}`);
    }
    return hits.length + unresolved.length > 0 ? EXIT.ok : EXIT.none;
  });
}

export const BLAST_HELP = `heimdall blast-radius SYMBOL [--depth N] [--limit N] [--json]
  Everything that may break when SYMBOL changes: callers, subclasses and
  importers up to N hops (default 3), each with its distance and the symbol it
  is reached through; the nearest --limit (default 100) and how many more
  there are (--json: \`total\`).`;

/** `heimdall blast-radius SYMBOL`. */
export function blastCmd(args: string[], ctx: Context): number {
  const { values, name, cap } = parse(args, ["depth"]);
  const depth = wholeNumber(values.depth as string | undefined, "--depth", 1, 10, 3);
  const ask = (j: Journal, sym: SymbolRef) => ({ hits: blastRadius(j, sym, depth) });
  return answerAbout(ctx, "blast-radius", name, ask, (sym, { hits }) => {
    if (values.json) {
      const { shown, total } = capped(hits, cap);
      ctx.out(JSON.stringify({ symbol: sym, depth, hits: shown, total }));
    } else printNeighbours(ctx, sym, hits, dependentsWithin(depth), cap);
    return hits.length > 0 ? EXIT.ok : EXIT.none;
  });
}
