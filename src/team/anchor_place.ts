/**
 * Placing a team memory's portable anchors on this machine's code: the
 * repository, path and qualified name a teammate wrote become a local path,
 * node and lines. Reads the index and stats the disk; writes nothing.
 */
import { expandTilde } from "../config/mod.ts";
import { basename, exists, isAbsolute, join } from "../files/mod.ts";
import { activeAnchor, anchorFor, type AnchorRow, nodeFacts } from "../memory/mod.ts";
import { type Journal, listRoots, rootFor } from "../store/mod.ts";
import { placeholderPath, type PortableAnchor, portableLabel } from "./memory_anchor.ts";
import { localNodesOf, type LocalSymbol, localSymbols, RepoResolver } from "./symbol_key.ts";
import { definitions } from "../search/mod.ts";

/**
 * Places portable anchors in one journal; caches repository look-ups, so
 * use one per batch. A symbol is looked up by qualified name in files of the
 * named repository (the one whose structural hash matches first, among
 * overloads); a file by name; a folder under a top folder of that
 * repository found next to the indexed roots (the root itself, a folder
 * holding it, or a folder directly under it). Code this machine has not got
 * keeps a relative placeholder path (see `placeholderPath`).
 */
export class AnchorPlacer {
  readonly #repos = new RepoResolver();
  #tops: Map<string, string[]> | undefined;
  #roots: { path: string }[] | undefined;

  constructor(readonly j: Journal) {}

  /** The local anchor row for `p`, as of `now`. */
  place(p: PortableAnchor, ord: number, now: number): AnchorRow {
    const original = portableLabel(p);
    if (p.target === "symbol") {
      const node = this.#symbol(p);
      if (node) {
        const facts = nodeFacts(this.j, node.id)!;
        return anchorFor({ target: "symbol", node: facts, root: node.root }, ord, original, now);
      }
    }
    const path = p.target === "file" || p.target === "symbol" ? this.#file(p) : this.#folder(p);
    return activeAnchor({
      ord,
      target: p.target,
      original,
      path: path ?? placeholderPath(p),
      root: path === undefined ? null : rootFor(this.#rootList(), path)?.path ?? null,
      symbol: p.target === "symbol" ? p.qualname : null,
      symbol_kind: p.target === "symbol" ? p.kind : null,
      name: p.name,
      node_id: null,
      struct_hash: p.structHash,
      shape: p.shape,
      start_line: null,
      end_line: null,
    }, now);
  }

  #symbol(p: PortableAnchor): LocalSymbol | undefined {
    const key = {
      repo: p.repo,
      path: p.path,
      qualname: p.qualname,
      kind: p.kind,
      structHash: null,
    };
    const ids = localNodesOf(this.j, [key], this.#repos)[0] ?? [];
    if (ids.length === 0) return undefined;
    const nodes = localSymbols(definitions(this.j, { ids, order: "path" }));
    return nodes.find((n) => n.structHash === p.structHash) ?? nodes[0];
  }

  /** The local path of a file (indexed, else on disk under a known top), or undefined. */
  #file(p: PortableAnchor): string | undefined {
    if (p.repo === "") return outside(p.path);
    const key = { repo: p.repo, path: p.path, qualname: "", kind: "file", structHash: null };
    // One file node per file: by path is by path and line.
    const files = localSymbols(
      definitions(this.j, { name: basename(p.path), kind: "file", order: "path" }),
    );
    const indexed = files.find((f) => this.#repos.matches(f, key));
    if (indexed) return indexed.path;
    const tops = this.#topsOf(p.repo);
    return tops.map((t) => join(t, p.path)).find(exists) ?? tops.map((t) => join(t, p.path))[0];
  }

  #folder(p: PortableAnchor): string | undefined {
    if (p.repo === "") return outside(p.path);
    const tops = this.#topsOf(p.repo).map((t) => p.path === "" ? t : join(t, p.path));
    return tops.find(exists) ?? tops[0];
  }

  #rootList(): { path: string }[] {
    return (this.#roots ??= listRoots(this.j));
  }

  /** Top folders of repository `name` on this machine, near the indexed roots. */
  #topsOf(name: string): string[] {
    if (!this.#tops) {
      const tops = new Map<string, string[]>();
      const add = (repo: string, top: string) => {
        const list = tops.get(repo) ?? [];
        if (!list.includes(top)) list.push(top);
        tops.set(repo, list);
      };
      for (const { path: root } of this.#rootList()) {
        const repo = this.#repos.repoAt(root);
        // A root in no repository stands in for one, named as `keyOf` names it.
        if (repo) add(repo.name, repo.top);
        else add(basename(root), root);
        try {
          for (const e of Deno.readDirSync(root)) {
            if (!e.isDirectory || e.name.startsWith(".")) continue;
            const inner = this.#repos.repoAt(join(root, e.name));
            if (inner && inner.top === join(root, e.name)) add(inner.name, inner.top);
          }
        } catch { /* the root is gone or unreadable: only its own name counts */ }
      }
      this.#tops = tops;
    }
    return this.#tops.get(name) ?? [];
  }
}

/**
 * The local path of a path in no repository as the store keeps it:
 * absolute, or `~/…` under this user's home; undefined for anything else.
 */
function outside(path: string): string | undefined {
  const local = expandTilde(path, Deno.env.get("HOME"));
  return isAbsolute(local) ? local : undefined;
}
