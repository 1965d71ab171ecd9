/**
 * The Map view's data: the architectural maps (`.heimdall/map.toml` or
 * `map.json`) of the indexed roots and of the repositories directly under
 * them, with each component's paths, dependencies and constraints. Reads
 * through `src/map`; never writes.
 */
import { join } from "../files/mod.ts";
import { type Level, loadMap, MapError } from "../map/mod.ts";

/** A component as the view shows it. */
export interface MapComponent {
  name: string;
  description: string | null;
  paths: string[];
  depends_on: string[];
  constraints: { level: Level; text: string }[];
  sources: string[];
}

/** One repository's map, or why it could not be read. */
export interface RepoMap {
  repo: string;
  file: string;
  components: MapComponent[];
  error: string | null;
}

const NAMES = ["map.toml", "map.json"];

function mapFileIn(dir: string): string | undefined {
  for (const n of NAMES) {
    try {
      if (Deno.statSync(join(dir, ".heimdall", n)).isFile) return join(dir, ".heimdall", n);
    } catch { /* not here */ }
  }
  return undefined;
}

/** The maps of `roots` and of the folders directly under each (a root holding many repositories). */
export function repoMaps(roots: readonly string[]): RepoMap[] {
  const out: RepoMap[] = [];
  for (const root of roots) {
    const dirs = [root];
    try {
      for (const e of Deno.readDirSync(root)) if (e.isDirectory) dirs.push(join(root, e.name));
    } catch { /* a root that is gone: nothing to show */ }
    for (const repo of dirs) {
      const file = mapFileIn(repo);
      if (!file) continue;
      try {
        const map = loadMap(file);
        out.push({
          repo,
          file,
          error: null,
          components: map.components.map((c) => ({
            name: c.name,
            description: c.description,
            paths: c.globs.map((g) => g.source),
            depends_on: c.depends_on,
            constraints: c.constraints,
            sources: c.sources,
          })),
        });
      } catch (e) {
        // A map that cannot be parsed, or read (its permissions): that repository's error.
        const unreadable = Object.values(Deno.errors).some((k) => e instanceof k);
        if (!(e instanceof MapError) && !unreadable) throw e;
        out.push({ repo, file, components: [], error: (e as Error).message });
      }
    }
  }
  return out;
}
