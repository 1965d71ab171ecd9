import { isBuiltin, isImplicitType } from "../extract/builtins.ts";
import { posix } from "../files/mod.ts";
import { type Journal, prototypeSql } from "../store/mod.ts";
import {
  bareScope,
  definesOutOfLine,
  hasImplicitThis,
  JS_EXPORT_SQL,
  mixesIn,
  receiverRole,
} from "./call_rules.ts";
import {
  crateDirSuffixes,
  crateFolderNames,
  moduleCandidates,
  packageDirSuffixes,
  rustPathInFile,
} from "./modules.ts";
import { admits, arityOf, OVERLOADING } from "../extract/arity.ts";
import { detectLanguage, languageFamily, languageFamilySql } from "../extract/language.ts";
import { fileNodeId } from "./desired.ts";

/** A pending reference and where it resolves (see {@link Resolver.resolvedReferences}). */
export interface Resolved extends RefRow {
  dst: string;
  how: string;
}

interface RefRow {
  /** The row's rowid in the table it was read from (pending_edges or edges). */
  rowid: number;
  owner_id: number;
  src: string;
  kind: string;
  target: string;
  name: string | null;
  module_tail: string | null;
  module: string | null;
  line: number | null;
  /** For a call in a language with overloads: how many arguments it passes. */
  args: number | null;
  /** For an import that binds another name: what it imports (`a` of `from m import a as b`). */
  imported: string | null;
}

/** The columns of a reference, the same in `pending_edges` and `edges`, in {@link RefRow}'s order. */
/**
 * Languages whose calls are told apart by their argument count: those with
 * overloads, and C, whose headers may hold C++ read with its grammar (the
 * file keeps its language `c`; a C file's calls carry no count).
 */
const BY_ARITY: ReadonlySet<string> = new Set([...OVERLOADING, "c"]);

const REF_COLUMNS = "owner_id, src, kind, target, name, module, module_tail, line, args, imported";

/**
 * Whether an import that found only a module (`how = 'module'`) lands
 * elsewhere now (pure): on a definition of the name it imports, or on
 * another module. `from pkg.core import models` finds the package's
 * `__init__.py` while `pkg/core/models.py` is not indexed, and that module
 * once it is, as a fresh index would.
 */
function upgrades(found: { dst: string; how: string }, edge: { dst: string }): boolean {
  return found.how !== "module" || found.dst !== edge.dst;
}

