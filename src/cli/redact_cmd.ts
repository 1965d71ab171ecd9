/** `heimdall redact`: secrets stored by an older build, redacted in place. */
import { parseFlags } from "./flags.ts";
import { isFile, join } from "../files/mod.ts";
import { shellLine } from "../present/shell.ts";
import { Journal } from "../store/mod.ts";
import type { Context } from "./context.ts";
import { EXIT } from "./exit_codes.ts";
import { json, plural } from "../present/fmt.ts";
import { describeStored, findStoredSecrets, redactStoredSecrets } from "./stored_secrets.ts";

export const HELP = `heimdall redact [--dry-run] [--json]
  Redacts secrets that a Heimdall from before a rule of the secret screen
  stored: API keys, tokens, passwords in URLs, private keys in notes,
  memories (text, author, task, tests, fix), personal candidates, tasks,
  hand-off notes and claims, and in their search rows; and in the hooks'
  session files and the logs under $HEIMDALL_HOME. Only the secret-shaped
  spans change, to [REDACTED:<kind>] as a write stores them now; ids,
  times, supersession and anchors stay. The journal's change is one write
  transaction: all or nothing. Freed space is overwritten and the
  full-text index merged, so the old text stays in no file of the journal;
  copies of it made before (rebuild's backups) are named so that you can
  delete them. Prints each record changed (its table, id and fields, never
  the value). --dry-run only lists them (\`heimdall doctor\` counts them
  too). Every writer (index, reconcile, the daemon) runs it once by itself
  after an upgrade changes the screen, and then also retracts the indexed
  files the screen now refuses.`;

/** Whole copies of the journal beside it: rebuild's backups, a damaged journal set aside. */
const JOURNAL_COPY = /^journal\.db\.(?:\d{8}T\d{6}Z\.backup|damaged-[^/]*)$/;

/** The names of the journal's copies in `home` (their SQLite side files left out), sorted. */
function journalCopies(home: string): string[] {
  try {
    return [...Deno.readDirSync(home)]
      .filter((e) => e.isFile && JOURNAL_COPY.test(e.name) && !/-(?:wal|shm|journal)$/.test(e.name))
      .map((e) => e.name).sort();
  } catch {
    return [];
  }
}

/** `heimdall redact`. */
export function run(args: string[], ctx: Context): number {
  const { values } = parseFlags(args, { boolean: ["dry-run", "json"], positionals: false });
  // No journal yet: the usual "nothing is indexed yet", never an empty journal made here.
  const j = Journal.open(ctx.home.journal, {
    readOnly: values["dry-run"] === true || !isFile(ctx.home.journal),
  });
  try {
    const { redacted, purged } = values["dry-run"]
      ? { redacted: findStoredSecrets(j, ctx.home), purged: true }
      : redactStoredSecrets(j, ctx.home);
    const copies = redacted.some((s) => s.table !== "sessions" && s.table !== "logs")
      ? journalCopies(ctx.home.home)
      : [];
    if (values.json) {
      ctx.out(json({
        dry_run: values["dry-run"] === true,
        records: redacted,
        purged,
        journal_copies: copies.map((c) => join(ctx.home.home, c)),
      }));
      return EXIT.ok;
    }
    if (redacted.length === 0) {
      ctx.out("no stored record holds a secret; nothing changed");
      return EXIT.ok;
    }
    ctx.out(
      `${values["dry-run"] ? "would redact" : "redacted"} ${
        plural(redacted.length, "record")
      } holding a secret:`,
    );
    for (const s of redacted) ctx.out(`  ${describeStored(s)}`);
    if (copies.length > 0) {
      // Restore points: not rewritten here, but the user must know they hold what was redacted.
      ctx.err(
        `heimdall redact: ${plural(copies.length, "copy", "copies")} of the journal made before (${
          copies.join(", ")
        }) still ${
          copies.length === 1 ? "holds" : "hold"
        } the secrets as they were; delete them once you no longer need them: ${
          shellLine(["rm", "--", ...copies.map((c) => join(ctx.home.home, c))])
        }`,
      );
    }
    if (!purged) {
      ctx.err(
        "heimdall redact: another process was reading the journal, so its WAL file keeps the old text until the next checkpoint (any writer makes one when readers are idle)",
      );
    }
    return EXIT.ok;
  } finally {
    j.close();
  }
}
