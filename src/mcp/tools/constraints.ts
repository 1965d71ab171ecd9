/** `constraints`: what the architectural map says about a path. */
import { z } from "zod";
import { resolve } from "../../files/mod.ts";
import { UsageError } from "../../errors/mod.ts";
import { constraintsFor, findMapFile, MapError } from "../../map/mod.ts";
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
    let r;
    try {
      r = constraintsFor(path);
    } catch (e) {
      if (!(e instanceof MapError)) throw e;
      // As `heimdall constraints`: the map's own line, and how to see every problem.
      throw new UsageError(
        `${e.message}; fix the map (\`heimdall map check\` lists every problem)`,
      );
    }
    if (!r) {
      // As `heimdall constraints`: a map that covers other paths is not "no map".
      const map = findMapFile(path);
      return {
        text: map
          ? `${path}: no component of ${map.file} covers it`
          : `${path}: no .heimdall/map.toml in its folder or above`,
        structured: { path, map: map?.file ?? null, component: null, constraints: [] },
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
