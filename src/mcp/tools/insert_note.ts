/** `insert_note`: records reusable work as a searchable note. */
import { z } from "zod";
import { UsageError } from "../../errors/mod.ts";
import { redactSecrets, resolve } from "../../files/mod.ts";
import { insertNote } from "../../search/mod.ts";
import { type ToolDef, WRITES } from "../tool.ts";

export const insertNoteTool: ToolDef = {
  name: "insert_note",
  title: "Insert a note",
  description:
    "Records reusable work worth finding again (how something was solved, where things are) as a note " +
    "that search returns at once; re-indexing never deletes it. Each call adds a new note.",
  input: {
    title: z.string().min(1).describe("One line: what the note is about"),
    body: z.string().min(1).describe("The note itself (markdown)"),
    keywords: z.array(z.string()).optional().describe("Extra words to find it by"),
    paths: z.array(z.string()).optional().describe(
      "Files it points at (absolute or relative to the server's folder)",
    ),
  },
  annotations: WRITES,
  run(a, ctx) {
    const title = a.title.trim(), body = a.body.trim();
    if (title === "" || body === "") {
      throw new UsageError(`Empty ${title === "" ? "title" : "body"}: say what the note is about`);
    }
    // As `heimdall insert`: a path that is not there would point a search hit at nothing.
    const paths = (a.paths ?? []).map((p: string) => {
      // Resolved, an empty path would be the server's folder: a note on files nobody named.
      if (p.trim() === "") {
        throw new UsageError(
          `Empty path ${JSON.stringify(p)} in paths: name a file or folder, or . for ${ctx.cwd}`,
        );
      }
      const abs = resolve(ctx.cwd, p);
      try {
        Deno.statSync(abs);
      } catch {
        throw new UsageError(
          `Cannot attach "${p}": no such file or folder under ${ctx.cwd}; pass an existing path`,
        );
      }
      return abs;
    });
    const id = insertNote(ctx.writable(), {
      title,
      body,
      ...(a.keywords ? { keywords: a.keywords } : {}),
      paths,
    });
    // Echo the title as stored: a secret in it never comes back into the agent's context.
    const shown = redactSecrets(title);
    return { text: `Note ${id} recorded: ${shown}`, structured: { id, title: shown, paths } };
  },
};