/** Puts a reference (back) among the pending ones. */
function insertPending(j: Journal, r: RefRow): void {
  j.run(
    `INSERT INTO pending_edges (${REF_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    r.owner_id,
    r.src,
    r.kind,
    r.target,
    r.name,
    r.module,
    r.module_tail,
    r.line,
    r.args,
    r.imported,
  );
}

interface Owner {
  id: number;
  root_id: number;
  rel: string;
  language: string | null;
}

/** At most this many star closures, and as many classes' bases, are cached (a few MB). */
const STAR_CACHE_MAX = 20_000;
/**
 * At most this many files' definitions by qualified name are cached (see
 * `#definitionsNamed`): the files of the classes calls land in, read once
 * each instead of once a call. On the search bench's resolution 300 did as
 * well as 4,000 (−24% CPU either way), which held 100 MB more.
 */
const MEMBER_FILES_MAX = 300;
/** Files a re-export is looked for in one by one at most (see `#reexportIn`). */
const REEXPORT_PROBES = 8;
/** Distinct lists of files `Resolver.#sameList` keeps before it starts again. */
const FILE_LISTS_MAX = 50_000;

/**
 * A definition of a file as `#memberOf` looks members up: by qualified
 * name, latest line first; its signature only where a call's argument count
 * picks among overloads (`BY_ARITY`), the rest of the time mere weight.
 */
interface Member {
  id: string;
  signature: string | null;
  start_line: number | null;
}
/**
 * References an edit's resolution tries between two of its steps (a few
 * ms): a file of thousands of symbols resolves in many short transactions.
 */
const REFS_A_STEP = 100;

/** Where an imported name may be a module of its own, how it joins its parent's specifier. */
const SUBMODULE_SEPARATOR: Record<string, string> = { python: ".", rust: "::", java: "." };

/**
 * The specifiers an import of `name` from `module` is looked up by, the
 * most specific first (pure): `from pkg import mod` may name the module
 * `pkg.mod`, `from . import mod` the module `.mod`.
 */
function importSpecs(language: string | null, module: string, name: string): string[] {
  const sep = SUBMODULE_SEPARATOR[language ?? ""];
  if (sep === undefined || name === "*" || name === "") return [module];
  // `from . import util`, `from .. import util`: the dots are the package already.
  const join = language === "python" && /^\.+$/.test(module) ? "" : sep;
  return [module + join + name, module];
}

/**
 * Whether a call found (or would find) its method through a class looked up
 * by one of `names`: `Type.m()` with `Type` among them, or a call on `this`
 * in a language whose methods find their class by name when defined out of
 * it (C++).
 */
function hangsOnClassName(
  ref: { target: string; module?: string | null; language: string | null },
  names: ReadonlySet<string>,
): boolean {
  // `Type::m()` keeps its class in `module` (a static qualifier).
  const qualifier = ref.target.split(/\.|::|->/).at(-2) ??
    (ref.module ? lastSegment(ref.module) : undefined);
  return names.has(qualifier ?? "") ||
    ((qualifier === undefined || qualifier === "this") && definesOutOfLine(ref.language));
}

/** The last part of a qualified name: `WBI` of `ns::WBI`, `path` of `os.path`, `Foo` of `\\B\\Foo`. */
function lastSegment(qualified: string): string {
  return qualified.split(/\.|::|\\/).at(-1)!;
}

/**
 * The name code calls the crate `rel` is in (`text_util` of
 * `crates/text-util/src/a/b.rs`: the folder above its last `src`; for the
 * root's own `src/`, `rootCrate`, the root folder's name), else undefined.
 */
function crateOfFile(rel: string, rootCrate: string): string | undefined {
  const parts = rel.split("/");
  const src = parts.lastIndexOf("src", parts.length - 2);
  return src > 0 ? parts[src - 1]!.replaceAll("-", "_") : src === 0 ? rootCrate : undefined;
}

/**
 * The name code calls a crate by when `rel` is its root (`text_util` of
 * `crates/text-util/src/lib.rs`; `rootCrate` for the root's `src/lib.rs`),
 * else undefined.
 */
function crateOfRoot(rel: string, rootCrate: string): string | undefined {
  if (rel === "src/lib.rs") return rootCrate;
  return /(?:^|\/)([^/]+)\/src\/lib\.rs$/.exec(rel)?.[1]?.replaceAll("-", "_");
}

/**
 * The module tails a file is imported by: its stem and its folder's name; a
 * Python file's also `""`, the tail of `from . import mod` (a module of dots);
 * a Rust module's own file (`mod.rs`, a crate root) also `super` and `self`,
 * and a crate root's (`src/lib.rs`, `src/main.rs`) `crate` and, for a
 * library, its crate's name (`use crate::x`, `use text_util::x` name
 * the items it holds).
 */
function tailsOf(rel: string, rootCrate = ""): string[] {
  const parts = rel.split("/");
  const tails = [parts.at(-1)!.replace(/\.[^.]*$/, "")];
  if (parts.length > 1) tails.push(parts.at(-2)!);
  if (/\.pyi?$/.test(rel)) tails.push("");
  // A module's own file: what `super` or `self` alone may name.
  if (/(^|\/)(src\/(lib|main)|mod)\.rs$/.test(rel)) tails.push("super", "self");
  if (/(^|\/)src\/(lib|main)\.rs$/.test(rel)) {
    tails.push("crate");
    const folder = parts.at(-3) ?? rootCrate;
    if (parts.at(-1) === "lib.rs" && folder !== "") tails.push(folder.replaceAll("-", "_"));
  }
  return tails;
}

/**
 * What a reference may land on: no file, no heading, no Rust `impl` block
 * (named after its type, it is never what the name means: `use a::Store`
 * and `Store { … }` mean the struct; its methods are still found through
 * it, see CLASS_KINDS), and nothing recovered from a broken parse (a
 * `partial` symbol's name and nesting may be wrong: a function expression
 * read as a top-level function, say).
 */
const DEFINITION = "n.kind NOT IN ('file', 'heading', 'impl') AND n.partial = 0";

/** Kinds that hold methods: where `self.m()` and `Type.m()` look. */
const CLASS_KINDS =
  "('class', 'interface', 'struct', 'trait', 'impl', 'enum', 'union', 'module', 'type')";

/**
 * What a bare name may land on: a definition that is no member of a class
 * (`p` is its parent node, LEFT JOINed). A bare call never means a method
 * by name alone: only through the enclosing class (see {@link hasImplicitThis}).
 */
const NOT_MEMBER =
  `n.kind NOT IN ('file', 'heading', 'method', 'impl') AND n.partial = 0 AND (p.kind IS NULL
  OR p.kind NOT IN ('class', 'interface', 'struct', 'trait', 'impl', 'enum', 'union')
  OR n.kind IN ${CLASS_KINDS})`;

/**
 * A definition other files may see by its bare name (`p` is its parent
 * node): not one inside a function or a method (a closure, a class local to
 * a test) nor inside a value (`Point = Struct.new do def norm`, an object
 * literal's method, `attr_accessor` in such a block), which is no
 * top-level function of its file and no global anywhere; nor one inside a
 * function that is no symbol (`scoped`: the IIFE that wraps a JS script, a
 * callback); nor a Ruby singleton method (`def self.sh` in a `Module.new do
 * … end` block), a method of its object that no bare call elsewhere means.
 * `q` is its path.
 */
const AT_FILE_SCOPE =
  `(p.kind IS NULL OR p.kind NOT IN ('function', 'method', 'constant', 'variable'))
  AND n.scoped = 0 AND NOT (q.language = 'ruby' AND n.signature LIKE 'def self.%')`;

/** What a unique-by-name candidate is nested in (its parent node), as {@link seenFrom} reads it. */
interface Enclosed {
  parent_kind: string | null;
  parent_qualname: string | null;
}

/** A definition a bare name may land on, by uniqueness (see `Resolver.#uniqueDefinition`). */
interface Candidate extends Enclosed {
  id: string;
  proto: number;
}

/** Parents whose nested definitions only code inside them names bare (`class Preloader; class Association`). */
const ENCLOSING: ReadonlySet<string> = new Set([
  "class",
  "interface",
  "struct",
  "trait",
  "enum",
  "union",
  "impl",
]);

/** SQL (`p` the parent node): a definition seen by its bare name from anywhere (see {@link seenFrom}). */
const SEEN_EVERYWHERE = `(p.kind IS NULL OR p.kind NOT IN (${
  [...ENCLOSING].map((k) => `'${k}'`).join(", ")
}) AND NOT (p.kind = 'module' AND q.language = 'ruby'))`;

/**
 * True when code at `scope` (the qualified name of the definition it is
 * in, "" at a file's top) sees definition `d` by its bare name: `d` is not
 * nested in a class (nor, in Ruby, whose constants are looked up lexically,
 * in a module), or `scope` is inside what it is nested in. A class nested
 * in another (`Preloader.Association`) is never the `Association` that
 * code elsewhere names, even when it is the only one in the repository.
 */
function seenFrom(language: string | null, d: Enclosed, scope: string): boolean {
  const kind = d.parent_kind;
  if (kind === null || !(ENCLOSING.has(kind) || (kind === "module" && language === "ruby"))) {
    return true;
  }
  const outer = d.parent_qualname ?? "";
  return scope === outer || scope.startsWith(`${outer}.`);
}

/** The signature of a function-like procedural macro: what a `name!(…)` call may also mean. */
const PROC_MACRO =
  /\(\s*\w+\s*:\s*(?:proc_macro::)?TokenStream\s*\)\s*->\s*(?:proc_macro::)?TokenStream\b/;

/** What a bare call may land on: {@link NOT_MEMBER}, and never a module (`mod debug;`, a namespace). */
const CALLABLE = `${NOT_MEMBER} AND n.kind != 'module'`;

/** SQL: node `n` is a C or C++ function's prototype (`int f(int);`; see `prototypeSql`). */
const PROTOTYPE = prototypeSql("n");

/**
 * A definition seen by name from other files (`q` is its path): not a C or
 * C++ `static` function of a source file, whose linkage is its file's own
 * (a call of its name elsewhere means another function, or one not in the
 * repository). One in a header is seen by every file that includes it.
 */
const NOT_FILE_LOCAL = `NOT (n.kind = 'function' AND q.language IN ('c', 'cpp')
  AND (n.signature LIKE 'static %' OR n.signature LIKE 'inline static %')
  AND (q.rel LIKE '%.c' OR q.rel LIKE '%.cc' OR q.rel LIKE '%.cpp' OR q.rel LIKE '%.cxx'))`;

/** The kinds a PHP class name may name (`Foo::make()`, `new Foo`). */
const PHP_CLASS_KINDS: ReadonlySet<string> = new Set(["class", "interface", "trait", "enum"]);

/** What resolution needs of a node to see where it sits: its kind, qualname and parent. */
interface NodeFacts {
  kind: string;
  qualname: string;
  parent_id: string | null;
}

/** A definition a bare call may land on, as {@link Resolver} caches it per file. */
interface LocalFunction {
  id: string;
  parent: string | null;
  top: number;
  start: number;
  end: number;
  signature: string | null;
}

/** True when definitions (last by line first) follow one another: overloads of one function. */
function adjacent(defs: readonly LocalFunction[]): boolean {
  for (let i = 1; i < defs.length; i++) {
    if (defs[i - 1]!.start - defs[i]!.end > 2) return false;
  }
  return true;
}

interface ClassNode {
  id: string;
  qualname: string;
  path_id: number;
}

/** An import found by its specifier's tail, with its file's language and path. */
interface TailImport {
  owner_id: number;
  module: string | null;
  target: string;
  language: string | null;
  rel: string;
}

/** One import binding of a file: the module it names and the name it imports. */
interface ImportBinding {
  module: string | null;
  target: string;
  /** The node the import is written in (a Rust inline module changes what `super` names). */
  src: string;
  module_tail: string | null;
  /** What an alias binds (`a` of `from m import a as b`), else null. */
  imported: string | null;
}

/**
 * Cross-file resolution, run inside the writer's transaction right after a
 * path's rows changed. Honest: an import-backed target first, then a
 * definition in the same file, then a name unique in the repository;
 * anything else stays a pending edge with its name — never a guess.
 *
 * A call on a receiver (`x.m()`) lands only where the receiver is evident:
 * `self`/`this`/`cls` (the enclosing class, then its bases through resolved
 * inherits edges), `super` (the bases), a type (`Foo.m()`, or a receiver
 * constructed or annotated as `Foo`: the extractor writes it `Foo.m`) found
 * by import, in the file or unique in the repository, or a module this file
 * imports. A bare call lands on a function, never on a method by name
 * (except a method of its own class where the language reads it so), and a
 * builtin's name is never answered by a namesake elsewhere (see
 * ./call_rules.ts).
 */
export class Resolver {
  readonly #aliases = new Map<number, Map<string, string>>();
  /** Module specifier (per importing file) → files; see {@link #forget} for when it is dropped. */
  readonly #files = new Map<string, number[]>();
  /**
   * Each list of files {@link #files} holds, once: the importers of one
   * package each look it up under their own key, and the look-ups cached by
   * list (`#definedIn`, `#reexportIn`, `#classesNamedIn`) then answer them
   * all from the first one's (by the ids, in order).
   */
  readonly #fileLists = new Map<string, number[]>();
  /** What each cached module look-up consulted: `p:<path>` or `d:<root>:<folder suffix>`. */
  readonly #fileDeps = new Map<string, Set<string>>();
  /** The importing file of each cached module look-up. */
  readonly #fileKeyOwner = new Map<string, number>();
  readonly #bindingCache = new Map<
    number,
    Map<string, ImportBinding>
  >();
  readonly #owners = new Map<number, Owner | undefined>();
  readonly #rootPaths = new Map<number, string>();
  readonly #pathIds = new Map<string, number | null>();
  readonly #localDefs = new Map<number, Map<string, (Enclosed & { id: string })[]>>();
  /** Per file: definitions a bare name may land on (no class members), by name. */
  readonly #localFunctions = new Map<
    number,
    Map<string, LocalFunction[]>
  >();
  /** Per file: its nodes' nesting, by id (where a reference's source sits). */
  readonly #localNodes = new Map<number, Map<string, NodeFacts>>();
  /** Per file: the Rust modules it declares at its top with no body (`mod name;`). */
  readonly #localModules = new Map<number, Map<string, true>>();
  /** The bases of a class (and whether mixins count), as resolved inherits edges say. */
  readonly #bases = new Map<string, ClassNode[]>();
  /** Per file: class-like definitions by name (the first by line). */
  readonly #localClasses = new Map<number, Map<string, ClassNode>>();
  #folders = new FolderIndex();
  readonly #uniqueDefs = new Map<string, Candidate[]>();
  /** Go: per file, its package clause (`package store`), "" when it has none. */
  readonly #goPackages = new Map<number, string>();
  /**
   * Class-like definitions by root, language family and name, with the
   * folder each lies in (see `#uniqueClass`, which keeps those of a package).
   */
  readonly #uniqueClasses = new Map<string, (ClassNode & Enclosed & { rel: string })[]>();
  /** C#: class-like definitions by root and short name (see `#csharpClass`). */
  readonly #csharpNamed = new Map<string, ClassNode[]>();
  /**
   * C and C++: whether a name is one namespace's and nothing else's, by root
   * and language family (see `#namespaceFunction`).
   */
  readonly #namespaces = new Map<string, boolean>();
  /** Per file: its definitions by qualified name (see `#definitionsNamed`). */
  readonly #members = new Map<number, Map<string, Member[]>>();
  /** Each file's own node, by path id (null: none; see `#fileNode`). */
  readonly #fileNodes = new Map<number, { id: string } | null>();
  /** C#: the files of a class's parts, by its id (see `#partsOf`). */
  readonly #parts = new Map<string, number[]>();
  /** Class-like definitions by list of files (`#filesFor`'s) and name (see `#classesNamedIn`). */
  #classesByName = new WeakMap<number[], Map<string, (ClassNode & { kind: string })[]>>();
  /** Definitions an import lands on, by list of files (`#filesFor`'s) and name (see `#definedIn`). */
  #definedInFiles = new WeakMap<number[], Map<string, { id: string } | null>>();
  /**
   * Re-exports by name, then list of files (see `#reexportIn`): read only
   * while resolving in bulk, where edges are only added; a name's answers
   * are dropped whenever an import of that name is added or upgraded, in
   * bulk or not, and all of them with the other look-ups.
   */
  readonly #reexports = new Map<string, WeakMap<number[], { dst: string } | null>>();
  /** Classes by qualified name, as out-of-line C++ methods name theirs (see `#classNamed`). */
  readonly #classesNamed = new Map<string, ClassNode | null>();
  /** C#: per file, the modules it imports whole (see `#usingModules`). */
  readonly #usingImports = new Map<number, string[]>();
  /** C#: class-like definitions by root and full name (see `#csharpClasses`). */
  readonly #csharpTypes = new Map<string, ClassNode[]>();
  /** PHP: per file, its namespaces (see `#phpNamespaceAt`). */
  readonly #phpNamespaces = new Map<
    number,
    { name: string; start: number; end: number; braced: number }[]
  >();
  /** PHP: definitions by root, name and call, with their namespaces (see `#phpDefinitions`). */
  readonly #phpDefs = new Map<
    string,
    (ClassNode & { kind: string; namespace: string })[]
  >();
  /** Files whose inherits edges resolved in this change: their calls on `self` may land now. */
  readonly #basesFound = new Set<number>();
  /** True while resolveSteps runs: calls come after every inherits edge there anyway. */
  #bulk = false;
  /**
   * True during a whole root's first pass over its imports: an import that
   * would land on a Rust impl block lands on its module instead, to be
   * looked at again once every re-export is in (which one names the type
   * may come later in that pass).
   */
  #implDeferred = false;
  /**
   * The files that files pass on whole (`export *`, `#include`), level by
   * level, keyed by the starting files: the same for every name looked up
   * through them. Dropped whenever an imports edge may have changed.
   */
  readonly #starLevels = new Map<string, number[][]>();
  /** Per afterChange: the imports by root and specifier tail (see {@link #importsEndingIn}). */
  readonly #tailImports = new Map<string, TailImport[]>();
  /** Per afterChange: what a specifier may name (see {@link #specTargets}). */
  readonly #specCache = new Map<string, { files: string[]; dirs: string[] }>();

  /** One pass's cached module look-ups of each importing file (a `onePass` resolver only). */
  readonly #passKeys = new Map<number, string[]>();

  /**
   * A resolver reading `journal`. A `onePass` one answers
   * {@link resolvedReferences} only, over a journal whose imports and bases
   * no longer change (a resolving Worker's): it keeps no record of what each
   * cached module look-up consulted, since no change will ask, and drops a
   * file's own look-ups and import bindings once its references are
   * answered. On a 20,000-file index that kept a resolver's caches at a
   * third of what they grew to (33 instead of 117 MiB), in the same time.
   */
  constructor(
    readonly journal: Journal,
    readonly tsconfigAliases: (rootId: number) => Map<string, string>,
    readonly options: { onePass?: boolean } = {},
  ) {}

  /**
   * After path `pathId` was replaced or retracted: turn other paths' edges
   * into its vanished nodes back into pending edges, resolve its own pending
   * edges, and, for the names in `reshaped` (those whose definitions in the
   * path this change added, altered or removed), reopen other paths' edges
   * resolved as unique by that name (a new namesake makes them ambiguous) and
   * retry other paths' pending edges that name it (a namesake gone may make a
   * name unique again). `sameSurface` says the change kept everything other
   * paths resolve through (its definitions, their order, its imports): then
   * only its own references are resolved again, since no other path can find
   * anything new in it (an edit inside a body of a header that 1,400 files
   * include retried them all). A definition the change left as it was counted when
   * those edges were last resolved: an edit of a 3,000-symbol file that keeps
   * its definitions reopens and retries nothing for them. A generator
   * of steps: what runs up to its first step must commit with the path's
   * rows (no edge may point at a vanished node); after that every step is a
   * consistent point where the caller may commit (`Journal.txChunked`), so a
   * large file's edit never holds the write lock for its whole resolution.
   * What a crash between two steps leaves unresolved is the caller's to
   * recover: the reconciler flags the root `reresolve` until the last step,
   * and resolves it again whole at its next audit ({@link unresolveSteps}).
   */
  *afterChange(
    change: { path: string; pathId: number; rootId: number; rel: string },
    oldIds: ReadonlySet<string>,
    reshaped: ReadonlySet<string>,
    sameSurface = false,
  ): Generator<string> {
    const j = this.journal;
    const pathId = change.pathId;
    this.#forgetLookups();
    this.#basesFound.clear();
    const facts = j.get<{ language: string | null; state: string }>(
      "SELECT language, state FROM paths WHERE id = ?",
      change.pathId,
    );
    const was = this.#folders.update(change, facts);
    const languages = new Set([was, facts?.language].filter((l) => typeof l === "string"));
    const affected = this.#forget(change, languages);
    // What others can find here is what it was: they found it already.
    if (sameSurface) affected.clear();
    else {
      for (const d of this.#importersOf(change.rootId, change.rel, facts?.language)) {
        affected.add(d);
      }
    }
    const names = new Set(sameSurface ? [] : [...reshaped, ...this.#alsoNamedBy(pathId)]);
    const newIds = new Set(
      j.all<{ id: string }>("SELECT id FROM nodes WHERE path_id = ?", pathId).map((r) => r.id),
    );
    const vanished = [...oldIds].filter((id) => !newIds.has(id));
    const reopen: RefRow[] = [];
    // Other files' imports of this one as they were before any is reopened
    // here: one still unresolved after its retry lost what it passed on.
    const ownTails = tailsOf(change.rel, this.#rootCrate(change.rootId));
    const inOwnTails = `(${ownTails.map(() => "?").join(",")})`;
    const importsBefore = new Map<number, string>();
    for (const id of vanished) {
      const into = j.all<RefRow>(
        `SELECT rowid, ${REF_COLUMNS} FROM edges
         WHERE dst = ? AND owner_id != ? AND target IS NOT NULL`,
        id,
        pathId,
      );
      for (const r of into) {
        if (r.kind !== "imports" || importsBefore.has(r.owner_id)) continue;
        importsBefore.set(r.owner_id, this.#importsThrough(r.owner_id, inOwnTails, ownTails));
      }
      reopen.push(...into);
      j.run("DELETE FROM edges WHERE dst = ? AND owner_id != ? AND target IS NOT NULL", id, pathId);
    }
    // A JS/TS module's default export may be another definition now
    // (`export default` moved to another class): what files that import its
    // default resolved into it is found again.
    if (!sameSurface && languageFamily(facts?.language ?? null) === "js") {
      const moved = j.all<RefRow>(
        `SELECT e.rowid, e.owner_id, e.src, e.kind, e.target, e.name, e.module, e.module_tail,
           e.line, e.args, e.imported FROM edges e JOIN nodes d ON d.id = e.dst
         WHERE d.path_id = ?1 AND e.owner_id != ?1 AND e.how = 'import'
           AND e.owner_id IN (SELECT b.owner_id FROM edges b JOIN nodes bd ON bd.id = b.dst
             WHERE b.kind = 'imports' AND b.imported = 'default' AND bd.path_id = ?1)`,
        pathId,
      );
      for (const r of moved) j.run("DELETE FROM edges WHERE rowid = ?", r.rowid);
      reopen.push(...moved);
    }
    // A new namesake makes a "unique in the repository" resolution ambiguous:
    // edges resolved by uniqueness to a name this file now defines (here
    // too: a second definition in this file is a namesake of the first), and
    // `Type.m()` calls that found their member in the one class named
    // `Type`, when this file now defines a `Type` too.
    // A method defined out of its class (C++) finds that class by name, so
    // its calls on `this` hang on that name being unique too. A call that
    // landed on its own file's C prototype (`int f(int);`) moves to the
    // definition a file now gives (or gives up).
    const ambiguous: (RefRow & { how: string; dst: string })[] = reshaped.size === 0 ? [] : j.all<
      RefRow & { how: string; dst: string; language: string | null }
    >(
      `SELECT e.rowid, e.owner_id, e.src, e.kind, e.target, e.name, e.module, e.module_tail, e.line,
         e.args, e.imported, e.how, e.dst, p.language FROM edges e JOIN paths p ON p.id = e.owner_id
       WHERE (e.how IN ('unique', 'member') OR (e.how = 'same-file'
           AND p.language IN ('c', 'cpp') AND EXISTS (SELECT 1 FROM nodes n WHERE n.id = e.dst
             AND ${PROTOTYPE})))
         AND e.owner_id != ?1 AND e.name IN (SELECT value FROM json_each(?2))`,
      pathId,
      JSON.stringify([...reshaped]),
    ).filter((e) => e.how !== "member" || hangsOnClassName(e, reshaped));
    // A PHP name a `use` binds (`use A\\Bucket;`, `use A\\Bucket as Pail`)
    // found a definition here by the namespace it declares (see
    // #resolvePhpUse): the namespace may be another now.
    if (reshaped.size > 0 && languages.has("php")) {
      const seen = new Set(ambiguous.map((e) => e.rowid));
      for (
        const e of j.all<RefRow & { how: string; dst: string; language: string | null }>(
          `SELECT e.rowid, e.owner_id, e.src, e.kind, e.target, e.name, e.module, e.module_tail,
             e.line, e.args, e.imported, e.how, e.dst, p.language
           FROM nodes n JOIN edges e ON e.dst = n.id JOIN paths p ON p.id = e.owner_id
           WHERE n.path_id = ?1 AND e.owner_id != ?1 AND p.language = 'php'
             AND e.how = 'import' AND e.target IS NOT NULL`,
          pathId,
        )
      ) {
        const bound = e.kind === "imports"
          ? e
          : this.#bindings(e.owner_id).get(e.module ?? e.target.split(".")[0]!);
        const named = bound?.module ? bound.imported ?? bound.target : undefined;
        if (named === undefined || !reshaped.has(named) || seen.has(e.rowid)) continue;
        seen.add(e.rowid);
        ambiguous.push(e);
      }
    }
    // A base gone ambiguous: calls that found a member through it (or
    // through its own bases) may land elsewhere, or nowhere, now.
    const bases = ambiguous.filter((e) => e.kind === "inherits" || e.kind === "implements");
    if (bases.length > 0) {
      const seen = new Set(ambiguous.map((e) => e.rowid));
      for (const e of this.#memberEdgesOf(bases.map((b) => b.dst), pathId)) {
        if (!seen.has(e.rowid)) ambiguous.push(e);
        seen.add(e.rowid);
      }
    }
    // A member whose definitions here changed (added, removed, given other
    // parameters) may take calls that landed on another overload here or on
    // a base's namesake, or give them up.
    if (reshaped.size > 0) {
      const seen = new Set(ambiguous.map((e) => e.rowid));
      for (const e of this.#movableMemberCalls(pathId, reshaped)) {
        if (!seen.has(e.rowid)) ambiguous.push(e);
        seen.add(e.rowid);
      }
    }
    for (const ref of ambiguous) j.run("DELETE FROM edges WHERE rowid = ?", ref.rowid);
    reopen.push(...ambiguous);
    // A Python `__all__` come, gone or changed passes on other names: the
    // bare calls of the files that import this one whole are found again.
    if (reshaped.has("__all__") && languages.has("python")) {
      const globbed = j.all<RefRow>(
        `SELECT e.rowid, e.owner_id, e.src, e.kind, e.target, e.name, e.module, e.module_tail,
           e.line, e.args, e.imported FROM edges e
         WHERE e.kind = 'calls' AND e.how IN ('import', 'unique') AND e.module IS NULL
           AND e.target = e.name AND e.owner_id != ?1 AND e.owner_id IN (
             SELECT s.owner_id FROM edges s WHERE s.kind = 'imports' AND +s.name = '*'
               AND s.dst = ?2)`,
        pathId,
        fileNodeId(change.path),
      );
      for (const ref of globbed) j.run("DELETE FROM edges WHERE rowid = ?", ref.rowid);
      reopen.push(...globbed);
    }
    if (reopen.length > 0) {
      this.#starLevels.clear();
      this.#bases.clear();
    }
    for (const ref of reopen) {
      affected.add(ref.owner_id);
      insertPending(j, ref);
    }
    yield `the edges into the vanished nodes of path ${pathId} are pending again`;
    // Bases first: a call on `self` may land on a method of one.
    const own = j.all<RefRow>(
      `SELECT rowid, * FROM pending_edges WHERE owner_id = ?
       ORDER BY kind IN ('inherits', 'implements') DESC, rowid`,
      pathId,
    );
    for (const [i, ref] of own.entries()) {
      this.#tryResolve(ref);
      if (i % REFS_A_STEP === REFS_A_STEP - 1) yield `resolving the references of path ${pathId}`;
    }
    // The files whose imports looked at this one (or lost a target): their
    // import-bound references may resolve now. A file whose own imports
    // changed because of it (a re-export) passes that on to its importers.
    let level = new Map<number, readonly string[]>(
      [...affected].map((owner) => [owner, ownTails] as const),
    );
    // A crate root come or gone: imports by the crate's name find another
    // folder, or none, whichever of its files they land in; so do paths
    // written out in full (`rustc_span::with_session_globals(…)`).
    const rootCrate = this.#rootCrate(change.rootId);
    const crate = oldIds.size === 0 || facts?.state !== "indexed"
      ? crateOfRoot(change.rel, rootCrate)
      : undefined;
    if (crate !== undefined) {
      for (const [owner, tails] of this.#crateImporters(change.rootId, crate)) {
        level.set(owner, [...new Set([...(level.get(owner) ?? ownTails), ...tails])]);
      }
    }
    for (let depth = 0; depth < 3 && level.size > 0; depth++) {
      const next = new Map<number, string[]>();
      for (const [owner, tails] of level) {
        yield `retrying the imported names of path ${owner}`;
        if (owner === pathId) continue;
        const before = depth === 0 ? importsBefore.get(owner) : undefined;
        const whole = depth === 0 ? undefined : this.#passesOnWhole(owner, tails);
        if (!(whole ?? this.#retryBound(owner, tails, before))) continue;
        const o = this.#owner(owner);
        if (o === undefined) continue;
        for (const d of this.#importersOf(o.root_id, o.rel, o.language)) {
          next.set(d, tailsOf(o.rel, this.#rootCrate(o.root_id)));
        }
      }
      level = next;
    }
    // Bare names resolve by name only where they are unique in their
    // repository; a name defined in many files (setUp, run, get) never does,
    // so its many references are not retried on every commit.
    const retry: RefRow[] = [];
    for (const name of names) {
      for (const where of this.#rootsWhereUnique(name)) {
        retry.push(...j.all<RefRow>(
          `SELECT pe.rowid, pe.* FROM pending_edges pe JOIN paths p ON p.id = pe.owner_id
           WHERE pe.name = ? AND pe.owner_id != ? AND pe.kind != 'imports' AND pe.module IS NULL
             AND (pe.target IN (pe.name, pe.name || '!') OR pe.kind IN ('inherits', 'implements'))
             AND p.root_id = ? AND ${languageFamilySql("p.language")} = ?`,
          name,
          pathId,
          where.root_id,
          where.family,
        ));
      }
    }
    // A qualified base (`ActiveModel::Type::Date`) finds the class its path
    // names whether or not that name is unique in the root.
    if (names.size > 0) {
      const seen = new Set(retry.map((r) => r.rowid));
      retry.push(
        ...j.all<RefRow>(
          `SELECT pe.rowid, pe.* FROM pending_edges pe JOIN paths p ON p.id = pe.owner_id
           WHERE pe.name IN (SELECT value FROM json_each(?1)) AND pe.owner_id != ?2
             AND pe.kind IN ('inherits', 'implements') AND pe.target != pe.name
             AND p.root_id = ?3`,
          JSON.stringify([...names]),
          pathId,
          change.rootId,
        ).filter((r) => !seen.has(r.rowid)),
      );
    }
    // PHP reads a name in its namespace: one defined in several namespaces
    // is no less found in the caller's, so its pending names are retried
    // whether or not the name is unique in the root.
    if (languages.has("php") && names.size > 0) {
      const seen = new Set(retry.map((r) => r.rowid));
      retry.push(
        ...j.all<RefRow>(
          `SELECT pe.rowid, pe.* FROM pending_edges pe JOIN paths p ON p.id = pe.owner_id
           WHERE pe.name IN (SELECT value FROM json_each(?1)) AND pe.owner_id != ?2
             AND pe.kind != 'imports' AND pe.module IS NULL AND instr(pe.target, '.') = 0
             AND p.root_id = ?3 AND p.language = 'php'`,
          JSON.stringify([...names]),
          pathId,
          change.rootId,
        ).filter((r) => !seen.has(r.rowid)),
      );
      // A `use` of one of those names from a namespace this file declares
      // (files not laid out by namespace find it by that, see
      // #resolvePhpUse): the import, and what is named through one.
      const spaces = j.all<{ name: string }>(
        "SELECT DISTINCT name FROM nodes WHERE path_id = ? AND kind = 'module'",
        pathId,
      ).map((r) => r.name);
      if (spaces.length > 0) {
        for (const r of retry) seen.add(r.rowid);
        retry.push(
          ...j.all<RefRow>(
            `SELECT pe.rowid, pe.* FROM (
               SELECT rowid AS at, owner_id, target, imported FROM pending_edges
               WHERE module_tail IN (SELECT value FROM json_each(?4)) AND kind = 'imports'
               UNION ALL SELECT NULL, owner_id, target, imported FROM edges
               WHERE module_tail IN (SELECT value FROM json_each(?4)) AND kind = 'imports'
             ) i JOIN paths p ON p.id = i.owner_id JOIN pending_edges pe ON pe.owner_id = i.owner_id
             WHERE i.owner_id != ?2 AND p.root_id = ?3 AND p.language = 'php'
               AND ((pe.rowid = i.at
                   AND coalesce(i.imported, i.target) IN (SELECT value FROM json_each(?1)))
                 OR (pe.kind != 'imports'
                   AND i.target = coalesce(pe.module, substr(pe.target, 1, instr(pe.target, '.') - 1))
                   AND (coalesce(i.imported, i.target) IN (SELECT value FROM json_each(?1))
                     OR pe.name IN (SELECT value FROM json_each(?1)))))`,
            JSON.stringify([...names]),
            pathId,
            change.rootId,
            JSON.stringify(spaces),
          ).filter((r) => !seen.has(r.rowid) && (seen.add(r.rowid), true)),
        );
      }
    }
    // `Type.m()` calls left pending while `Type` named several classes: one
    // of them may have gone with this change.
    // (A method defined out of its class finds it by name: its calls on
    // `this` too.)
    if (reshaped.size > 0) {
      retry.push(
        ...j.all<RefRow & { language: string | null }>(
          `SELECT pe.rowid, pe.*, p.language FROM pending_edges pe JOIN paths p ON p.id = pe.owner_id
           WHERE pe.name IN (SELECT value FROM json_each(?1)) AND pe.owner_id != ?2
             AND pe.kind = 'calls' AND pe.module IS NULL`,
          JSON.stringify([...reshaped]),
          pathId,
        ).filter((ref) => hangsOnClassName(ref, reshaped)),
      );
      // `Type::m()` keeps `Type` in its module: found by the names of the
      // methods of the classes so named now.
      for (
        const m of j.all<{ name: string }>(
          `SELECT DISTINCT m.name FROM nodes c JOIN nodes m ON m.path_id = c.path_id AND m.parent_id = c.id
           WHERE c.name IN (SELECT value FROM json_each(?)) AND c.kind IN ${CLASS_KINDS}`,
          JSON.stringify([...reshaped]),
        )
      ) {
        retry.push(...this.#qualifiedCalls(m.name, pathId, reshaped));
      }
    }
    if (crate !== undefined) retry.push(...this.#reopenCratePaths(change.rootId, crate));
    if (reshaped.size > 0 && languages.has("rust")) {
      // A path into this file's crate written out (`text_util::shout::loud()`,
      // or `crate::loud()` within it): the definition it names may be here.
      const member = crateOfFile(change.rel, rootCrate);
      const seen = new Set(retry.map((r) => r.rowid));
      retry.push(
        ...j.all<RefRow & { module: string; rel: string }>(
          `SELECT pe.rowid, pe.*, p.rel FROM pending_edges pe JOIN paths p ON p.id = pe.owner_id
           WHERE pe.name IN (SELECT value FROM json_each(?1)) AND pe.owner_id != ?2
             AND pe.kind != 'imports' AND pe.module IS NOT NULL
             AND p.root_id = ?3 AND p.language = 'rust'`,
          JSON.stringify([...reshaped]),
          pathId,
          change.rootId,
        ).filter((r) => {
          const head = r.module.split("::")[0];
          return !seen.has(r.rowid) &&
            ((member !== undefined && head === member) ||
              (head === "crate" && crateOfFile(r.rel, rootCrate) === member));
        }),
      );
    }
    for (const [i, ref] of retry.entries()) {
      this.#tryResolve(ref);
      if (i % REFS_A_STEP === REFS_A_STEP - 1) yield `retrying names path ${pathId} defines`;
    }
    // A reopened edge whose name is still unique where it looks (a Go
    // package, say, when the namesake is in another one) lands again.
    for (const ref of ambiguous) {
      for (
        const p of j.all<RefRow>(
          `SELECT rowid, * FROM pending_edges
           WHERE owner_id = ? AND name = ? AND target = ? AND src = ? AND line IS ?`,
          ref.owner_id,
          ref.name,
          ref.target,
          ref.src,
          ref.line,
        )
      ) this.#tryResolve(p);
    }
    if (!sameSurface) yield* this.#retryMembers(change, pathId, reshaped);
  }

  /**
   * Other paths' calls named in `reshaped` that a change of `pathId`'s
   * members may move: those counted to an overload here (by their
   * arguments), and member calls that may land on a class here that now
   * defines, or redefines, the name instead of on a base's namesake: calls
   * on that class by name (`Box.draw` of `b.draw()` after `Box b`), and the
   * member calls of files with a subclass of it.
   */
  #movableMemberCalls(
    pathId: number,
    reshaped: ReadonlySet<string>,
  ): (RefRow & { how: string; dst: string })[] {
    const names = JSON.stringify([...reshaped]);
    return this.journal.all<RefRow & { how: string; dst: string }>(
      `WITH cls AS (
         SELECT DISTINCT c.id, c.name FROM nodes n JOIN nodes c ON c.id = n.parent_id
         WHERE n.path_id = ?1 AND c.kind IN ${CLASS_KINDS}
           AND n.name IN (SELECT value FROM json_each(?2))),
       subclassed AS (
         SELECT DISTINCT b.owner_id FROM edges b JOIN cls ON b.dst = cls.id
         WHERE b.kind IN ('inherits', 'implements'))
       SELECT e.rowid, e.owner_id, e.src, e.kind, e.target, e.name, e.module, e.module_tail,
         e.line, e.args, e.imported, e.how, e.dst FROM nodes d JOIN edges e ON e.dst = d.id
       WHERE d.path_id = ?1 AND d.name IN (SELECT value FROM json_each(?2))
         AND e.owner_id != ?1 AND e.kind = 'calls' AND e.args IS NOT NULL
       UNION
       SELECT e.rowid, e.owner_id, e.src, e.kind, e.target, e.name, e.module, e.module_tail,
         e.line, e.args, e.imported, e.how, e.dst FROM edges e
       WHERE e.name IN (SELECT value FROM json_each(?2)) AND e.kind = 'calls'
         AND e.how = 'member' AND e.owner_id != ?1
         AND (EXISTS (SELECT 1 FROM cls WHERE e.target = cls.name || '.' || e.name)
           OR e.owner_id IN (SELECT owner_id FROM subclassed))`,
      pathId,
      names,
    );
  }

  /**
   * The member edges (`self.m()`, `Type.m()`) of other paths than `pathId`
   * that land in the classes `classes` or in their bases, however deep.
   */
  #memberEdgesOf(
    classes: readonly string[],
    pathId: number,
  ): (RefRow & { how: string; dst: string })[] {
    const j = this.journal;
    const out: (RefRow & { how: string; dst: string })[] = [];
    const seen = new Set<string>();
    let level = [...classes];
    for (let depth = 0; depth < 12 && level.length > 0; depth++) {
      const next: string[] = [];
      for (const cls of level) {
        if (seen.has(cls)) continue;
        seen.add(cls);
        out.push(...j.all<RefRow & { how: string; dst: string }>(
          `SELECT e.rowid, e.owner_id, e.src, e.kind, e.target, e.name, e.module, e.module_tail,
             e.line, e.args, e.imported, e.how, e.dst FROM nodes m JOIN edges e ON e.dst = m.id
           WHERE m.path_id = (SELECT path_id FROM nodes WHERE id = ?1) AND m.parent_id = ?1
             AND e.how = 'member' AND e.owner_id != ?2`,
          cls,
          pathId,
        ));
        next.push(
          ...j.all<{ dst: string }>(
            "SELECT dst FROM edges WHERE src = ? AND kind IN ('inherits', 'implements')",
            cls,
          ).map((r) => r.dst),
        );
      }
      level = next;
    }
    return out;
  }

  /**
   * Calls that may land on a member of this file now: `C.m` for each method
   * `m` of a class `C` here, calls on `self` in subclasses (elsewhere) of its
   * classes, and every call of files whose bases were found in this change;
   * a Go file's package neighbours' bare calls of what it defines.
   */
  *#retryMembers(
    change: { rel: string; rootId: number },
    pathId: number,
    reshaped: ReadonlySet<string>,
  ): Generator<string> {
    const j = this.journal;
    const owners = new Set(this.#basesFound);
    const retry: RefRow[] = [];
    for (
      const [k, m] of j.all<{ name: string; qualname: string; cls: string; clsName: string }>(
        `SELECT n.name, n.qualname, p.id AS cls, p.name AS clsName
         FROM nodes n JOIN nodes p ON p.id = n.parent_id
         WHERE n.path_id = ? AND p.kind IN ${CLASS_KINDS} AND n.kind NOT IN ('file', 'heading')`,
        pathId,
      ).entries()
    ) {
      if (k % REFS_A_STEP === REFS_A_STEP - 1) {
        yield `finding calls on the members of path ${pathId}`;
      }
      retry.push(...j.all<RefRow>(
        `SELECT rowid, * FROM pending_edges
         WHERE name = ? AND target = ? AND owner_id != ? AND kind = 'calls' AND module IS NULL`,
        m.name,
        m.qualname,
        pathId,
      ));
      // `Type::m()` (C++, PHP, Rust): the class is the call's static qualifier.
      retry.push(...this.#qualifiedCalls(m.name, pathId, new Set([m.clsName])));
      for (
        const sub of j.all<{ owner_id: number }>(
          `SELECT DISTINCT owner_id FROM edges WHERE dst = ? AND kind IN ('inherits', 'implements')
             AND owner_id != ?`,
          m.cls,
          pathId,
        )
      ) owners.add(sub.owner_id);
    }
    const owner = this.#owner(pathId);
    if (owner && definesOutOfLine(owner.language)) {
      retry.push(...this.#outOfLineCalls(pathId, reshaped));
    }
    // A deleted file has no row left to say its language: its name does.
    const language = owner?.language ?? detectLanguage(change.rel);
    // A C# partial class's other parts: their calls may land on this part's members.
    if (language === "csharp") {
      for (
        const o of j.all<{ path_id: number }>(
          `SELECT DISTINCT o.path_id FROM nodes c JOIN nodes o ON o.qualname = c.qualname
           JOIN paths p ON p.id = o.path_id JOIN paths q ON q.id = c.path_id
           WHERE c.path_id = ? AND o.path_id != c.path_id AND p.root_id = q.root_id
             AND p.language = 'csharp' AND c.kind IN ${CLASS_KINDS} AND o.kind IN ${CLASS_KINDS}
             AND c.signature LIKE '%partial%' AND o.signature LIKE '%partial%'`,
          pathId,
        )
      ) owners.add(o.path_id);
      // Calls elsewhere on a class of this file by its short name (`new
      // Store()`, `Store.Open()`, `s.Get()` of a `Store s`), which a
      // namesake in another namespace left pending (see #csharpClass).
      retry.push(...j.all<RefRow>(
        `SELECT pe.rowid, pe.* FROM nodes c JOIN pending_edges pe ON pe.name = c.name
           AND pe.target = c.name
         WHERE c.path_id = ?1 AND c.kind IN ${CLASS_KINDS} AND c.kind != 'module'
           AND pe.owner_id != ?1 AND pe.kind = 'calls'
         UNION SELECT pe.rowid, pe.* FROM nodes c JOIN nodes m ON m.path_id = ?1 AND m.parent_id = c.id
           JOIN pending_edges pe ON pe.name = m.name AND pe.target = c.name || '.' || m.name
         WHERE c.path_id = ?1 AND c.kind IN ${CLASS_KINDS} AND c.kind != 'module'
           AND pe.owner_id != ?1 AND pe.kind = 'calls'`,
        pathId,
      ));
      // Files that import one of its types with `using static` (their bare
      // calls may be its static methods, see #usingStaticMember) or name it
      // by an alias, `using P = Acme.Util.Paths;` (`P.Join()`).
      for (
        const o of j.all<{ owner_id: number; name: string }>(
          `SELECT i.owner_id, i.name FROM nodes c JOIN pending_edges i ON i.module_tail = c.name
             AND i.module = c.qualname
           WHERE c.path_id = ?1 AND c.kind IN ${CLASS_KINDS} AND i.kind = 'imports'
           UNION SELECT i.owner_id, i.name FROM nodes c JOIN edges i ON i.module_tail = c.name
             AND i.module = c.qualname
           WHERE c.path_id = ?1 AND c.kind IN ${CLASS_KINDS} AND i.kind = 'imports'`,
          pathId,
        )
      ) {
        if (o.owner_id === pathId) continue;
        if (o.name === "*") owners.add(o.owner_id);
        else {
          retry.push(...j.all<RefRow>(
            "SELECT rowid, * FROM pending_edges WHERE owner_id = ? AND kind = 'calls' AND module = ?",
            o.owner_id,
            o.name,
          ));
        }
      }
    }
    // A Go package's bare calls, a Java package's bases named bare: found in
    // their folder whether or not the name is unique in the root.
    if ((language === "go" && bareScope("go") === "folder") || language === "java") {
      const dir = posix.dirname(change.rel);
      const glob = `${dir === "." ? "" : globEscape(dir) + "/"}*`;
      const kinds = language === "go" ? "('calls')" : "('inherits', 'implements')";
      retry.push(...j.all<RefRow>(
        `SELECT pe.rowid, pe.* FROM pending_edges pe JOIN paths p ON p.id = pe.owner_id
         WHERE p.root_id = ? AND p.rel GLOB ? AND p.rel NOT GLOB ? AND pe.owner_id != ?
           AND pe.kind IN ${kinds} AND pe.module IS NULL AND pe.target = pe.name
           AND (pe.name IN (SELECT name FROM nodes WHERE path_id = ?)
             OR pe.name IN (SELECT value FROM json_each(?)))`,
        change.rootId,
        glob,
        `${glob}/*`,
        pathId,
        pathId,
        JSON.stringify([...reshaped]),
      ));
    }
    owners.delete(pathId);
    for (const o of owners) {
      retry.push(...j.all<RefRow>(
        "SELECT rowid, * FROM pending_edges WHERE owner_id = ? AND kind = 'calls' AND module IS NULL",
        o,
      ));
    }
    const seen = new Set<number>();
    for (const ref of retry) {
      if (seen.has(ref.rowid)) continue;
      seen.add(ref.rowid);
      this.#tryResolve(ref);
      if (seen.size % REFS_A_STEP === 0) yield `retrying calls on the members of path ${pathId}`;
    }
  }

  /**
   * Other paths' pending calls of `name` through a static qualifier
   * (`Type::name()`, kept as module `Type` or `ns::Type`) whose last part
   * is one of `classes`.
   */
  #qualifiedCalls(name: string, pathId: number, classes: ReadonlySet<string>): RefRow[] {
    return this.journal.all<RefRow>(
      `SELECT rowid, * FROM pending_edges
       WHERE name = ?1 AND target = ?1 AND owner_id != ?2 AND kind = 'calls'
         AND module IS NOT NULL`,
      name,
      pathId,
    ).filter((ref) => classes.has(lastSegment(ref.module!)));
  }

  /**
   * The pending calls made inside methods defined out of line elsewhere
   * (`void Widget::open() { close(); }` in a `.cpp` file) of the classes of
   * file `pathId` (its header) that this change may let land. A class named
   * in `reshaped` (it may be the one class of its name now) or with a base
   * may answer a call of any name: all of its methods' pending calls. Any
   * other class answers only the names `reshaped` holds, as its members and
   * bases are what they were: a C++ namespace (`google::protobuf`, a class
   * kind here) holds the methods of thousands of files, whose every pending
   * call was retried on each edit of one file declaring it (1.2 s).
   */
  #outOfLineCalls(pathId: number, reshaped: ReadonlySet<string>): RefRow[] {
    const j = this.journal;
    const out: RefRow[] = [];
    const classes = j.all<{ qualname: string; name: string; based: number }>(
      `SELECT n.qualname, max(n.name) AS name, max(EXISTS (SELECT 1 FROM edges e
           WHERE e.src = n.id AND e.kind IN ('inherits', 'implements'))) AS based
       FROM nodes n WHERE n.path_id = ? AND n.kind IN ${CLASS_KINDS} AND n.partial = 0
       GROUP BY n.qualname`,
      pathId,
    );
    const names = JSON.stringify([...reshaped]);
    for (const cls of classes) {
      // Every qualname under the class's: `ui.Widget.` up to `ui.Widget/`.
      const under = [`${cls.qualname}.`, `${cls.qualname}/`, pathId] as const;
      if (!cls.based && !reshaped.has(cls.name)) {
        if (reshaped.size === 0) continue;
        out.push(...j.all<RefRow>(
          `SELECT pe.rowid, pe.* FROM pending_edges pe JOIN nodes m ON m.id = pe.src
           WHERE pe.name IN (SELECT value FROM json_each(?4)) AND pe.kind = 'calls'
             AND pe.module IS NULL AND pe.owner_id = m.path_id
             AND m.qualname > ?1 AND m.qualname < ?2 AND m.kind = 'method' AND m.path_id != ?3`,
          ...under,
          names,
        ));
        continue;
      }
      const methods = j.all<{ id: string; path_id: number }>(
        `SELECT id, path_id FROM nodes
         WHERE qualname > ? AND qualname < ? AND kind = 'method' AND path_id != ?`,
        ...under,
      );
      for (const m of methods) {
        out.push(...j.all<RefRow>(
          `SELECT rowid, * FROM pending_edges
           WHERE owner_id = ? AND src = ? AND kind = 'calls' AND module IS NULL`,
          m.path_id,
          m.id,
        ));
      }
    }
    return out;
  }

  /**
   * Resolves every pending edge of a root in one pass, after a first index
   * committed its files without resolving: imports first, then imports that
   * found only a module through re-exports (a few rounds), then the bases,
   * then everything else. Each reference is tried once, instead of once per
   * commit that might concern it. Works owner by owner, so memory stays
   * bounded, and yields after each reference, saying what it works on: there
   * the caller may commit and let other writers in (see `Journal.txChunked`).
   * Any committed prefix is a journal that a later run finishes to the same
   * rows: a resolved edge is simply not pending any more, and every phase
   * only ever looks at what is still unresolved.
   */
  *resolveSteps(rootId: number): Generator<string> {
    yield* this.resolveReferenceSteps(yield* this.resolveHeadSteps(rootId));
  }

  /**
   * Every resolved reference of a root back to pending, one file a step, so
   * that {@link resolveSteps} resolves the root as a first index would (after
   * a crash inside an edit's resolution, see {@link afterChange}).
   */
  *unresolveSteps(rootId: number): Generator<string> {
    const j = this.journal;
    for (const { id } of j.all<{ id: number }>("SELECT id FROM paths WHERE root_id = ?", rootId)) {
      j.run(
        `INSERT INTO pending_edges (${REF_COLUMNS}) SELECT ${REF_COLUMNS} FROM edges
         WHERE owner_id = ? AND target IS NOT NULL`,
        id,
      );
      j.run("DELETE FROM edges WHERE owner_id = ? AND target IS NOT NULL", id);
      yield `unresolving the references of path ${id}`;
    }
    this.#resetCaches();
  }

  /** The last phase of {@link resolveSteps} for `owners`, here: a step per reference. */
  *resolveReferenceSteps(owners: readonly number[]): Generator<string> {
    for (const owner of owners) {
      for (const found of this.resolvedReferences([owner])) {
        if (found) this.applyResolved(found);
        yield `resolving the references of path ${owner}`;
      }
    }
  }

  /**
   * The first phases of {@link resolveSteps} (imports, module imports,
   * bases), which later ones read; returns the root's files that still have
   * pending references, for the last phase: {@link resolvedReferences}, which
   * only reads and so may run on several connections at once.
   */
  *resolveHeadSteps(rootId: number): Generator<string, number[]> {
    this.#resetCaches();
    this.#bulk = true;
    try {
      return yield* this.#resolveHeadStepsOf(rootId);
    } finally {
      this.#bulk = false;
    }
  }

  *#resolveHeadStepsOf(rootId: number): Generator<string, number[]> {
    const j = this.journal;
    const owners = this.#pendingOwners(rootId);
    // Each reference is a step of its own: one generated file can hold tens
    // of thousands of them, and a step is what a transaction cannot split.
    // Whole-module imports (`#include`, `export *`) first: they land on a
    // file whatever else is resolved, and a name imported through one of
    // them is then looked up through every module it passes on.
    this.#implDeferred = true;
    try {
      for (const star of [true, false]) {
        for (const owner of owners) {
          for (
            const ref of j.all<RefRow>(
              `SELECT rowid, * FROM pending_edges WHERE owner_id = ? AND kind = 'imports'
                 AND (name = '*') = ?`,
              owner,
              star ? 1 : 0,
            )
          ) {
            this.#tryResolve(ref);
            yield `resolving the imports of path ${owner}`;
          }
        }
      }
    } finally {
      this.#implDeferred = false;
    }
    for (let round = 0; round < 3; round++) {
      let upgraded = false;
      for (const owner of owners) {
        for (
          const ref of j.all<RefRow & { dst: string }>(
            `SELECT rowid, ${REF_COLUMNS}, dst FROM edges
             WHERE owner_id = ? AND kind = 'imports' AND how = 'module' AND name != '*'`,
            owner,
          )
        ) {
          const o = this.#owner(owner);
          const found = o && this.#resolve(o, ref);
          if (found && upgrades(found, ref)) {
            j.run(
              "UPDATE edges SET dst = ?, how = ? WHERE rowid = ?",
              found.dst,
              found.how,
              ref.rowid,
            );
            if (ref.name !== null) this.#reexports.delete(ref.name);
            this.#starLevels.clear();
            upgraded = true;
          }
          yield `upgrading the module imports of path ${owner}`;
        }
      }
      if (!upgraded) break;
    }
    this.#bindingCache.clear();
    // Bases before calls: a call on `self` may land on a method of a base
    // in a file that comes later in this order.
    for (const owner of owners) {
      for (
        const ref of j.all<RefRow>(
          `SELECT rowid, * FROM pending_edges WHERE owner_id = ?
             AND kind IN ('inherits', 'implements')`,
          owner,
        )
      ) {
        this.#tryResolve(ref);
        yield `resolving the bases of path ${owner}`;
      }
    }
    return this.#pendingOwners(rootId);
  }

  /**
   * The files of a root that have pending references, in id order. Asked
   * path by path (one index probe each), not by reading every pending
   * reference's owner: on a 29,000-file root with 1.6 million of them,
   * 45 ms instead of 150 ms warm and a second cold, inside a transaction.
   */
  #pendingOwners(rootId: number): number[] {
    return this.journal.all<{ id: number }>(
      `SELECT p.id FROM paths p WHERE p.root_id = ?
       AND EXISTS (SELECT 1 FROM pending_edges pe WHERE pe.owner_id = p.id) ORDER BY p.id`,
      rootId,
    ).map((r) => r.id);
  }

  /**
   * The last phase of {@link resolveSteps}, reading only: for each file of
   * `owners`, each pending reference other than imports: where it lands when
   * it resolves (write it with {@link applyResolved}), else null, so that a
   * caller may stop between any two. What one of
   * them lands on depends on imports and bases only, never on another such
   * reference, so files may be split among several resolvers, each on its
   * own connection, while one writer applies what they find.
   */
  *resolvedReferences(owners: readonly number[]): Generator<Resolved | null> {
    const bulk = this.#bulk;
    this.#bulk = true;
    try {
      for (const owner of owners) {
        const o = this.#owner(owner);
        if (o) {
          for (
            const ref of this.journal.all<RefRow>(
              "SELECT rowid, * FROM pending_edges WHERE owner_id = ? AND kind != 'imports'",
              owner,
            )
          ) {
            const found = this.#resolve(o, ref);
            yield found ? { ...ref, dst: found.dst, how: found.how } : null;
          }
        }
        this.#localDefs.delete(owner);
        this.#localFunctions.delete(owner);
        this.#localNodes.delete(owner);
        this.#localModules.delete(owner);
        this.#usingImports.delete(owner);
        this.#phpNamespaces.delete(owner);
        if (this.options.onePass) {
          this.#bindingCache.delete(owner);
          for (const key of this.#passKeys.get(owner) ?? []) this.#files.delete(key);
          this.#passKeys.delete(owner);
        }
      }
    } finally {
      this.#bulk = bulk;
    }
  }

  /**
   * Moves a resolved reference from `pending_edges` to `edges`; nothing when
   * its pending row is gone (another pass got there first).
   */
  applyResolved(r: Resolved): void {
    const j = this.journal;
    if (j.run("DELETE FROM pending_edges WHERE rowid = ?", r.rowid) === 0) return;
    if (r.kind === "imports" && r.name !== null) this.#reexports.delete(r.name);
    j.run(
      `INSERT INTO edges (owner_id, src, dst, kind, line, target, name, module, module_tail, how, args, imported)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      r.owner_id,
      r.src,
      r.dst,
      r.kind,
      r.line,
      r.target,
      r.name,
      r.module,
      r.module_tail,
      r.how,
      r.args,
      r.imported,
    );
  }

  /** {@link resolveSteps} in one go, inside the caller's transaction. */
  resolveAll(rootId: number): void {
    for (const _ of this.resolveSteps(rootId)) { /* no commit points wanted */ }
  }

  /** Forgets every cache (after a root was removed, or files committed unseen). */
  forgetAll(): void {
    this.#resetCaches();
  }

  /**
   * Entries in the module look-up and import binding caches, which grow
   * with the files resolved (what {@link forgetAll} and a `onePass`
   * resolver give back).
   *
   * @internal
   */
  get cachedLookups(): number {
    let n = this.#files.size + this.#fileDeps.size + this.#fileKeyOwner.size;
    for (const bindings of this.#bindingCache.values()) n += bindings.size;
    return n;
  }

  /** Forgets every cache: files were committed without the resolver seeing them. */
  #resetCaches(): void {
    // By root id, which a root added after a removal takes again: a path
    // (or tsconfig aliases) kept for the removed root would place every
    // relative import of the new one in the old folder.
    this.#rootPaths.clear();
    this.#aliases.clear();
    this.#files.clear();
    this.#fileLists.clear();
    this.#fileDeps.clear();
    this.#fileKeyOwner.clear();
    this.#pathIds.clear();
    this.#bindingCache.clear();
    this.#owners.clear();
    this.#forgetLookups();
    this.#folders = new FolderIndex();
  }

  /** Forgets what any change may make stale: per-file lookups, unique names, bases, star closures. */
  #forgetLookups(): void {
    const lookups: Map<unknown, unknown>[] = [
      this.#localDefs,
      this.#localFunctions,
      this.#localNodes,
      this.#localModules,
      this.#usingImports,
      this.#csharpTypes,
      this.#phpNamespaces,
      this.#phpDefs,
      this.#localClasses,
      this.#uniqueDefs,
      this.#goPackages,
      this.#uniqueClasses,
      this.#csharpNamed,
      this.#namespaces,
      this.#members,
      this.#fileNodes,
      this.#parts,
      this.#classesNamed,
      this.#bases,
      this.#starLevels,
      this.#tailImports,
      this.#specCache,
    ];
    for (const cache of lookups) cache.clear();
    this.#definedInFiles = new WeakMap();
    this.#classesByName = new WeakMap();
    this.#reexports.clear();
  }

  /**
   * Retries a file's import-bound references (imports first, then what they
   * bind) and upgrades its imports that had found only a module. Returns true
   * when one of its imports changed, which its own importers then need to see.
   */
  #retryBound(ownerId: number, tails: readonly string[], importsBefore?: string): boolean {
    const j = this.journal;
    const inTails = `(${tails.map(() => "?").join(",")})`;
    // Imports reopened and found again where they were changed nothing for
    // the file's importers: only a difference does (an import of a common
    // stem found again the same way cascaded to thousands of files).
    // `importsBefore`: what they were before the change reopened any.
    const before = importsBefore ?? this.#importsThrough(ownerId, inTails, tails);
    const reopened = this.#reopenThrough(ownerId, inTails, tails);
    for (
      const ref of j.all<RefRow & { dst: string }>(
        `SELECT rowid, ${REF_COLUMNS}, dst FROM edges
         WHERE owner_id = ? AND kind = 'imports' AND how = 'module' AND module_tail IN ${inTails}`,
        ownerId,
        ...tails,
      )
    ) {
      const owner = this.#owner(ownerId);
      const found = owner && this.#resolve(owner, ref);
      if (!found || !upgrades(found, ref)) continue;
      j.run("UPDATE edges SET dst = ?, how = ? WHERE rowid = ?", found.dst, found.how, ref.rowid);
      if (ref.name !== null) this.#reexports.delete(ref.name);
      this.#starLevels.clear();
    }
    let starFound = false;
    for (
      const ref of j.all<RefRow>(
        `SELECT rowid, * FROM pending_edges
         WHERE owner_id = ? AND kind = 'imports' AND module_tail IN ${inTails}`,
        ownerId,
        ...tails,
      )
    ) if (this.#tryResolve(ref) && ref.name === "*") starFound = true;
    // An import resolved, lost (left unresolved: the name it passed on is
    // gone) or moved changes what its importers bind through it.
    let importsChanged = this.#importsThrough(ownerId, inTails, tails) !== before;
    // So may a module it passes on whole. (`+name`: through the owner's
    // index; by edges_name, SQLite read every `*` import there is.)
    const numbered = `(${tails.map((_, i) => `?${i + 2}`).join(",")})`;
    if (
      j.get(
        `SELECT 1 FROM edges WHERE owner_id = ?1 AND kind = 'imports' AND +name = '*'
           AND module_tail IN ${numbered} LIMIT 1`,
        ownerId,
        ...tails,
      )
    ) importsChanged = true;
    if (importsChanged) this.#bindingCache.delete(ownerId);
    if (reopened.size > 0) {
      for (
        const ref of j.all<RefRow>(
          "SELECT rowid, * FROM pending_edges WHERE owner_id = ? AND kind != 'imports'",
          ownerId,
        )
      ) if (reopened.has(ref.module ?? ref.target.split(/\.|::/)[0]!)) this.#tryResolve(ref);
    }
    // What those imports bind: calls and bases named through them.
    const through = new Set<string>();
    // The name an import binds may be the module itself (`use crate::db`,
    // `from pkg import models`: its tail is the parent's).
    for (const [local, imp] of this.#bindings(ownerId)) {
      if (imp.module_tail === null) continue;
      if (
        tails.includes(imp.module_tail) ||
        tails.includes(lastSegment(imp.imported ?? imp.target))
      ) through.add(local);
    }
    if (through.size === 0) return importsChanged;
    // A module imported whole (`*`) passes on bare names (see #resolveName).
    const bare = through.has("*") && bareScope(this.#owner(ownerId)?.language ?? null) === "star";
    // A bare call found by uniqueness while that import was pending: the
    // module now says what the name is, or that it is none it passes on
    // (`from m import *` of an `__all__` that leaves `shared` out).
    if (bare && starFound) {
      const unique = j.all<RefRow>(
        `SELECT rowid, ${REF_COLUMNS} FROM edges WHERE owner_id = ? AND kind = 'calls'
           AND how = 'unique' AND module IS NULL AND target = name`,
        ownerId,
      );
      for (const ref of unique) {
        j.run("DELETE FROM edges WHERE rowid = ?", ref.rowid);
        insertPending(j, ref);
      }
    }
    for (
      const ref of j.all<RefRow>(
        `SELECT rowid, * FROM pending_edges WHERE owner_id = ? AND kind != 'imports'
           AND (module IS NOT NULL OR target != name ${bare ? "OR kind = 'calls'" : ""})`,
        ownerId,
      )
    ) {
      const binding = ref.module ?? ref.target.split(/\.|::/)[0]!;
      if (through.has(binding) || (bare && ref.module === null)) this.#tryResolve(ref);
    }
    return importsChanged;
  }

  /**
   * For a file reached past the changed file's own importers: whether it
   * only passes the previous level's file on, importing it whole (`#include`,
   * `using`, `export *`). Then {@link #retryBound} has nothing to retry and
   * would say true, so its importers look again: a whole import lands on
   * the file whatever the file defines, binds no name a reference is made
   * through, and one still pending finds no file this change made (that
   * file's own importers, the first level, are retried in full). False when
   * it imports none of `tails` whole; undefined when it imports one by name
   * (resolved or pending), which {@link #retryBound} must retry. In a C#
   * library or a C++ tree nearly every file is such a link: a change passed
   * through 3,500 of them in 3.7 s, each one's imports read and resolved again.
   */
  #passesOnWhole(ownerId: number, tails: readonly string[]): boolean | undefined {
    const inTails = `(${tails.map((_, i) => `?${i + 2}`).join(",")})`;
    const row = this.journal.get<{ named: number; whole: number }>(
      `SELECT EXISTS (SELECT 1 FROM pending_edges WHERE owner_id = ?1 AND kind = 'imports'
           AND module_tail IN ${inTails} AND +name IS NOT '*')
         OR EXISTS (SELECT 1 FROM edges WHERE owner_id = ?1 AND kind = 'imports'
           AND module_tail IN ${inTails} AND +name IS NOT '*') AS named,
         EXISTS (SELECT 1 FROM edges WHERE owner_id = ?1 AND kind = 'imports'
           AND module_tail IN ${inTails} AND +name = '*') AS whole`,
      ownerId,
      ...tails,
    )!;
    if (row.named) return undefined;
    if (row.whole) this.#bindingCache.delete(ownerId);
    return row.whole === 1;
  }

  /**
   * A file's imports of modules with one of `tails`, resolved or not, and
   * where each landed, as one string that is equal when nothing differs.
   */
  #importsThrough(ownerId: number, inTails: string, tails: readonly string[]): string {
    return JSON.stringify(
      this.journal.all<{ row: string }>(
        `SELECT json_array(src, target, module, line, dst, how) AS row FROM edges
         WHERE owner_id = ? AND kind = 'imports' AND module_tail IN ${inTails}
         UNION ALL SELECT json_array(src, target, module, line) FROM pending_edges
         WHERE owner_id = ? AND kind = 'imports' AND module_tail IN ${inTails}
         ORDER BY 1`,
        ownerId,
        ...tails,
        ownerId,
        ...tails,
      ).map((r) => r.row),
    );
  }

  /**
   * Puts back in `pending_edges` what a file imported by name from a module
   * with one of `tails` and what it bound through those names: the module
   * changed, and a name it passes on may come from elsewhere now (a
   * re-export of another file). Returns the local names bound; the caller
   * resolves the imports, then those references, again.
   */
  #reopenThrough(ownerId: number, inTails: string, tails: readonly string[]): Set<string> {
    const j = this.journal;
    const imports = j.all<RefRow>(
      `SELECT rowid, ${REF_COLUMNS} FROM edges
       WHERE owner_id = ? AND kind = 'imports' AND how = 'import' AND module_tail IN ${inTails}`,
      ownerId,
      ...tails,
    );
    // An import that lost its target is pending already; what it bound is not.
    const names = new Set([
      ...imports.map((r) => r.target),
      ...j.all<{ target: string }>(
        `SELECT target FROM pending_edges
         WHERE owner_id = ? AND kind = 'imports' AND module_tail IN ${inTails}`,
        ownerId,
        ...tails,
      ).map((r) => r.target),
    ]);
    if (names.size === 0) return names;
    const bound = j.all<RefRow>(
      `SELECT rowid, ${REF_COLUMNS} FROM edges WHERE owner_id = ? AND kind != 'imports' AND how = 'import'`,
      ownerId,
    ).filter((r) => names.has(r.module ?? r.target.split(/\.|::/)[0]!));
    for (const r of [...imports, ...bound]) {
      j.run("DELETE FROM edges WHERE rowid = ?", r.rowid);
      insertPending(j, r);
    }
    this.#bindingCache.delete(ownerId);
    this.#starLevels.clear();
    return names;
  }

  /**
   * Files of the root whose imports may find this file: an import whose
   * specifier ends like the file's stem or folder (found through an index,
   * so it holds in a fresh process as well as in a long-running daemon) and
   * whose look-up, as {@link #lookupFiles} makes it, tries the file's path or
   * its folder. A `util.h` of a 31,000-file tree is included under that name
   * by 1,545 files, of which a handful can reach this one. A package-style
   * import (Go, Java, C#, PHP) finds a folder's files of its own language
   * only, as the look-up does: `java.util` never reaches a C# `util/`
   * folder. `language` is the file's (undefined for a file gone: any).
   */
  #importersOf(rootId: number, rel: string, language?: string | null): number[] {
    const dir = posix.dirname(rel);
    const out = new Set<number>();
    for (const tail of new Set(tailsOf(rel, this.#rootCrate(rootId)))) {
      for (const r of this.#importsEndingIn(rootId, tail)) {
        if (out.has(r.owner_id)) continue;
        if (
          r.module === null ||
          importSpecs(r.language, r.module, r.target).flatMap((spec) =>
            // Read from an inline module, `super` names less far (see #modulesFor).
            r.language !== "rust"
              ? [spec]
              : spec.startsWith("super")
              ? [spec, rustPathInFile(spec, 1), rustPathInFile(spec, 2)]
              // A path from a module the file declares (see #modulesFor).
              : [spec, `self::${spec}`]
          ).some((spec) => {
            const t = this.#specTargets(rootId, r.language, r.rel, spec);
            return t.files.includes(rel) ||
              ((language === undefined || r.language === language) &&
                t.dirs.some((s) => dir === s || dir.endsWith("/" + s)));
          })
        ) out.add(r.owner_id);
      }
    }
    return [...out].sort((a, b) => a - b);
  }

  /**
   * For the crate `name` whose root came or went (see `crateOfRoot`):
   * the files that import from that crate by its name (`use
   * text_util::shout::loud`), each with the tails of those imports. Which
   * folder the name finds ({@link #crateFolder}) changes when such a file
   * comes or goes, for every import by the name, whichever of the crate's
   * files it lands in; found through the tails of the files of every crate
   * of the name (module tails are indexed): never a scan of every import.
   */
  #crateImporters(rootId: number, name: string): Map<number, string[]> {
    const out = new Map<number, string[]>();
    // Every crate of the name: a second one's coming hides the first.
    const files = crateFolderNames(name).flatMap((folder) =>
      this.journal.all<{ rel: string }>(
        `SELECT rel FROM paths WHERE root_id = ? AND language = 'rust' AND state = 'indexed'
           AND instr('/' || rel, ?) > 0`,
        rootId,
        `/${folder}/src/`,
      )
    );
    if (name === this.#rootCrate(rootId)) {
      files.push(...this.journal.all<{ rel: string }>(
        `SELECT rel FROM paths WHERE root_id = ? AND language = 'rust' AND state = 'indexed'
           AND substr(rel, 1, 4) = 'src/'`,
        rootId,
      ));
    }
    for (const tail of new Set([name, ...files.flatMap((f) => tailsOf(f.rel, name))])) {
      for (const r of this.#importsEndingIn(rootId, tail)) {
        if (r.language !== "rust" || r.module?.split("::")[0] !== name) continue;
        const tails = out.get(r.owner_id);
        if (tails === undefined) out.set(r.owner_id, [tail]);
        else if (!tails.includes(tail)) tails.push(tail);
      }
    }
    return out;
  }

  /**
   * The references of the root's Rust files that name crate `name` in a path
   * written out (`name::f()`, `name::a::T::new()`, `impl name::Tr for X`),
   * resolved ones put back among the pending first: where they land follows
   * which folder the name finds. Read file by file through the owners'
   * index, Rust files only.
   */
  #reopenCratePaths(rootId: number, name: string): RefRow[] {
    const j = this.journal;
    const inCrate = `(r.module = ?2 OR substr(r.module, 1, length(?2) + 2) = ?2 || '::')`;
    const resolved = j.all<RefRow>(
      `SELECT r.rowid, ${REF_COLUMNS.split(", ").map((c) => `r.${c}`).join(", ")}
       FROM paths p JOIN edges r ON r.owner_id = p.id
       WHERE p.root_id = ?1 AND p.language = 'rust' AND r.kind != 'imports' AND ${inCrate}`,
      rootId,
      name,
    );
    for (const r of resolved) {
      j.run("DELETE FROM edges WHERE rowid = ?", r.rowid);
      insertPending(j, r);
    }
    return j.all<RefRow>(
      `SELECT r.rowid, r.* FROM paths p JOIN pending_edges r ON r.owner_id = p.id
       WHERE p.root_id = ?1 AND p.language = 'rust' AND r.kind != 'imports' AND ${inCrate}`,
      rootId,
      name,
    );
  }

  /**
   * The imports of root `rootId` whose specifier ends in `tail`, with their
   * files' language and path; cached for one afterChange, whose cascade asks
   * again for each file of a folder (a C# namespace, a package).
   */
  #importsEndingIn(rootId: number, tail: string): TailImport[] {
    return cachedOr(this.#tailImports, `${rootId}\0${tail}`, () =>
      this.journal.all<TailImport>(
        `SELECT i.owner_id, i.module, i.target, p.language, p.rel FROM (
           SELECT owner_id, module, target FROM pending_edges
           WHERE module_tail = ?1 AND kind = 'imports'
           UNION SELECT owner_id, module, target FROM edges
           WHERE module_tail = ?1 AND kind = 'imports') i
         JOIN paths p ON p.id = i.owner_id WHERE p.root_id = ?2`,
        tail,
        rootId,
      ));
  }

  /**
   * The files a module specifier may name from a file at `from`, and the
   * folder suffixes a package-style one names (see `moduleCandidates`,
   * `packageDirSuffixes`); cached for one afterChange by what they depend on.
   */
  #specTargets(
    rootId: number,
    language: string | null,
    from: string,
    spec: string,
  ): { files: string[]; dirs: string[] } {
    const dir = posix.dirname(from);
    return cachedOr(this.#specCache, `${rootId}\0${language}\0${dir}\0${spec}`, () => ({
      files: moduleCandidates(language ?? "", from, spec, this.#aliasesFor(rootId)),
      dirs: [
        ...packageDirSuffixes(language ?? "", spec),
        ...crateDirSuffixes(language ?? "", spec, this.#rootCrate(rootId)),
      ],
    }));
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
  #tryResolve(ref: RefRow): boolean {
    const owner = this.#owner(ref.owner_id);
    if (!owner) return false;
    const found = this.#resolve(owner, ref);
    if (!found) return false;
    this.applyResolved({ ...ref, ...found });
    if (!this.#bulk && (ref.kind === "inherits" || ref.kind === "implements")) {
      this.#basesFound.add(ref.owner_id);
    }
    if (ref.kind === "imports" && ref.name === "*") this.#starLevels.clear();
    if (ref.kind === "inherits" || ref.kind === "implements") this.#bases.clear();
    return true;
  }

  /**
   * Where one reference lands, if anywhere. A macro's call (`debug!`, its
   * target keeps the `!`) is looked up by its name like any call, and lands
   * only on a macro (`macro_rules!`, or a function-like procedural macro,
   * `fn name(input: TokenStream) -> TokenStream`): `trace!()` of the
   * `tracing` crate is no `fn trace` that happens to be the one of its name
   * in the repository, `write!` no `fn write` of the file.
   */
  #resolve(owner: Owner, ref: RefRow): { dst: string; how: string } | undefined {
    // Only Rust writes a macro's call so; Ruby's `save!` is a method's name.
    if (ref.kind !== "calls" || !ref.target.endsWith("!") || owner.language !== "rust") {
      return this.#resolveName(owner, ref);
    }
    const found = this.#resolveName(owner, { ...ref, target: ref.target.slice(0, -1) }, true);
    const node = found && this.journal.get<{ kind: string; signature: string | null }>(
      "SELECT kind, signature FROM nodes WHERE id = ?",
      found.dst,
    );
    const macro = node?.kind === "macro" ||
      (node?.kind === "function" && PROC_MACRO.test(node.signature ?? ""));
    return macro ? found : undefined;
  }

  #resolveName(
    owner: Owner,
    ref: RefRow,
    macro = false,
  ): { dst: string; how: string } | undefined {
    const j = this.journal;
    const dotted = ref.target.split(/\.|::/);
    const name = dotted.at(-1)!;
    const qualifier = dotted.length > 1 ? dotted.slice(0, -1).join(".") : undefined;
    const call = ref.kind === "calls";
    // A call on a receiver that is no import of this file: only what the
    // receiver evidently is says where it lands.
    if (
      call && ref.module === null && qualifier !== undefined &&
      !this.#bindings(owner.id).has(dotted[0]!)
    ) {
      return this.#resolveMember(owner, ref, qualifier, name);
    }
    // C#: `using P = Acme.Util.Paths;` names a class by its full name:
    // `P.Join()` and `new P()` are its, wherever its file lies.
    if (owner.language === "csharp" && call && ref.module !== null && qualifier === undefined) {
      const bound = this.#bindings(owner.id).get(ref.module);
      const classes = bound?.module && bound.target !== "*"
        ? this.#csharpClasses(owner, bound.module)
        : [];
      if (classes.length > 0) {
        const hit = ref.target === ref.module
          ? classes[0]!.id
          : this.#memberOf(owner, classes, name, ref.args);
        return hit ? { dst: hit, how: "import" } : undefined;
      }
    }
    // PHP: a name a `use` binds is the definition its namespace declares,
    // wherever its file lies (a folder of that name may hold another's).
    if (owner.language === "php") {
      const bound = ref.kind === "imports"
        ? ref
        : this.#bindings(owner.id).get(ref.module ?? qualifier ?? "");
      if (bound?.module) return this.#resolvePhpUse(owner, ref, bound, qualifier, name);
    }
    // PHP: a name no `use` binds is read in the caller's namespace.
    if (
      owner.language === "php" && ref.kind !== "imports" && ref.module === null &&
      qualifier === undefined
    ) {
      return this.#resolvePhpName(owner, ref);
    }
    // A function defined inside the caller (or a function around it)
    // shadows an import of its name: `const format = (x) => …; format(x)`.
    if (call && qualifier === undefined && ref.module === ref.target) {
      const local = this.#visibleFunction(owner, ref.src, name, false, ref.args);
      if (local) return { dst: local, how: "same-file" };
    }
    const specs = this.#modulesFor(owner, ref, qualifier);
    // An alias is looked up by what it imports: `h()` after `from m import
    // helper as h`, `class User(Model)` after `from .base import Base as Model`.
    const remote = ref.kind === "imports"
      ? ref.imported
      : qualifier === undefined && ref.module === ref.target
      ? this.#bindings(owner.id).get(ref.target)?.imported
      : null;
    let sought = remote ? remote.split(/\.|::/).at(-1)! : name;
    if (specs.length > 0) {
      const spec = specs.find((s) => this.#filesFor(owner, s).length > 0);
      const files = spec === undefined ? [] : this.#filesFor(owner, spec);
      // `import d from "m"`: m's default export (`export default class Car`),
      // whatever `d` is named; one written apart (`export default Car;`) by
      // the name bound, as written.
      const defaultName = (bound: string) =>
        files.length === 0 ? bound : this.#defaultExportName(files) ?? bound;
      if (sought === "default" && languageFamily(owner.language) === "js") {
        sought = defaultName(name);
      }
      // `use a::write::{self}`, `use crate::consts`: the name is the module the
      // files are, not one they pass on (a `pub use other::*` may pass on
      // another crate's module of that name).
      const isModule = (n: string) => {
        if (owner.language !== "rust" || spec === undefined || lastSegment(spec) !== n) {
          return false;
        }
        // The module's own file (`write.rs`, `write/mod.rs`), not a crate root tried last.
        const parts = (this.#owner(files[0]!)?.rel ?? "").split("/");
        return parts.at(-1) === `${n}.rs` || (parts.at(-1) === "mod.rs" && parts.at(-2) === n);
      };
      if (files.length > 0) {
        // `Foo.m()` through `import Foo`: a member of class Foo where Foo is
        // one; else (a module, a namespace) a top-level definition of it.
        const viaQualifier = call && (qualifier !== undefined || ref.module !== ref.target);
        if (viaQualifier) {
          const bound = this.#bindings(owner.id).get(ref.module ?? qualifier ?? "");
          let imported = (bound?.imported ?? bound?.target ?? qualifier ?? "").split(/\.|::/)
            .at(-1)!;
          if (imported === "default" && languageFamily(owner.language) === "js") {
            imported = defaultName(bound?.target ?? qualifier ?? "");
          }
          const classes = this.#classesFor(files, imported, isModule(imported));
          if (classes.length > 0) {
            const hit = this.#memberOf(owner, classes, name, ref.args);
            return hit ? { dst: hit, how: "import" } : undefined;
          }
          if (bound !== undefined && this.#bindsMember(owner, bound, spec!, files, imported)) {
            return undefined;
          }
        }
        // Java's `import static a.b.Util.helper` (or `.*`): the name is a
        // member of class Util, never a namesake elsewhere in its package
        // (nor an import of it there); `import a.b.Outer.Inner` likewise.
        const holder = owner.language === "java" && spec !== undefined
          ? lastSegment(spec)
          : undefined;
        if (holder !== undefined && /^[A-Z]/.test(holder) && holder !== sought) {
          const classes = this.#classesNamedIn(files, holder).filter((c) =>
            c.qualname === holder && c.kind !== "impl"
          );
          if (sought === "*") {
            return ref.kind === "imports" && classes.length > 0
              ? { dst: classes[0]!.id, how: "import" }
              : undefined;
          }
          const hit = classes.length > 0
            ? this.#memberOf(owner, classes, sought, ref.args)
            : undefined;
          return hit ? { dst: hit, how: "import" } : undefined;
        }
        // A whole-module import binds no name: it lands on the module. A
        // name may be common, so the look-ups below go by file (a unary `+`
        // keeps SQLite from taking the name's index, and every definition
        // of that name in the corpus); a re-export goes by name only when
        // the files outnumber the imports of that name (see #reexportIn).
        const hit = sought === "*" ? undefined : this.#definedIn(files, sought, call);
        if (hit) return { dst: hit.id, how: "import" };
        if (ref.kind === "imports" && isModule(sought)) {
          const file = this.#fileNode(files[0]!);
          if (file) return { dst: file.id, how: "module" };
        }
        // A re-export (`export { x } from "./x.ts"`): follow the module's own import.
        const reexport = sought === "*" ? undefined : this.#reexportIn(files, sought);
        if (reexport) return { dst: reexport.dst, how: "import" };
        const passed = sought !== "*" && (ref.kind === "imports" || !viaQualifier)
          ? this.#throughStars(files, sought, call)
          : undefined;
        if (passed) return { dst: passed, how: "import" };
        // A Rust type the module only implements (`impl BytePos`, its struct
        // made by a macro the index does not expand): its impl block, last.
        const impl = sought === "*" || owner.language !== "rust" ||
            (this.#implDeferred && ref.kind === "imports")
          ? undefined
          : j.get<{ id: string }>(
            `SELECT n.id FROM nodes n WHERE n.path_id IN (${files.map(() => "?").join(",")})
             AND n.name = ? AND n.kind = 'impl' AND +n.qualname = n.name AND n.partial = 0
           ORDER BY n.start_line LIMIT 1`,
            ...files,
            sought,
          );
        if (impl) return { dst: impl.id, how: "import" };
        if (ref.kind === "imports") {
          const file = this.#fileNode(files[0]!);
          // The module, not the name: revisited when a definition of the name appears.
          if (file) return { dst: file.id, how: "module" };
        }
      }
      // `Self::new()`, `parent::f()`, `Store::open()`: a static qualifier that
      // names no module of the repository may name a class.
      if (
        call && files.length === 0 && ref.module !== null && qualifier === undefined &&
        ref.module !== ref.target && !this.#bindings(owner.id).has(ref.module)
      ) {
        return this.#resolveMember(owner, ref, ref.module.replace(/::/g, "."), name);
      }
      // A name bound by an import of something outside the repository is not
      // looked up by name elsewhere: that would be a guess.
      if (ref.kind === "imports" || qualifier !== undefined || ref.module !== null) {
        return undefined;
      }
    }
    if (ref.kind === "imports") return undefined;
    // `class Date < ActiveModel::Type::Date`: the class that path names,
    // never one that only shares its last name (the class itself, here).
    if (!call && qualifier !== undefined) return this.#qualifiedClass(owner, ref, name);
    if (!call) {
      const local = this.#localDefinition(owner, ref.src, name);
      if (local) return { dst: local, how: "same-file" };
      if (isBuiltin(owner.language, name)) return undefined;
      const unique = this.#uniqueDefinition(owner, name, false, ref.src);
      return unique ? { dst: unique, how: "unique" } : undefined;
    }
    if (hasImplicitThis(owner.language)) {
      let cls = this.#enclosingClass(owner, ref.src);
      let hit = cls && this.#memberOf(owner, [cls], name, ref.args);
      // A Java anonymous class (`new Runnable() { … }`, named `new`): its own
      // methods first, then those of the class around it.
      while (!hit && cls && owner.language === "java" && cls.qualname.endsWith(".new")) {
        const around = this.#nodesIn(owner.id).get(cls.id)?.parent_id;
        cls = around ? this.#enclosingClass(owner, around) : undefined;
        hit = cls && this.#memberOf(owner, [cls], name, ref.args);
      }
      if (hit) return { dst: hit, how: "member" };
    }
    const local = this.#visibleFunction(owner, ref.src, name, true, ref.args);
    // A C prototype (`int f(int);`) only declares f: its one definition in
    // the repository, where there is one, is what the call runs.
    if (local && languageFamily(owner.language) === "c" && this.#isPrototype(local)) {
      const defined = this.#uniqueDefinition(owner, name, true, ref.src);
      if (defined && !this.#isPrototype(defined)) return { dst: defined, how: "unique" };
    }
    if (local) return { dst: local, how: "same-file" };
    if (owner.language === "csharp") {
      const imported = this.#usingStaticMember(owner, name, ref.args);
      if (imported) return { dst: imported, how: "import" };
    }
    if (isBuiltin(owner.language, name) || !this.#mayLookFar(owner)) return undefined;
    // Python: `_private` is found only through a star import whose module's
    // `__all__` lists it (see #exports), never by uniqueness.
    if (owner.language === "python" && name.startsWith("_")) {
      const listed = this.#throughStars([owner.id], name, true);
      return listed ? { dst: listed, how: "import" } : undefined;
    }
    // A file that imports modules whole (`use a::visit::*`, `from m import *`):
    // a bare name is what they pass on. When every such import is resolved,
    // a name they do not pass on is no definition of the repository (a
    // builtin, a prelude name), except a Rust macro, which `#[macro_use]`
    // brings from another crate unimported.
    if (bareScope(owner.language) === "star" && !macro) {
      const globbed = this.#throughStars([owner.id], name, true);
      if (globbed) return { dst: globbed, how: "import" };
      if (!this.#starImportPending(owner.id)) return undefined;
    }
    // C#: `new Store()` of the Store its namespaces and `using`s see.
    const seen = owner.language === "csharp" ? this.#csharpClass(owner, ref.src, name) : undefined;
    if (seen !== undefined) return seen ? { dst: seen.id, how: "unique" } : undefined;
    const unique = this.#uniqueDefinition(owner, name, true, ref.src);
    return unique ? { dst: unique, how: "unique" } : undefined;
  }

  /**
   * The C# class `name` that code at node `src` sees: of the classes so
   * named in the root, the one in a namespace around `src` (or a parent of
   * one) or one a `using Acme.Models;` of the file imports. Undefined when
   * none of them is seen so (a global using may bring one: look further),
   * null when several are (the compiler says ambiguous: look no further),
   * or when none is and the name is a type of the implicit usings
   * (`Timer`, `Path`: the framework's).
   */
  #csharpClass(owner: Owner, src: string, name: string): ClassNode | null | undefined {
    const rows = cachedOr(
      this.#csharpNamed,
      `${owner.root_id}\0${name}`,
      () =>
        this.journal.all<ClassNode>(
          `SELECT n.id, n.qualname, n.path_id FROM nodes n JOIN paths p ON p.id = n.path_id
         WHERE n.name = ? AND p.root_id = ? AND p.language = 'csharp' AND n.kind IN ${CLASS_KINDS}
           AND n.kind != 'module' AND n.partial = 0 LIMIT 200`,
          name,
          owner.root_id,
        ),
    );
    if (rows.length === 0) return undefined;
    const spaces = new Set<string>([""]);
    const nodes = this.#nodesIn(owner.id);
    for (let n = nodes.get(src); n !== undefined; n = nodes.get(n.parent_id ?? "")) {
      if (n.kind !== "module") continue;
      const parts = n.qualname.split(".");
      for (let i = 1; i <= parts.length; i++) spaces.add(parts.slice(0, i).join("."));
    }
    for (const module of this.#usingModules(owner)) spaces.add(module);
    const seen = rows.filter((r) =>
      r.qualname.endsWith(`.${name}`) || r.qualname === name
        ? spaces.has(r.qualname.slice(0, Math.max(0, r.qualname.length - name.length - 1)))
        : false
    );
    const names = new Set(seen.map((r) => r.qualname));
    // `new Timer()` under the implicit `using System.Threading;`: a Timer
    // of the repository is meant only where its namespace is seen.
    if (names.size === 0) return isImplicitType("csharp", name) ? null : undefined;
    return names.size === 1 ? seen[0]! : null;
  }

  /**
   * True when an import binds something a module defines, not the module
   * (`from app import db`, `import { db } from "./lib"`): `db.session()` is
   * then a call on that object, and the module's own top-level `session`
   * is no call of it. Python: a name imported from a module (`from m import
   * x`) unless `m.x` is a module of its own (`spec` is it); `import m`,
   * `import a.b`, `import a.b as s` (imported `*`) bind modules. Rust: a `static` or `const`
   * the files define (`use crate::store::DB`). JS/TS: a name the module's files define at their top (`export const db = …`);
   * `import * as ns` and `const lib = require("./lib")` bind the module.
   * Other languages: false. One look-up of the files' definitions.
   */
  #bindsMember(
    owner: Owner,
    bound: ImportBinding,
    spec: string,
    files: number[],
    imported: string,
  ): boolean {
    if (bound.imported === "*" || bound.module === null) return false;
    if (owner.language === "python") {
      const module = bound.module;
      return spec === module && bound.target !== module && !module.startsWith(`${bound.target}.`);
    }
    // Rust: a `static` or `const` the files define (`use crate::store::DB`).
    const rust = owner.language === "rust";
    if (!rust && languageFamily(owner.language) !== "js") return false;
    return this.journal.get(
      `SELECT 1 FROM nodes n WHERE n.path_id IN (${files.map(() => "?").join(",")})
         AND n.name = ? AND +n.qualname = n.name AND n.kind NOT IN ('file', 'module')
         AND n.partial = 0 ${rust ? "AND n.kind IN ('constant', 'variable')" : ""} LIMIT 1`,
      ...files,
      imported,
    ) !== undefined;
  }

  /**
   * The static member `name` of a type a C# file imports with `using static
   * Acme.Util.Paths;` (its fully qualified name, in the caller's root), or of
   * that type's bases; undefined when no such type of the repository has
   * one, or two of them do (the compiler calls that ambiguous). One query
   * for the file's whole imports, one per imported type found.
   */
  #usingStaticMember(owner: Owner, name: string, args: number | null): string | undefined {
    const hits = new Set<string>();
    for (const module of this.#usingModules(owner)) {
      const classes = this.#csharpClasses(owner, module);
      const hit = classes.length > 0 ? this.#memberOf(owner, classes, name, args) : undefined;
      if (hit) hits.add(hit);
    }
    return hits.size === 1 ? [...hits][0] : undefined;
  }

  /** The C# class-like definitions of the owner's root whose full name is `qualname` (`Acme.Util.Paths`). */
  #csharpClasses(owner: Owner, qualname: string): ClassNode[] {
    return cachedOr(
      this.#csharpTypes,
      `${owner.root_id}\0${qualname}`,
      () =>
        this.journal.all<ClassNode>(
          `SELECT n.id, n.qualname, n.path_id FROM nodes n JOIN paths p ON p.id = n.path_id
         WHERE n.name = ? AND n.qualname = ? AND p.root_id = ? AND p.language = 'csharp'
           AND n.kind IN ${CLASS_KINDS} AND n.kind != 'module' AND n.partial = 0`,
          lastSegment(qualname),
          qualname,
          owner.root_id,
        ),
    );
  }

  /**
   * The modules a C# file imports whole (`using Acme.Util;`, `using static
   * Acme.Util.Paths;`), read once per file: every call the file makes that
   * no closer definition answers asks for them.
   */
  #usingModules(owner: Owner): string[] {
    return cachedOr(this.#usingImports, owner.id, () =>
      this.journal.all<{ module: string }>(
        // `+name`: through the owner's index; by `edges_name`, SQLite read
        // every `*` import of the journal (2 ms a file on the search bench's).
        `SELECT module FROM pending_edges WHERE owner_id = ?1 AND kind = 'imports' AND +name = '*'
           AND module IS NOT NULL
         UNION SELECT module FROM edges WHERE owner_id = ?1 AND kind = 'imports' AND +name = '*'
           AND module IS NOT NULL`,
        owner.id,
      ).map((r) => r.module));
  }

  /**
   * A PHP name a `use` binds (`use Acme\\Storage\\Store;`, `use function
   * Acme\\Storage\\helper;`), read by the namespaces the files of the root
   * declare, wherever they lie: the import itself, `new Store`,
   * `helper()`, `extends Store`, `Store::open()` and `$s->save()` after `$s
   * = new Store`. Undefined when the namespace declares none or several of
   * the name (as {@link #phpDefinition}), or the class has no such member.
   */
  #resolvePhpUse(
    owner: Owner,
    ref: RefRow,
    bound: { module: string | null; target: string; imported: string | null },
    qualifier: string | undefined,
    name: string,
  ): { dst: string; how: string } | undefined {
    const full = `\\${bound.module}\\${bound.imported ?? bound.target}`;
    if (ref.kind === "imports" || (qualifier === undefined && ref.module === ref.target)) {
      const hit = this.#phpDefinition(
        owner,
        ref,
        full,
        (kind) =>
          ref.kind === "calls" || ref.kind === "imports"
            ? kind !== "module"
            : PHP_CLASS_KINDS.has(kind),
      );
      return hit && { dst: hit.id, how: "import" };
    }
    const cls = this.#phpDefinition(
      owner,
      { ...ref, kind: "inherits" },
      full,
      (kind) => PHP_CLASS_KINDS.has(kind),
    );
    const hit = cls && this.#memberOf(owner, [cls], name, ref.args);
    return hit ? { dst: hit, how: "import" } : undefined;
  }

  /**
   * PHP's reading of a name no `use` binds (`foo()`, `B\\foo()`, `\\B\\foo()`,
   * `new Store`, `extends Base`): qualified, it is the caller's namespace's
   * (`\\` first: from the global one; a first segment a `use` binds: what
   * that imports); unqualified, the caller's namespace's, and for a
   * function call, else the global one's (a builtin's name is PHP's own).
   * Lands on the caller's file's definition of that name in that namespace,
   * else on the one in the root; none or several: undefined (pending with
   * its name).
   */
  #resolvePhpName(owner: Owner, ref: RefRow): { dst: string; how: string } | undefined {
    const hit = this.#phpDefinition(owner, ref, ref.target, (kind) => kind !== "module");
    return hit && { dst: hit.id, how: hit.path_id === owner.id ? "same-file" : "unique" };
  }

  /**
   * The PHP definition a name as written (`foo`, `Sub\foo`, `\Lib\foo`)
   * names from where `ref` is made, among those `accepts` takes by kind:
   * the caller's file's in the namespace it names, else the one in the
   * root; undefined when there is none or several (see
   * {@link #resolvePhpName}).
   */
  #phpDefinition(
    owner: Owner,
    ref: RefRow,
    written: string,
    accepts: (kind: string) => boolean,
  ): ClassNode | undefined {
    const call = ref.kind === "calls";
    const here = this.#phpNamespaceAt(owner.id, ref.line ?? 0);
    const parts = written.split("\\");
    const name = parts.pop()!;
    // Where to look, in order; `fallback`: the global namespace's, for a function only.
    const namespaces: { ns: string; fallback: boolean }[] = [];
    if (written.startsWith("\\")) {
      namespaces.push({ ns: parts.slice(1).join("\\"), fallback: false });
    } else if (parts.length > 0) {
      const bound = this.#bindings(owner.id).get(parts[0]!);
      const head = bound
        ? [bound.module ?? "", bound.imported ?? bound.target].filter((p) => p !== "").join("\\")
        : [here, parts[0]!].filter((p) => p !== "").join("\\");
      namespaces.push({ ns: [head, ...parts.slice(1)].join("\\"), fallback: false });
    } else {
      if (here !== "") namespaces.push({ ns: here, fallback: false });
      if (!isBuiltin(owner.language, name)) namespaces.push({ ns: "", fallback: here !== "" });
    }
    for (const { ns, fallback } of namespaces) {
      const hits = this.#phpDefinitions(owner.root_id, name, call).filter((d) =>
        d.namespace.toLowerCase() === ns.toLowerCase() && accepts(d.kind) &&
        (!fallback || d.kind === "function")
      );
      // The file's own definition first, as in any other language.
      const own = hits.filter((d) => d.path_id === owner.id);
      if (own.length === 1) return own[0];
      if (hits.length === 1 && own.length === 0) return hits[0];
      if (hits.length > 0) return undefined;
    }
    return undefined;
  }

  /** PHP definitions named `name` in a root that a bare name may land on, with their namespaces. */
  #phpDefinitions(
    rootId: number,
    name: string,
    call: boolean,
  ): (ClassNode & { kind: string; namespace: string })[] {
    return cachedOr(
      this.#phpDefs,
      `${rootId}\0${name}\0${call}`,
      () =>
        this.journal.all<ClassNode & { kind: string; start_line: number }>(
          `SELECT n.id, n.path_id, n.kind, n.qualname, n.start_line FROM nodes n
         JOIN paths q ON q.id = n.path_id LEFT JOIN nodes p ON p.id = n.parent_id
         WHERE n.name = ? AND q.root_id = ? AND q.language = 'php'
           AND ${call ? CALLABLE : NOT_MEMBER} LIMIT 500`,
          name,
          rootId,
        ).map((d) => ({ ...d, namespace: this.#phpNamespaceAt(d.path_id, d.start_line) })),
    );
  }

  /**
   * The PHP namespace line `line` of a file is in: the innermost `namespace
   * X { … }` around it, else the last `namespace X;` statement above it,
   * else the global one (`""`). Read from the file's module nodes: a
   * statement's holds nothing and spans its own line.
   */
  #phpNamespaceAt(pathId: number, line: number): string {
    const spaces = cachedOr(
      this.#phpNamespaces,
      pathId,
      () =>
        this.journal.all<{ name: string; start: number; end: number; braced: number }>(
          `SELECT n.name, n.start_line AS start, n.end_line AS "end",
           (n.end_line > n.start_line
             OR EXISTS (SELECT 1 FROM nodes c WHERE c.path_id = n.path_id AND c.parent_id = n.id)) AS braced
         FROM nodes n WHERE n.path_id = ? AND n.kind = 'module' ORDER BY n.start_line`,
          pathId,
        ),
    );
    let found = "";
    for (const s of spaces) {
      if (s.start > line) break;
      if (!s.braced || line <= s.end) found = s.name;
    }
    return found;
  }

  /**
   * A top-level definition of `name` in a module that one of `files` passes
   * on whole (`export * from "./x"`, `from .x import *`), or one such a
   * module imports by name and so passes on, a few levels deep; undefined
   * when there is none, or more than one (an ambiguous name, which the
   * checker would refuse too). A `call` never lands on a module. A Python
   * module passes on only what {@link #exports} says.
   */
  #throughStars(files: number[], name: string, call = false): string | undefined {
    for (const level of this.#starClosure(files)) {
      const hits = this.journal.all<{ id: string; path_id: number }>(
        `SELECT n.id, n.path_id FROM nodes n WHERE n.path_id IN (${level.map(() => "?").join(",")})
           AND n.name = ? AND +n.qualname = n.name AND ${DEFINITION}
           ${call ? "AND n.kind != 'module'" : ""} LIMIT 16`,
        ...level,
        name,
      ).filter((h) => this.#exports(h.path_id, name));
      if (hits.length === 1) return hits[0]!.id;
      if (hits.length > 1) return undefined;
      // Or a name such a module imports and passes on (`pub use crate::base::f;`).
      const passed = [
        ...new Set(
          this.journal.all<{ dst: string; owner_id: number }>(
            `SELECT DISTINCT e.dst, e.owner_id FROM edges e JOIN nodes n ON n.id = e.dst
             WHERE e.owner_id IN (${level.map(() => "?").join(",")}) AND e.kind = 'imports'
               AND +e.name = ? AND e.how = 'import' AND ${DEFINITION}
               ${call ? "AND n.kind != 'module'" : ""} LIMIT 16`,
            ...level,
            name,
          ).filter((e) => this.#exports(e.owner_id, name)).map((e) => e.dst),
        ),
      ];
      if (passed.length === 1) return passed[0]!;
      if (passed.length > 1) return undefined;
    }
    return undefined;
  }

  /**
   * True when file `pathId` passes `name` on to a star import: always, but
   * for a Python module, which passes on the names its `__all__` lists
   * when that is a list (or tuple, or `+=` of one) of string literals
   * (`_private` too), else its names that do not start with `_`.
   */
  #exports(pathId: number, name: string): boolean {
    if (this.#owner(pathId)?.language !== "python") return true;
    const listed = this.#pythonAll(pathId);
    return listed ? listed.has(name) : !name.startsWith("_");
  }

  /**
   * The names a Python module's `__all__` lists; undefined when it has none,
   * or one built otherwise (`a.__all__ + [...]`), which says nothing readable.
   */
  #pythonAll(pathId: number): Set<string> | undefined {
    const lists = this.journal.all<{ signature: string | null }>(
      `SELECT signature FROM nodes WHERE path_id = ? AND name = '__all__'
         AND qualname = '__all__' AND kind = 'constant'`,
      pathId,
    );
    if (lists.length === 0) return undefined;
    const names = new Set<string>();
    for (const { signature } of lists) {
      const body = /^__all__\s*(?::[^=]*)?\+?=\s*[[(](.*)[\])]$/.exec(signature ?? "")?.[1];
      if (body === undefined) return undefined;
      for (const item of body.split(",")) {
        const literal = item.trim();
        if (literal === "") continue;
        const listed = /^[a-zA-Z]*(["'])([^"'\\]*)\1$/.exec(literal)?.[2];
        if (listed === undefined) return undefined;
        names.add(listed);
      }
    }
    return names;
  }

  /**
   * The files that `files` pass on whole, a few levels deep, each level
   * only files not seen before (see {@link #throughStars}); cached until an
   * imports edge changes.
   */
  #starClosure(files: number[]): number[][] {
    const key = files.join(",");
    const cached = this.#starLevels.get(key);
    if (cached) return cached;
    const levels: number[][] = [];
    const seen = new Set(files);
    let level = files;
    for (let depth = 0; depth < 3 && level.length > 0; depth++) {
      // `+e.name`: through the owners' index, not every `*` import (see #retryBound).
      const next = this.journal.all<{ path_id: number }>(
        `SELECT DISTINCT n.path_id FROM edges e JOIN nodes n ON n.id = e.dst
         WHERE e.owner_id IN (${level.map(() => "?").join(",")}) AND e.kind = 'imports'
           AND +e.name = '*' AND n.kind = 'file'`,
        ...level,
      ).map((r) => r.path_id).filter((id) => !seen.has(id));
      if (next.length === 0) break;
      for (const id of next) seen.add(id);
      levels.push(next);
      level = next;
    }
    if (this.#starLevels.size >= STAR_CACHE_MAX) this.#starLevels.clear();
    this.#starLevels.set(key, levels);
    return levels;
  }

  /** True when a file has an import of a whole module that resolved to no file of the repository. */
  #starImportPending(pathId: number): boolean {
    return this.journal.get(
      "SELECT 1 FROM pending_edges WHERE owner_id = ? AND kind = 'imports' AND name = '*' LIMIT 1",
      pathId,
    ) !== undefined;
  }

  /** The node of file `pathId` (by its id, which its path gives: a file may have thousands of nodes). */
  #fileNode(pathId: number): { id: string } | undefined {
    return cachedOr(this.#fileNodes, pathId, () => {
      const path = this.journal.get<{ path: string }>("SELECT path FROM paths WHERE id = ?", pathId)
        ?.path;
      if (path === undefined) return null;
      return this.journal.get<{ id: string }>(
        "SELECT id FROM nodes WHERE id = ? AND kind = 'file'",
        fileNodeId(path),
      ) ?? null;
    }) ?? undefined;
  }

  /**
   * The class a name imported from `files` means, for a member call on it
   * (`Foo::new()` after `use a::Foo`): one defined there; else the one a
   * re-export there names (`pub use span::Span`); else, a Rust type only
   * implemented there (`impl Options`, its struct made by a macro), its impl
   * blocks; else one a module they pass on whole defines (a glob yields to
   * what the module has itself, as in Rust). None when `name` is the module
   * itself (`isModule`) and no class of it is there.
   */
  #classesFor(files: number[], name: string, isModule: boolean): ClassNode[] {
    const here = this.#classesNamedIn(files, name);
    if (here.some((c) => c.kind !== "impl") || (isModule && here.length === 0)) return here;
    const reexport = this.journal.get<ClassNode>(
      `SELECT n.id, n.qualname, n.path_id FROM edges e JOIN nodes n ON n.id = e.dst
       WHERE e.owner_id IN (${files.map(() => "?").join(",")}) AND e.kind = 'imports'
         AND +e.name = ? AND e.how = 'import' AND n.kind IN ${CLASS_KINDS} LIMIT 1`,
      ...files,
      name,
    );
    if (reexport) return [reexport, ...here];
    if (isModule || here.length > 0) return here;
    return this.#classThroughStars(files, name);
  }

  /**
   * The class-like definition named `name` in the nearest module one of
   * `files` passes on whole (see {@link #throughStars}), with a Rust type's
   * `impl` blocks (its methods' homes; all of them when the type itself is
   * made by a macro); none when that module holds two types of the name.
   */
  #classThroughStars(files: number[], name: string): ClassNode[] {
    for (const level of this.#starClosure(files)) {
      const rows = this.journal.all<ClassNode & { kind: string }>(
        `SELECT n.id, n.qualname, n.path_id, n.kind FROM nodes n
         WHERE n.path_id IN (${level.map(() => "?").join(",")}) AND n.name = ?
           AND +n.qualname = n.name AND n.kind IN ${CLASS_KINDS} AND n.partial = 0
         ORDER BY n.kind = 'impl', n.path_id, n.start_line LIMIT 16`,
        ...level,
        name,
      ).filter((r) => this.#exports(r.path_id, name));
      if (rows.length === 0) continue;
      // A Rust type and its impl blocks are one class; two types of the name are none.
      if (rows.filter((r) => r.kind !== "impl").length > 1) return [];
      return rows.map(({ id, qualname, path_id }) => ({ id, qualname, path_id }));
    }
    return [];
  }

  /**
   * A call `qualifier.name()` that no import explains: through `self`/`this`
   * (the enclosing class, then its bases), `super` (the bases), or a type
   * name found in the file, by import, or unique in the repository. A
   * receiver of unknown type (`kwargs`, `adapter`, `a.b`, `?`) lands nowhere.
   */
  #resolveMember(
    owner: Owner,
    ref: RefRow,
    qualifier: string,
    name: string,
  ): { dst: string; how: string } | undefined {
    const role = receiverRole(owner.language, qualifier);
    if (role !== undefined) {
      const cls = this.#enclosingClass(owner, ref.src);
      if (!cls) return undefined;
      const from = role === "self" ? [cls] : this.#basesOf(cls, owner.language);
      const hit = this.#memberOf(owner, from, name, ref.args);
      return hit ? { dst: hit, how: "member" } : undefined;
    }
    // PHP: `Foo::make()`, `\\B\\Foo::make()`, `$x->go()` after `$x = new Bar()`
    // name a class of the caller's namespace, or the one they spell out.
    if (owner.language === "php") {
      if (!/^\\?[\p{L}_][\p{L}\p{N}_\\]*$/u.test(qualifier)) return undefined;
      const cls = this.#phpDefinition(
        owner,
        { ...ref, kind: "inherits" },
        qualifier,
        (kind) => PHP_CLASS_KINDS.has(kind),
      );
      const hit = cls && this.#memberOf(owner, [cls], name, ref.args);
      return hit ? { dst: hit, how: "member" } : undefined;
    }
    if (!/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(qualifier)) return undefined;
    const seen = owner.language === "csharp" && !isBuiltin(owner.language, qualifier)
      ? this.#csharpClass(owner, ref.src, qualifier)
      : undefined;
    const cls = this.#visibleClass(owner, ref.src, qualifier) ??
      (seen === null
        ? undefined
        : seen ?? (isBuiltin(owner.language, qualifier) || !this.#mayLookFar(owner, true)
          ? undefined
          : this.#uniqueClass(owner, qualifier, ref.src)));
    // C++ `util::clamp(x)` (a static qualifier, kept as the call's module;
    // `util.clamp()` calls a variable's method): a namespace is opened in
    // many files (a header declares, a source defines), so it is no one
    // class of its name, and another file's `static` function is none of its own.
    const hit = languageFamily(owner.language) === "c" && ref.module !== null &&
        !isBuiltin(owner.language, qualifier) &&
        (!cls || this.#nodesIn(cls.path_id).get(cls.id)?.kind === "module")
      ? this.#namespaceFunction(owner, qualifier, name, ref.args)
      : cls && this.#memberOf(owner, [cls], name, ref.args);
    return hit ? { dst: hit, how: "member" } : undefined;
  }

  /**
   * The function (or class) `name` of the C++ namespace `space`
   * (`util::clamp`), in whichever files of the owner's root open it, never
   * a source file's `static` function: its one definition, else its one
   * prototype, among those that take `args` arguments. Undefined
   * when something else (a class) has the namespace's name, when two
   * namespaces of that name are nested differently (`a::util`, `util`), or
   * when two definitions qualify (overloads of one count).
   */
  #namespaceFunction(
    owner: Owner,
    space: string,
    name: string,
    args: number | null,
  ): string | undefined {
    const j = this.journal;
    const family = languageFamily(owner.language);
    const namespace = cachedOr(this.#namespaces, `${owner.root_id}\0${family}\0${space}`, () => {
      const holders = j.all<{ kind: string; qualname: string }>(
        `SELECT DISTINCT n.kind, n.qualname FROM nodes n JOIN paths q ON q.id = n.path_id
         WHERE n.name = ? AND q.root_id = ? AND n.kind IN ${CLASS_KINDS} AND n.partial = 0
           AND ${languageFamilySql("q.language")} = ? LIMIT 2`,
        space,
        owner.root_id,
        family,
      );
      return holders.length === 1 && holders[0]!.kind === "module";
    });
    if (!namespace) return undefined;
    const rows = j.all<{ id: string; signature: string | null; proto: number }>(
      `SELECT n.id, n.signature, ${PROTOTYPE} AS proto FROM nodes c
       JOIN paths q ON q.id = c.path_id JOIN nodes n ON n.path_id = c.path_id AND n.parent_id = c.id
       WHERE c.name = ? AND q.root_id = ? AND c.kind = 'module' AND c.partial = 0
         AND ${languageFamilySql("q.language")} = ? AND n.name = ?
         AND (n.kind = 'function' OR n.kind IN ${CLASS_KINDS}) AND n.kind != 'module'
         AND n.partial = 0 AND ${NOT_FILE_LOCAL} LIMIT 50`,
      space,
      owner.root_id,
      family,
      name,
    ).filter((r) => args === null || admits(arityOf(name, r.signature), args));
    const defined = rows.filter((r) => !r.proto);
    const pick = defined.length > 0 ? defined : rows;
    return pick.length === 1 ? pick[0]!.id : undefined;
  }

  /**
   * True when a name no import and no definition of the file binds may be
   * looked up in the rest of the repository (see `bareScope`): a Python file
   * only through a wildcard import, a JS/TS file only when it imports
   * nothing (a script sharing the page's globals). Java reaches the classes
   * of its package (`type`) without importing them.
   */
  #mayLookFar(owner: Owner, type = false): boolean {
    const scope = bareScope(owner.language);
    if (scope === "none") return type;
    if (scope === "star") return this.#bindings(owner.id).has("*");
    if (scope === "script") return !this.#isJsModule(owner.id);
    return true;
  }

  /**
   * True when JS/TS file `pathId` is a module (it imports or exports
   * something, see `isJsModule`), not a script sharing the page's globals.
   */
  #isJsModule(pathId: number): boolean {
    return this.#bindings(pathId).size > 0 || this.journal.get(
          `SELECT 1 FROM nodes x WHERE x.path_id = ? AND ${JS_EXPORT_SQL} LIMIT 1`,
          pathId,
        ) !== undefined;
  }

  /**
   * The class-like definition around node `src` of the owner's file (its
   * method or a function in it), if any. A C++ method defined out of its
   * class (`void Widget::open() { … }`, its parent a namespace) belongs to
   * the class its qualified name gives (see {@link #classNamed}).
   */
  #enclosingClass(owner: Owner, src: string): ClassNode | undefined {
    const nodes = this.#nodesIn(owner.id);
    let id: string | null = src;
    for (let depth = 0; id !== null && depth < 8; depth++) {
      const n = nodes.get(id);
      if (!n || n.kind === "file") return undefined;
      if (CLASS_KINDS.includes(`'${n.kind}'`)) {
        return { id, qualname: n.qualname, path_id: owner.id };
      }
      if (n.kind === "method" && definesOutOfLine(owner.language)) {
        const cut = n.qualname.lastIndexOf(".");
        const parent = n.parent_id === null ? undefined : nodes.get(n.parent_id);
        if (cut > 0 && parent?.qualname !== n.qualname.slice(0, cut)) {
          return this.#classNamed(owner, n.qualname.slice(0, cut));
        }
      }
      id = n.parent_id;
    }
    return undefined;
  }

  /**
   * The class whose qualified name is `qualname`: the file's own, else the
   * one class of that name in the owner's root and language family (a
   * header's); undefined when there is none or several.
   */
  #classNamed(owner: Owner, qualname: string): ClassNode | undefined {
    const key = `${owner.root_id}\0${owner.id}\0${qualname}`;
    return cachedOr(this.#classesNamed, key, () => {
      const rows = this.journal.all<ClassNode>(
        `SELECT n.id, n.qualname, n.path_id FROM nodes n JOIN paths q ON q.id = n.path_id
         WHERE n.qualname = ? AND q.root_id = ? AND n.kind IN ${CLASS_KINDS} AND n.partial = 0
           AND ${languageFamilySql("q.language")} = ?
         ORDER BY n.path_id = ? DESC LIMIT 2`,
        qualname,
        owner.root_id,
        languageFamily(owner.language),
        owner.id,
      );
      return rows.length === 1 || rows[0]?.path_id === owner.id ? rows[0]! : null;
    }) ?? undefined;
  }

  /**
   * A file's rows of `sql` (its one parameter: the file's path id), folded
   * into a map by `add`; cached in `cache` for one afterChange.
   */
  #perFile<R, V>(
    cache: Map<number, Map<string, V>>,
    pathId: number,
    sql: string,
    add: (m: Map<string, V>, r: R) => void,
  ): Map<string, V> {
    return cachedOr(cache, pathId, () => {
      const m = new Map<string, V>();
      for (const r of this.journal.all<R>(sql, pathId)) add(m, r);
      return m;
    });
  }

  /** A file's nodes by id: their kind, qualname and parent; cached like {@link #functionsIn}. */
  #nodesIn(pathId: number): Map<string, NodeFacts> {
    return this.#perFile<NodeFacts & { id: string }, NodeFacts>(
      this.#localNodes,
      pathId,
      "SELECT id, kind, qualname, parent_id FROM nodes WHERE path_id = ?",
      (m, r) => m.set(r.id, { kind: r.kind, qualname: r.qualname, parent_id: r.parent_id }),
    );
  }

  /**
   * The classes a class inherits from, through resolved edges. What it
   * implements lends it members only where the language mixes them in
   * (Ruby's include, PHP's traits) or when it is an interface itself: a
   * class that implements an interface has its own member (maybe one no
   * symbol shows, a property), not the interface's signature.
   */
  #basesOf(cls: ClassNode, language: string | null): ClassNode[] {
    const mixins = mixesIn(language) ? 1 : 0;
    const key = `${cls.id}\0${mixins}`;
    const cached = this.#bases.get(key);
    if (cached) return cached;
    const bases = this.journal.all<ClassNode>(
      `SELECT n.id, n.qualname, n.path_id FROM edges e JOIN nodes n ON n.id = e.dst
       JOIN nodes c ON c.id = e.src
       WHERE e.src = ? AND n.kind IN ${CLASS_KINDS} AND n.partial = 0
         AND (e.kind = 'inherits' OR (e.kind = 'implements' AND (c.kind = 'interface' OR ?)))`,
      cls.id,
      mixins,
    );
    if (this.#bases.size >= STAR_CACHE_MAX) this.#bases.clear();
    this.#bases.set(key, bases);
    return bases;
  }

  /**
   * Member `name` of the first of `classes` that has one, breadth first
   * through their bases (a few levels, each class once). A class's members
   * are in its file (a Go type's methods: in its package's folder). Where
   * the language has overloads and the call says how many arguments it
   * passes (`args`), the first class with an overload that accepts them
   * wins (`f(1)` on a class whose own `f` takes two lands on its base's); a
   * signature whose parameters cannot be read accepts any count; when none
   * accepts them the call lands nowhere (which one it means is not known).
   */
  #memberOf(
    owner: Owner,
    classes: ClassNode[],
    name: string,
    args: number | null = null,
  ): string | undefined {
    const byArity = args !== null && BY_ARITY.has(owner.language ?? "");
    const seen = new Set<string>();
    let level = classes;
    for (let depth = 0; depth < 6 && level.length > 0; depth++) {
      const next: ClassNode[] = [];
      for (const cls of level) {
        if (seen.has(cls.id)) continue;
        seen.add(cls.id);
        const qualname = `${cls.qualname}.${name}`;
        // A C# partial class's members may be in any of its parts' files.
        const files = owner.language === "csharp" ? this.#partsOf(cls) : [cls.path_id];
        const members = this.#definitionsNamed(files, qualname);
        if (byArity) {
          const fits = members.find((n) => admits(arityOf(name, n.signature), args));
          if (fits) return fits.id;
        } else {
          const hit = members[0] ??
            (owner.language === "go" ? this.#inPackageOf(cls.path_id, qualname) : undefined);
          if (hit) return hit.id;
        }
        next.push(...this.#basesOf(cls, owner.language));
      }
      level = next;
    }
    return undefined;
  }

  /**
   * The definition named `name` in `files` that an import of it (or a call,
   * `call`: no class member) lands on: a top-level one first, then the
   * latest by line. Kept per list of files (the one `#filesFor` keeps) while
   * no node changes: a package's files are asked for the same names by every
   * file that imports them, and one query for a folder of 300 files takes
   * 0.6 ms.
   */
  #definedIn(files: number[], name: string, call: boolean): { id: string } | undefined {
    let byName = this.#definedInFiles.get(files);
    if (byName === undefined) this.#definedInFiles.set(files, byName = new Map());
    const key = `${call ? 1 : 0}${name}`;
    let hit = byName.get(key);
    if (hit === undefined) {
      hit = this.journal.get<{ id: string }>(
        `SELECT n.id FROM nodes n LEFT JOIN nodes p ON p.id = n.parent_id
         WHERE n.path_id IN (${files.map(() => "?").join(",")}) AND n.name = ?
           AND ${call ? `${CALLABLE} AND +n.qualname = n.name` : DEFINITION}
         ORDER BY (n.qualname = n.name) DESC, n.start_line DESC LIMIT 1`,
        ...files,
        name,
      ) ?? null;
      byName.set(key, hit);
    }
    return hit ?? undefined;
  }

  /**
   * What one of `files` re-exports as `name` (`export { x } from "./x.ts"`,
   * `pub use span::Span`): the first file's by id, its first such import.
   * A few files are read by the owners' index, a probe each; many (a
   * package's folder: 0.6 ms for 300 of them) by the name's, when fewer
   * imports of that name than files are in the journal.
   */
  #reexportIn(files: number[], name: string): { dst: string } | undefined {
    if (!this.#bulk) return this.#reexportQuery(files, name);
    let byFiles = this.#reexports.get(name);
    if (byFiles === undefined) this.#reexports.set(name, byFiles = new WeakMap());
    let hit = byFiles.get(files);
    if (hit === undefined) byFiles.set(files, hit = this.#reexportQuery(files, name) ?? null);
    return hit ?? undefined;
  }

  #reexportQuery(files: number[], name: string): { dst: string } | undefined {
    const j = this.journal;
    const byName = files.length > REEXPORT_PROBES &&
      j.get<{ n: number }>(
          "SELECT count(*) AS n FROM (SELECT 1 FROM edges WHERE name = ? LIMIT ?)",
          name,
          files.length,
        )!.n < files.length;
    return j.get<{ dst: string }>(
      `SELECT dst FROM edges WHERE ${byName ? "+owner_id" : "owner_id"} IN (${
        files.map(() => "?").join(",")
      }) AND kind = 'imports' AND ${byName ? "name" : "+name"} = ? AND how = 'import'
       ORDER BY owner_id, rowid LIMIT 1`,
      ...files,
      name,
    );
  }

  /**
   * The definitions named `qualname` in `files` (no file, heading or impl
   * node, none partial): the first file's, then the others', each by line,
   * latest first. A file's definitions are read once, by qualified name, and
   * kept for the next class member looked up there (a class's file is asked
   * for as many members as the calls on it name; one query each cost a
   * 31,000-file index's resolution 4 s).
   */
  #definitionsNamed(files: readonly number[], qualname: string): Member[] {
    const of = (pathId: number) => {
      let byName = this.#members.get(pathId);
      if (byName === undefined) {
        if (this.#members.size >= MEMBER_FILES_MAX) this.#members.clear();
        byName = new Map();
        // A call resolves within its language family, and BY_ARITY holds whole families.
        const signed = BY_ARITY.has(this.#owner(pathId)?.language ?? "");
        for (
          const r of this.journal.all<Member & { qualname: string }>(
            `SELECT n.id, n.qualname, ${signed ? "n.signature" : "NULL AS signature"},
               n.start_line FROM nodes n
             WHERE n.path_id = ? AND ${DEFINITION} ORDER BY n.start_line DESC`,
            pathId,
          )
        ) {
          const list = byName.get(r.qualname);
          const m = { id: r.id, signature: r.signature, start_line: r.start_line };
          if (list) list.push(m);
          else byName.set(r.qualname, [m]);
        }
        this.#members.set(pathId, byName);
      }
      return byName.get(qualname) ?? [];
    };
    const first = of(files[0]!);
    if (files.length === 1) return first;
    const rest = files.slice(1).flatMap(of)
      .sort((a, b) => (b.start_line ?? -Infinity) - (a.start_line ?? -Infinity));
    return [...first, ...rest];
  }

  /**
   * The files of a C# class's parts: its own file, and when it is declared
   * `partial`, every file of its root holding a `partial` class-like
   * definition of the same qualified name (`Form1.cs` and
   * `Form1.Designer.cs`); a few dozen at most.
   */
  #partsOf(cls: ClassNode): number[] {
    return cachedOr(this.#parts, cls.id, () => this.#readPartsOf(cls));
  }

  /** {@link #partsOf}, read. */
  #readPartsOf(cls: ClassNode): number[] {
    const j = this.journal;
    const own = j.get<{ signature: string | null; root_id: number }>(
      `SELECT n.signature, p.root_id FROM nodes n JOIN paths p ON p.id = n.path_id
       WHERE n.id = ?`,
      cls.id,
    );
    if (!own || !/\bpartial\b/.test(own.signature ?? "")) return [cls.path_id];
    const others = j.all<{ path_id: number; signature: string | null }>(
      `SELECT DISTINCT n.path_id, n.signature FROM nodes n JOIN paths p ON p.id = n.path_id
       WHERE n.qualname = ? AND p.root_id = ? AND p.language = 'csharp'
         AND n.kind IN ${CLASS_KINDS} AND n.partial = 0 AND n.path_id != ? LIMIT 50`,
      cls.qualname,
      own.root_id,
      cls.path_id,
    ).filter((r) => /\bpartial\b/.test(r.signature ?? "")).map((r) => r.path_id);
    return [cls.path_id, ...new Set(others)];
  }

  /**
   * The name of the definition a JS/TS module exports as its default
   * (`export default class Car`, `export default function build`), the
   * first of `files` that has one; undefined when none does.
   */
  #defaultExportName(files: number[]): string | undefined {
    return this.journal.get<{ name: string }>(
      `SELECT n.name FROM nodes n WHERE n.path_id IN (${files.map(() => "?").join(",")})
         AND +n.qualname = n.name AND n.signature LIKE 'export default %'
       ORDER BY n.path_id, n.start_line LIMIT 1`,
      ...files,
    )?.name;
  }

  /**
   * A definition of `qualname` in another file of the package of file
   * `pathId`: of its folder, naming its package (see {@link #samePackage}).
   */
  #inPackageOf(pathId: number, qualname: string): { id: string } | undefined {
    const j = this.journal;
    const at = j.get<{ root_id: number; rel: string }>(
      "SELECT root_id, rel FROM paths WHERE id = ?",
      pathId,
    );
    if (!at) return undefined;
    const dir = posix.dirname(at.rel);
    for (
      const r of j.all<{ id: string; rel: string; path_id: number }>(
        `SELECT n.id, p.rel, n.path_id FROM nodes n JOIN paths p ON p.id = n.path_id
         WHERE n.qualname = ? AND p.root_id = ? AND ${DEFINITION} LIMIT 50`,
        qualname,
        at.root_id,
      )
    ) if (posix.dirname(r.rel) === dir && this.#samePackage(pathId, r.path_id)) return r;
    return undefined;
  }

  /** Go: the package clause of file `pathId` (`package store`), "" when it has none. */
  #goPackage(pathId: number): string {
    return cachedOr(this.#goPackages, pathId, () =>
      this.journal.get<{ signature: string | null }>(
        "SELECT signature FROM nodes WHERE path_id = ? AND kind = 'file'",
        pathId,
      )?.signature ?? "");
  }

  /**
   * Go: files `a` and `b` (of one folder) name one package. An external
   * test (`package store_test`) or a file kept out of the build (`package
   * main` under `//go:build ignore`) shares its folder with `package store`,
   * not its names.
   */
  #samePackage(a: number, b: number): boolean {
    return a === b || this.#goPackage(a) === this.#goPackage(b);
  }

  /**
   * The class-like definitions named `name` in `files`, top-level first, a
   * Rust type's own definition before its `impl` blocks (where its methods are).
   * Kept per list of files while no node changes, as {@link #definedIn} keeps its.
   */
  #classesNamedIn(files: number[], name: string): (ClassNode & { kind: string })[] {
    let byName = this.#classesByName.get(files);
    if (byName === undefined) this.#classesByName.set(files, byName = new Map());
    let found = byName.get(name);
    if (found === undefined) {
      found = this.journal.all<ClassNode & { kind: string }>(
        `SELECT n.id, n.qualname, n.path_id, n.kind FROM nodes n
         WHERE n.path_id IN (${files.map(() => "?").join(",")}) AND n.name = ?
           AND n.kind IN ${CLASS_KINDS} AND n.partial = 0
         ORDER BY (n.qualname = n.name) DESC, n.kind = 'impl', n.start_line DESC LIMIT 16`,
        ...files,
        name,
      );
      byName.set(name, found);
    }
    return found;
  }

  /**
   * The module specifiers behind a reference, most specific first: its own,
   * or those of the import that bound its name or qualifier. An imported name
   * may itself be a module (`from pkg import models`, `use crate::a::b`), so
   * `module.name` is tried before `module` where the language nests modules.
   */
  #modulesFor(owner: Owner, ref: RefRow, qualifier: string | undefined): string[] {
    const nested = (module: string, name: string) => importSpecs(owner.language, module, name);
    // A Rust path inside an inline module (`mod tests { use super::*; }`), as
    // the file reads it; one that starts at a module the file declares
    // (`mod span_encoding;` … `use span_encoding::Span`) starts at `self`.
    const inFile = (module: string, src: string) => {
      if (owner.language !== "rust") return module;
      const path = rustPathInFile(module, this.#inlineDepth(owner.id, src));
      return this.#declaresModule(owner.id, path.split("::")[0]!) ? `self::${path}` : path;
    };
    // Java: `import a.b.Store;` names the class: its file, not the package
    // (whose folders may be several copies, see `oneSourceSet`).
    const javaClass = (module: string, name: string) =>
      owner.language === "java" && /^[A-Z]/.test(name) ? [`${module}.${name}`] : undefined;
    if (ref.kind === "imports") {
      if (!ref.module) return [];
      const module = inFile(ref.module, ref.src);
      return javaClass(module, ref.imported ?? ref.target) ??
        nested(module, ref.imported ?? ref.target);
    }
    const binding = ref.module ?? qualifier ?? ref.target;
    const imp = this.#bindings(owner.id).get(binding);
    if (imp?.module) {
      const module = inFile(imp.module, imp.src);
      if (imp.target === ref.target) return javaClass(module, imp.target) ?? [module];
      return javaClass(module, imp.imported ?? imp.target) ??
        nested(module, imp.imported ?? imp.target);
    }
    return ref.module ? [inFile(ref.module, ref.src)] : [];
  }

  /** True when the file declares a module named `name` at its top whose items are elsewhere (`mod name;`). */
  #declaresModule(pathId: number, name: string): boolean {
    if (name === "self" || name === "super" || name === "crate") return false;
    return this.#perFile<{ name: string }, true>(
      this.#localModules,
      pathId,
      // `mod name;` holds nothing here: its items are in name.rs or name/mod.rs.
      `SELECT n.name FROM nodes n WHERE n.path_id = ? AND n.kind = 'module' AND n.qualname = n.name
         AND NOT EXISTS (SELECT 1 FROM nodes c WHERE c.path_id = n.path_id AND c.parent_id = n.id)`,
      (m, r) => m.set(r.name, true),
    ).has(name);
  }

  /** How many inline modules (`mod m { … }`) of its file hold node `src`. */
  #inlineDepth(pathId: number, src: string): number {
    const nodes = this.#nodesIn(pathId);
    let depth = 0;
    for (let n = nodes.get(src); n !== undefined; n = nodes.get(n.parent_id ?? "")) {
      if (n.kind === "module") depth++;
    }
    return depth;
  }

  /** A file's import bindings (local name → module and imported name), cached for one afterChange. */
  #bindings(ownerId: number): Map<string, ImportBinding> {
    return this.#perFile<ImportBinding, ImportBinding>(
      this.#bindingCache,
      ownerId,
      `SELECT module, target, module_tail, imported, src FROM pending_edges
       WHERE owner_id = ?1 AND kind = 'imports'
       UNION ALL SELECT module, target, module_tail, imported, src FROM edges
       WHERE owner_id = ?1 AND kind = 'imports'`,
      (b, r) => {
        if (!b.has(r.target)) b.set(r.target, r);
      },
    );
  }

  /**
   * A file's definitions by name, each with what it is nested in, the last
   * by line first; cached for one afterChange.
   */
  #definitionsIn(pathId: number): Map<string, (Enclosed & { id: string })[]> {
    return this.#perFile<Enclosed & { id: string; name: string }, (Enclosed & { id: string })[]>(
      this.#localDefs,
      pathId,
      `SELECT n.id, n.name, p.kind AS parent_kind, p.qualname AS parent_qualname FROM nodes n
       LEFT JOIN nodes p ON p.id = n.parent_id WHERE n.path_id = ? AND ${DEFINITION}
       ORDER BY n.start_line DESC`,
      (m, r) => {
        const list = m.get(r.name);
        if (list) list.push(r);
        else m.set(r.name, [r]);
      },
    );
  }

  /**
   * The definition of `name` in the owner's file that code at node `src`
   * names so (a base, an interface): of those it sees (see {@link
   * seenFrom}), the one nested deepest around it (`Namespaced.Company`
   * inside module Namespaced, the top-level `Company` outside it), the last
   * by line among equals.
   */
  #localDefinition(owner: Owner, src: string, name: string): string | undefined {
    const all = this.#definitionsIn(owner.id).get(name);
    if (!all) return undefined;
    const scope = this.#scopeOf(owner, src);
    let best: (Enclosed & { id: string }) | undefined;
    // -1: nested in something not around `src` that it still sees (a C++
    // namespace, a function's class): taken only when nothing else is.
    let depth = -2;
    for (const d of all) {
      if (d.id === src || !seenFrom(owner.language, d, scope)) continue;
      const outer = d.parent_kind === null || d.parent_kind === "file"
        ? ""
        : d.parent_qualname ?? "";
      const around = outer === ""
        ? 0
        : scope === outer || scope.startsWith(`${outer}.`)
        ? outer.length + 1
        : -1;
      if (around > depth) [best, depth] = [d, around];
    }
    return best?.id;
  }

  /**
   * A file's definitions a bare call may land on (no class members), by
   * name, each with its parent node and lines, the last by line first (a
   * later definition replaces an earlier one, and an implementation follows
   * its overloads). Only those whose parent opens a scope (the file, a
   * function, a namespace): a method of an object literal binds no name.
   * Cached for one afterChange.
   */
  #functionsIn(pathId: number): Map<string, LocalFunction[]> {
    return this.#perFile<LocalFunction & { name: string }, LocalFunction[]>(
      this.#localFunctions,
      pathId,
      `SELECT n.id, n.name, n.parent_id AS parent, p.kind = 'file' AS top,
              n.start_line AS start, n.end_line AS end, n.signature FROM nodes n
       LEFT JOIN nodes p ON p.id = n.parent_id
       WHERE n.path_id = ? AND ${CALLABLE}
         AND p.kind IN ('file', 'function', 'method', 'module')
       ORDER BY n.start_line DESC`,
      (m, r) => {
        const list = m.get(r.name);
        if (list) list.push(r);
        else m.set(r.name, [r]);
      },
    );
  }

  /**
   * The definition of `name` in the file that a bare call from node `src`
   * sees: one whose parent is `src` or a node around it, the nearest first
   * (a function nested in another function is not seen from a third). In
   * JS/TS, several at one level are overloads only when they follow one
   * another; else they sit in blocks or callbacks that are no symbols, and
   * which one the call sees is not known: none is chosen. `topLevel`
   * false: only one nested in a function or a namespace.
   */
  #visibleFunction(
    owner: Owner,
    src: string,
    name: string,
    topLevel = true,
    args: number | null = null,
  ): string | undefined {
    const all = this.#functionsIn(owner.id).get(name);
    const candidates = topLevel ? all : all?.filter((c) => !c.top);
    if (!candidates || candidates.length === 0) return undefined;
    // The common case: one definition, at top level, seen from everywhere.
    if (candidates.length === 1 && candidates[0]!.top) return candidates[0]!.id;
    const nodes = this.#nodesIn(owner.id);
    let id: string | null = src;
    for (let depth = 0; id !== null && depth < 12; depth++) {
      const at = id;
      const level = candidates.filter((c) => c.parent === at);
      if (level.length > 0) {
        if (level.length > 1 && languageFamily(owner.language) === "js" && !adjacent(level)) {
          return undefined;
        }
        // Overloads (C++): the one that accepts the call's arguments, if one does.
        if (level.length > 1 && args !== null && BY_ARITY.has(owner.language ?? "")) {
          const fits = level.find((c) => admits(arityOf(name, c.signature), args));
          if (fits) return fits.id;
        }
        return level[0]!.id;
      }
      id = nodes.get(id)?.parent_id ?? null;
    }
    return undefined;
  }

  /** A file's class-like definitions by name (top-level first); cached for one afterChange. */
  #classesIn(pathId: number): Map<string, ClassNode> {
    return this.#perFile<ClassNode & { name: string }, ClassNode>(
      this.#localClasses,
      pathId,
      `SELECT n.id, n.name, n.qualname, n.path_id FROM nodes n
       WHERE n.path_id = ? AND n.kind IN ${CLASS_KINDS} AND n.partial = 0
       ORDER BY (n.qualname = n.name) DESC, n.kind = 'impl', n.start_line DESC`,
      (m, r) => {
        const cls = { id: r.id, qualname: r.qualname, path_id: r.path_id };
        if (!m.has(r.name)) m.set(r.name, cls);
        // By qualified name too, for #visibleClass ("\0" never starts a name).
        if (!m.has(`\0${r.qualname}`)) m.set(`\0${r.qualname}`, cls);
      },
    );
  }

  /**
   * The class of the owner's file that `name` means at node `src`: one
   * declared in a namespace, function or class around it (the innermost),
   * else the file's top-level one, else any of that name (see
   * {@link #classesIn}). `Store` inside `namespace b` is `b.Store`, not a
   * top-level `Store`. A Python method does not see its class's body, so
   * a class there is skipped.
   */
  #visibleClass(owner: Owner, src: string, name: string): ClassNode | undefined {
    const classes = this.#classesIn(owner.id);
    const nodes = this.#nodesIn(owner.id);
    let id: string | null = src;
    for (let depth = 0; id !== null && depth < 12; depth++) {
      const n = nodes.get(id);
      if (!n || n.kind === "file") break;
      if (owner.language !== "python" || !CLASS_KINDS.includes(`'${n.kind}'`)) {
        const hit = classes.get(`\0${n.qualname}.${name}`);
        if (hit) return hit;
      }
      id = n.parent_id;
    }
    return classes.get(name);
  }

  /**
   * The one definition of `name` that is no class member in the owner's
   * root (a Go file: in its package's folder) that code at node `src` sees
   * by that name (see {@link seenFrom}), or null when there are none or
   * several; its candidates are cached for one afterChange.
   */
  #uniqueDefinition(owner: Owner, name: string, call = false, src?: string): string | null {
    // Go: its package's files; Java: its package's classes (a base or an
    // interface named bare, no import: `extends AbstractCache` is in the
    // folder of the class that names it, never a namesake of another package).
    const where = this.#packageOf(owner);
    const key = `${owner.root_id}\0${owner.language}\0${where.key}\0${name}\0${call}`;
    // C and C++: prototypes (`int f(int);`, a header's or a file's forward
    // declaration) are no second definition of a function defined elsewhere.
    const c = languageFamily(owner.language) === "c";
    const all = cachedOr(this.#uniqueDefs, key, () => {
      // A script's bare call: the globals other scripts define, never a module's own.
      const script = bareScope(owner.language) === "script";
      return this.journal.all<Candidate & { rel: string; path_id: number }>(
        `SELECT n.id, q.rel, ${c ? PROTOTYPE : "0"} AS proto, n.path_id,
           p.kind AS parent_kind, p.qualname AS parent_qualname FROM nodes n
         JOIN paths q ON q.id = n.path_id
         LEFT JOIN nodes p ON p.id = n.parent_id
         WHERE n.name = ? AND q.root_id = ? AND ${
          call ? CALLABLE : NOT_MEMBER
        } AND ${NOT_FILE_LOCAL} AND ${AT_FILE_SCOPE}
           AND ${languageFamilySql("q.language")} = ? LIMIT 50`,
        name,
        owner.root_id,
        languageFamily(owner.language),
      ).filter((r) => where.holds(r.rel, r.path_id) && (!script || !this.#isJsModule(r.path_id)))
        .map(({ id, proto, parent_kind, parent_qualname }) => ({
          id,
          proto,
          parent_kind,
          parent_qualname,
        }));
    });
    const scope = this.#scopeOf(owner, src);
    const rows = all.filter((r) => seenFrom(owner.language, r, scope));
    const defined = rows.filter((r) => !r.proto);
    const pick = defined.length > 0 ? defined : rows;
    return pick.length === 1 ? pick[0]!.id : null;
  }

  /**
   * The one class-like definition of the owner's root and language family
   * that a qualified base names (`ActiveModel::Type::Date`,
   * `ConnectionAdapters::StatementPool`, `ui::Frame`): one whose qualified
   * name is that path, or ends with it (a namespace around it); with a
   * leading `::`, only the path itself. Never the class that names it. One
   * of the owner's file first; else none when several are so named (a
   * class reopened in several files too), or none.
   */
  #qualifiedClass(
    owner: Owner,
    ref: RefRow,
    name: string,
  ): { dst: string; how: string } | undefined {
    const absolute = /^(::|\\)/.test(ref.target);
    const path = ref.target.split(/\.|::|\\/).filter((s) => s !== "").join(".");
    const rows = this.journal.all<{ id: string; qualname: string; path_id: number; rel: string }>(
      `SELECT n.id, n.qualname, n.path_id, q.rel FROM nodes n JOIN paths q ON q.id = n.path_id
       WHERE n.name = ? AND q.root_id = ? AND n.kind IN ${CLASS_KINDS} AND n.partial = 0
         AND ${languageFamilySql("q.language")} = ? LIMIT 200`,
      name,
      owner.root_id,
      languageFamily(owner.language),
    ).filter((r) =>
      r.id !== ref.src && (r.qualname === path || (!absolute && r.qualname.endsWith(`.${path}`))) &&
      // Java: `Maps.KeySet` no import names is its package's, in its folder.
      (owner.language !== "java" || posix.dirname(r.rel) === posix.dirname(owner.rel))
    );
    // The file's own first, as for a bare name: what other files hold then
    // changes nothing.
    const own = rows.filter((r) => r.path_id === owner.id);
    if (own.length > 0) return own.length === 1 ? { dst: own[0]!.id, how: "same-file" } : undefined;
    return rows.length === 1 ? { dst: rows[0]!.id, how: "unique" } : undefined;
  }

  /** The qualified name of node `src` of the owner's file ("" for the file, or none given). */
  #scopeOf(owner: Owner, src: string | undefined): string {
    return src === undefined ? "" : this.#nodesIn(owner.id).get(src)?.qualname ?? "";
  }

  /** True when node `id` is a C or C++ function's prototype (see {@link PROTOTYPE}). */
  #isPrototype(id: string): boolean {
    return Boolean(
      this.journal.get<{ proto: number }>(
        `SELECT ${PROTOTYPE} AS proto FROM nodes n WHERE n.id = ?`,
        id,
      )
        ?.proto,
    );
  }

  /**
   * Where a name `owner`'s file uses bare is defined, in the languages whose
   * package is a folder: Go and Java, the files of its folder (in Go, those
   * whose package clause names its package); elsewhere, any file. `key`
   * tells two such places apart in a cache key.
   */
  #packageOf(owner: Owner): { key: string; holds: (rel: string, pathId: number) => boolean } {
    if (owner.language !== "go" && owner.language !== "java") {
      return { key: "", holds: () => true };
    }
    const folder = posix.dirname(owner.rel);
    const pkg = owner.language === "go" ? this.#goPackage(owner.id) : undefined;
    return {
      key: `${folder}\0${pkg ?? ""}`,
      holds: (rel, pathId) =>
        posix.dirname(rel) === folder && (pkg === undefined || this.#goPackage(pathId) === pkg),
    };
  }

  /**
   * The one class-like definition named `name` in the owner's root (Go,
   * Java: its folder) that code at node `src` sees by that name (see
   * {@link seenFrom}), or undefined.
   */
  #uniqueClass(owner: Owner, name: string, src?: string): ClassNode | undefined {
    const where = this.#packageOf(owner);
    const family = languageFamily(owner.language);
    // By name, not by package: Java and Go ask it of every folder that uses the name.
    const all = cachedOr(
      this.#uniqueClasses,
      `${owner.root_id}\0${family}\0${name}`,
      () =>
        this.journal.all<ClassNode & Enclosed & { rel: string }>(
          `SELECT n.id, n.qualname, n.path_id, q.rel, p.kind AS parent_kind,
           p.qualname AS parent_qualname FROM nodes n JOIN paths q ON q.id = n.path_id
         LEFT JOIN nodes p ON p.id = n.parent_id
         WHERE n.name = ? AND q.root_id = ? AND n.kind IN ${CLASS_KINDS} AND n.partial = 0
           AND ${AT_FILE_SCOPE} AND ${languageFamilySql("q.language")} = ? LIMIT 50`,
          name,
          owner.root_id,
          family,
        ),
    ).filter((r) => where.holds(r.rel, r.path_id));
    const scope = this.#scopeOf(owner, src);
    const rows = all.filter((r) => seenFrom(owner.language, r, scope));
    return rows.length === 1
      ? { id: rows[0]!.id, qualname: rows[0]!.qualname, path_id: rows[0]!.path_id }
      : undefined;
  }

  /**
   * The roots and language families in which `name` has exactly one
   * definition that is no class member, or exactly one a call may land on,
   * or at most one seen from everywhere (the others are seen only from
   * inside their class, see {@link seenFrom}): where a bare name can resolve.
   */
  #rootsWhereUnique(name: string): { root_id: number; family: string }[] {
    return this.journal.all<{ root_id: number; family: string }>(
      `SELECT q.root_id, ${languageFamilySql("q.language")} AS family FROM nodes n
       JOIN paths q ON q.id = n.path_id LEFT JOIN nodes p ON p.id = n.parent_id
       WHERE n.name = ? AND ${NOT_MEMBER} AND ${NOT_FILE_LOCAL} AND ${AT_FILE_SCOPE}
       GROUP BY 1, 2
       HAVING count(*) = 1 OR sum(n.kind != 'module') = 1 OR sum(${SEEN_EVERYWHERE}) <= 1`,
      name,
    );
  }

  /** A path's facts for resolution, cached for one afterChange. */
  #owner(id: number): Owner | undefined {
    if (!this.#owners.has(id)) {
      this.#owners.set(
        id,
        this.journal.get<Owner>("SELECT id, root_id, rel, language FROM paths WHERE id = ?", id),
      );
    }
    return this.#owners.get(id);
  }

  /**
   * Drops what a change to one path can make stale: the caches keyed by it
   * (its facts, its import bindings) and every module look-up that consulted
   * it, or its folder in one of `languages` (the file's now, and the one it
   * was filed under). Everything else stays cached across commits, which is
   * what keeps resolution cheap on large trees.
   */
  #forget(
    change: { path: string; pathId: number; rootId: number; rel: string },
    languages: ReadonlySet<string>,
  ): Set<number> {
    const affected = new Set<number>();
    this.#pathIds.delete(change.path);
    this.#owners.delete(change.pathId);
    this.#bindingCache.delete(change.pathId);
    const deps = [`p:${change.path}`];
    const dir = posix.dirname(change.rel);
    if (dir !== ".") {
      const parts = dir.split("/");
      for (let i = 0; i < parts.length; i++) {
        deps.push(`d:${change.rootId}:${parts.slice(i).join("/")}`);
      }
    }
    for (const dep of deps) {
      const keys = this.#fileDeps.get(dep);
      if (!keys) continue;
      for (const key of keys) {
        // A folder's files are looked up by the importer's language (see
        // #lookupFiles): a look-up in another language never saw this file.
        if (dep.startsWith("d:") && !languages.has(languageOfFilesKey(key))) continue;
        this.#files.delete(key);
        const owner = this.#fileKeyOwner.get(key);
        if (owner !== undefined) affected.add(owner);
        this.#fileKeyOwner.delete(key);
        keys.delete(key);
      }
      if (keys.size === 0) this.#fileDeps.delete(dep);
    }
    if (this.#files.size > 200_000) {
      this.#files.clear();
      this.#fileLists.clear();
      this.#fileDeps.clear();
      this.#fileKeyOwner.clear();
    }
    return affected;
  }

  /** Indexed files (path ids) of the same root that a module specifier names. */
  #filesFor(owner: Owner, spec: string): number[] {
    const key = filesKey(owner, spec);
    let files = this.#files.get(key);
    if (!files) {
      const deps: string[] = [];
      files = this.#sameList(this.#lookupFiles(owner, spec, deps));
      this.#files.set(key, files);
      if (this.options.onePass) {
        const keys = this.#passKeys.get(owner.id);
        if (keys) keys.push(key);
        else this.#passKeys.set(owner.id, [key]);
        return files;
      }
      this.#fileKeyOwner.set(key, owner.id);
      for (const dep of deps) {
        let keys = this.#fileDeps.get(dep);
        if (!keys) this.#fileDeps.set(dep, keys = new Set());
        keys.add(key);
      }
    }
    return files;
  }

  /** The one array {@link #fileLists} keeps for the files of `list`. */
  #sameList(list: number[]): number[] {
    const key = list.join(",");
    const known = this.#fileLists.get(key);
    if (known !== undefined) return known;
    if (this.#fileLists.size >= FILE_LISTS_MAX) this.#fileLists.clear();
    this.#fileLists.set(key, list);
    return list;
  }

  /** The look-up behind {@link #filesFor}; `deps` collects what it consulted. */
  #lookupFiles(owner: Owner, spec: string, deps: string[]): number[] {
    const language = owner.language ?? "";
    const rels = moduleCandidates(
      language,
      owner.rel,
      spec,
      this.#aliasesFor(owner.root_id),
      (name) => this.#crateFolder(owner, name, deps),
    );
    const base = this.#rootPath(owner.root_id);
    for (const rel of rels) {
      deps.push(`p:${base}/${rel}`);
      const id = this.#pathId(`${base}/${rel}`);
      if (id !== null) return [id];
    }
    for (const suffix of packageDirSuffixes(language, spec)) {
      deps.push(`d:${owner.root_id}:${suffix}`);
      const files = this.#filesInFolders(owner, language, suffix);
      if (files.length > 0) {
        if (language === "java") return oneSourceSet(files, spec, owner.rel).map((f) => f.id);
        if (language !== "go") return files.map((f) => f.id);
        // An external test's package (`package store_test`) is imported by none.
        return onePackage(files, suffix).map((f) => f.id)
          .filter((id) => !this.#goPackage(id).endsWith("_test"));
      }
    }
    return [];
  }

  /** The files of the owner's root and `language` in folders that end with `suffix`. */
  #filesInFolders(owner: Owner, language: string, suffix: string): { id: number; rel: string }[] {
    return this.#folders.filesIn(
      owner.root_id,
      language,
      suffix,
      () =>
        this.journal.all<{ id: number; rel: string }>(
          "SELECT id, rel FROM paths WHERE root_id = ? AND language = ? AND state = 'indexed'",
          owner.root_id,
          language,
        ),
    );
  }

  /**
   * The folder of the workspace crate code calls `name` (`util` of `use
   * util::text`), in the owner's root: the one folder of that name (or with
   * `-` for `_`, as Cargo names packages) holding an indexed `src/lib.rs`.
   * The root itself when it is so named and holds `src/lib.rs` (a
   * single-crate repository cloned under its crate's name: its tests and
   * examples call it by name). Undefined when none does, or when several do
   * (two vendored copies, two workspaces in one root): the import then
   * stays pending, never a guess. Its look-ups depend on those folders (`deps`), so a
   * crate appearing, moving or gone is seen at its next commit.
   */
  #crateFolder(owner: Owner, name: string, deps: string[]): string | undefined {
    const found = new Set<string>();
    if (name === this.#rootCrate(owner.root_id)) {
      const lib = `${this.#rootPath(owner.root_id)}/src/lib.rs`;
      deps.push(`p:${lib}`);
      if (this.#pathId(lib) !== null) found.add("");
    }
    for (const folder of crateFolderNames(name)) {
      const suffix = `${folder}/src`;
      deps.push(`d:${owner.root_id}:${suffix}`);
      for (const f of this.#filesInFolders(owner, "rust", suffix)) {
        if (f.rel === `${suffix}/lib.rs` || f.rel.endsWith(`/${suffix}/lib.rs`)) {
          found.add(f.rel.slice(0, -"/src/lib.rs".length));
        }
      }
    }
    return found.size === 1 ? [...found][0] : undefined;
  }

  /** The name code would call a crate at the root by: its folder's name, `-` read as `_`. */
  #rootCrate(rootId: number): string {
    const path = this.#rootPath(rootId);
    return path.slice(path.lastIndexOf("/") + 1).replaceAll("-", "_");
  }

  #rootPath(rootId: number): string {
    let p = this.#rootPaths.get(rootId);
    if (p === undefined) {
      p = this.journal.get<{ path: string }>("SELECT path FROM roots WHERE id = ?", rootId)?.path ??
        "";
      this.#rootPaths.set(rootId, p);
    }
    return p;
  }

  /**
   * The id of an indexed file by absolute path, or null. Cached across
   * commits: afterChange drops the entry of the path it is told about, the
   * only one whose existence a commit can change.
   */
  #pathId(path: string): number | null {
    let id = this.#pathIds.get(path);
    if (id === undefined) {
      id = this.journal.get<{ id: number }>(
        "SELECT id FROM paths WHERE path = ? AND state = 'indexed'",
        path,
      )?.id ?? null;
      if (this.#pathIds.size > 200_000) this.#pathIds.clear();
      this.#pathIds.set(path, id);
    }
    return id;
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

/**
 * Files by folder, per root and language, for package-style imports (Go
 * packages, Java packages): which folders end with `store` or `acme/store`.
 * Loaded once per root and language, then kept up to date commit by commit,
 * so a look-up never scans the paths table.
 */
class FolderIndex {
  /** "root\0language" → folder's last segment → folder → path id → its path in the root. */
  readonly #byTail = new Map<string, Map<string, Map<string, Map<number, string>>>>();
  /** path id → where it is filed, to move or drop it. */
  readonly #where = new Map<number, { key: string; dir: string }>();

  /**
   * The files (id, path) in folders that end with `suffix`, by path (the same answer
   * whatever order the files were indexed in); `load` lists a root's files
   * of the language the first time.
   */
  filesIn(
    rootId: number,
    language: string,
    suffix: string,
    load: () => { id: number; rel: string }[],
  ): { id: number; rel: string }[] {
    const key = `${rootId}\0${language}`;
    let byTail = this.#byTail.get(key);
    if (!byTail) {
      byTail = new Map();
      this.#byTail.set(key, byTail);
      for (const r of load()) this.#add(key, byTail, r.id, r.rel);
    }
    const out: [number, string][] = [];
    const tail = suffix.slice(suffix.lastIndexOf("/") + 1);
    for (const [dir, ids] of byTail.get(tail) ?? []) {
      if (dir === suffix || dir.endsWith("/" + suffix)) out.push(...ids);
    }
    return out.sort((a, b) => a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0).map(([id, rel]) => ({
      id,
      rel,
    }));
  }

  /**
   * Files (or drops) one path after a commit; `row` is its row now, if it
   * still has one. Returns the language it was filed under, if it was: a
   * look-up in that language's folders may have found it.
   */
  update(
    change: { pathId: number; rootId: number; rel: string },
    row: { language: string | null; state: string } | undefined,
  ): string | undefined {
    const old = this.#where.get(change.pathId);
    if (old) {
      const tail = old.dir.slice(old.dir.lastIndexOf("/") + 1);
      this.#byTail.get(old.key)?.get(tail)?.get(old.dir)?.delete(change.pathId);
      this.#where.delete(change.pathId);
    }
    const was = old?.key.slice(old.key.indexOf("\0") + 1);
    if (!row || row.state !== "indexed" || row.language === null) return was;
    const key = `${change.rootId}\0${row.language}`;
    const byTail = this.#byTail.get(key);
    // A root and language not loaded yet will be read whole on first use.
    if (byTail) this.#add(key, byTail, change.pathId, change.rel);
    return was;
  }

  #add(
    key: string,
    byTail: Map<string, Map<string, Map<number, string>>>,
    id: number,
    rel: string,
  ): void {
    const dir = posix.dirname(rel);
    const tail = dir.slice(dir.lastIndexOf("/") + 1);
    let dirs = byTail.get(tail);
    if (!dirs) byTail.set(tail, dirs = new Map());
    let ids = dirs.get(dir);
    if (!ids) dirs.set(dir, ids = new Map());
    ids.set(id, rel);
    this.#where.set(id, { key, dir });
  }
}

