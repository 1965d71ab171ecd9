/**
 * Which component a path belongs to, and what constraints apply to it.
 * `componentFor` is pure; `constraintsFor` finds and reads the map file.
 */
import { dirname, isDirectory, isFile, join, redactSecrets, relative } from "../files/mod.ts";
import { compareSpecificity, type Glob, globCovers } from "./glob.ts";
import {
  type ArchMap,
  type Component,
  type Level,
  MAP_DIR,
  MAP_NAMES,
  parseMap,
  readMapFile,
} from "./map_file.ts";

/** The component a path resolves to, and the glob that won. */
export interface Resolution {
  /** The component. */
  component: Component;
  /** Its most specific glob that covers the path. */
  glob: Glob;
}

/**
 * The component of `rel` (repository-relative, `/`-separated): among every
 * glob of every component that covers it, the most specific wins (more
 * segments without a wildcard, then more literal characters, then fewer
 * `**`); a tie goes to the component declared first, then its glob listed
 * first. Undefined when no glob covers it. Pure.
 */
export function componentFor(map: ArchMap, rel: string): Resolution | undefined {
  let best: Resolution | undefined;
  for (const component of map.components) {
    for (const glob of component.globs) {
      if (!globCovers(glob, rel)) continue;
      if (!best || compareSpecificity(glob, best.glob) < 0) best = { component, glob };
    }
  }
  return best;
}

/** One constraint as it applies to a path. */
export interface AppliedConstraint {
  /** `must`, `should` or `info`. */
  level: Level;
  /** The constraint as written. */
  text: string;
  /** The component it is declared on. */
  component: string;
  /** `own`: the path's component; `depends_on`: a component it depends on. */
  via: "own" | "depends_on";
}

/** What applies to a path: its component and the constraints, `must` first. */
export interface PathConstraints {
  /** The map file and the repository root it sits in. */
  map: string;
  /** The repository root. */
  root: string;
  /** The path, relative to the root. */
  rel: string;
  /** The component the path resolves to. */
  component: string;
  /** That component's description; null when it has none. */
  description: string | null;
  /** Its glob that won. */
  glob: string;
  /** The components it depends on directly. */
  depends_on: string[];
  /**
   * Its own constraints, `must` first, then the `must` and `should` of each
   * component it depends on.
   */
  constraints: AppliedConstraint[];
}

const LEVEL_ORDER: Record<Level, number> = { must: 0, should: 1, info: 2 };

/**
 * The constraints for `rel` in `map` (pure): its component's own constraints
 * (must, should, info), then the `must` and `should` constraints of each
 * component it depends on directly, in `depends_on` order (a dependency's
 * rules say how it may be used; its `info` notes and its own dependencies
 * stay out). Secrets in the texts are redacted. Undefined when no component
 * covers `rel`.
 */
export function constraintsIn(
  map: ArchMap,
  root: string,
  rel: string,
): PathConstraints | undefined {
  const r = componentFor(map, rel);
  if (!r) return undefined;
  // The map is a file no index screened for secrets; what it says goes to agents: redacted.
  const own = [...r.component.constraints]
    .sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level])
    .map((c) => ({
      ...c,
      text: redactSecrets(c.text),
      component: r.component.name,
      via: "own" as const,
    }));
  const deps = r.component.depends_on.flatMap((name) => {
    const d = map.components.find((c) => c.name === name)!;
    return d.constraints
      .filter((c) => c.level !== "info")
      .sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level])
      .map((c) => ({
        ...c,
        text: redactSecrets(c.text),
        component: d.name,
        via: "depends_on" as const,
      }));
  });
  return {
    map: map.file,
    root,
    rel,
    component: r.component.name,
    description: r.component.description === null ? null : redactSecrets(r.component.description),
    glob: r.glob.source,
    depends_on: r.component.depends_on,
    constraints: [...own, ...deps],
  };
}

/**
 * The map file of the repository holding `path`: the nearest
 * `.heimdall/map.toml` (else `map.json`) in `path`'s folder or above it.
 * Returns the file and the repository root, or undefined. Cost: two stats
 * per folder walked up.
 */
export function findMapFile(path: string): { file: string; root: string } | undefined {
  let dir = isDirectory(path) ? path : dirname(path);
  for (;;) {
    for (const name of MAP_NAMES) {
      const file = join(dir, MAP_DIR, name);
      if (isFile(file)) return { file, root: dir };
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

const cache = new Map<string, { stamp: string; map: ArchMap }>();

/** Reads and parses a map file, cached per process until its size or mtime changes. Throws MapError. */
export function loadMap(file: string): ArchMap {
  const st = Deno.statSync(file);
  const stamp = `${st.size}:${st.mtime?.getTime() ?? 0}`;
  const hit = cache.get(file);
  if (hit && hit.stamp === stamp) return hit.map;
  const map = parseMap(readMapFile(file), file);
  cache.set(file, { stamp, map });
  return map;
}

/**
 * What the architectural map says about an absolute `path` (a file, or a
 * folder): the nearest map file above it, the component the path resolves
 * to, and its constraints (see {@link constraintsIn}). Null when no map file
 * is found or no component covers the path. Throws MapError when the map
 * does not parse (the message has the file and line). For hooks: cheap after
 * the first call (the parsed map is cached until the file changes).
 */
export function constraintsFor(path: string): PathConstraints | null {
  const found = findMapFile(path);
  if (!found) return null;
  const rel = relative(found.root, path).split("\\").join("/");
  // Outside the root (a file named `..x` at the root is inside it).
  if (rel === ".." || rel.startsWith("../")) return null;
  return constraintsIn(loadMap(found.file), found.root, rel) ?? null;
}
