/** `heimdall reflect`: a project's knowledge page, from its shared memories. */
import { parseFlags } from "./flags.ts";
import { typedPath } from "./path_arg.ts";
import { dirname, exists, join, resolve } from "../files/mod.ts";
import { defaultAuthor, knowledgePage, MemoryInputError } from "../memory/mod.ts";
import { SymbolLookupError } from "../search/mod.ts";
import { Journal, rootFor } from "../store/mod.ts";
import {
  claimsUnder,
  currentActor,
  openTeam,
  parseDuration,
  SharedMemory,
  TeamStoreError,
} from "../team/mod.ts";
import { repositoryOf } from "../harness/services_impl.ts";
import type { Context } from "./context.ts";
import { UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";
import { json, printableLines } from "../present/fmt.ts";

export const HELP = `heimdall reflect [PROJECT] [--since 7d] [--dry-run] [--json]
  Writes one knowledge page for PROJECT (default: the git repository holding
  the current folder, else that folder when it is under a root) from its shared memories: current decisions and
  conventions, open failures with their counts, failures resolved in the
  --since window, and the hot files with who works on them (their memories
  and active claims). It is stored as a memory of kind page on the project's
  folder, replacing the previous page, so search and session start give the
  whole picture in one item. --dry-run prints it without storing it.`;

/**
 * The repository holding the current folder (the nearest with `.git`), else
 * the current folder when it lies under a root. Typed in a folder that is
 * neither (`~`, `/tmp`), the page was stored there, and covered every
 * project below it: throws the UsageError that asks for the folder.
 */
function projectHere(ctx: Context): string {
  const cwd = Deno.cwd();
  const repo = resolve(repositoryOf(cwd));
  if (repo !== cwd || exists(join(cwd, ".git"))) return repo;
  if (rootFor(ctx.config().roots, cwd)) return cwd;
  throw new UsageError(
    `No project holds "${cwd}": it is in no git repository and under no root; pass the project folder (\`heimdall reflect DIR\`)`,
  );
}

/** The longest look back --since accepts. */
const MAX_SINCE_MS = 366 * 86_400_000;

/** `heimdall reflect`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    string: ["since"],
    boolean: ["dry-run", "json"],
  });
  if (positionals.length > 1) {
    throw new UsageError("Usage: heimdall reflect [PROJECT] [--since 7d]");
  }
  const seconds = parseDuration(values.since ?? "7d");
  const sinceMs = seconds === undefined ? undefined : seconds * 1000;
  if (sinceMs === undefined || sinceMs < 60_000 || sinceMs > MAX_SINCE_MS) {
    throw new UsageError(
      `Invalid --since "${values.since}": expected a duration from 1m to 366d, such as 7d or 12h`,
    );
  }
  const project = positionals[0] === undefined
    ? projectHere(ctx)
    : typedPath(positionals[0], "PROJECT");
  // A page on "/" covers every file: `why` of any path (and session start) showed it.
  if (dirname(project) === project) {
    throw new UsageError(
      `Cannot reflect on "${project}": the filesystem's root is no project, and a page there would apply to every file; pass a project folder`,
    );
  }
  let isFile = false;
  try {
    isFile = !Deno.statSync(project).isDirectory;
  } catch {
    throw new UsageError(`Cannot reflect on "${project}": no such folder; pass a project folder`);
  }
  if (isFile) {
    throw new UsageError(
      `Cannot reflect on "${project}": a file, not a folder; pass the project folder that holds it`,
    );
  }
  let claims: { path: string; developer: string }[] = [];
  try {
    const team = await openTeam(ctx, currentActor());
    try {
      claims = await claimsUnder(team, project);
    } finally {
      await team.close();
    }
  } catch (e) {
    if (!(e instanceof TeamStoreError)) throw e;
    ctx.err(`heimdall reflect: ${e.message}; the page leaves out who holds claims now`);
  }
  const j = Journal.open(ctx.home.journal);
  const shared = await SharedMemory.open(ctx);
  try {
    await shared.sync(j);
    const text = knowledgePage(j, project, { sinceMs, claims });
    if (values["dry-run"]) {
      ctx.out(values.json ? json({ project, text }) : printableLines(text));
      return EXIT.ok;
    }
    const r = await shared.remember(j, {
      kind: "page",
      text,
      about: [project],
      author: defaultAuthor(project),
      scope: "project",
      cwd: project,
    });
    if (values.json) ctx.out(json({ project, id: r.memory.id, superseded: r.superseded, text }));
    else {ctx.out(
        `${printableLines(text)}\n\nstored as page ${r.memory.id}${
          r.superseded.length > 0 ? `, replacing ${r.superseded.join(", ")}` : ""
        }`,
      );}
    return EXIT.ok;
  } catch (e) {
    if (e instanceof MemoryInputError || e instanceof SymbolLookupError) {
      throw new UsageError(`${e.message} (reflect needs a project under an indexed root)`);
    }
    throw e;
  } finally {
    await shared.close();
    j.close();
  }
}
