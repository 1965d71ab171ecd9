import { stdinText } from "./stdin_text.ts";
import { parseFlags } from "./flags.ts";
import { typedPath } from "./path_arg.ts";
import { canonicalPath, redactSecrets } from "../files/mod.ts";
import { insertNote } from "../search/mod.ts";
import { Journal } from "../store/mod.ts";
import type { Context } from "./context.ts";
import { UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";
import { plural, printable } from "../present/fmt.ts";

export const HELP = `heimdall insert --title T --body B|- [--keywords k1,k2] [--path P]… [--json]
  Records reusable work as a note: searchable at once (\`heimdall search
  --kind notes\`), never deleted by re-indexing. Each --path (a file or folder
  that exists) is attached: when the note is found, those paths get verdicts
  too, and a file that moved is found again by its content. --body - reads the
  body from stdin. A note keeps a title and keywords of up to 4,096
  characters, a body of up to 65,536 and up to 256 paths (what an import of
  its export accepts). --json prints the note's id, title, keywords and paths.`;

/** `heimdall insert`: record a note. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    string: ["title", "body", "keywords"],
    multiple: ["path"],
    boolean: ["json"],
  });
  if (positionals.length > 0) {
    throw new UsageError(
      `Unexpected "${positionals[0]}": quote the title and body (--title "…" --body "…")`,
    );
  }
  const title = values.title?.trim() ?? "";
  if (title === "") {
    throw new UsageError(
      values.title === undefined
        ? 'Missing --title: heimdall insert --title "…" --body "…"'
        : `Empty --title ${JSON.stringify(values.title)}: give the note a title of a few words`,
    );
  }
  let body = values.body ?? "";
  const fromStdin = body === "-";
  if (fromStdin) body = await stdinText("--body");
  body = body.trim();
  if (body === "") {
    // Told "Missing --body … (or --body -)" to someone who had passed --body - or --body "".
    throw new UsageError(
      values.body === undefined
        ? "Missing --body: say what was done (or --body - to read it from stdin)"
        : fromStdin
        ? 'Empty --body: nothing came on stdin for --body -; pipe the note\'s text in, or give it as --body "…"'
        : `Empty --body ${JSON.stringify(values.body)}: say what was done`,
    );
  }
  const paths = [
    ...new Set((values.path ?? []).map((p) => {
      const abs = typedPath(p, "--path");
      try {
        Deno.statSync(abs);
      } catch {
        throw new UsageError(`Cannot attach "${p}": no such file or folder; pass an existing path`);
      }
      // As the index names it: through a linked folder, the real one.
      return canonicalPath(abs);
    })),
  ]; // a path given twice (or through a link) is attached once
  const keywords = (values.keywords ?? "").split(",").map((k) => k.trim()).filter((k) => k !== "");
  const journal = Journal.open(ctx.home.journal);
  try {
    const id = insertNote(journal, { title, body, keywords, paths });
    const shown = { title: redactSecrets(title), keywords: keywords.map(redactSecrets) }; // as stored
    if (values.json) ctx.out(JSON.stringify({ id, ...shown, paths }));
    else {
      // A title with an escape sequence in it must not drive the terminal.
      ctx.out(printable(
        `noted #${id}: ${shown.title}${
          paths.length > 0 ? ` (${plural(paths.length, "path")} attached)` : ""
        }`,
      ));
    }
    return EXIT.ok;
  } finally {
    journal.close();
  }
}
