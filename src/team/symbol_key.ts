/**
 * Portable names for code: a local node ↔ (repository, repository-relative
 * path, qualified name, structural hash), the same on every machine.
 */
import { basename, dirname, join, relative, resolve, sep } from "../files/mod.ts";
import { tildeOf } from "../config/mod.ts";
import type { Journal } from "../store/mod.ts";
import { type Definition, definitions, pickColumns } from "../search/mod.ts";
import type { SymbolKey } from "./types.ts";

/**
 * A node of the local index with what a portable key needs.
 *
 * @internal
 */
export type LocalSymbol =
  & Pick<Definition, "id" | "kind" | "name" | "qualname" | "path" | "line" | "structHash">
  & {
    /** The indexed root the file is under. */
    root: string;
  };

const LOCAL_COLUMNS = ["id", "kind", "name", "qualname", "path", "line", "structHash"] as const;

/**
 * The local symbols of definitions, in their order; a definition whose root
 * is gone (drift) has no portable key and is left out.
 */
export function localSymbols(defs: readonly Definition[]): LocalSymbol[] {
  return defs.flatMap((d) =>
    d.root === null ? [] : [{ ...pickColumns(d, LOCAL_COLUMNS), root: d.root }]
  );
}

interface Repo {
  top: string;
  name: string;
}

/**
 * Finds the repository a file belongs to: the nearest folder above it with a
 * `.git`, named by the last segment of its `origin` remote (so clones in
 * differently named folders agree), else by the folder's name. A file in no
 * repository belongs to its indexed root. Answers are cached per folder; cost
 * is a few stats per new folder.
 *
 * @internal
 */
export class RepoResolver {
  readonly #byDir = new Map<string, Repo | null>();
  readonly #topName = new Map<string, string | null>();

  /** The portable key of a local symbol. */
  keyOf(s: LocalSymbol): SymbolKey {
    const repo = this.#repoOf(dirname(s.path)) ?? { top: s.root, name: basename(s.root) };
    return {
      repo: repo.name,
      path: relative(repo.top, s.path).split(sep).join("/"),
      qualname: s.qualname,
      kind: s.kind,
      structHash: s.structHash,
    };
  }

  /**
   * True when local symbol `s` is the code `key` names: its file ends with
   * the key's path, and the folder that leaves (the repository top the key
   * implies) holds a `.git` of the key's repository. Files in no repository
   * fall back to comparing {@link keyOf}. Cost: one stat per distinct top.
   */
  matches(s: LocalSymbol, key: SymbolKey): boolean {
    const suffix = sep + key.path.split("/").join(sep);
    if (!s.path.endsWith(suffix)) return false;
    const top = s.path.slice(0, s.path.length - suffix.length);
    let name = this.#topName.get(top);
    if (name === undefined) {
      name = null;
      try {
        const git = join(top, ".git");
        name = repoName(top, git, Deno.statSync(git).isFile);
      } catch { /* no repository there */ }
      this.#topName.set(top, name);
    }
    if (name !== null) return name === key.repo;
    const local = this.keyOf(s);
    return local.repo === key.repo && local.path === key.path;
  }

  /**
   * Where the file or folder at absolute `path` is, portably: its repository
   * and the repository-relative path ("" for the repository's top folder),
   * as {@link keyOf} names a symbol's file. Outside any repository the
   * indexed `root` stands in for one; outside both, the repository is "" and
   * the path stays absolute (no other machine can place it).
   */
  placeOf(path: string, root: string | null, isFolder: boolean): { repo: string; path: string } {
    const repo = this.#repoOf(isFolder ? path : dirname(path)) ??
      (root === null ? null : { top: root, name: basename(root) });
    // In no repository: a path of the user's home goes as `~/…`, never with the login name in it.
    if (repo === null) return { repo: "", path: tildeOf(path, Deno.env.get("HOME"), sep) };
    return { repo: repo.name, path: relative(repo.top, path).split(sep).join("/") };
  }

  /** The repository holding folder `dir` (its top and name), or null. */
  repoAt(dir: string): { top: string; name: string } | null {
    return this.#repoOf(dir);
  }

  #repoOf(dir: string): Repo | null {
    if (this.#byDir.has(dir)) return this.#byDir.get(dir)!;
    let found: Repo | null;
    const git = join(dir, ".git");
    let stat: Deno.FileInfo | undefined;
    try {
      stat = Deno.statSync(git);
    } catch { /* not a repository top */ }
    if (stat) found = { top: dir, name: repoName(dir, git, stat.isFile) };
    else {
      const parent = dirname(dir);
      found = parent === dir ? null : this.#repoOf(parent);
    }
    this.#byDir.set(dir, found);
    return found;
  }
}

