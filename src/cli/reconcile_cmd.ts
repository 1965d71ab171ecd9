import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { queueStats } from "../store/mod.ts";
import type { Context } from "./context.ts";
import { EXIT } from "./exit_codes.ts";
import { plural, seconds } from "../present/fmt.ts";
import { progressBar } from "./progress.ts";
import { handToDaemon, withWriter } from "./writer.ts";
import { addStats } from "../reconcile/mod.ts";

export const HELP = `heimdall reconcile [PATH…] [--all] [--deep]
  Converges the journal with the disk now, as the single writer: the given
  paths (files or folders), then every pending hint and queued path. --all
  also runs a stat audit of every root (--deep re-hashes every file). With a
  daemon running, hands the paths to it instead.`;

const SETTLE_MS = 10_000;

/** `heimdall reconcile`: one-shot convergence. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { all: { type: "boolean" }, deep: { type: "boolean" }, json: { type: "boolean" } },
    allowPositionals: true,
  });
  const paths = positionals.map((p) => resolve(p));
  const daemon = await handToDaemon(ctx, values.all ? [] : paths);
  if (daemon !== undefined) {
    if (values.all) {
      ctx.err(
        `The daemon (pid ${daemon}) is running and audits every root itself; stop it to run --all here`,
      );
      return EXIT.env;
    }
    ctx.err(`The daemon (pid ${daemon}) is running: handed ${plural(paths.length, "path")} to it`);
    return EXIT.ok;
  }
  const t0 = performance.now();
  const bar = progressBar("reconciling");
  const stats = await withWriter(ctx, async (r) => {
    const total = await r.reconcilePaths(paths, values.deep ?? false);
    if (values.all) {
      const audit = await r.audit({ deep: values.deep ?? false, onProgress: (p) => bar.update(p) });
      addStats(total, audit);
    }
    r.ingestHints();
    // Paths that were changing while read wait a short back-off; see them through.
    const deadline = Date.now() + SETTLE_MS;
    for (;;) {
      addStats(total, await r.drainQueue());
      const q = queueStats(r.journal);
      if (q.length === 0 || Date.now() > deadline) break;
      // Never sleep past the deadline: a path backing off for 30 s stays queued instead.
      const wait = Math.min(deadline - Date.now(), (q.nextDue ?? 0) - Date.now());
      await new Promise((res) => setTimeout(res, Math.max(10, wait)));
    }
    return { ...total, queued: queueStats(r.journal).length };
  });
  bar.done();
  if (values.json) ctx.out(JSON.stringify(stats));
  else {
    ctx.out(
      `reconciled ${plural(stats.seen, "path")} in ${
        seconds(performance.now() - t0)
      }: ${stats.changed} changed, ${stats.touched} touched, ${stats.retracted} removed, ${stats.unchanged} unchanged${
        stats.errors > 0 ? `, ${stats.errors} unreadable (\`heimdall verify\` names them)` : ""
      }${stats.queued > 0 ? `, ${stats.queued} still queued` : ""}`,
    );
  }
  return EXIT.ok;
}
