/** `symbols`: a file's outline. */
import { z } from "zod";
import { resolve } from "../../files/mod.ts";
import { indexedFile, outline } from "../../search/mod.ts";
import { LOOKUP, type ToolDef } from "../tool.ts";
import { withDrift } from "./graph_text.ts";

export const symbolsTool: ToolDef = {
  name: "symbols",
  title: "A file's outline",
  description:
    "A file's definitions in line order, nested, with kinds, line ranges and signatures.",
  input: {
    path: z.string().min(1).describe(
      "The file: absolute, relative to the server's folder, or its path in its root (or the end of it)",
    ),
  },
  annotations: LOOKUP,
  run(a, ctx) {
    const j = ctx.journal();
    // As `heimdall symbols`: through a linked folder, and a path with no outline says why.
    const { path, row, byEnd } = indexedFile(
      j,
      resolve(ctx.cwd, a.path),
      ctx.config().roots,
      ctx.home.ignore,
      a.path,
    );
    const list = outline(j, path);
    const outlined = list.length === 0
      ? `${path}: no symbols (L${row.effective_depth}${
        row.depth_reason ? `: ${row.depth_reason}` : ""
      })`
      : list.map((s) =>
        `${`${s.line}-${s.endLine}`.padEnd(9)} ${"  ".repeat(s.depth)}${s.kind} ${s.name}${
          s.signature ? `  ${s.signature}` : ""
        }`
      ).join("\n");
    // Found by the end of its path: which file that is.
    const text = byEnd && list.length > 0 ? `${path}:\n${outlined}` : outlined;
    return withDrift(ctx, j, [path], {
      text,
      structured: { path, language: row.language, depth: row.effective_depth, symbols: list },
    });
  },
};
