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
  ".rst": "text",
  ".adoc": "text",
};

const BY_NAME: Record<string, string> = {
  "Makefile": "make",
  "makefile": "make",
  "Dockerfile": "dockerfile",
  "Rakefile": "ruby",
  "Gemfile": "ruby",
  "BUILD": "starlark",
  "WORKSPACE": "starlark",
  "README": "text",
};

const SHEBANG: [RegExp, string][] = [
  [/\bpython[0-9.]*\b/, "python"],
  [/\b(node|deno|bun)\b/, "javascript"],
  [/\b(bash|sh|zsh|dash)\b/, "bash"],
  [/\bruby\b/, "ruby"],
  [/\bphp\b/, "php"],
];

/**
 * Detects a file's language from its name, then from a `#!` line. Returns
 * undefined for unknown files (they are indexed at L1 only).
 */
export function detectLanguage(fileName: string, head?: string): string | undefined {
  const base = fileName.slice(fileName.lastIndexOf("/") + 1);
  const byName = BY_NAME[base];
  if (byName) return byName;
  const dot = base.lastIndexOf(".");
  if (dot > 0) {
    const byExt = BY_EXTENSION[base.slice(dot).toLowerCase()];
    if (byExt) return byExt;
  }
  if (head?.startsWith("#!")) {
    const first = head.slice(0, head.indexOf("\n") >>> 0);
    for (const [re, lang] of SHEBANG) if (re.test(first)) return lang;
  }
  return undefined;
}
