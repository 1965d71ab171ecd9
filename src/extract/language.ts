import { looksLikeAsciidoc } from "./prose_asciidoc.ts";

/** File extension (lower case, with dot) or exact file name → language id. */
const BY_EXTENSION: Record<string, string> = {
  ".py": "python",
  ".pyi": "python",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascript",
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  ".go": "go",
  ".rs": "rust",
  ".java": "java",
  ".c": "c",
  ".h": "c",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".cxx": "cpp",
  ".hpp": "cpp",
  ".hh": "cpp",
  ".hxx": "cpp",
  ".cs": "csharp",
  ".rb": "ruby",
  ".php": "php",
  ".sh": "bash",
  ".bash": "bash",
  ".zsh": "bash",
  ".md": "markdown",
  ".markdown": "markdown",
  ".mdx": "markdown",
  ".json": "json",
  ".toml": "toml",
  ".yaml": "yaml",
  ".yml": "yaml",
  ".html": "html",
  ".htm": "html",
  ".css": "css",
  ".scss": "css",
  ".sql": "sql",
  ".kt": "kotlin",
  ".kts": "kotlin",
  ".swift": "swift",
  ".scala": "scala",
  ".lua": "lua",
  ".ex": "elixir",
  ".exs": "elixir",
  ".hs": "haskell",
  ".ml": "ocaml",
  ".r": "r",
  ".jl": "julia",
  ".dart": "dart",
  ".zig": "zig",
  ".vue": "vue",
  ".svelte": "svelte",
  ".txt": "text",
  ".text": "text",
  ".rst": "rst",
  ".rest": "rst",
  ".adoc": "asciidoc",
  ".asciidoc": "asciidoc",
  ".asc": "asciidoc",
  ".org": "org",
  ".man": "man",
  ".roff": "man",
  ".mdoc": "man",
};

/** Plain-text files known by name alone (no extension). */
const TEXT_NAMES = new Set([
  "README",
  "NEWS",
  "CHANGES",
  "CHANGELOG",
  "HISTORY",
  "INSTALL",
  "AUTHORS",
  "CONTRIBUTORS",
  "CONTRIBUTING",
  "THANKS",
  "TODO",
  "BUGS",
  "FAQ",
  "NOTES",
  "COPYING",
  "LICENSE",
  "LICENCE",
  "NOTICE",
  "HACKING",
  "MAINTAINERS",
  "PORTING",
  "USAGE",
]);

/**
 * Languages whose files are documentation rather than code: each is chunked
 * by section at L2 (see `prose.ts`) and searched as docs.
 */
export const PROSE_LANGUAGES: ReadonlySet<string> = new Set([
  "markdown",
  "rst",
  "asciidoc",
  "org",
  "man",
  "text",
]);

const BY_NAME: Record<string, string> = {
  "Makefile": "make",
  "makefile": "make",
  "Dockerfile": "dockerfile",
  "Rakefile": "ruby",
  "Gemfile": "ruby",
  "BUILD": "starlark",
  "WORKSPACE": "starlark",
};

const SHEBANG: [RegExp, string][] = [
  [/\bpython[0-9.]*\b/, "python"],
  [/\b(node|deno|bun)\b/, "javascript"],
  [/\b(bash|sh|zsh|dash)\b/, "bash"],
  [/\bruby\b/, "ruby"],
  [/\bphp\b/, "php"],
];

/**
 * Detects a file's language from its name, then from its head (the first
 * characters of its text, when given; `describeFile` passes 2 KiB). Prose is told apart by its head
 * where the name is not enough: a `.txt` file that reads as AsciiDoc (a
 * title underlined by `=` of its length, git's `NAME` / `----` manual
 * pages) is `asciidoc`, a `.1`–`.9` file (also `.3pm`, `.1ssl`…) is `man`
 * only when its head reads as roff; without a head such a file is `text`
 * and unknown respectively. A `#!` line names scripts; then files named
 * README, NEWS, INSTALL… without an extension (any case) are `text`.
 * Returns undefined for unknown files (they are indexed at L1 only).
 */
export function detectLanguage(fileName: string, head?: string): string | undefined {
  const base = fileName.slice(fileName.lastIndexOf("/") + 1);
  const byName = BY_NAME[base];
  if (byName) return byName;
  const dot = base.lastIndexOf(".");
  const ext = dot > 0 ? base.slice(dot).toLowerCase() : "";
  const byExt = BY_EXTENSION[ext];
  if (byExt === "text") return head !== undefined && looksLikeAsciidoc(head) ? "asciidoc" : "text";
  if (byExt) return byExt;
  if (/^\.[1-9][a-z]{0,4}$/.test(ext) && head !== undefined && looksLikeRoff(head)) return "man";
  if (head?.startsWith("#!")) {
    const first = head.slice(0, head.indexOf("\n") >>> 0);
    for (const [re, lang] of SHEBANG) if (re.test(first)) return lang;
  }
  if (ext === "" && TEXT_NAMES.has(base.toUpperCase())) return "text";
  return undefined;
}

/**
 * True when a file's head reads as roff: its first line is a comment
 * (`.\\"`) or a request, and a title or section request (`.TH`, `.Dd`,
 * `.SH`, `.Sh`) or a `.so` redirect appears in the head, or most of its
 * lines are requests (a generated preamble of macro definitions).
 */
export function looksLikeRoff(head: string): boolean {
  const lines = head.split(/\r?\n/, 80).filter((l) => l.trim() !== "");
  if (!/^(?:[.']|\\")/.test(lines[0] ?? "")) return false;
  if (lines.some((l) => /^[.'][ \t]*(?:TH|Dd|SH|Sh|so)\b/.test(l))) return true;
  return lines.filter((l) => /^[.']/.test(l)).length * 4 >= lines.length * 3;
}

/** Languages whose names resolve to each other's definitions, by family: C with C++, JS with TS. */
const FAMILIES: Readonly<Record<string, string>> = {
  c: "c",
  cpp: "c",
  javascript: "js",
  typescript: "js",
  tsx: "js",
  jsx: "js",
};

/**
 * The family of a language (pure): a call in C may land on a definition in a
 * C++ header, a JavaScript import on a TypeScript module; any other
 * language is its own family.
 *
 * @example
 * ```ts
 * import { languageFamily } from "./language.ts";
 * console.assert(languageFamily("cpp") === "c" && languageFamily("go") === "go");
 * ```
 */
export function languageFamily(language: string | null): string | null {
  return language === null ? null : FAMILIES[language] ?? language;
}

/**
 * Languages where a bare call inside a class may mean its own (or a base's)
 * method (`open()` for `this.open()`); in every other language a bare call
 * never lands on a method. The resolver and the graph queries share it.
 * C is here for its headers, which may hold C++ read with the C++ grammar
 * (header_dialect.ts) while the file keeps its language `c`: a C file has
 * no methods, so a bare call there is never inside a class.
 */
export const IMPLICIT_THIS_LANGUAGES: ReadonlySet<string> = new Set([
  "java",
  "csharp",
  "c",
  "cpp",
  "ruby",
]);

/** {@link languageFamily} of column `col`, as SQL. */
export function languageFamilySql(col: string): string {
  const byFamily = new Map<string, string[]>();
  for (const [language, family] of Object.entries(FAMILIES)) {
    byFamily.set(family, [...(byFamily.get(family) ?? []), language]);
  }
  const cases = [...byFamily].map(([family, languages]) =>
    `WHEN ${col} IN (${languages.map((l) => `'${l}'`).join(", ")}) THEN '${family}'`
  );
  return `CASE ${cases.join(" ")} ELSE ${col} END`;
}
