import { parseFlags } from "./flags.ts";
import { Journal } from "../store/mod.ts";
import { graphDifferences, verifyJournal } from "../reconcile/mod.ts";
import type { Context } from "./context.ts";
import { EXIT } from "./exit_codes.ts";
import { plural, printable } from "../present/fmt.ts";

export const HELP = `heimdall verify [--deep] [--json]
  Read-only audit: compares the journal with the disk and prints each drift
  with its reason. --deep re-hashes every file (catches a rewrite that kept
  size and mtime) and resolves every root's references again in a scratch
  copy of the journal (in $TMPDIR: room for one more journal; 92 s for
  31,000 files): a file whose call, import or inherits edges differ from
  what a fresh index gives is drift. Files passed over for a reason a
  reconcile cannot fix (unreadable, a name that is not UTF-8, too large, over
  the parse budget) are listed as skipped, with the reason, and are not
  drift. Exit 0 when clean, 1 on any drift.`;

/** `heimdall verify`: exit 1 on any drift. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values } = parseFlags(args, { boolean: ["deep", "json"], positionals: false });
  const journal = Journal.open(ctx.home.journal, { readOnly: true });
  let globalIgnore = "";
  try {
    globalIgnore = Deno.readTextFileSync(ctx.home.ignore);
  } catch { /* no global ignore file */ }
  try {
    const report = verifyJournal(journal, {
      deep: values.deep ?? false,
      extractor: await ctx.extractor(),
      globalIgnore,
      home: ctx.home.home,
    });
    if (report.deep) {
      for (const d of await graphDifferences(journal)) {
        report.drift.push({ kind: "graph", path: d.path, reason: d.reason });
      }
    }
    if (values.json) ctx.out(JSON.stringify(report));
    else {
      // One line per entry, whatever a file name holds (a newline is printed as \n).
      for (const s of report.skipped) {
        ctx.out(`${"skipped".padEnd(10)} ${printable(s.path)} — ${printable(s.reason)}`);
      }
      for (const d of report.drift) {
        ctx.out(`${d.kind.padEnd(10)} ${printable(d.path)} — ${printable(d.reason)}`);
      }
      const tail = (report.queued > 0 ? ` (${plural(report.queued, "path")} still queued)` : "") +
        (report.skipped.length > 0
          ? `; ${plural(report.skipped.length, "file")} skipped, with the reason above`
          : "");
      ctx.out(
        report.drift.length === 0
          ? `clean: ${plural(report.checked, "file")} in ${
            plural(report.roots, "root")
          } match the journal${
            report.deep ? " (content re-hashed, references resolved again)" : ""
          }${tail}`
          : `drift: ${plural(report.drift.length, "difference")} in ${
            plural(report.checked, "file")
          }${tail}; run \`heimdall reconcile --all\` (or start the daemon) to converge${
            report.drift.some((d) => d.kind === "graph")
              ? ", and `heimdall rebuild` for a graph that differs from a fresh index"
              : ""
          }`,
      );
    }
    return report.drift.length === 0 ? EXIT.ok : EXIT.none;
  } finally {
    journal.close();
  }
}
