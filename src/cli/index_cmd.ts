import { parseFlags } from "./flags.ts";
import { parseDepth, updateConfig } from "../config/mod.ts";
import { journalCounts } from "../store/mod.ts";
import { homeDirs } from "../reconcile/mod.ts";
import { rootFolder } from "./root_folder.ts";
import { nesting } from "./roots_cmd.ts";
import type { Context } from "./context.ts";
import { UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";
import { NO_MODEL_REASON } from "../embed/mod.ts";
import { plural, seconds } from "../present/fmt.ts";
import { progressBar } from "./progress.ts";
import { handToDaemon, SETTLE_MS, withWriter } from "./writer.ts";

export const HELP = `heimdall index [ROOT…] [--depth max|L0..L3] [--no-embed] [--json]
  Adds each ROOT (default: the current folder) to the roots and converges them
  now: a cold index the first time, a stat audit after that. --depth sets
  their depth (a new root's default is max; a root already added keeps its
  own unless --depth is given). Prints a summary
  line (files, symbols, seconds; --json: the pass's counts as one JSON
  object). Then, with a model active, embeds every chunk that has no vector
  of it yet (a progress bar with an ETA on a terminal; --no-embed leaves that
  to the daemon). With a daemon running, hands the roots to it (--json:
  the roots and the daemon's pid).`;

/** `heimdall index`: add roots and converge them now. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    string: ["depth"],
    boolean: ["json", "no-embed"],
  });
  const depth = values.depth === undefined ? undefined : parseDepth(values.depth);
  if (values.depth !== undefined && depth === undefined) {
    throw new UsageError(`Invalid --depth "${values.depth}": expected max, L0, L1, L2 or L3`);
  }
  const home = homeDirs(ctx.home.home);
  const typed = positionals.length > 0 ? positionals : ["."];
  const realDirs = [...new Set(typed.map((p) => rootFolder(p, home, "Cannot index")))];
  // The roots join the configuration once this command may write (or the
  // daemon does): an index refused for a held lock leaves it as it was.
  let notes: string[] = [];
  const addRoots = async () => {
    await updateConfig(ctx.home.config, (c) => {
      const added: string[] = [];
      for (const path of realDirs) {
        // Without --depth, a root already here keeps the depth it was given.
        const existing = c.roots.find((r) => r.path === path);
        if (existing) existing.depth = depth ?? existing.depth;
        else {
          c.roots.push({ path, depth: depth ?? "max" });
          added.push(path);
        }
      }
      // `heimdall index` typed in a repository's subfolder made that folder a
      // root of its own, silently: say so, as `roots add` does.
      notes = nesting(added, c.roots.map((r) => r.path));
      return c;
    });
    for (const n of notes) ctx.err(n);
  };
  let daemon = await handToDaemon(ctx, []);
  if (daemon !== undefined) {
    await addRoots();
    daemon = await handToDaemon(ctx, realDirs) ?? daemon;
    if (values.json) ctx.out(JSON.stringify({ roots: realDirs, daemon }));
    ctx.err(
      `The daemon (pid ${daemon}) is running: it picks up ${
        plural(realDirs.length, "root")
      } now; \`heimdall status\` shows its progress`,
    );
    return EXIT.ok;
  }
  const t0 = performance.now();
  const bar = progressBar("indexing");
  const result = await withWriter(ctx, async (r, followers) => {
    const roots = r.roots.filter((root) => realDirs.includes(root.path));
    const pass = await r.pass({
      audit: roots,
      // Files still changing while read (or handed between nested roots) are seen through.
      settleMs: SETTLE_MS,
      onProgress: (p) => bar.update(p),
    });
    bar.done();
    const indexMs = performance.now() - t0;
    // Vectors follow the symbol rows (nothing happens without an active model).
    let embedded = null;
    if (!values["no-embed"]) {
      const embedBar = progressBar("embedding", "chunks");
      embedded = await followers.embed.runAll((p) =>
        embedBar.update({ done: p.done, found: p.total, walkDone: true })
      );
      embedBar.done();
      // A model is set up but cannot embed (not installed, damaged): said here, not only by doctor.
      const off = followers.embed.status().reason;
      if (embedded.model === null && off !== null && off !== NO_MODEL_REASON) {
        ctx.err(`embedding skipped: ${off}`);
      }
    }
    const counts = journalCounts(r.journal, roots.map((root) => root.id));
    return { stats: pass.audit!, counts, indexMs, embedded };
  }, { beforeOpen: addRoots });
  bar.done();
  const ms = result.indexMs;
  const files = Object.values(result.counts.paths).reduce((a, b) => a + b, 0);
  const symbols = result.counts.symbols;
  if (values.json) {
    ctx.out(JSON.stringify({ roots: realDirs, ms: Math.round(ms), ...result }));
  } else {
    ctx.out(
      `indexed ${plural(files, "file")}, ${plural(symbols, "symbol")} in ${
        seconds(ms)
      } (${result.stats.changed} new or changed, ${result.stats.retracted} removed, ${result.stats.secrets} secret files skipped${
        // A file kept by its path only (too large, binary) is said, never silent either.
        result.stats.skipped > 0
          ? `, ${result.stats.skipped} kept by path only: \`heimdall verify\` says why`
          : ""}${
        // A folder or file that cannot be read is left out: never silently.
        result.stats.errors > 0
          ? `, ${result.stats.errors} unreadable: \`heimdall verify\` names them`
          : ""})`,
    );
    const e = result.embedded;
    if (e?.model && e.embedded + e.skipped > 0) {
      ctx.out(
        `embedded ${plural(e.embedded, "chunk")} with ${e.model} in ${seconds(e.ms)}${
          e.skipped > 0 ? ` (${e.skipped} skipped: changed since indexed)` : ""
        }`,
      );
    }
  }
  return EXIT.ok;
}
