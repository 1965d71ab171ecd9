/**
 * The code map's data: repositories → folders → files → symbols, aggregated
 * on the server so that a journal of half a million symbols answers each
 * step with a few hundred nodes, and the call-graph neighbourhood of a
 * selection on demand.
 *
 * Reads the journal only (a read-only connection; never the writer lock).
 * The file list and symbol counts are read once and again after the journal
 * changes ({@link CodeMap.invalidate}); file-to-file call counts, the costly
 * part (one join over every call edge), are read in batches that yield to
 * the event loop, so the server answers while they load; until then a large
 * folder is drawn without its links (`links: "loading"`).
 */
import { isFolderGone } from "../files/mod.ts";
import type { Journal } from "../store/mod.ts";

/** One node of a map level. */
export interface MapNode {
  id: string;
  label: string;
  level: "root" | "folder" | "file" | "symbol";
  /** Folder or file path (absolute) this node opens, or the symbol's file. */
  path: string;
  files: number;
  symbols: number;
  /** Symbols: kind, line, qualified name; whether it belongs to the opened file. */
  kind?: string;
  line?: number | null;
  qualname?: string;
  outside?: boolean;
  /** A root whose folder is gone from disk (its files still indexed until it is dropped). */
  gone?: boolean;
}

/** A link between two nodes of a level: calls from `source` to `target`, `weight` of them. */
export interface MapEdge {
  source: string;
  target: string;
  weight: number;
}

/** One level of the map. */
export interface MapLevel {
  /** What was opened: null for the repositories, else a folder, file or symbol id. */
  at: string | null;
  level: "roots" | "folder" | "file" | "symbol";
  nodes: MapNode[];
  edges: MapEdge[];
  /** `loading`: call counts between files are still being read; ask again on `map-ready`. */
  links: "ready" | "loading";
  /** Children left out (the smallest) to keep the level drawable. */
  omitted: number;
  took_ms: number;
}

interface FileRow {
  id: number;
  path: string;
  root_id: number;
  symbols: number;
}

/** Most nodes one level returns; the smallest beyond it are counted in `omitted`. */
export const MAX_CHILDREN = 200;
/** Most outside symbols drawn around an opened file or symbol. */
export const MAX_NEIGHBOURS = 120;
/** Files whose call edges are read per batch while loading the link counts. */
const LINK_BATCH = 25;
/** Below this many files a folder's links are read directly instead of waiting. */
const DIRECT_LINK_FILES = 300;

/** The aggregated code map over one journal. */
export class CodeMap {
  #files: FileRow[] | null = null;
  #byId = new Map<number, FileRow>();
  #roots: { id: number; path: string }[] = [];
  /** owner file id → (callee file id → calls). */
  #links: Map<number, Map<number, number>> | null = null;
  #loading: Promise<void> | null = null;
  #epoch = 0;

  constructor(private readonly j: Journal, private readonly onLinksReady: () => void = () => {}) {}

  /** Reads the file list and symbol counts now (about a second for 500,000 symbols). */
  warm(): void {
    this.#load();
  }

  /** Forgets what was read: the next level reads the journal again. */
  invalidate(): void {
    this.#files = null;
    this.#links = null;
    this.#loading = null;
    this.#epoch++;
  }

