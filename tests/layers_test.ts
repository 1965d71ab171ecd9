/**
 * The folders of `src/` form layers without cycles: a folder imports only
 * from folders of lower layers. Read from `deno info --json` over every entry
 * point (the CLI and the Worker modules it starts), so a new import that
 * climbs a layer, or closes a cycle, fails here with the file that makes it.
 */
import assert from "node:assert/strict";

/**
 * The allowed layering, lowest first. A folder may import from any folder of
 * a lower layer, never from its own layer or a higher one.
 *
 * - errors (the base error and its kinds, which every folder may throw);
 * - files (walking a root, ignore rules, the secret screen, content hashes,
 *   path arithmetic, which every folder above may do);
 * - config (settings, the home's private files), present (how things are
 *   shown: counts, times, one-line names), embed (tokenizers and model
 *   runtimes);
 * - hints (hint files, paths in hook payloads), store (the journal, its
 *   tables), extract (parsing and symbols);
 * - derive (a file's desired rows from its parse: chunks, vocabulary);
 * - reconcile (the single writer), search (queries, ranking, verdicts);
 * - vector, memory, map;
 * - team;
 * - the front ends that serve agents and people: harness, mcp, ui, service;
 * - cli, which starts them all.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["errors"],
  ["files"],
  ["config", "present", "embed"],
  ["hints", "store", "extract"],
  ["derive"],
  ["reconcile", "search"],
  ["vector", "memory", "map"],
  ["team"],
  ["harness", "mcp", "ui", "service"],
  ["cli"],
];

const ROOT = new URL("..", import.meta.url).pathname;
/** Entry points: the CLI and the modules it starts as Workers (not in its static graph). */
const ENTRIES = [
  "main.ts",
  "src/reconcile/prepare_worker.ts",
  "src/reconcile/watcher_worker.ts",
  "src/vector/scan_worker.ts",
];

interface Edge {
  from: string;
  to: string;
  /** The importing file and the imported one, for the message. */
  via: string;
}

async function folderEdges(): Promise<Edge[]> {
  const edges: Edge[] = [];
  for (const entry of ENTRIES) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", entry],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      modules: {
        specifier: string;
        dependencies?: { code?: { specifier?: string }; type?: { specifier?: string } }[];
      }[];
    };
    const src = `file://${ROOT}src/`;
    const folderOf = (s: string) => s.startsWith(src) ? s.slice(src.length).split("/")[0]! : null;
    for (const m of info.modules) {
      const from = folderOf(m.specifier);
      if (from === null || from.endsWith(".ts")) continue;
      for (const d of m.dependencies ?? []) {
        for (const target of [d.code?.specifier, d.type?.specifier]) {
          const to = target === undefined ? null : folderOf(target);
          if (to === null || to === from) continue;
          edges.push({
            from,
            to,
            via: `${m.specifier.slice(src.length)} → ${target!.slice(src.length)}`,
          });
        }
      }
    }
  }
  return edges;
}

Deno.test("src/ folders import only from lower layers: no cycles, no climbing", async () => {
  const layer = new Map(LAYERS.flatMap((names, i) => names.map((n) => [n, i] as const)));
  const edges = await folderEdges();
  // The graph was read: the CLI starts the MCP server, the reconciler derives rows.
  assert.ok(edges.some((e) => e.from === "cli" && e.to === "mcp"), `${edges.length} edges`);
  assert.ok(edges.some((e) => e.from === "reconcile" && e.to === "derive"));
  const folders = new Set(edges.flatMap((e) => [e.from, e.to]));
  const unplaced = [...folders].filter((f) => !layer.has(f)).sort();
  assert.deepEqual(unplaced, [], "every src/ folder has a layer in LAYERS");
  const wrong = edges
    .filter((e) => layer.get(e.to)! >= layer.get(e.from)!)
    .map((e) =>
      `${e.from} (layer ${layer.get(e.from)}) imports ${e.to} (layer ${layer.get(e.to)}): ${e.via}`
    );
  assert.deepEqual([...new Set(wrong)], []);
});
