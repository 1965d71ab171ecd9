/**
 * What `heimdall search` reads from its command line and how it prints an
 * answer: shared by the search run in this process and the one a warm
 * server answers (`search_client.ts`), so both print the same bytes. Light
 * on purpose: no journal, no ranking code, no Node module.
 */
import { parseFlags, wholeNumber } from "./flags.ts";
import { relative } from "../files/path.ts";
import { pathOption, repoOption } from "../search/scope_option.ts";
import type { SearchHit, SearchKind, SearchResult } from "../search/types.ts";
import type { SearchArgs } from "../harness/search_request.ts";
import { UsageError } from "../errors/mod.ts";
import { printable } from "../present/printable.ts";

const KINDS: readonly SearchKind[] = ["code", "docs", "notes", "memory"];

const STRING_FLAGS = ["limit", "repo", "path", "lang", "kind"] as const;
/** Filters given at most once: a second one named another place or language, not an override. */
const ONE_OF_EACH = ["repo", "path", "lang", "kind"] as const;

/**
 * A search's arguments split into its flags and its query's words, in order
 * (pure): `-word` (an exclusion) and `-1` are words of the query, `-h` and
 * `--name` are flags (not an argument with a space in its name: a quoted
 * question opening with a flag), a string flag written apart takes the next
 * argument as its value, and everything after `--` is query.
 *
 * @example
 * ```ts
 * import { splitQuery } from "./search_view.ts";
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
    // A quoted question that opens with a flag (`"--no-verify skips the hooks"`) is words:
    // no option holds a space before its `=`.
    if (a.startsWith("--") && !/\s/.test(a.split("=", 1)[0]!)) {
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

/**
 * The search a command line asks for, its paths resolved from the current
 * folder; throws a {@link UsageError} (or a flag error) naming the bad value.
 */
export function searchArgs(args: readonly string[]): SearchArgs {
  const { flags, words } = splitQuery(args);
  const parsed = parseFlags(flags, {
    string: ["limit"],
    multiple: ONE_OF_EACH,
    boolean: ["json"],
    positionals: false,
  });
  const one = (flag: (typeof ONE_OF_EACH)[number]): string | undefined => {
    // `--repo a --repo b` searched b alone, saying nothing of a: a filter is one place.
    const given = [...new Set(parsed.values[flag] ?? [])];
    if (given.length > 1) {
      throw new UsageError(
        `--${flag} given ${given.length} times (${
          given.map((v) => JSON.stringify(v)).join(", ")
        }): a search takes one; run one search for each${
          flag === "lang" || flag === "kind" ? "" : ", or give a folder that holds them all"
        }`,
      );
    }
    return given[0];
  };
  const values = {
    ...parsed.values,
    repo: one("repo"),
    path: one("path"),
    lang: one("lang"),
    kind: one("kind"),
  };
  const query = words.join(" ").trim();
  if (query === "") throw new UsageError('Usage: heimdall search "what you are looking for"');
  const limit = wholeNumber(values.limit, "--limit", 1, 200, 8);
  if (values.kind !== undefined && !KINDS.includes(values.kind as SearchKind)) {
    throw new UsageError(`Invalid --kind "${values.kind}": expected one of ${KINDS.join(", ")}`);
  }
  for (const flag of ["repo", "path"] as const) {
    // An unset shell variable: no filter at all, or none that can match, in place of the one meant.
    if (values[flag]?.trim() === "") {
      throw new UsageError(
        `Empty --${flag} ${
          JSON.stringify(values[flag])
        }: it names no folder (an unset shell variable?); write . for the current folder, or leave --${flag} out`,
      );
    }
  }
  const out: SearchArgs = { query, limit, cwd: Deno.cwd(), json: values.json === true };
  if (values.repo !== undefined) out.repo = repoOption(values.repo, out.cwd);
  if (values.path !== undefined) out.pathPrefix = pathOption(values.path, out.cwd);
  if (values.lang !== undefined) out.lang = values.lang.toLowerCase();
  if (values.kind !== undefined) out.kind = values.kind as SearchKind;
  return out;
}