  #load(): FileRow[] {
    if (this.#files) return this.#files;
    this.#roots = this.j.all<{ id: number; path: string }>(
      "SELECT id, path FROM roots ORDER BY path",
    );
    const counts = new Map<number, number>();
    for (
      // A file's own node is not one of its symbols (`heimdall index` and `symbols` do not count it).
      const r of this.j.stmt(
        "SELECT path_id AS id, count(*) AS n FROM nodes WHERE kind != 'file' GROUP BY path_id",
      )
        .iterate() as Iterable<{ id: number; n: number }>
    ) counts.set(r.id, r.n);
    const files: FileRow[] = [];
    for (
      const r of this.j.stmt(
        "SELECT id, path, root_id FROM paths WHERE state = 'indexed' ORDER BY path",
      ).iterate() as Iterable<{ id: number; path: string; root_id: number }>
    ) files.push({ ...r, symbols: counts.get(r.id) ?? 0 });
    // SQLite orders by UTF-8 bytes, #under searches by UTF-16 code units: the two disagree
    // between U+E000–U+FFFF (fullwidth forms, （仮）) and characters beyond (emoji), and a
    // folder the binary search missed showed empty. Already nearly sorted: cheap.
    files.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    this.#files = files;
    this.#byId = new Map(files.map((f) => [f.id, f]));
    return files;
  }

  /** Starts reading the file-to-file call counts, in batches; resolves when done. */
  loadLinks(): Promise<void> {
    if (this.#links) return Promise.resolve();
    if (this.#loading) return this.#loading;
    const epoch = this.#epoch;
    const ids = this.#load().map((f) => f.id).sort((a, b) => a - b);
    const sql = this.j.stmt(
      `SELECT e.owner_id AS a, n.path_id AS b, count(*) AS n FROM edges e
         JOIN nodes n ON n.id = e.dst
        WHERE e.kind = 'calls' AND e.owner_id BETWEEN ? AND ? GROUP BY 1, 2`,
    );
    this.#loading = (async () => {
      const links = new Map<number, Map<number, number>>();
      for (let i = 0; i < ids.length; i += LINK_BATCH) {
        const lo = ids[i]!, hi = ids[Math.min(ids.length, i + LINK_BATCH) - 1]!;
        for (const r of sql.iterate(lo, hi) as Iterable<{ a: number; b: number; n: number }>) {
          if (r.a === r.b) continue;
          let m = links.get(r.a);
          if (!m) links.set(r.a, m = new Map());
          m.set(r.b, r.n);
        }
        await new Promise((done) => setTimeout(done, 0));
        if (epoch !== this.#epoch) return;
      }
      this.#links = links;
      this.onLinksReady();
    })();
    return this.#loading;
  }

  /** The files below `folder` (absolute, without a trailing slash), by binary search. */
  #under(folder: string): FileRow[] {
    const files = this.#load();
    const lo = folder + "/", hi = folder + "/\uffff";
    let a = 0, b = files.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (files[m]!.path < lo) a = m + 1;
      else b = m;
    }
    const out: FileRow[] = [];
    for (let i = a; i < files.length && files[i]!.path < hi; i++) out.push(files[i]!);
    return out;
  }

  /** The repositories (roots), or the children of a folder, with the calls between them. */
  level(at: string | null): MapLevel {
    const t0 = performance.now();
    const files = this.#load();
    if (at === null) {
      const nodes = this.#roots.map((r): MapNode => {
        // A file belongs to one root (the innermost holding it), as `heimdall status` counts:
        // by prefix, a root inside another was counted in both.
        const under = this.#under(r.path).filter((f) => f.root_id === r.id);
        const name = r.path.split("/").pop() || r.path;
        // Shown as any other until the writer drops it, with files that are no longer there.
        const gone = isFolderGone(r.path);
        return {
          id: r.path,
          label: gone ? `${name} (gone from disk)` : name,
          level: "root",
          path: r.path,
          files: under.length,
          symbols: under.reduce((s, f) => s + f.symbols, 0),
          ...(gone ? { gone } : {}),
        };
      });
      return this.#finish(null, "roots", nodes, new Map(), 0, t0, files.length);
    }
    const folder = at.replace(/\/+$/, "");
    const under = this.#under(folder);
    const groups = new Map<string, MapNode>();
    const childOf = new Map<number, string>();
    for (const f of under) {
      const rest = f.path.slice(folder.length + 1);
      const slash = rest.indexOf("/");
      const name = slash === -1 ? rest : rest.slice(0, slash);
      const id = `${folder}/${name}`;
      let g = groups.get(id);
      if (!g) {
        groups.set(
          id,
          g = {
            id,
            label: name,
            level: slash === -1 ? "file" : "folder",
            path: id,
            files: 0,
            symbols: 0,
          },
        );
      }
      g.files++;
      g.symbols += f.symbols;
      childOf.set(f.id, id);
    }
    let nodes = [...groups.values()].sort((a, b) =>
      b.symbols - a.symbols || a.id.localeCompare(b.id)
    );
    const omitted = Math.max(0, nodes.length - MAX_CHILDREN);
    nodes = nodes.slice(0, MAX_CHILDREN);
    return this.#finish(folder, "folder", nodes, childOf, omitted, t0, under.length);
  }

  #finish(
    at: string | null,
    level: "roots" | "folder",
    nodes: MapNode[],
    childOf: Map<number, string>,
    omitted: number,
    t0: number,
    fileCount: number,
  ): MapLevel {
    const kept = new Set(nodes.map((n) => n.id));
    let links: MapLevel["links"] = "ready";
    const weights = new Map<string, number>();
    const add = (a: number, b: number, n: number) => {
      const x = childOf.get(a), y = childOf.get(b);
      if (x === undefined || y === undefined || x === y || !kept.has(x) || !kept.has(y)) return;
      const k = `${x}\u0000${y}`;
      weights.set(k, (weights.get(k) ?? 0) + n);
    };
    if (level === "folder") {
      if (this.#links) {
        for (const a of childOf.keys()) {
          for (const [b, n] of this.#links.get(a) ?? []) add(a, b, n);
        }
      } else if (fileCount <= DIRECT_LINK_FILES) {
        const ids = JSON.stringify([...childOf.keys()]);
        for (
          const r of this.j.all<{ a: number; b: number; n: number }>(
            `SELECT e.owner_id AS a, n.path_id AS b, count(*) AS n FROM edges e
               JOIN nodes n ON n.id = e.dst
              WHERE e.kind = 'calls' AND e.owner_id IN (SELECT value FROM json_each(?))
              GROUP BY 1, 2`,
            ids,
          )
        ) add(r.a, r.b, r.n);
      } else {
        links = "loading";
        // In the background: a journal damaged meanwhile must not end the server
        // (an unhandled rejection would); the next request that reads it says why.
        this.loadLinks().catch(() => {});
      }
    }
    const edges = [...weights].map(([k, weight]) => {
      const [source, target] = k.split("\u0000") as [string, string];
      return { source, target, weight };
    });
    return {
      at,
      level,
      nodes,
      edges,
      links,
      omitted,
      took_ms: Math.round(performance.now() - t0),
    };
  }

  /** The symbols of one file and the calls in and out of them (outside ends drawn too, capped). */
  file(path: string): MapLevel {
    const t0 = performance.now();
    this.#load();
    const row = this.j.get<{ id: number }>("SELECT id FROM paths WHERE path = ?", path);
    if (!row) return this.#graph(path, "file", [], t0);
    // A generated file can hold thousands of symbols: the first MAX_CHILDREN are drawn.
    const own = this.j.all<SymbolRow>(
      `SELECT n.id, n.kind, n.name, n.qualname, n.start_line AS line, p.path
         FROM nodes n JOIN paths p ON p.id = n.path_id WHERE n.path_id = ?
        ORDER BY n.start_line LIMIT ?`,
      row.id,
      MAX_CHILDREN + 1,
    );
    const level = this.#graph(path, "file", own.slice(0, MAX_CHILDREN), t0);
    if (own.length > MAX_CHILDREN) {
      const all = this.j.get<{ n: number }>(
        "SELECT count(*) AS n FROM nodes WHERE path_id = ?",
        row.id,
      );
      level.omitted = (all?.n ?? own.length) - MAX_CHILDREN;
    }
    return level;
  }

  /** The call neighbourhood of one symbol: what it calls and what calls it, `hops` deep. */
  symbol(id: string, hops = 2): MapLevel {
    const t0 = performance.now();
    const start = this.j.all<SymbolRow>(
      `SELECT n.id, n.kind, n.name, n.qualname, n.start_line AS line, p.path
         FROM nodes n JOIN paths p ON p.id = n.path_id WHERE n.id = ?`,
      id,
    );
    let frontier = start.map((s) => s.id);
    const seen = new Set(frontier);
    for (let h = 0; h < hops && frontier.length > 0 && seen.size < MAX_NEIGHBOURS; h++) {
      const next: string[] = [];
      for (
        const r of this.j.all<{ a: string; b: string }>(
          `SELECT src AS a, dst AS b FROM edges WHERE kind = 'calls' AND src IN (SELECT value FROM json_each(?1))
           UNION SELECT src, dst FROM edges WHERE kind = 'calls' AND dst IN (SELECT value FROM json_each(?1))`,
          JSON.stringify(frontier),
        )
      ) {
        for (const x of [r.a, r.b]) {
          if (!seen.has(x) && seen.size < MAX_NEIGHBOURS) {
            seen.add(x);
            next.push(x);
          }
        }
      }
      frontier = next;
    }
    const all = this.j.all<SymbolRow>(
      `SELECT n.id, n.kind, n.name, n.qualname, n.start_line AS line, p.path
         FROM nodes n JOIN paths p ON p.id = n.path_id
        WHERE n.id IN (SELECT value FROM json_each(?))`,
      JSON.stringify([...seen]),
    );
    return this.#graph(id, "symbol", all, t0, new Set(start.map((s) => s.id)));
  }

  /** Symbols, their outside neighbours (capped) and the calls among them all. */
  #graph(
    at: string,
    level: "file" | "symbol",
    own: SymbolRow[],
    t0: number,
    focus?: Set<string>,
  ): MapLevel {
    const ids = JSON.stringify(own.map((s) => s.id));
    // Two indexed look-ups (edges_src, edges_dst): an OR of the two scans every edge.
    const calls = own.length === 0 ? [] : this.j.all<{ a: string; b: string; n: number }>(
      `SELECT a, b, count(*) AS n FROM (
         SELECT src AS a, dst AS b FROM edges
          WHERE src IN (SELECT value FROM json_each(?1)) AND kind = 'calls'
         UNION ALL
         SELECT src, dst FROM edges
          WHERE dst IN (SELECT value FROM json_each(?1)) AND kind = 'calls'
            AND src NOT IN (SELECT value FROM json_each(?1)))
        WHERE a != b GROUP BY 1, 2`,
      ids,
    );
    const ownIds = new Set(own.map((s) => s.id));
    const outside = new Set<string>();
    for (const c of calls) {
      for (const x of [c.a, c.b]) {
        if (!ownIds.has(x) && outside.size < MAX_NEIGHBOURS) outside.add(x);
      }
    }
    const others = outside.size === 0 ? [] : this.j.all<SymbolRow>(
      `SELECT n.id, n.kind, n.name, n.qualname, n.start_line AS line, p.path
         FROM nodes n JOIN paths p ON p.id = n.path_id
        WHERE n.id IN (SELECT value FROM json_each(?))`,
      JSON.stringify([...outside]),
    );
    const node = (s: SymbolRow, out: boolean): MapNode => ({
      id: s.id,
      label: s.name,
      level: "symbol",
      path: s.path,
      files: 1,
      symbols: 1,
      kind: s.kind,
      line: s.line,
      qualname: s.qualname,
      outside: focus ? !focus.has(s.id) : out,
    });
    const nodes = [...own.map((s) => node(s, false)), ...others.map((s) => node(s, true))];
    const present = new Set(nodes.map((n) => n.id));
    const edges = calls.filter((c) => present.has(c.a) && present.has(c.b)).map((c) => ({
      source: c.a,
      target: c.b,
      weight: c.n,
    }));
    return {
      at,
      level,
      nodes,
      edges,
      links: "ready",
      omitted: 0,
      took_ms: Math.round(performance.now() - t0),
    };
  }
}

interface SymbolRow {
  id: string;
  kind: string;
  name: string;
  qualname: string;
  line: number | null;
  path: string;
}