/** The name of the repository at `top`: its origin's last path segment, else the folder name. */
function repoName(top: string, git: string, gitIsFile: boolean): string {
  try {
    let gitDir = git;
    if (gitIsFile) {
      // A worktree or submodule: ".git" holds "gitdir: PATH"; a worktree's
      // config lives in the common dir it names.
      const m = /^gitdir:\s*(.+)$/m.exec(Deno.readTextFileSync(git));
      if (m) gitDir = resolve(top, m[1]!.trim());
      try {
        gitDir = resolve(gitDir, Deno.readTextFileSync(join(gitDir, "commondir")).trim());
      } catch { /* not a worktree */ }
    }
    const url = originUrl(Deno.readTextFileSync(join(gitDir, "config")));
    if (url) {
      const last = url.replace(/\/+$/, "").replace(/\.git$/, "").split(/[/:]/).pop();
      if (last) return last.toLowerCase();
    }
  } catch { /* unreadable git metadata: fall back to the folder's name */ }
  return basename(top).toLowerCase();
}

/** The `url` of `[remote "origin"]` in a git config file's text. */
export function originUrl(config: string): string | undefined {
  let inOrigin = false;
  for (const raw of config.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) inOrigin = /^\[remote\s+"origin"\]$/.test(line);
    else if (inOrigin) {
      const m = /^url\s*=\s*(.+)$/.exec(line);
      if (m) return m[1]!.trim();
    }
  }
  return undefined;
}

/** Local symbols by node id. */
export function symbolsById(j: Journal, ids: readonly string[]): Map<string, LocalSymbol> {
  return new Map(localSymbols(definitions(j, { ids })).map((r) => [r.id, r]));
}

/** Every node of the file at absolute `path` (its own file node included), in line order. */
export function symbolsOfFile(j: Journal, path: string): LocalSymbol[] {
  return localSymbols(definitions(j, { path, order: "nesting" }));
}

/**
 * The local nodes each key names (one list per key, in order). A symbol key
 * names every node of its qualified name in its file (overloads included), a
 * file key (qualname "") the file's node and everything in it; candidates
 * found by name are checked with {@link RepoResolver.matches}. Cost: one or
 * two indexed queries, one stat per repository, and one query per file key
 * that matched. Use when the keys are fewer than the nodes to check.
 */
export function localNodesOf(
  j: Journal,
  keys: readonly SymbolKey[],
  repos: RepoResolver,
): string[][] {
  const out: string[][] = keys.map(() => []);
  const qualnames = [...new Set(keys.flatMap((k) => (k.qualname === "" ? [] : [k.qualname])))];
  const files = [...new Set(keys.flatMap((k) => (k.qualname === "" ? [basename(k.path)] : [])))];
  const byName = (symbols: LocalSymbol[], nameOf: (s: LocalSymbol) => string) => {
    const map = new Map<string, LocalSymbol[]>();
    for (const s of symbols) {
      const list = map.get(nameOf(s));
      if (list) list.push(s);
      else map.set(nameOf(s), [s]);
    }
    return map;
  };
  const symbols = qualnames.length === 0 ? new Map<string, LocalSymbol[]>() : byName(
    localSymbols(definitions(j, { qualnames, kind: "symbol" })),
    (s) => s.qualname,
  );
  const fileNodes = files.length === 0 ? new Map<string, LocalSymbol[]>() : byName(
    localSymbols(definitions(j, { names: files, kind: "file" })),
    (s) => s.name,
  );
  // Symbol keys first, then file keys, each key's candidates in index order.
  const candidates = [
    ...keys.flatMap((k, i) =>
      k.qualname === "" ? [] : (symbols.get(k.qualname) ?? []).map((c) => ({ ...c, i }))
    ),
    ...keys.flatMap((k, i) =>
      k.qualname === "" ? (fileNodes.get(basename(k.path)) ?? []).map((c) => ({ ...c, i })) : []
    ),
  ];
  for (const c of candidates) {
    if (!repos.matches(c, keys[c.i]!)) continue;
    out[c.i] = keys[c.i]!.qualname === ""
      ? symbolsOfFile(j, c.path).map((s) => s.id)
      : [...out[c.i]!, c.id];
  }
  return out;
}

/**
 * Which keys name each of `symbols` (already loaded local nodes): the same
 * matching as {@link localNodesOf}, the other way round, with no query. Use
 * when the nodes to check are fewer than the keys. Returns node id → key
 * indexes, for nodes some key names.
 */
export function keysAmong(
  symbols: Iterable<LocalSymbol>,
  keys: readonly SymbolKey[],
  repos: RepoResolver,
): Map<string, number[]> {
  const byQualname = new Map<string, number[]>();
  const byFile = new Map<string, number[]>();
  keys.forEach((k, i) => {
    const [map, name] = k.qualname === "" ? [byFile, basename(k.path)] : [byQualname, k.qualname];
    const list = map.get(name);
    if (list) list.push(i);
    else map.set(name, [i]);
  });
  const out = new Map<string, number[]>();
  for (const s of symbols) {
    const hits = [
      ...(s.kind === "file" ? [] : byQualname.get(s.qualname) ?? []),
      ...(byFile.get(basename(s.path)) ?? []),
    ].filter((i) => repos.matches(s, keys[i]!));
    if (hits.length > 0) out.set(s.id, hits);
  }
  return out;
}
