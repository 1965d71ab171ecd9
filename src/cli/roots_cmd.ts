import { parseFlags } from "./flags.ts";
import { typedPath } from "./path_arg.ts";
import { canonicalPath } from "../files/mod.ts";
import { loadConfig, parseDepth, updateConfig } from "../config/mod.ts";
import type { Context } from "./context.ts";
import { UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";
import { handToDaemon } from "./writer.ts";
import { homeDirs, isInside } from "../reconcile/mod.ts";
import { rootFolder } from "./root_folder.ts";
import { shellQuote } from "../present/shell.ts";

export const HELP = `heimdall roots [list] | add DIR… [--depth D] | remove DIR… [--json]
  The folders Heimdall indexes, kept in $HEIMDALL_HOME/config.json (--json:
  each root's path and depth; what was added or removed). add --depth sets
  a root's depth (default max; a root already added keeps its own unless
  --depth is given). add and remove change the configuration; the writer
  (daemon, or the next \`heimdall reconcile\`) indexes or retracts them. A
  root inside another root owns its own files (the innermost root wins);
  removing it hands them back to the outer root. $HEIMDALL_HOME is never
  indexed, even inside a root.`;

/** `heimdall roots`: list, add, remove. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, { string: ["depth"], boolean: ["json"] });
  const [verb = "list", ...dirs] = positionals;
  // `heimdall roots --depth L1` listed the roots at their own depth, exit 0: a change not made, silently.
  if (values.depth !== undefined && verb !== "add") {
    throw new UsageError(
      `--depth applies to roots add only (not ${verb}): \`heimdall roots add DIR --depth ${values.depth}\` sets a root's depth`,
    );
  }
  if (verb === "list") {
    if (dirs.length > 0) {
      throw new UsageError(
        `Unexpected "${
          dirs.join(" ")
        }": roots list takes no folder (\`heimdall roots add DIR\` adds one)`,
      );
    }
    const roots = loadConfig(ctx.home.config).roots;
    if (values.json) ctx.out(JSON.stringify(roots));
    else if (roots.length === 0) ctx.out("no roots; add one with `heimdall roots add DIR`");
    else for (const r of roots) ctx.out(`${r.path}  depth ${r.depth}`);
    return EXIT.ok;
  }
  if (verb !== "add" && verb !== "remove") {
    throw new UsageError(`Unknown roots command "${verb}": expected list, add or remove`);
  }
  if (dirs.length === 0) throw new UsageError(`Usage: heimdall roots ${verb} DIR…`);
  const depth = values.depth === undefined ? undefined : parseDepth(values.depth);
  if (values.depth !== undefined && depth === undefined) {
    throw new UsageError(`Invalid --depth "${values.depth}": expected max, L0, L1, L2 or L3`);
  }
  const home = homeDirs(ctx.home.home);
  const paths = [
    ...new Set(
      dirs.map((d) =>
        verb === "add" ? rootFolder(d, home, "Cannot add root") : typedPath(d, "DIR")
      ),
    ),
  ];
  let notes: string[] = [];
  await updateConfig(ctx.home.config, (c) => {
    if (verb === "add") {
      for (const p of paths) {
        // Without --depth, a root already here keeps the depth it was given.
        const r = c.roots.find((x) => x.path === p);
        if (r) r.depth = depth ?? r.depth;
        else c.roots.push({ path: p, depth: depth ?? "max" });
      }
      notes = nesting(paths, c.roots.map((r) => r.path));
    } else {
      // A root is recorded by its real path: typed through a linked folder, it is the same root.
      const names = (p: string) => [p, canonicalPath(p)];
      const named = new Set(paths.flatMap(names));
      const missing = paths.filter((p) => !c.roots.some((r) => names(p).includes(r.path)));
      // Thrown here, the file is not written: a typo among the folders
      // removes none of them, not all the others.
      if (missing.length > 0) {
        throw new UsageError(
          `Not a root: ${
            missing.map((m) => `"${m}"`).join(", ")
          }; nothing removed; \`heimdall roots list\` shows the roots`,
        );
      }
      c.roots = c.roots.filter((r) => !named.has(r.path));
    }
    return c;
  });
  for (const n of notes) ctx.err(n);
  const daemon = await handToDaemon(ctx, verb === "add" ? paths : []);
  if (values.json) {
    ctx.out(
      JSON.stringify({ [verb === "add" ? "added" : "removed"]: paths, daemon: daemon ?? null }),
    );
    return EXIT.ok;
  }
  ctx.out(
    `${verb === "add" ? "added" : "removed"} ${paths.join(", ")}; ${
      daemon !== undefined
        ? `the daemon (pid ${daemon}) applies it now`
        : "`heimdall reconcile --all` applies it"
    }`,
  );
  return EXIT.ok;
}

/**
 * One line per added root that nests in, or holds, another root: who owns
 * what now (`roots add` and `index` print them).
 */
export function nesting(added: readonly string[], all: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of added) {
    for (const o of all) {
      if (isInside(p, o)) {
        out.push(
          `note: "${p}" lies inside the root "${o}"; its files now belong to "${p}" (\`heimdall roots remove ${
            shellQuote(p)
          }\` hands them back)`,
        );
      } else if (isInside(o, p)) {
        out.push(`note: the root "${o}" lies inside "${p}" and keeps its own files`);
      }
    }
  }
  return out;
}
