import { parseFlags } from "./flags.ts";
import { typedPath } from "./path_arg.ts";
import {
  canonicalPath,
  classifyPath,
  isDirectory,
  isGone,
  isSecretName,
  readTextOrNull,
  relative,
} from "../files/mod.ts";
import { type Depth, depthName } from "../config/mod.ts";
import { depthCounts, getPath, hasPathsUnder, Journal, listRoots, rootFor } from "../store/mod.ts";
import type { Context } from "./context.ts";
import { UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";
import { shellQuote } from "../present/shell.ts";

export const HELP = `heimdall depth [PATH] [--json]
  For a file: the depth its root requests, the depth this build can reach
  for its language, the depth it has, and why it was clamped. For a folder
  (or, without PATH, for every root): how many files sit at each depth, by
  language, with the clamp reasons.`;

/** `heimdall depth`: requested vs effective depth, and why. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, { boolean: ["json"] });
  // Only the first was answered: `depth a b` said nothing about b.
  if (positionals.length > 1) {
    throw new UsageError(
      `Expected at most one PATH, got ${positionals.length}: ask \`heimdall depth\` about one at a time (none: every root)`,
    );
  }
  const journal = Journal.open(ctx.home.journal, { readOnly: true });
  try {
    const roots = listRoots(journal);
    const known = (p: string) => {
      const root = rootFor(roots, p);
      return getPath(journal, p) !== undefined ||
        (root !== undefined && hasPathsUnder(journal, root, relative(root.path, p)));
    };
    const typed = positionals.length > 0 ? typedPath(positionals[0]!, "PATH") : undefined;
    // Typed through a linked folder, it names the rows of the real one.
    const path = typed === undefined || known(typed) ? typed : canonicalPath(typed);
    const row = path === undefined ? undefined : getPath(journal, path);
    const root = path === undefined ? undefined : rootFor(roots, path);
    const folder = root !== undefined && hasPathsUnder(journal, root, relative(root.path, path!));
    if (path !== undefined && !row && !folder) {
      throw new UsageError(
        root
          ? notIndexed(path, root.path, ctx.home.ignore)
          : `"${path}" is under no root; add one with \`heimdall roots add DIR\``,
      );
    }
    if (path !== undefined && row) {
      const capability = (await ctx.extractor()).capability(row.language ?? undefined);
      const info = {
        path,
        language: row.language,
        requested: row.requested_depth,
        capability: capability.depth,
        effective: row.effective_depth,
        reason: row.depth_reason ??
          (row.effective_depth < row.requested_depth ? capability.reason ?? null : null),
        state: row.state,
      };
      if (values.json) ctx.out(JSON.stringify(info));
      else {
        ctx.out(`${path}`);
        ctx.out(`  language   ${info.language ?? "unknown"}`);
        ctx.out(`  requested  ${depthName(info.requested as Depth)}`);
        ctx.out(`  this build ${depthName(info.capability)}`);
        ctx.out(`  effective  ${depthName(info.effective as Depth)}`);
        if (info.reason) ctx.out(`  clamped    ${info.reason}`);
      }
      return EXIT.ok;
    }
    // A folder, or every root: the files below it by depth.
    const rows = depthCounts(journal, path);
    if (values.json) ctx.out(JSON.stringify(rows));
    else {
      for (const r of rows) {
        ctx.out(
          `${String(r.n).padStart(7)}  ${(r.language ?? "unknown").padEnd(12)} ${
            depthName(r.effective_depth as Depth)
          }${r.depth_reason ? `  (${r.depth_reason})` : ""}`,
        );
      }
    }
    return EXIT.ok;
  } finally {
    journal.close();
  }
}

/**
 * Why `path`, under the root at `root`, has no row, and what to do: a
 * secret's name and an ignore rule are not cured by reconciling it (the
 * remedy printed before, which changed nothing), a path not on disk has
 * nothing to index; else it waits for its first reconcile.
 */
function notIndexed(path: string, root: string, homeIgnore: string): string {
  const rel = relative(root, path);
  const secret = isSecretName(rel);
  if (secret !== undefined) {
    return `"${path}" is never indexed: its name marks a secret (${secret}), and secrets are never stored`;
  }
  const rule = classifyPath(root, rel, isDirectory(path), readTextOrNull(homeIgnore) ?? "");
  if (rule.ignored) {
    return `"${path}" is not indexed: it is ignored (${
      rule.reason ?? "an ignore rule"
    }); to index it, change that rule, then \`heimdall reconcile ${shellQuote(path)}\``;
  }
  if (isGone(path)) return `"${path}" is not on disk, so nothing is indexed for it`;
  return `"${path}" is not in the journal yet; \`heimdall reconcile ${
    shellQuote(path)
  }\` converges it`;
}
