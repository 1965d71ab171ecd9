import { posix } from "node:path";
import type { Journal } from "../store/mod.ts";
import { moduleCandidates, packageDirSuffixes } from "./modules.ts";

interface RefRow {
  owner_id: number;
  src: string;
  kind: string;
  target: string;
  name: string | null;
  module: string | null;
  line: number | null;
}

interface Owner {
  id: number;
  root_id: number;
  rel: string;
  language: string | null;
}

/** Where an imported name may be a module of its own, how it joins its parent's specifier. */
const SUBMODULE_SEPARATOR: Record<string, string> = { python: ".", rust: "::", java: "." };

/** Kinds a reference may land on; files and headings are not definitions. */
const DEFINITION = "n.kind NOT IN ('file', 'heading')";

/**
 * Cross-file resolution, run inside the writer's transaction right after a
 * path's rows changed. Honest: an import-backed target first, then a
 * definition in the same file, then a name unique in the repository;
 * anything else stays a pending edge with its name — never a guess.
 */
export class Resolver {
  readonly #aliases = new Map<number, Map<string, string>>();
  /** Module specifier → files, valid within one afterChange (paths do not change inside it). */
  readonly #files = new Map<string, number[]>();

  constructor(
    readonly journal: Journal,
    readonly tsconfigAliases: (rootId: number) => Map<string, string>,
  ) {}

  /**
   * After path `pathId` was replaced or retracted: resolve its own pending
   * edges, turn other paths' edges into vanished nodes back into pending
   * edges, and retry other paths' pending edges that name what it defines
   * (or defined: a namesake gone may make a name unique again).
   */
  afterChange(pathId: number, oldIds: ReadonlySet<string>, defined: ReadonlySet<string>): void {
    const j = this.journal;
    this.#files.clear();
    const names = new Set([...defined, ...this.#alsoNamedBy(pathId)]);
    for (const ref of j.all<RefRow>("SELECT * FROM pending_edges WHERE owner_id = ?", pathId)) {
      this.#tryResolve(ref);
    }
    const newIds = new Set(
      j.all<{ id: string }>("SELECT id FROM nodes WHERE path_id = ?", pathId).map((r) => r.id),
    );
    const vanished = [...oldIds].filter((id) => !newIds.has(id));
    const reopen: RefRow[] = [];
    for (const id of vanished) {
      reopen.push(...j.all<RefRow>(
        `SELECT owner_id, src, kind, target, name, module, line FROM edges
         WHERE dst = ? AND owner_id != ? AND target IS NOT NULL`,
        id,
        pathId,
      ));
      j.run("DELETE FROM edges WHERE dst = ? AND owner_id != ? AND target IS NOT NULL", id, pathId);
    }
    for (const name of names) {
      // A new namesake makes a "unique in the repository" resolution ambiguous.
      reopen.push(...j.all<RefRow>(
        `SELECT owner_id, src, kind, target, name, module, line FROM edges
         WHERE name = ? AND how = 'unique' AND owner_id != ?`,
        name,
        pathId,
      ));
      j.run("DELETE FROM edges WHERE name = ? AND how = 'unique' AND owner_id != ?", name, pathId);
    }
    for (const ref of reopen) {
      j.run(
        "INSERT INTO pending_edges (owner_id, src, kind, target, name, module, line) VALUES (?, ?, ?, ?, ?, ?, ?)",
        ref.owner_id,
        ref.src,
        ref.kind,
        ref.target,
        ref.name,
        ref.module,
        ref.line,
      );
    }
    // Re-exports first (imports that had found only a module may now find the
    // name), then the pending references, then re-exports once more: a call
    // through a re-export then resolves the same way in any reconcile order.
    this.#upgradeModuleImports(pathId, names, 2);
    const retry: RefRow[] = [];
    for (const name of names) {
      retry.push(
        ...j.all<RefRow>(
          "SELECT * FROM pending_edges WHERE name = ? AND owner_id != ?",
          name,
          pathId,
        ),
      );
    }
    retry.sort((a, b) => Number(a.kind !== "imports") - Number(b.kind !== "imports"));
    const seen = new Set<string>();
    for (const ref of retry) {
      const key = `${ref.owner_id}\0${ref.src}\0${ref.kind}\0${ref.target}\0${ref.line}`;
      if (seen.has(key)) continue;
      seen.add(key);
      this.#tryResolve(ref);
    }
    this.#upgradeModuleImports(pathId, names, 1);
  }

  /**
   * Imports that landed on a module for want of the name: a definition (or a
   * re-export chain) may now give the name itself. Each round follows one hop.
   */
  #upgradeModuleImports(pathId: number, names: ReadonlySet<string>, rounds: number): void {
    const j = this.journal;
    for (let round = 0; round < rounds; round++) {
      for (const name of names) {
        const edges = j.all<RefRow>(
          `SELECT owner_id, src, kind, target, name, module, line FROM edges
           WHERE name = ? AND how = 'module' AND owner_id != ?`,
          name,
          pathId,
        );
        for (const ref of edges) {
          const owner = j.get<Owner>(
            "SELECT id, root_id, rel, language FROM paths WHERE id = ?",
            ref.owner_id,
          );
          const found = owner && this.#resolve(owner, ref);
          if (!found || found.how === "module") continue;
          j.run(
            `UPDATE edges SET dst = ?, how = ? WHERE rowid = (SELECT rowid FROM edges WHERE owner_id = ?
               AND src = ? AND kind = ? AND name = ? AND how = 'module' AND line IS ? LIMIT 1)`,
            found.dst,
            found.how,
            ref.owner_id,
            ref.src,
            ref.kind,
            name,
            ref.line,
          );
        }
      }
    }
  }

  /**
   * Names under which other files may reach this one without it defining
   * them: what it re-exports (its imports), its file stem and its folder (a
   * Python module, a Go package). They only trigger retries; resolution
   * itself stays as strict as ever.
   */
  #alsoNamedBy(pathId: number): string[] {
    const j = this.journal;
    const out = j.all<{ name: string }>(
      `SELECT name FROM pending_edges WHERE owner_id = ?1 AND kind = 'imports' AND name IS NOT NULL
       UNION SELECT name FROM edges WHERE owner_id = ?1 AND kind = 'imports' AND name IS NOT NULL`,
      pathId,
    ).map((r) => r.name);
    const rel = j.get<{ rel: string }>("SELECT rel FROM paths WHERE id = ?", pathId)?.rel;
    if (rel) {
      const parts = rel.split("/");
      out.push(parts.at(-1)!.replace(/\.[^.]*$/, ""));
      if (parts.length > 1) out.push(parts.at(-2)!);
    }
    return out;
  }