/** Where an answer is printed: stdout lines, and whether stdout is a terminal. */
export interface SearchOutput {
  out(text: string): void;
  tty: boolean;
}

/** Prints an answer as `heimdall search` does: one JSON line with `--json`, else one block per hit. */
export function printSearch(o: SearchOutput, args: SearchArgs, result: SearchResult): void {
  if (args.json) {
    o.out(JSON.stringify(result));
    return;
  }
  const paint = colours(o.tty && Deno.env.get("NO_COLOR") === undefined);
  for (const h of result.hits) printHit(o, h, paint);
  if (result.hits.length === 0) o.out(noMatch(args.query));
  for (const p of result.pruned) {
    o.out(paint.dim(`pruned (stale): ${shown(p.path)} — ${p.reason}`));
  }
  o.out(paint.dim(result.summary));
}

/** Characters of a query echoed back when nothing matched: a pasted log is not printed whole. */
const ECHO_MAX = 120;

/** `no match for "QUERY"`, control characters escaped, a long query cut with its length said. */
function noMatch(query: string): string {
  const chars = [...query];
  if (chars.length <= ECHO_MAX) return `no match for "${printable(query)}"`;
  const head = printable(chars.slice(0, ECHO_MAX).join(""));
  return `no match for "${head}…" (its first ${ECHO_MAX} of ${chars.length} characters)`;
}

function printHit(o: SearchOutput, h: SearchHit, paint: Paint): void {
  const verdict = paint.verdict(h.verdict, `[${h.verdict}]`);
  // A whole file or a window of text is shown at the line that matched (`ci.yml:11`).
  const line = h.match_line ?? h.line;
  const where = h.path === null ? "" : `${shown(h.path)}${line !== null ? `:${line}` : ""}`;
  const what = h.symbol !== null ? `${paint.bold(printable(h.symbol))}${where ? " — " : ""}` : "";
  const more = h.others > 0 ? paint.dim(` (+${h.others} more in the file)`) : "";
  const when = h.freshness.checked === "text" ? h.source : `verified now (${h.freshness.checked})`;
  o.out(
    `${h.rank}. ${verdict} cov ${Math.round(h.coverage * 100)}%  ${what}${where}${more}  ${
      paint.dim(when)
    }`,
  );
  if (h.summary) o.out(`   ${printable(h.summary)}`);
  const also = alsoShown(h).map((s) => printable(`${s.name}:${s.line}`));
  if (also.length > 0) o.out(`   ${paint.dim(`also: ${also.join(", ")}`)}`);
  if (h.copies.length > 0) o.out(`   ${paint.dim(`same as: ${firstOf(h.copies.map(shown))}`)}`);
  if (h.same_code.length > 0) {
    const places = h.same_code.map((p) => `${shown(p.path)}:${p.line}`);
    o.out(`   ${paint.dim(`same code: ${firstOf(places)}`)}`);
  }
  if (h.reason) o.out(`   ${paint.dim(`why: ${printable(h.reason)}`)}`);
}

/**
 * The hit's next two symbols by name, past its own: an overload or a Rust
 * `impl` block of a name already shown (`of`, `of`, `of`) says nothing a
 * reader has not read, and would hide a symbol that does (the JSON keeps
 * every one).
 */
function alsoShown(h: SearchHit): SearchHit["symbols"] {
  const names = new Set([h.symbol ?? h.symbols[0]?.name]);
  return h.symbols.slice(1).filter((s) => !names.has(s.name) && names.add(s.name)).slice(0, 2);
}

/** The first three of `items`, and how many more there are: `a, b, c (+2 more)`. */
function firstOf(items: readonly string[]): string {
  const more = items.length > 3 ? ` (+${items.length - 3} more)` : "";
  return `${items.slice(0, 3).join(", ")}${more}`;
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
