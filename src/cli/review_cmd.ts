/** `heimdall review`: the queue of personal memory — statements captured from sessions, to accept or reject. */
import { parseFlags } from "./flags.ts";
import { isDirectory, isFile, resolve } from "../files/mod.ts";
import {
  acceptCandidate,
  defaultAuthor,
  listCandidates,
  queueCandidates,
  type QueuedCandidate,
  rejectCandidate,
} from "../memory/mod.ts";
import { Journal } from "../store/mod.ts";
import { distill, repositoryOf } from "../harness/services_impl.ts";
import type { Context } from "./context.ts";
import { UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";
import { json, plural, printable } from "../present/fmt.ts";

export const HELP = `heimdall review [list] [--all] [--project DIR] [--json]
heimdall review accept ID [--text TEXT] | reject ID
heimdall review distill TRANSCRIPT [--project DIR]
  Personal memory. At the end of a session the hooks scan the transcript for
  your durable statements — "always …", "never …", "we use …", decisions,
  corrections — and queue each with where it was said and a confidence; a
  near-duplicate raises its count instead. list shows your pending ones
  (--all: accepted and rejected too; --project: one repository). accept
  keeps one (edited with --text) as a private preference on its project:
  session start and prompts then bring it back to you. reject drops it for
  good. distill runs the configured distiller (config "distiller") on a
  transcript and queues its proposals the same way. Config
  "personalAutoAccept" (0–1) accepts captured statements at least that sure.
  Exit 1 when the list is empty.`;

/** `heimdall review`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    string: ["project", "text"],
    boolean: ["all", "json"],
  });
  const [verb = "list", ...rest] = positionals;
  const author = defaultAuthor();
  const j = Journal.open(ctx.home.journal);
  try {
    switch (verb) {
      case "list": {
        if (rest.length > 0) throw new UsageError("Usage: heimdall review [list] [--all]");
        let project: string | undefined;
        if (values.project !== undefined) {
          const dir = resolve(values.project);
          if (!isDirectory(dir)) {
            throw new UsageError(
              `No project folder "${dir}": --project takes a repository (or a folder in it)`,
            );
          }
          // Statements are queued under the repository a session worked in, as the hooks find it.
          project = repositoryOf(dir);
        }
        const list = listCandidates(j, {
          author,
          ...(project !== undefined ? { project } : {}),
          ...(values.all ? {} : { status: "pending" as const }),
        });
        if (values.json) ctx.out(json({ candidates: list }));
        else if (list.length === 0) {
          ctx.out("nothing to review: statements from your sessions appear here");
        } else {
          for (const c of list) ctx.out(line(c));
        }
        return list.length > 0 ? EXIT.ok : EXIT.none;
      }
      case "accept": {
        const id = idOf(rest, "accept ID [--text TEXT]");
        const memory = acceptCandidate(j, id, {
          author,
          ...(values.text !== undefined ? { text: values.text } : {}),
        });
        if (values.json) ctx.out(json({ id, memory }));
        else ctx.out(`accepted ${id} as preference ${memory}`);
        return EXIT.ok;
      }
      case "reject": {
        const id = idOf(rest, "reject ID");
        rejectCandidate(j, id, { author });
        if (values.json) ctx.out(json({ id, rejected: true }));
        else ctx.out(`rejected ${id}; it will not be queued again`);
        return EXIT.ok;
      }
      case "distill": {
        if (rest.length !== 1) throw new UsageError("Usage: heimdall review distill TRANSCRIPT");
        const command = ctx.config().distiller;
        if (!command) {
          throw new UsageError(
            'No distiller configured: set "distiller" in config.json to a command that prints one statement per line',
          );
        }
        const transcript = resolve(rest[0]!);
        // The distiller is handed the path as it is: a mistyped one would fail there, unnamed.
        if (!isFile(transcript)) {
          throw new UsageError(
            `No transcript "${transcript}": no such file; pass the path of a session's transcript`,
          );
        }
        const project = resolve(values.project ?? repositoryOf(Deno.cwd()));
        // What review accept attaches the proposals to: a mistyped folder would show only then.
        if (values.project !== undefined && !isDirectory(project)) {
          throw new UsageError(
            `No project folder "${project}": --project takes the repository the session worked in`,
          );
        }
        const found = await distill(command, transcript, (m) => ctx.err(`heimdall review: ${m}`));
        const r = queueCandidates(j, found, {
          project,
          author,
          autoAccept: ctx.config().personalAutoAccept,
        });
        if (values.json) ctx.out(json(r));
        else {
          ctx.out(
            `${
              plural(r.queued.length, "statement")
            } queued (${r.accepted.length} accepted), ${r.repeated.length} seen again`,
          );
        }
        return EXIT.ok;
      }
      default:
        throw new UsageError(
          `Unknown review command "${verb}": expected list, accept, reject or distill`,
        );
    }
  } finally {
    j.close();
  }
}

function idOf(rest: string[], usage: string): number {
  if (rest.length !== 1) {
    throw new UsageError(`Usage: heimdall review ${usage} (ID from \`heimdall review\`)`);
  }
  const id = Number(rest[0]);
  if (!/^\d+$/.test(rest[0]!) || !Number.isSafeInteger(id) || id <= 0) {
    throw new UsageError(
      `Invalid ID "${rest[0]}": expected the number \`heimdall review\` shows first on the line`,
    );
  }
  return id;
}

/**
 * One candidate for people. Its text and source came from a transcript or a
 * distiller's output: control characters (an escape sequence that would
 * drive the terminal) become visible escapes ({@link printable}).
 */
function line(c: QueuedCandidate): string {
  const seen = c.seen > 1 ? ` ×${c.seen}` : "";
  const status = c.status === "pending" ? "" : ` [${c.status}]`;
  return `${String(c.id).padStart(4)}  ${c.kind.padEnd(10)} ${
    c.confidence.toFixed(2)
  }${seen}${status}  ${printable(c.text)}\n      ${printable(c.source)}`;
}
