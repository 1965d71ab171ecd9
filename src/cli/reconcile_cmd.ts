import { parseFlags } from "./flags.ts";
import { canonicalPath, isGone, relative } from "../files/mod.ts";
import { typedPath } from "./path_arg.ts";
import type { Context } from "./context.ts";
import { EXIT } from "./exit_codes.ts";
import { plural, seconds } from "../present/fmt.ts";
import { progressBar } from "./progress.ts";
import { handToDaemon, SETTLE_MS, withWriter } from "./writer.ts";
import { UsageError } from "../errors/mod.ts";
import { getPath, hasPathsUnder, Journal, listRoots, rootFor } from "../store/mod.ts";

export const HELP = `heimdall reconcile [PATH…] [--all] [--deep] [--json]
  Converges the journal with the disk now, as the single writer: the given
  paths (files or folders), then every pending hint and queued path. --all
  also runs a stat audit of every root (--deep re-hashes every file). With a
  daemon running, hands the paths to it instead. A PATH neither on disk nor
  in the journal (a typo) is refused, exit 2, and nothing is reconciled.
  --json prints the pass's counts as one JSON object (nothing when the
  daemon took the paths).`;

/** `heimdall reconcile`: one-shot convergence. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, { boolean: ["all", "deep", "json"] });
  const roots = ctx.config().roots;
  // Roots are recorded by their real path: a path through a linked folder
  // names the real one (as `hint` reads it; under a root as typed, the
  // writer looks for links below the root).
  const paths = positionals.map((p) => {
    const abs = typedPath(p, "PATH");
    return rootFor(roots, abs) ? abs : canonicalPath(abs);
  });
  const outside = paths.find((p) => !rootFor(roots, p));
  if (outside !== undefined) {
    throw new UsageError(
      `"${outside}" is under no root, so there is nothing to reconcile; add one with \`heimdall roots add DIR\` (or \`heimdall index DIR\`)`,
    );
  }
  // A path neither on disk nor in the journal (a typo) would be counted as
  // one unchanged path, exit 0, as if it were indexed and current.
  const nothing = paths.find((p) => isGone(p) && !indexedAt(ctx, p));
  if (nothing !== undefined) {
    throw new UsageError(
      `"${nothing}" is not on disk and nothing is indexed there, so there is nothing to reconcile; check the path (nothing was reconciled)`,
    );
  }
  // A stat audit of every root is a hint of every root for the daemon; a
  // deep one (every file hashed) only the writer can run here.
  const handed = values.all && !values.deep ? roots.map((r) => r.path) : paths;
  const daemon = await handToDaemon(ctx, values.deep && values.all ? [] : handed);
  if (daemon !== undefined) {
    if (values.all && values.deep) {
      ctx.err(
        `The daemon (pid ${daemon}) is running: it audits by size and mtime; stop it to re-hash every file with --all --deep here`,
      );
      return EXIT.env;
    }
    ctx.err(
      values.all
        ? `The daemon (pid ${daemon}) is running: handed ${
          plural(handed.length, "root")
        } to it, which audits them now`
        : `The daemon (pid ${daemon}) is running: handed ${plural(paths.length, "path")} to it`,
    );
    return EXIT.ok;
  }
  const t0 = performance.now();
  const bar = progressBar("reconciling");
  const stats = await withWriter(ctx, async (r) => {
    const pass = await r.pass({
      paths,
      audit: values.all ?? false,
      deep: values.deep ?? false,
      // Paths that were changing while read wait a short back-off; see them through.
      settleMs: SETTLE_MS,
      onProgress: (p) => bar.update(p),
    });
    return { ...pass.stats, queued: pass.queued };
  });
  bar.done();
  if (values.json) ctx.out(JSON.stringify(stats));
  else {
    ctx.out(
      `reconciled ${plural(stats.seen, "path")} in ${
        seconds(performance.now() - t0)
      }: ${stats.changed} changed, ${stats.touched} touched, ${stats.retracted} removed, ${stats.unchanged} unchanged${
        // A file turned binary or too large lost its symbols: never silently.
        stats.skipped > 0
          ? `, ${stats.skipped} skipped, kept at L1 (\`heimdall depth PATH\` says why)`
          : ""}${
        stats.errors > 0 ? `, ${stats.errors} unreadable (\`heimdall verify\` names them)` : ""
      }${stats.queued > 0 ? `, ${stats.queued} still queued` : ""}`,
    );
  }
  return EXIT.ok;
}

/**
 * True when the journal holds a row for `path` or for a path below it
 * (a file or folder deleted since it was indexed: reconciling it retracts
 * them). True when the journal cannot be read (none yet, or busy): the
 * pass then says what it finds.
 */
function indexedAt(ctx: Context, path: string): boolean {
  let journal: Journal;
  try {
    journal = Journal.open(ctx.home.journal, { readOnly: true });
  } catch {
    return true;
  }
  try {
    const root = rootFor(listRoots(journal), path);
    return getPath(journal, path) !== undefined ||
      (root !== undefined && hasPathsUnder(journal, root, relative(root.path, path)));
  } catch {
    return true;
  } finally {
    journal.close();
  }
}
