/**
 * `map check`: the map against the files on disk. Reads the repository's
 * files through the reconciler's walker (ignore rules applied, secrets and
 * symlinks passed over), so a glob is checked against what Heimdall indexes.
 */
import { exists, join, walkRoot } from "../files/mod.ts";
import { globCovers } from "./glob.ts";
import { type ArchMap, MAP_DIR, MAP_NAMES, MapError, parseMap, readMapFile } from "./map_file.ts";
import { componentFor } from "./resolve.ts";

/** One thing wrong with a map; each makes `map check` exit 1. */
export interface MapProblem {
  /** What is wrong. */
  kind:
    | "parse"
    | "no-components"
    | "glob-matches-nothing"
    | "component-empty"
    | "source-missing"
    | "two-maps";
  /** What is wrong, in a sentence for a person. */
  message: string;
  /** The component it concerns, if one. */
  component?: string;
  /** The glob it concerns, if one. */
  glob?: string;
  /** The line of the map file it concerns, when known. */
  line?: number | null;
}

/** A component as the check found it. */
export interface ComponentReport {
  /** The component's name. */
  name: string;
  /** Each glob with the number of files it covers. */
  globs: { glob: string; files: number }[];
  /** Files that resolve to this component (it is their most specific match). */
  files: number;
}

/** The result of {@link checkMap}. */
export interface MapCheck {
  /** The repository root checked. */
  root: string;
  /** The map file read; null when the repository has none. */
  file: string | null;
  /** Each component, in declaration order. */
  components: ComponentReport[];
  /** Files no component covers. */
  unmapped: number;
  /** Files checked (what Heimdall indexes under the root). */
  files: number;
  /** Everything wrong; empty when the map is sound. */
  problems: MapProblem[];
  /** Not problems: components whose files are all taken by more specific globs of others. */
  warnings: string[];
  /** Constraints of components that name no source document (informational). */
  unsourced: number;
}

/**
 * Checks the map of the repository at `root` against its files (pure apart
 * from reading them): a map that does not parse, a glob covering no file,
 * a component none of whose globs covers a file (its files are all gone), a
 * map with no component, a `sources` document that does not exist, and both
 * `map.toml` and `map.json` present are problems. Returns `file:
 * null` when there is no map. Cost: one walk of the repository.
 */
export function checkMap(root: string, globalIgnore = ""): MapCheck {
  const present = MAP_NAMES.map((n) => join(root, MAP_DIR, n)).filter(exists);
  const result: MapCheck = {
    root,
    file: present[0] ?? null,
    components: [],
    unmapped: 0,
    files: 0,
    problems: [],
    warnings: [],
    unsourced: 0,
  };
  if (present.length === 0) return result;
  if (present.length > 1) {
    result.problems.push({
      kind: "two-maps",
      message: `both ${present.join(" and ")} exist; keep one (map.toml is the one read)`,
    });
  }
  let map: ArchMap;
  try {
    map = parseMap(readMapFile(present[0]!), present[0]!);
  } catch (e) {
    if (!(e instanceof MapError)) throw e;
    result.problems.push({ kind: "parse", message: e.message, line: e.line });
    return result;
  }
  if (map.components.length === 0) {
    result.problems.push({
      kind: "no-components",
      message: `${
        present[0]
      } declares no component, so it constrains nothing; add [component.NAME] with paths = ["src/NAME/**"]`,
    });
    return result;
  }
  // Each problem's message starts with where to fix it, as a parse error's does.
  const at = (line: number | null) => `${map.file}${line !== null ? `:${line}` : ""}: `;
  for (const c of map.components) {
    if (c.sources.length === 0) result.unsourced += c.constraints.length;
    c.sources.forEach((src, si) => {
      if (!exists(join(root, src))) {
        const line = c.sourceLines[si] ?? c.line;
        result.problems.push({
          kind: "source-missing",
          component: c.name,
          line,
          message: `${
            at(line)
          }source "${src}" of component "${c.name}" does not exist; fix the path or remove it`,
        });
      }
    });
  }
  const globCounts = map.components.map((c) => c.globs.map(() => 0));
  const owned = map.components.map(() => 0);
  for (const ev of walkRoot({ root, globalIgnore, stat: false })) {
    if (ev.type !== "file") continue;
    result.files++;
    map.components.forEach((c, ci) =>
      c.globs.forEach((g, gi) => {
        if (globCovers(g, ev.rel)) globCounts[ci]![gi]!++;
      })
    );
    const r = componentFor(map, ev.rel);
    if (r) owned[r.component.order]!++;
    else result.unmapped++;
  }
  map.components.forEach((c, ci) => {
    const counts = globCounts[ci]!;
    result.components.push({
      name: c.name,
      globs: c.globs.map((g, gi) => ({ glob: g.source, files: counts[gi]! })),
      files: owned[ci]!,
    });
    if (counts.every((n) => n === 0)) {
      result.problems.push({
        kind: "component-empty",
        component: c.name,
        line: c.line,
        message: `${at(c.line)}component "${c.name}" covers no file: all its files are gone (${
          c.globs.map((g) => g.source).join(", ")
        }); fix its paths or remove it`,
      });
      return;
    }
    c.globs.forEach((g, gi) => {
      if (counts[gi] === 0) {
        const line = c.globLines[gi] ?? c.line;
        result.problems.push({
          kind: "glob-matches-nothing",
          component: c.name,
          glob: g.source,
          line,
          message: `${at(line)}glob "${g.source}" of component "${c.name}" matches no file ` +
            `Heimdall indexes; fix it or remove it from paths`,
        });
      }
    });
    if (owned[ci] === 0) {
      result.warnings.push(
        `component "${c.name}": every file it covers resolves to a more specific component`,
      );
    }
  });
  return result;
}
