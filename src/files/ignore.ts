/**
 * Gitignore semantics for the walk and for single hinted paths: patterns are
 * compiled once, rule sets stack in git's precedence order (defaults, global
 * ignore, the repository's `.git/info/exclude`, then each directory's
 * `.gitignore` and `.ignore`, deeper wins, last matching rule wins; inside a
 * nested repository, no `.gitignore` or exclude from around it), and an excluded directory can never be re-included from
 * inside. Pure except {@link loadIgnoreStack} and {@link classifyPath}, which
 * read ignore files through an {@link IgnoreCache}.
 */
import { wildcardMatch } from "./wildcard.ts";
import { resolve } from "./path.ts";
import { readTextOrNull } from "./read_text.ts";

/** Directory names skipped by default (VCS, dependencies, build output, caches). */
// deno-fmt-ignore
export const DEFAULT_IGNORED_DIRS: readonly string[] = [
  ".git", ".hg", ".svn", ".jj", "node_modules", "bower_components", "vendor", "target", "dist",
  "build", "out", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache", ".pytest_cache",
  ".ruff_cache", ".gradle", ".idea", ".next", ".nuxt", ".cache", "coverage", ".terraform",
  ".heimdall",
];

/**
 * One parsed ignore line; `reason` reads like `.gitignore:3 build/`.
 *
 * @internal
 */
export interface IgnoreRule {
  readonly source: string;
  readonly line: number;
  readonly pattern: string;
  readonly negated: boolean;
  readonly dirOnly: boolean;
  readonly reason: string;
}

/** A rule plus its compiled matcher: exactly one of literal, suffix or wild is set. */
interface Compiled extends IgnoreRule {
  readonly basename: boolean;
  readonly literal: string | undefined;
  readonly suffix: string | undefined;
  readonly wild: readonly WildSegment[] | undefined;
}

/**
 * One character test of a wildcard segment: a literal character, `?`, `*`
 * (any run within the segment), or a bracket expression (a RegExp of one
 * character, which cannot backtrack).
 */
type WildToken = string | { any: true } | { star: true } | RegExp;

/** A `/`-separated part of a wildcard pattern: `**` (any number of parts, none included) or its tokens. */
type WildSegment = "**" | readonly WildToken[];

/**
 * The outcome for one path; `reason` names the deciding rule, also when it is a `!` rule.
 *
 * @internal
 */
export interface IgnoreVerdict {
  ignored: boolean;
  reason?: string;
  rule?: IgnoreRule;
}

/** The rules of one ignore file, anchored at the root-relative directory it lives in. */
export class IgnoreRules {
  readonly #prefix: string;
  readonly #compiled: readonly Compiled[];
  private constructor(
    readonly baseDir: string,
    readonly source: string,
    compiled: readonly Compiled[],
    readonly outer = "",
  ) {
    this.#prefix = baseDir === "" ? "" : baseDir + "/";
    this.#compiled = compiled;
  }

  /** The rules in file order (blank lines, comments and never-matching patterns left out). */
  get rules(): readonly IgnoreRule[] {
    return this.#compiled;
  }

  /** True for a `.gitignore`'s or `info/exclude`'s rules, which git reads only inside their own repository. */
  get fromGit(): boolean {
    return this.source === ".gitignore" || this.source.endsWith("/.gitignore") ||
      this.source.endsWith("info/exclude");
  }

