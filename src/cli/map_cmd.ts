/** `heimdall constraints PATH` and `heimdall map check [ROOT]`: the architectural map. */
import { parseFlags } from "./flags.ts";
import { typedPath } from "./path_arg.ts";
import { checkMap, constraintsFor, docsBehindHead, findMapFile, MapError } from "../map/mod.ts";
import { hashesUnder, Journal } from "../store/mod.ts";
import { classifyPath } from "../files/ignore.ts";
import type { Context } from "./context.ts";
import { UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";
import { json, plural, printableLines } from "../present/fmt.ts";
import { shellQuote } from "../present/shell.ts";

/**
 * Prints text for a person: a map's names, globs, descriptions and
 * constraints and the paths it covers are the repository's own text, so a
 * control character in them shows as an escape ({@link printableLines}).
 */
const say = (ctx: Context, text: string) => ctx.out(printableLines(text));

export const CONSTRAINTS_HELP = `heimdall constraints PATH [--json]
  What the architectural map (.heimdall/map.toml at the repository root) says
  about PATH: the component it resolves to (the most specific glob wins), its
  own constraints (must, should, info), then the must and should constraints
  of the components it depends on. Exit 1 when no map or no component covers
  PATH; 2 when the map does not parse.`;

/** `heimdall constraints PATH`. */
export function constraintsCmd(args: string[], ctx: Context): number {
  const { values, positionals } = parseFlags(args, { boolean: ["json"] });
  if (positionals.length !== 1) throw new UsageError("Expected exactly one PATH");
  const path = typedPath(positionals[0]!, "PATH");
  let r;
  try {
    r = constraintsFor(path);
  } catch (e) {
    if (e instanceof MapError) {
      throw new UsageError(
        `${e.message}; fix the map (\`heimdall map check\` lists every problem)`,
      );
    }
    throw e;
  }
  if (values.json) {
    ctx.out(json(r));
    return r ? EXIT.ok : EXIT.none;
  }
  if (!r) {
    const map = findMapFile(path);
    say(
      ctx,
      map
        ? `${path}: no component of ${map.file} covers it`
        : `${path}: no .heimdall/map.toml in its folder or above`,
    );
    return EXIT.none;
  }
  say(
    ctx,
    `${r.rel || "."} → component ${r.component} (glob ${r.glob}, ${r.map})${
      r.description ? `\n  ${r.description}` : ""
    }`,
  );
  if (r.constraints.length === 0) say(ctx, "  no constraints declared");
  let from = "";
  for (const c of r.constraints) {
    if (c.via === "depends_on" && c.component !== from) {
      from = c.component;
      say(ctx, `depends on ${c.component}:`);
    }
    say(ctx, `  ${c.level.padEnd(6)} ${c.text}`);
  }
  return EXIT.ok;
}

export const MAP_HELP = `heimdall map check [ROOT] [--json]
  Checks the architectural map of the repository at ROOT (default: the
  nearest one holding the current folder) against its files: exit 1 when the
  map does not parse (with the line), declares no component, a glob matches
  no file, a component's files are all gone, or a component's sources (the
  documents its constraints come from) do not exist. Prints each component
  with its file counts, how many constraints cite no source document, and the
  documents the last git commit changed that the index has not seen yet.`;

/** `heimdall map check [ROOT]`. */
export function mapCmd(args: string[], ctx: Context): number {
  const { values, positionals } = parseFlags(args, { boolean: ["json"] });
  const [sub, rootArg, ...rest] = positionals;
  if (sub !== "check" || rest.length > 0) {
    throw new UsageError(
      `Unknown map command "${positionals.join(" ")}": use \`heimdall map check [ROOT]\``,
    );
  }
  let root: string;
  if (rootArg !== undefined) {
    root = typedPath(rootArg, "ROOT");
    let isDir: boolean;
    try {
      isDir = Deno.statSync(root).isDirectory;
    } catch {
      throw new UsageError(`Cannot check "${root}": no such folder; pass the repository's root`);
    }
    if (!isDir) {
      throw new UsageError(
        `Cannot check "${root}": a file, not a folder; pass the repository's root ` +
          "(`heimdall constraints FILE` says what the map says about one file)",
      );
    }
  } else {
    root = findMapFile(Deno.cwd())?.root ?? Deno.cwd();
  }
  let globalIgnore = "";
  try {
    globalIgnore = Deno.readTextFileSync(ctx.home.ignore);
  } catch { /* no global ignore file */ }
  const r = checkMap(root, globalIgnore);
  const behind = r.file === null ? undefined : docsBehindHead(
    root,
    indexedHashes(ctx, root),
    (rel) => !classifyPath(root, rel, false, globalIgnore).ignored,
  );
  if (values.json) {
    ctx.out(json({ ...r, behind_head: behind ?? null }));
    return r.file === null || r.problems.length > 0 ? EXIT.none : EXIT.ok;
  }
  if (r.file === null) {
    say(ctx, `${root}: no .heimdall/map.toml (or map.json); nothing to check`);
    return EXIT.none;
  }
  // A map that does not parse was not checked against any file: no counts to show.
  const parsed = !r.problems.some((p) => p.kind === "parse" || p.kind === "no-components");
  if (parsed) {
    say(ctx, `${r.file}: ${plural(r.files, "file")}, ${r.unmapped} in no component`);
  }
  for (const c of r.components) {
    say(
      ctx,
      `  ${c.name.padEnd(16)} ${plural(c.files, "file")}  (${
        c.globs.map((g) => `${g.glob}: ${g.files}`).join(", ")
      })`,
    );
  }
  for (const w of r.warnings) say(ctx, `warning: ${w}`);
  if (r.unsourced > 0) {
    say(
      ctx,
      `info: ${plural(r.unsourced, "constraint")} ${
        r.unsourced === 1 ? "cites" : "cite"
      } no source document; add sources = ["docs/…"] to ${
        r.unsourced === 1 ? "its" : "their"
      } component`,
    );
  }
  if (behind && behind.length > 0) {
    say(
      ctx,
      `behind HEAD: ${
        plural(behind.length, "document")
      } the last commit changed the index has not seen (\`heimdall reconcile ${
        shellQuote(root)
      }\` catches up):`,
    );
    for (const b of behind) say(ctx, `  ${b.rel}  ${b.reason}`);
  }
  for (const p of r.problems) ctx.err(`problem: ${p.message}`);
  if (r.problems.length === 0) say(ctx, "map ok");
  return r.problems.length > 0 ? EXIT.none : EXIT.ok;
}

/** The journal's content hash of each file under `root` (by root-relative path); null for none. */
function indexedHashes(ctx: Context, root: string): (rel: string) => string | null {
  let base = root;
  try {
    base = Deno.realPathSync(root);
  } catch { /* checked above: it exists */ }
  let j: Journal | undefined;
  try {
    j = Journal.open(ctx.home.journal, { readOnly: true });
  } catch {
    return () => null; // no journal yet: nothing is indexed
  }
  const rows = new Map(
    [...hashesUnder(j, base)].map(([path, hash]) => [path.slice(base.length + 1), hash]),
  );
  j.close();
  return (rel) => rows.get(rel) ?? null;
}