/**
 * The files of the one Go package among `files` (in folders ending with
 * `suffix`): a package is one folder, so files of several folders
 * (`b/` and `c/b/` for `example.com/m/b`) are several packages, of which
 * only the folder that is the suffix itself is evidently the one; else none.
 */
function onePackage(
  files: { id: number; rel: string }[],
  suffix: string,
): { id: number; rel: string }[] {
  const dirs = new Set(files.map((f) => posix.dirname(f.rel)));
  if (dirs.size === 1) return files;
  return files.filter((f) => posix.dirname(f.rel) === suffix);
}

/**
 * Of `files` (in every folder of a Java package: `guava/src/com/google/
 * common/base` and its copy `android/guava/src/…`, a test folder of the same
 * package), the files of the folder that holds the class the import names
 * (`Preconditions` of `com.google.common.base.Preconditions`, `Maps` of
 * `com.google.common.collect.Maps.EntrySet`): when several
 * hold a file of that name, the one nearest the importer (the most leading
 * folders in common with `importer`), none when two are as near (which copy
 * the build compiles with it is not known). An import that names no class
 * held there (`com.acme.*`) keeps every file.
 */
function oneSourceSet(
  files: { id: number; rel: string }[],
  spec: string,
  importer: string,
): { id: number; rel: string }[] {
  const cls = spec.split(".").find((p) => /^[A-Z]/.test(p));
  const holding = new Set(
    files.filter((f) => cls !== undefined && f.rel.endsWith(`/${cls}.java`))
      .map((f) => posix.dirname(f.rel)),
  );
  if (holding.size === 0) return files;
  const from = importer.split("/");
  const near = (dir: string) => {
    const parts = dir.split("/");
    let n = 0;
    while (n < parts.length && n < from.length - 1 && parts[n] === from[n]) n++;
    return n;
  };
  let best = -1;
  let chosen: string[] = [];
  for (const dir of holding) {
    const n = near(dir);
    if (n > best) [best, chosen] = [n, [dir]];
    else if (n === best) chosen.push(dir);
  }
  return chosen.length === 1 ? files.filter((f) => posix.dirname(f.rel) === chosen[0]) : [];
}

/** The key of a cached module look-up (`Resolver.#filesFor`): root, language, importing file, specifier. */
function filesKey(owner: Owner, spec: string): string {
  return `${owner.root_id}\0${owner.language}\0${owner.rel}\0${spec}`;
}

/** The importer's language a {@link filesKey} holds (`"null"` for none). */
function languageOfFilesKey(key: string): string {
  return key.split("\0")[1]!;
}

/** The family of a language, as {@link family} computes it in SQL. */
/**
 * The value cached under `key`, built by `build` and cached on the first
 * call (a built `null` is cached too; only `undefined` means "not yet").
 */
function cachedOr<K, V>(cache: Map<K, V>, key: K, build: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = build();
    cache.set(key, value);
  }
  return value;
}

/** `text` with GLOB's wildcards escaped. */
function globEscape(text: string): string {
  return text.replace(/[*?[]/g, "[$&]");
}
