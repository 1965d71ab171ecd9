/** `heimdall redact`: secrets stored by an older build, redacted in place. */
import { parseFlags } from "./flags.ts";
import { isFile, join } from "../files/mod.ts";
import { shellLine } from "../present/shell.ts";
import { Journal } from "../store/mod.ts";
import type { Context } from "./context.ts";
import { EXIT } from "./exit_codes.ts";
import { json, plural } from "../present/fmt.ts";
import { describeStored, findStoredSecrets, redactStoredSecrets } from "./stored_secrets.ts";
import type { StoredSecret } from "../files/mod.ts";
import {
  currentActor,
  openPgTeamStore,
  redactTeamStoreRows,
  redactUrl,
  TeamStoreError,
} from "../team/mod.ts";

export const HELP = `heimdall redact [--dry-run] [--json]
  Redacts secrets that a Heimdall from before a rule of the secret screen
  stored: API keys, tokens, passwords in URLs, private keys in notes,
  memories (text, author, task, tests, fix), personal candidates, tasks,
  hand-off notes and claims, and in their search rows; and in the hooks'
  session files, the hook events waiting in hookd.spool and the logs under
  $HEIMDALL_HOME. Only the secret-shaped
  spans change, to [REDACTED:<kind>] as a write stores them now; ids,
  times, supersession and anchors stay. The journal's change is one write
  transaction: all or nothing. Freed space is overwritten and the
  full-text index merged, so the old text stays in no file of the journal;
  copies of it made before (rebuild's backups) are named so that you can
  delete them. With a team store (\`heimdall team connect\`), your own rows
  there too (the memories, tasks, hand-off notes and claims you pushed, as
  "team <table> <id>"), in one transaction; teammates' machines copy the
  redacted memories at their next pull. A store it cannot reach is named,
  with what it left there, and exits 3. Prints each record changed (its
  table, id and fields, never the value). --dry-run only lists them
  (\`heimdall doctor\` counts the journal's too). Every writer (index,
  reconcile, the daemon) runs it once by itself after an upgrade changes
  the screen (the journal and home only), and then also retracts the
  indexed files the screen now refuses.`;

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

/**
 * This person's rows in the shared team store holding a secret (see
 * `redactTeamStoreRows`), redacted unless `dryRun`: none without a store;
 * `note` names whose rows were screened, `error` why a configured store was not.
 */
async function teamRows(
  ctx: Context,
  dryRun: boolean,
): Promise<{ records: StoredSecret[]; note: string | null; error: string | null }> {
  const url = ctx.config().teamUrl;
  if (!url) return { records: [], note: null, error: null };
  const me = currentActor().developer;
  try {
    const store = await openPgTeamStore(url);
    try {
      return {
        records: await redactTeamStoreRows(store, me, !dryRun),
        note: `in the team store "${
          redactUrl(url)
        }", the rows of "${me}" were screened (you, as HEIMDALL_AUTHOR or git's user.name name you); rows pushed under another name: HEIMDALL_AUTHOR=NAME heimdall redact; a teammate's are theirs to redact`,
        error: null,
      };
    } finally {
      await store.close();
    }
  } catch (e) {
    if (!(e instanceof TeamStoreError)) throw e;
    return {
      records: [],
      note: null,
      error: `the team store "${
        redactUrl(url)
      }" was not screened: ${e.message}; the memories, tasks, hand-off notes and claims you pushed there keep what they hold; run \`heimdall redact\` again once it is reachable`,
    };
  }
}

/** `heimdall redact`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values } = parseFlags(args, { boolean: ["dry-run", "json"], positionals: false });
  // No journal yet: the usual "nothing is indexed yet", never an empty journal made here.
  const j = Journal.open(ctx.home.journal, {
    readOnly: values["dry-run"] === true || !isFile(ctx.home.journal),
  });
  try {
    const { redacted: local, purged } = values["dry-run"]
      ? { redacted: findStoredSecrets(j, ctx.home), purged: true }
      : redactStoredSecrets(j, ctx.home);
    const team = await teamRows(ctx, values["dry-run"] === true);
    const redacted = [...local, ...team.records];
    const code = team.error === null ? EXIT.ok : EXIT.env;
    const copies = local.some((s) => !["sessions", "hookd.spool", "logs"].includes(s.table))
      ? journalCopies(ctx.home.home)
      : [];
    if (values.json) {
      ctx.out(json({
        dry_run: values["dry-run"] === true,
        records: redacted,
        purged,
        journal_copies: copies.map((c) => join(ctx.home.home, c)),
        ...(team.note !== null ? { team_note: team.note } : {}),
        ...(team.error !== null ? { team_error: team.error } : {}),
      }));
      if (team.error !== null) ctx.err(`heimdall redact: ${team.error}`);
      return code;
    }
    if (redacted.length === 0) {
      ctx.out(
        team.error === null
          ? "no stored record holds a secret; nothing changed"
          : "no record on this machine holds a secret; nothing changed here",
      );
      if (team.note !== null) ctx.err(`heimdall redact: ${team.note}`);
      if (team.error !== null) ctx.err(`heimdall redact: ${team.error}`);
      return code;
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
    if (team.note !== null) ctx.err(`heimdall redact: ${team.note}`);
    if (team.error !== null) ctx.err(`heimdall redact: ${team.error}`);
    return code;
  } finally {
    j.close();
  }
}