  /** Resolves one pending edge if it can; moves it to `edges` when it does. */
  #tryResolve(ref: RefRow): void {
    const j = this.journal;
    const owner = j.get<Owner>(
      "SELECT id, root_id, rel, language FROM paths WHERE id = ?",
      ref.owner_id,
    );
    if (!owner) return;
    const found = this.#resolve(owner, ref);
    if (!found) return;
    j.run(
      `DELETE FROM pending_edges WHERE rowid = (SELECT rowid FROM pending_edges WHERE owner_id = ? AND src = ?
         AND kind = ? AND target = ? AND module IS ? AND line IS ? LIMIT 1)`,
      ref.owner_id,
      ref.src,
      ref.kind,
      ref.target,
      ref.module,
      ref.line,
    );
    j.run(
      "INSERT INTO edges (owner_id, src, dst, kind, line, target, name, module, how) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ref.owner_id,
      ref.src,
      found.dst,
      ref.kind,
      ref.line,
      ref.target,
      ref.name,
      ref.module,
      found.how,
    );
  }

  #resolve(owner: Owner, ref: RefRow): { dst: string; how: string } | undefined {
    const j = this.journal;
    const dotted = ref.target.split(/\.|::/);
    const name = dotted.at(-1)!;
    const qualifier = dotted.length > 1 ? dotted.slice(0, -1).join(".") : undefined;
    const specs = this.#modulesFor(owner, ref, qualifier);
    if (specs.length > 0) {
      const files = specs.map((spec) => this.#filesFor(owner, spec)).find((f) => f.length > 0) ??
        [];
      if (files.length > 0) {
        const hit = j.get<{ id: string }>(
          `SELECT n.id FROM nodes n WHERE n.path_id IN (${files.map(() => "?").join(",")})
             AND n.name = ? AND ${DEFINITION}
           ORDER BY (n.parent_id IN (SELECT id FROM nodes WHERE kind = 'file')) DESC, n.start_line LIMIT 1`,
          ...files,
          name,
        );
        if (hit) return { dst: hit.id, how: "import" };
        // A re-export (`export { x } from "./x.ts"`): follow the module's own import.
        const reexport = j.get<{ dst: string }>(
          `SELECT dst FROM edges WHERE owner_id IN (${files.map(() => "?").join(",")})
             AND kind = 'imports' AND name = ? AND how = 'import' LIMIT 1`,
          ...files,
          name,
        );
        if (reexport) return { dst: reexport.dst, how: "import" };
        if (ref.kind === "imports") {
          const file = j.get<{ id: string }>(
            "SELECT id FROM nodes WHERE path_id = ? AND kind = 'file'",
            files[0]!,
          );
          // The module, not the name: revisited when a definition of the name appears.
          if (file) return { dst: file.id, how: "module" };
        }
      }
      // A name bound by an import of something outside the repository is not
      // looked up by name elsewhere: that would be a guess.
      if (ref.kind === "imports" || qualifier !== undefined || ref.module !== null) {
        return undefined;
      }
    }
    if (ref.kind === "imports") return undefined;
    const local = j.get<{ id: string }>(
      `SELECT n.id FROM nodes n WHERE n.path_id = ? AND n.name = ? AND ${DEFINITION} ORDER BY n.start_line LIMIT 1`,
      owner.id,
      name,
    );
    if (local) return { dst: local.id, how: "same-file" };
    const named = j.all<{ id: string }>(
      `SELECT n.id FROM nodes n JOIN paths p ON p.id = n.path_id
       WHERE n.name = ? AND p.root_id = ? AND ${DEFINITION} LIMIT 2`,
      name,
      owner.root_id,
    );
    return named.length === 1 ? { dst: named[0]!.id, how: "unique" } : undefined;
  }

  /**
   * The module specifiers behind a reference, most specific first: its own,
   * or those of the import that bound its name or qualifier. An imported name
   * may itself be a module (`from pkg import models`, `use crate::a::b`), so
   * `module.name` is tried before `module` where the language nests modules.
   */
  #modulesFor(owner: Owner, ref: RefRow, qualifier: string | undefined): string[] {
    const sep = SUBMODULE_SEPARATOR[owner.language ?? ""];
    const nested = (module: string, name: string) =>
      sep !== undefined && name !== "*" && name !== "" ? [module + sep + name, module] : [module];
    if (ref.kind === "imports") return ref.module ? nested(ref.module, ref.target) : [];
    const binding = ref.module ?? qualifier ?? ref.target;
    const imp = this.journal.get<{ module: string | null; target: string }>(
      `SELECT module, target FROM pending_edges WHERE owner_id = ?1 AND kind = 'imports' AND target = ?2
       UNION ALL SELECT module, target FROM edges WHERE owner_id = ?1 AND kind = 'imports' AND target = ?2
       LIMIT 1`,
      owner.id,
      binding,
    );
    if (imp?.module) {
      return imp.target === ref.target ? [imp.module] : nested(imp.module, imp.target);
    }
    return ref.module ? [ref.module] : [];
  }

  /** Indexed files (path ids) of the same root that a module specifier names. */
  #filesFor(owner: Owner, spec: string): number[] {
    const key = `${owner.root_id}\0${owner.language}\0${owner.rel}\0${spec}`;
    let files = this.#files.get(key);
    if (!files) {
      files = this.#lookupFiles(owner, spec);
      this.#files.set(key, files);
    }
    return files;
  }

  #lookupFiles(owner: Owner, spec: string): number[] {
    const j = this.journal;
    const language = owner.language ?? "";
    const rels = moduleCandidates(language, owner.rel, spec, this.#aliasesFor(owner.root_id));
    for (const rel of rels) {
      const row = j.get<{ id: number }>(
        "SELECT id FROM paths WHERE path = ? AND root_id = ? AND state = 'indexed'",
        `${this.#rootPath(owner.root_id)}/${rel}`,
        owner.root_id,
      );
      if (row) return [row.id];
    }
    for (const suffix of packageDirSuffixes(language, spec)) {
      const rows = j.all<{ id: number; rel: string }>(
        `SELECT id, rel FROM paths WHERE root_id = ? AND language = ? AND state = 'indexed'
           AND path LIKE '%/' || ? || '/%'`,
        owner.root_id,
        language,
        suffix,
      ).filter((r) => {
        const dir = posix.dirname(r.rel);
        return dir === suffix || dir.endsWith("/" + suffix);
      });
      if (rows.length > 0) return rows.map((r) => r.id);
    }
    return [];
  }

  #rootPath(rootId: number): string {
    return this.journal.get<{ path: string }>("SELECT path FROM roots WHERE id = ?", rootId)
      ?.path ?? "";
  }

  #aliasesFor(rootId: number): Map<string, string> {
    let a = this.#aliases.get(rootId);
    if (!a) {
      a = this.tsconfigAliases(rootId);
      this.#aliases.set(rootId, a);
    }
    return a;
  }
}
