/** `remember`: records a decision, convention, note or fact about code. */
import { z } from "zod";
import { memoryTool, RECORD_INPUT } from "./team_memory.ts";

export const rememberTool = memoryTool({
  name: "remember",
  title: "Remember a decision, convention, note or fact",
  description:
    "Attaches what code cannot say to symbols, files or folders (`about`: path:name, Class.method, a " +
    "path, or . for the whole repository). A new decision, convention or fact on the same anchors " +
    "supersedes the current one of its kind (kept as history, never deleted; `keep` adds it beside); " +
    "notes add up. Secrets are redacted. With a team store connected, project and team memories are " +
    "shared with the team at once; private ones stay here.",
  input: {
    kind: z.enum(["decision", "convention", "note", "fact"]).describe("What it is"),
    text: z.string().min(1).describe("The memory, in a sentence or a few"),
    about: z.array(z.string().min(1)).min(1).describe("Symbols or paths it is about"),
    ...RECORD_INPUT,
    supersedes: z.array(z.string()).optional().describe("Ids of memories this one replaces"),
    keep: z.boolean().optional().describe(
      "Keep current memories of the same kind on these anchors",
    ),
  },
  write: (memory, j, by, a) =>
    memory.remember(j, {
      ...by,
      kind: a.kind,
      text: a.text,
      about: a.about,
      ...(a.supersedes ? { supersedes: a.supersedes } : {}),
      ...(a.keep ? { keep: true } : {}),
    }),
  answer(r) {
    const m = r.memory;
    return {
      text: `Remembered ${m.kind} ${m.id} on ${m.anchors.map((x) => x.original).join(", ")}` +
        (r.superseded.length > 0 ? `; supersedes ${r.superseded.join(", ")}` : ""),
      structured: {
        id: m.id,
        kind: m.kind,
        scope: m.scope,
        anchors: m.anchors.map((x) => x.original),
        superseded: r.superseded,
      },
    };
  },
});
