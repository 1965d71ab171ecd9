import { parseFlags } from "./flags.ts";
import { relative, resolve } from "node:path";
import {
  blastRadius,
  callees,
  callers,
  findSymbol,
  type Neighbour,
  outline,
  type SymbolRef,
} from "../search/mod.ts";
import { getPath, Journal } from "../store/mod.ts";
import type { Context } from "./context.ts";
import { UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";

const where = (s: { path: string; line: number | null }) => {
  const cwd = Deno.cwd();
  const p = s.path.startsWith(cwd + "/") ? relative(cwd, s.path) : s.path;
  return `${p}:${s.line ?? 1}`;
};

function withJournal(ctx: Context, fn: (j: Journal) => number): number {
  const j = Journal.open(ctx.home.journal, { readOnly: true });
  try {
    return fn(j);
  } finally {
    j.close();
  }
}

function parse(args: string[], extra: readonly string[] = []) {
  const { values, positionals } = parseFlags(args, { string: extra, boolean: ["json"] });
  if (positionals.length !== 1) {
    throw new UsageError("Expected exactly one SYMBOL (name, Class.method or path:name)");
  }
  return { values: values as Record<string, string | boolean | undefined>, name: positionals[0]! };
}

/**
 * Prints a symbol's neighbours, one a line. A caller (or dependent) is shown
 * where it makes the call, in its own file; a callee where it is defined,
 * with the line of the symbol's file that calls it.
 */
function printNeighbours(
  ctx: Context,
  sym: SymbolRef,
  list: Neighbour[],
  label: string,
  neighbours: "callers" | "callees" = "callers",
): void {
  ctx.out(`${sym.kind} ${sym.qualname} — ${where(sym)}`);
  if (list.length === 0) ctx.out(`  no ${label} in the index`);
  for (const n of list) {
    const dist = n.distance > 1 ? `[${n.distance}] ` : "";
    const via = n.via && n.distance > 1 ? `  via ${n.via}` : "";
    const place = neighbours === "callers"
      ? where({ path: n.path, line: n.at ?? n.line })
      : `${where(n)}${n.at === null ? "" : `  (called at line ${n.at})`}`;
    ctx.out(`  ${dist}${n.edge.padEnd(10)} ${n.kind} ${n.qualname || n.name} — ${place}${via}`);
  }
}

export const SYMBOLS_HELP = `heimdall symbols PATH [--json]
  The outline of a file: its definitions in line order, nested, with kinds,
  line ranges and signatures.`;

/** `heimdall symbols PATH`. */
export function symbols(args: string[], ctx: Context): number {
  const { values, positionals } = parseFlags(args, { boolean: ["json"] });
  if (positionals.length !== 1) throw new UsageError("Usage: heimdall symbols PATH");
  const path = resolve(positionals[0]!);
  return withJournal(ctx, (j) => {
    const row = getPath(j, path);
    if (!row) {
      throw new UsageError(
        `"${path}" is not in the index; \`heimdall index DIR\` or \`heimdall reconcile ${path}\``,
      );
    }
    const list = outline(j, path);
    if (values.json) {
      ctx.out(
        JSON.stringify({ path, language: row.language, depth: row.effective_depth, symbols: list }),
      );
    } else {
      if (list.length === 0) {
        ctx.out(
          `${path}: no symbols (L${row.effective_depth}${
            row.depth_reason ? `: ${row.depth_reason}` : ""
          })`,
        );
      }
      for (const s of list) {
        const lines = `${s.line}-${s.endLine}`.padEnd(9);
        ctx.out(
          `${lines} ${"  ".repeat(s.depth)}${s.kind} ${s.name}${
            s.signature ? `  ${s.signature}` : ""
          }`,
        );
      }
    }
    return EXIT.ok;
  });
}

export const CALLERS_HELP = `heimdall callers SYMBOL [--json]
  Who calls SYMBOL (name, Class.method or path:name), one hop; an ambiguous
  name lists the candidates.`;

/** `heimdall callers SYMBOL`. */
export function callersCmd(args: string[], ctx: Context): number {
  const { values, name } = parse(args);
  return withJournal(ctx, (j) => {
    const sym = findSymbol(j, name);
    const { hits, unresolvedByName } = callers(j, sym);
    if (values.json) {
      ctx.out(
        JSON.stringify({ symbol: sym, callers: hits, unresolved_calls_by_name: unresolvedByName }),
      );
    } else {
      printNeighbours(ctx, sym, hits, "callers");
      if (unresolvedByName > 0) {
        ctx.out(
          `  (+${unresolvedByName} call(s) named ${sym.name} that resolve to no single definition)`,
        );
      }
    }
    return hits.length > 0 ? EXIT.ok : EXIT.none;
  });
}

export const CALLEES_HELP = `heimdall callees SYMBOL [--json]
  What SYMBOL calls, one hop, and its calls that resolve to no single
  definition (by name).`;

/** `heimdall callees SYMBOL`. */
export function calleesCmd(args: string[], ctx: Context): number {
  const { values, name } = parse(args);
  return withJournal(ctx, (j) => {
    const sym = findSymbol(j, name);
    const { hits, unresolved } = callees(j, sym);
    if (values.json) ctx.out(JSON.stringify({ symbol: sym, callees: hits, unresolved }));
    else {
      printNeighbours(ctx, sym, hits, "resolved callees", "callees");
      for (const u of unresolved) {
        ctx.out(`  unresolved ${u.name}${u.module ? ` (from ${u.module})` : ""} — line ${u.line}`);
      }
    }
    return hits.length + unresolved.length > 0 ? EXIT.ok : EXIT.none;
  });
}

export const BLAST_HELP = `heimdall blast-radius SYMBOL [--depth N] [--json]
  Everything that may break when SYMBOL changes: callers, subclasses and
  importers up to N hops (default 3), each with its distance and the symbol it
  is reached through.`;

/** `heimdall blast-radius SYMBOL`. */
export function blastCmd(args: string[], ctx: Context): number {
  const { values, name } = parse(args, ["depth"]);
  const depth = values.depth === undefined ? 3 : Number(values.depth);
  if (!Number.isInteger(depth) || depth < 1 || depth > 10) {
    throw new UsageError(`Invalid --depth "${values.depth}": expected a whole number from 1 to 10`);
  }
  return withJournal(ctx, (j) => {
    const sym = findSymbol(j, name);
    const hits = blastRadius(j, sym, depth);
    if (values.json) ctx.out(JSON.stringify({ symbol: sym, depth, hits }));
    else printNeighbours(ctx, sym, hits, `dependents within ${depth} hops`);
    return hits.length > 0 ? EXIT.ok : EXIT.none;
  });
}
