/** `constraints`: what the architectural map says about a path. */
import { z } from "zod";
import { resolve } from "../../files/mod.ts";
import { constraintsFor } from "../../map/mod.ts";
import { LOOKUP, type ToolDef } from "../tool.ts";

export const constraintsTool: ToolDef = {
  name: "constraints",
  title: "Constraints on a path",
  description:
    "The component of the architectural map (.heimdall/map.toml) a file or folder belongs to, and the " +
    "constraints that hold there (must first, then should, info), including those of the components it " +
    "depends on. Read this before changing code in an unfamiliar component.",
  input: {
    path: z.string().min(1).describe(
      "A file or folder (absolute or relative to the server's folder)",
    ),
  },
  annotations: LOOKUP,
  run(a, ctx) {
    const path = resolve(ctx.cwd, a.path);
    const r = constraintsFor(path);
    if (!r) {
      return {
        text:
          `${path}: no component of any architectural map covers it (maps live in .heimdall/map.toml)`,
        structured: { path, component: null, constraints: [] },
      };
    }
    const lines = [
      `${r.rel} is in component ${r.component}${
        r.description ? ` (${r.description})` : ""
      }, map ${r.map}`,
    ];
    for (const c of r.constraints) {
      lines.push(
        `- ${c.level}: ${c.text}${c.via === "depends_on" ? ` [from ${c.component}]` : ""}`,
      );
    }
    if (r.constraints.length === 0) lines.push("- no constraints declared");
    return { text: lines.join("\n"), structured: { path, ...r } };
  },
};