  /**
   * Parses the text of one ignore file with git's rules (comments, trailing
   * spaces, escapes, `!`, anchoring, `dir/`); a pattern git would never match
   * (unterminated class, trailing backslash) is dropped. Cost: one RegExp per
   * wildcard pattern, made here and never again. `outer` is for the file of
   * a folder above the root (in the same git repository): the root's path
   * from that folder, ending in `/`, which a root-relative path is read
   * after, as git reads it from there (`baseDir` is then "").
   */
  static parse(text: string, baseDir: string, source: string, outer = ""): IgnoreRules {
    const rules: Compiled[] = [];
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i]!;
      if (line.endsWith("\r")) line = line.slice(0, -1);
      if (line === "" || line[0] === "#") continue;
      const rule = compileRule(trimTrailingSpaces(line), source, i + 1);
      if (rule) rules.push(rule);
    }
    return new IgnoreRules(baseDir, source, rules, outer);
  }

  /**
   * The built-in rules: each name in `names` as a directory-only pattern at
   * any depth, except `.git`, which matches a file too: a submodule's or a
   * worktree's `.git` is a file naming where its repository lives.
   */
  static defaults(names: readonly string[] = DEFAULT_IGNORED_DIRS): IgnoreRules {
    const rules = names.map((name) => ({
      ...compileRule(name === ".git" ? name : name + "/", "default", 0)!,
      reason: `default: ${name}`,
    }));
    return new IgnoreRules("", "default", rules);
  }

  /**
   * The last rule of this file matching `rel` (root-relative, `/`-separated),
   * or undefined; ancestors of `rel` are not considered here. `base` is its
   * last segment, passed by callers that already have it.
   */
  match(
    rel: string,
    isDir: boolean,
    base = rel.slice(rel.lastIndexOf("/") + 1),
  ): IgnoreRule | undefined {
    if (this.#prefix !== "" && !rel.startsWith(this.#prefix)) return undefined;
    const local = this.outer + (this.#prefix === "" ? rel : rel.slice(this.#prefix.length));
    for (let i = this.#compiled.length - 1; i >= 0; i--) {
      const r = this.#compiled[i]!;
      if (r.dirOnly && !isDir) continue;
      const s = r.basename ? base : local;
      if (
        r.literal !== undefined
          ? s === r.literal
          : r.suffix !== undefined
          ? s.endsWith(r.suffix)
          : wildMatches(r.wild!, s)
      ) return r;
    }
    return undefined;
  }
}

/** Rule files in precedence order (later wins); immutable, so a walk shares prefixes. */
export class IgnoreStack {
  private constructor(
    readonly sets: readonly IgnoreRules[],
    // How many of `sets` are the base (defaults, global ignore), which every folder keeps.
    readonly baseCount = sets.length,
  ) {}

  /**
   * The base of every stack: built-in defaults (unless `defaults` is false),
   * then the global ignore text, labelled `globalSource` in reasons.
   */
  static create(
    globalIgnore = "",
    opts: { defaults?: boolean; globalSource?: string } = {},
  ): IgnoreStack {
    const sets: IgnoreRules[] = [];
    if (opts.defaults !== false) sets.push(IgnoreRules.defaults());
    if (globalIgnore.trim() !== "") {
      sets.push(IgnoreRules.parse(globalIgnore, "", opts.globalSource ?? "~/.heimdall/ignore"));
    }
    return new IgnoreStack(sets);
  }

  /** A new stack with `rules` on top (a deeper directory's file); this one is unchanged. */
  with(rules: IgnoreRules): IgnoreStack {
    return rules.rules.length === 0 ? this : new IgnoreStack([...this.sets, rules], this.baseCount);
  }

  /**
   * The stack for the inside of a nested git repository (a submodule, a
   * clone inside a clone): without the `.gitignore` rules of the folders
   * around it, which git never reads there; the base and `.ignore` files
   * stay (as in ripgrep, they are not git's). This one is unchanged.
   */
  nestedRepository(): IgnoreStack {
    const kept = this.sets.filter((s, i) => i < this.baseCount || !s.fromGit);
    return kept.length === this.sets.length ? this : new IgnoreStack(kept, this.baseCount);
  }

  /**
   * The deciding rule for `rel` itself, or undefined; its ancestors are not
   * checked (the walk never descends into an excluded folder). Cost: one test per rule.
   */
  match(rel: string, isDir: boolean): IgnoreRule | undefined {
    const base = rel.slice(rel.lastIndexOf("/") + 1);
    for (let i = this.sets.length - 1; i >= 0; i--) {
      const r = this.sets[i]!.match(rel, isDir, base);
      if (r) return r;
    }
    return undefined;
  }

  /** Decides `rel` as git does: an excluded ancestor directory wins over any rule for `rel`. */
  explain(rel: string, isDir: boolean): IgnoreVerdict {
    for (let k = rel.indexOf("/"); k > 0; k = rel.indexOf("/", k + 1)) {
      const r = this.match(rel.slice(0, k), true);
      if (r && !r.negated) return { ignored: true, reason: r.reason, rule: r };
    }
    const r = this.match(rel, isDir);
    return r ? { ignored: !r.negated, reason: r.reason, rule: r } : { ignored: false };
  }

  /** True when git would ignore `rel` given the rules in this stack (ancestors included). */
  isIgnored(rel: string, isDir: boolean): boolean {
    return this.explain(rel, isDir).ignored;
  }
}

/**
 * The names of the ignore files read in every folder, in the order their
 * rules stack (a later file's rule wins). Whoever watches a tree and keeps
 * what it lists equal to a walk must look at a folder again when one of
 * these changes in it.
 */
export const IGNORE_FILE_NAMES: readonly string[] = [".gitignore", ".ignore"];
/** A file modified this close to when we read it may change again within the same mtime tick. */
const RACY_MS = 2000;

/**
 * Parsed ignore files by path, revalidated by mtime and size, so a repeated
 * single-path decision costs one stat per ancestor directory plus one per
 * ignore file, and parses nothing. Entries younger than 2 s are re-read (a
 * same-tick edit would otherwise go unseen). Holds at most `maxEntries` of each kind.
 */
export class IgnoreCache {
  readonly #dirs = new Map<string, { mtimeMs: number; names: string[]; git: boolean }>();
  readonly #files = new Map<string, { mtimeMs: number; size: number; rules: IgnoreRules }>();
  readonly #bases = new Map<string, IgnoreStack>();
  #parses = 0;
  /** A cache holding at most `maxEntries` directories, ignore files and base stacks each. */
  constructor(readonly maxEntries = 4096) {}

  /** How many ignore files this cache has parsed so far (a measure of misses). */
  get parses(): number {
    return this.#parses;
  }

  /** The defaults + global stack, built once per distinct global text. */
  base(globalIgnore: string, defaults: boolean): IgnoreStack {
    const key = (defaults ? "1" : "0") + globalIgnore;
    let stack = this.#bases.get(key);
    if (!stack) {
      stack = IgnoreStack.create(globalIgnore, { defaults });
      put(this.#bases, key, stack, this.maxEntries);
    }
    return stack;
  }

  /**
   * The rules of the folders above `root` that git applies to it: when
   * `root` is a folder inside a git repository (not its top), the ignore
   * files of the repository's top and of every folder down to `root`'s
   * parent, top first, each read as git reads it from its own folder (a
   * `/dist/` of the top's `.gitignore` is the top's `dist`, never the
   * root's; `*.log` is everywhere). A root that is a repository's top, or
   * in none, has none.
   */
  rulesAbove(root: string): IgnoreRules[] {
    const dirs: string[] = [];
    if (statOf(`${root}/.git`, true) !== undefined) return [];
    for (let dir = parentOf(root); dir !== undefined; dir = parentOf(dir)) {
      dirs.unshift(dir);
      if (statOf(`${dir}/.git`, true) !== undefined) {
        const outer = (d: string) => root.slice(d.length + (d === "/" ? 0 : 1)) + "/";
        return [
          ...this.excludeOf(dir, "", "", outer(dir)),
          ...dirs.flatMap((d) => this.#rulesOf(d, "", outer(d))),
        ];
      }
    }
    return [];
  }

  /** The rules of `.gitignore` then `.ignore` in `root/relDir`; unreadable files count as empty. */
  rulesIn(root: string, relDir: string): IgnoreRules[] {
    return this.#rulesOf(relDir === "" ? root : `${root}/${relDir}`, relDir, "");
  }

  /**
   * The rules of the `info/exclude` of the repository whose top is folder
   * `top` (see {@link gitExcludePath}), read as rules of `relDir` (or of
   * `outer` above the root); none when it has none. `root` names it in
   * reasons: relative when it lies inside the root, else by its path.
   */
  excludeOf(top: string, relDir: string, root: string, outer = ""): IgnoreRules[] {
    const path = gitExcludePath(top);
    const rules = path && this.#fileRules(path, relDir, excludeSource(path, root), outer);
    return rules ? [rules] : [];
  }

  /** Whether folder `root/relDir` holds a `.git` (folder or file): a repository's top. */
  isRepository(root: string, relDir: string): boolean {
    return this.#listing(relDir === "" ? root : `${root}/${relDir}`)?.git ?? false;
  }

  /** The ignore files and `.git` a folder holds, cached by the folder's mtime; undefined when it is gone. */
  #listing(abs: string): { names: string[]; git: boolean } | undefined {
    const dirMtime = statOf(abs, false)?.mtime?.getTime();
    if (dirMtime === undefined) return undefined;
    let names = this.#dirs.get(abs);
    if (names?.mtimeMs !== dirMtime) {
      names = {
        mtimeMs: dirMtime,
        names: IGNORE_FILE_NAMES.filter((n) => statOf(`${abs}/${n}`, true)),
        git: statOf(`${abs}/.git`, true) !== undefined,
      };
      if (Date.now() - dirMtime > RACY_MS) put(this.#dirs, abs, names, this.maxEntries);
    }
    return names;
  }

  /** The rules of the ignore files in folder `abs` (`relDir` from the root, or `outer` above it). */
  #rulesOf(abs: string, relDir: string, outer: string): IgnoreRules[] {
    const names = this.#listing(abs);
    if (names === undefined) return [];
    const out: IgnoreRules[] = [];
    for (const name of names.names) {
      const source = outer !== "" ? `${abs}/${name}` : relDir === "" ? name : `${relDir}/${name}`;
      const rules = this.#fileRules(`${abs}/${name}`, relDir, source, outer);
      if (rules) out.push(rules);
    }
    return out;
  }

  /** The parsed rules of the ignore file at `path`, cached by mtime and size; undefined unless a regular file. */
  #fileRules(path: string, relDir: string, source: string, outer: string): IgnoreRules | undefined {
    const st = statOf(path, true);
    if (!st?.isFile) return undefined;
    const mtimeMs = st.mtime?.getTime() ?? 0;
    // A folder above a root is read for each root below it, each with its own prefix.
    const key = `${path}\0${relDir}\0${outer}`;
    let entry = this.#files.get(key);
    if (!entry || entry.mtimeMs !== mtimeMs || entry.size !== st.size) {
      entry = {
        mtimeMs,
        size: st.size,
        rules: IgnoreRules.parse(readTextOrNull(path) ?? "", relDir, source, outer),
      };
      this.#parses++;
      if (Date.now() - mtimeMs > RACY_MS) put(this.#files, key, entry, this.maxEntries);
    }
    return entry.rules;
  }
}

/**
 * Where git keeps the exclude file of the repository whose top is folder
 * `top`: `.git/info/exclude`, or, when `.git` is a file naming the
 * repository's folder (a submodule's, a worktree's), that folder's
 * `info/exclude`, for a worktree its common folder's (as git reads it).
 * Undefined when `top` holds no `.git` or its `.git` file names nothing.
 * Cost: one lstat, and for a `.git` file two small reads.
 */
export function gitExcludePath(top: string): string | undefined {
  const dotGit = `${top}/.git`;
  const st = statOf(dotGit, true);
  if (st?.isDirectory) return `${dotGit}/info/exclude`;
  if (!st?.isFile || st.size > 4096) return undefined;
  const named = /^gitdir:\s*(.+?)\s*$/m.exec(readTextOrNull(dotGit) ?? "")?.[1];
  if (named === undefined) return undefined;
  const gitDir = resolve(top, named);
  const commonFile = `${gitDir}/commondir`;
  const common = statOf(commonFile, true)?.isFile ? readTextOrNull(commonFile)?.trim() : undefined;
  return resolve(gitDir, common || ".", "info/exclude");
}

/**
 * The rules of the `info/exclude` of the repository whose top is the
 * root's folder `relDir` (`root` itself when ""), uncached, for a walk that
 * lists the folder once; undefined when it has none.
 */
export function readGitExclude(root: string, relDir: string): IgnoreRules | undefined {
  const path = gitExcludePath(relDir === "" ? root : `${root}/${relDir}`);
  if (path === undefined || !statOf(path, true)?.isFile) return undefined;
  return IgnoreRules.parse(readTextOrNull(path) ?? "", relDir, excludeSource(path, root));
}

/** How reasons name an exclude file: from the root when it lies inside it, else by its path. */
function excludeSource(path: string, root: string): string {
  return root !== "" && path.startsWith(root + "/") ? path.slice(root.length + 1) : path;
}

/**
 * Builds the stack that applies to entries directly inside `relDir`, reading
 * the ignore files of the root and of every directory down to `relDir`; stops
 * at the first directory on the way that is itself ignored and names it in
 * `ignored`. A directory on the way that holds a `.git` (a submodule) drops
 * the `.gitignore` rules of the folders around it, as git does. Cost: see {@link IgnoreCache}.
 */
export function loadIgnoreStack(
  root: string,
  relDir: string,
  globalIgnore = "",
  cache: IgnoreCache = new IgnoreCache(),
  opts: { defaults?: boolean } = {},
): { stack: IgnoreStack; ignored?: { rel: string; rule: IgnoreRule } } {
  let stack = cache.base(globalIgnore, opts.defaults !== false);
  for (const rules of cache.rulesAbove(root)) stack = stack.with(rules);
  for (const rules of cache.excludeOf(root, "", root)) stack = stack.with(rules);
  for (const rules of cache.rulesIn(root, "")) stack = stack.with(rules);
  if (relDir === "") return { stack };
  let cur = "";
  for (const part of relDir.split("/")) {
    cur = cur === "" ? part : `${cur}/${part}`;
    const rule = stack.match(cur, true);
    if (rule && !rule.negated) return { stack, ignored: { rel: cur, rule } };
    if (cache.isRepository(root, cur)) {
      stack = stack.nestedRepository();
      for (const rules of cache.excludeOf(`${root}/${cur}`, cur, root)) stack = stack.with(rules);
    }
    for (const rules of cache.rulesIn(root, cur)) stack = stack.with(rules);
  }
  return { stack };
}

/**
 * Decides one root-relative path as git would, loading the ignore files of
 * every ancestor (cached); ignored when any ancestor directory is ignored.
 * `reason` names the deciding rule (also a `!` rule that re-included it).
 */
export function classifyPath(
  root: string,
  rel: string,
  isDir: boolean,
  globalIgnore = "",
  cache?: IgnoreCache,
  opts: { defaults?: boolean } = {},
): { ignored: boolean; reason?: string } {
  const slash = rel.lastIndexOf("/");
  const loaded = loadIgnoreStack(
    root,
    slash < 0 ? "" : rel.slice(0, slash),
    globalIgnore,
    cache,
    opts,
  );
  if (loaded.ignored) return { ignored: true, reason: loaded.ignored.rule.reason };
  const rule = loaded.stack.match(rel, isDir);
  return rule ? { ignored: !rule.negated, reason: rule.reason } : { ignored: false };
}

function put<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  if (map.size >= max && !map.has(key)) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/** The folder `path` is in; undefined for `/`. */
function parentOf(path: string): string | undefined {
  if (path === "/" || path === "") return undefined;
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

function statOf(path: string, lstat: boolean): Deno.FileInfo | undefined {
  try {
    return lstat ? Deno.lstatSync(path) : Deno.statSync(path);
  } catch {
    return undefined;
  }
}

/** Git's trim_trailing_spaces: drop unescaped trailing spaces (not tabs). */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === " ") end--;
  if (end === line.length) return line;
  let bs = 0;
  for (let i = end - 1; i >= 0 && line[i] === "\\"; i--) bs++;
  return line.slice(0, bs % 2 === 1 ? end + 1 : end);
}

function compileRule(pattern: string, source: string, line: number): Compiled | undefined {
  let body = pattern;
  const negated = body[0] === "!";
  if (negated) body = body.slice(1);
  const dirOnly = body.endsWith("/");
  if (dirOnly) body = body.slice(0, -1);
  const basename = !body.includes("/");
  if (body[0] === "/") body = body.slice(1);
  if (body === "") return undefined;
  const special = /[*?[\\]/;
  let literal: string | undefined, suffix: string | undefined;
  let wild: WildSegment[] | undefined;
  if (!special.test(body)) literal = body;
  else if (basename && body[0] === "*" && !special.test(body.slice(1))) suffix = body.slice(1);
  else {
    wild = wildSegments(body);
    if (wild === undefined) return undefined;
  }
  const reason = `${source}:${line} ${pattern}`;
  return { source, line, pattern, negated, dirOnly, reason, basename, literal, suffix, wild };
}

const POSIX: Record<string, string> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  blank: " \\t",
  cntrl: "\\x00-\\x1f\\x7f",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-/:-@\\[-`{-~",
  space: " \\t\\n\\v\\f\\r",
  upper: "A-Z",
  xdigit: "0-9A-Fa-f",
};

const hex = (c: string) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0");

/**
 * Compiles a wildmatch pattern (WM_PATHNAME, as git's dir.c uses it) into
 * its `/`-separated segments; undefined for a pattern git never matches (an
 * unterminated class, a trailing backslash). A segment of two or more `*`
 * alone is `**`, any number of segments; trailing, it needs at least one
 * (`abc/**` matches inside `abc`, never `abc` itself).
 */
function wildSegments(p: string): WildSegment[] | undefined {
  const segments: WildSegment[] = [];
  let tokens: WildToken[] = [];
  let stars = 0; // `*` characters in the segment
  let other = false; // anything else in it
  const endSegment = () => {
    segments.push(stars >= 2 && !other ? "**" : tokens);
    tokens = [];
    stars = 0;
    other = false;
  };
  for (let i = 0; i < p.length;) {
    const c = p[i]!;
    if (c === "/" || (c === "\\" && p[i + 1] === "/")) {
      endSegment();
      i += c === "/" ? 1 : 2;
    } else if (c === "*") {
      // A run of `*` is one `*`.
      if (tokens.length === 0 || !isStar(tokens[tokens.length - 1]!)) tokens.push({ star: true });
      stars++;
      i++;
    } else {
      other = true;
      if (c === "\\") {
        if (i + 1 >= p.length) return undefined;
        tokens.push(p[i + 1]!);
        i += 2;
      } else if (c === "?") {
        tokens.push({ any: true });
        i++;
      } else if (c === "[") {
        const cls = classToRegex(p, i);
        if (!cls) return undefined;
        tokens.push(new RegExp(`^${cls.src}$`, "s"));
        i = cls.end;
      } else {
        tokens.push(c);
        i++;
      }
    }
  }
  endSegment();
  // A trailing `**` is one segment of anything, then any number more.
  if (segments.length > 0 && segments[segments.length - 1] === "**") {
    segments.splice(segments.length - 1, 0, [{ star: true }]);
  }
  return segments;
}

const isStar = (t: WildToken): t is { star: true } => typeof t === "object" && "star" in t;

/**
 * Whether `segments` match all of `path`: the pattern's segments as states,
 * stepped path part by path part, each part matched by {@link wildcardMatch}.
 * Time is at most the product of the pattern's and the path's lengths,
 * however many `*` there are (a regular expression of `*a*a*a…b` backtracks
 * exponentially: a hostile `.gitignore` would stall the walk).
 */
function wildMatches(segments: readonly WildSegment[], path: string): boolean {
  const n = segments.length;
  let states = new Uint8Array(n + 1);
  let next = new Uint8Array(n + 1);
  const close = (s: Uint8Array) => {
    for (let g = 0; g < n; g++) if (s[g] && segments[g] === "**") s[g + 1] = 1;
  };
  states[0] = 1;
  close(states);
  let from = 0;
  for (;;) {
    const slash = path.indexOf("/", from);
    const part = path.slice(from, slash < 0 ? undefined : slash);
    next.fill(0);
    let any = false;
    for (let g = 0; g < n; g++) {
      if (!states[g]) continue;
      const seg = segments[g]!;
      if (seg === "**") next[g] = 1;
      else if (wildcardMatch(seg, part, isStar, tokenMatches)) next[g + 1] = 1;
      else continue;
      any = true;
    }
    if (!any) return false;
    close(next);
    [states, next] = [next, states];
    if (slash < 0) return states[n] === 1;
    from = slash + 1;
  }
}

function tokenMatches(tok: WildToken, ch: string): boolean {
  if (typeof tok === "string") return tok === ch;
  if (tok instanceof RegExp) return tok.test(ch);
  return "any" in tok;
}

/** A bracket expression starting at `start`, per wildmatch; never matches `/`. */
function classToRegex(p: string, start: number): { src: string; end: number } | undefined {
  let i = start + 1;
  const negated = p[i] === "!" || p[i] === "^";
  if (negated) i++;
  let parts = "";
  let prev: string | undefined;
  for (let first = true;; first = false) {
    if (i >= p.length) return undefined;
    let ch = p[i]!;
    if (ch === "]" && !first) break;
    if (ch === "\\") {
      if (++i >= p.length) return undefined;
      ch = p[i]!;
      parts += hex(ch);
      prev = ch;
      i++;
    } else if (ch === "-" && prev !== undefined && i + 1 < p.length && p[i + 1] !== "]") {
      let hi = p[++i]!;
      if (hi === "\\") {
        if (++i >= p.length) return undefined;
        hi = p[i]!;
      }
      if (prev <= hi) parts += hex(prev) + "-" + hex(hi);
      prev = undefined;
      i++;
    } else if (ch === "[" && p[i + 1] === ":") {
      const close = p.indexOf("]", i + 2);
      if (close < 0) return undefined;
      if (close - 1 < i + 2 || p[close - 1] !== ":") {
        parts += hex("[");
        prev = "[";
        i++;
        continue;
      }
      const cls = POSIX[p.slice(i + 2, close - 1)];
      if (cls === undefined) return undefined;
      parts += cls;
      prev = undefined;
      i = close + 1;
    } else {
      parts += hex(ch);
      prev = ch;
      i++;
    }
  }
  const src = negated ? `[^/${parts}]` : parts === "" ? "(?!)" : `(?!/)[${parts}]`;
  return { src, end: i + 1 };
}
