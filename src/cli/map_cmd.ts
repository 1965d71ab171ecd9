/** `heimdall constraints PATH` and `heimdall map check [ROOT]`: the architectural map. */
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { checkMap, constraintsFor, findMapFile, MapError } from "../map/mod.ts";
import type { Context } from "./context.ts";
import { UsageError } from "./errors.ts";
import { EXIT } from "./exit_codes.ts";
import { json, plural } from "./fmt.ts";

export const CONSTRAINTS_HELP = `heimdall constraints PATH [--json]
  What the architectural map (.heimdall/map.toml at the repository root) says
  about PATH: the component it resolves to (the most specific glob wins), its
  own constraints (must, should, info), then the must and should constraints
  of the components it depends on. Exit 1 when no map or no component covers
  PATH; 2 when the map does not parse.`;

/** `heimdall constraints PATH`. */
export function constraintsCmd(args: string[], ctx: Context): number {
  const { values, positionals } = parseArgs({
    args,
    options: { json: { type: "boolean" } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) throw new UsageError("Expected exactly one PATH");
  const path = resolve(positionals[0]!);
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
    ctx.out(
      map
        ? `${path}: no component of ${map.file} covers it`
        : `${path}: no .heimdall/map.toml in its folder or above`,
    );
    return EXIT.none;
  }
  ctx.out(
    `${r.rel || "."} → component ${r.component} (glob ${r.glob}, ${r.map})${
      r.description ? `\n  ${r.description}` : ""
    }`,
  );
  if (r.constraints.length === 0) ctx.out("  no constraints declared");
  let from = "";
  for (const c of r.constraints) {
    if (c.via === "depends_on" && c.component !== from) {
      from = c.component;
      ctx.out(`depends on ${c.component}:`);
    }
    ctx.out(`  ${c.level.padEnd(6)} ${c.text}`);
  }
  return EXIT.ok;
}

export const MAP_HELP = `heimdall map check [ROOT] [--json]
  Checks the architectural map of the repository at ROOT (default: the
  nearest one holding the current folder) against its files: exit 1 when the
  map does not parse (with the line), a glob matches no file, or a
  component's files are all gone. Prints each component with its file counts.`;

/** `heimdall map check [ROOT]`. */
export function mapCmd(args: string[], ctx: Context): number {
  const { values, positionals } = parseArgs({
    args,
    options: { json: { type: "boolean" } },
    allowPositionals: true,
  });
  const [sub, rootArg, ...rest] = positionals;
  if (sub !== "check" || rest.length > 0) {
    throw new UsageError(
      `Unknown map command "${positionals.join(" ")}": use \`heimdall map check [ROOT]\``,
    );
  }
  let root: string;
  if (rootArg !== undefined) {
    root = resolve(rootArg);
    try {
      if (!Deno.statSync(root).isDirectory) throw new Error();
    } catch {
      throw new UsageError(`Cannot check "${root}": no such folder; pass the repository's root`);
    }
  } else {
    root = findMapFile(Deno.cwd())?.root ?? Deno.cwd();
  }
  let globalIgnore = "";
  try {
    globalIgnore = Deno.readTextFileSync(ctx.home.ignore);
  } catch { /* no global ignore file */ }
  const r = checkMap(root, globalIgnore);
  if (values.json) {
    ctx.out(json(r));
    return r.file === null || r.problems.length > 0 ? EXIT.none : EXIT.ok;
  }
  if (r.file === null) {
    ctx.out(`${root}: no .heimdall/map.toml (or map.json); nothing to check`);
    return EXIT.none;
  }
  ctx.out(`${r.file}: ${plural(r.files, "file")}, ${r.unmapped} in no component`);
  for (const c of r.components) {
    ctx.out(
      `  ${c.name.padEnd(16)} ${plural(c.files, "file")}  (${
        c.globs.map((g) => `${g.glob}: ${g.files}`).join(", ")
      })`,
    );
  }
  for (const w of r.warnings) ctx.out(`warning: ${w}`);
  for (const p of r.problems) ctx.err(`problem: ${p.message}`);
  if (r.problems.length === 0) ctx.out("map ok");
  return r.problems.length > 0 ? EXIT.none : EXIT.ok;
}
