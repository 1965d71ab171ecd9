/**
 * What each language says about where a call may land, as data for the
 * resolver (pure): which receivers name the enclosing class, where a bare
 * call may mean a method of it, how far a bare name may be looked up by
 * uniqueness. The names a language provides itself are in
 * `src/extract/builtins.ts`.
 */
import { IMPLICIT_THIS_LANGUAGES } from "../extract/language.ts";

/** Receivers that are the enclosing class's instance or the class itself. */
const SELF: Record<string, readonly string[]> = {
  python: ["self", "cls"],
  javascript: ["this"],
  typescript: ["this"],
  tsx: ["this"],
  java: ["this"],
  csharp: ["this"],
  cpp: ["this"],
  // A C header may hold C++ (header_dialect.ts); C itself has no `this`.
  c: ["this"],
  php: ["$this", "self", "static"],
  ruby: ["self"],
  rust: ["self", "Self"],
};

/** Receivers that are the enclosing class's bases. */
const SUPER: Record<string, readonly string[]> = {
  python: ["super"],
  javascript: ["super"],
  typescript: ["super"],
  tsx: ["super"],
  java: ["super"],
  csharp: ["base"],
  php: ["parent"],
};

/** Languages where a bare call inside a class means its own (or a base's) method first. */
const IMPLICIT_THIS = IMPLICIT_THIS_LANGUAGES;

/**
 * How far a bare call may be resolved by a name unique among top-level
 * definitions, when no import and no definition of the file binds it:
 * `root` (the repository: C, Ruby, PHP, shell), `folder` (a Go package),
 * `star` (only in a file with a wildcard import: Python), `script` (only in
 * a file with no imports at all, which shares one global scope: JS/TS).
 * Rust and Java resolve bare names through `use`/imports or their own file.
 */
const BARE_SCOPE: Record<string, "root" | "folder" | "star" | "script" | "none"> = {
  python: "star",
  javascript: "script",
  typescript: "script",
  tsx: "script",
  go: "folder",
  rust: "star",
  java: "none",
  csharp: "root",
  c: "root",
  cpp: "root",
  ruby: "root",
  php: "root",
  bash: "root",
};

/** The receiver names the enclosing class in `language`: `"self"`, `"super"` or undefined. */
export function receiverRole(
  language: string | null,
  receiver: string,
): "self" | "super" | undefined {
  const lang = language ?? "";
  if (SELF[lang]?.includes(receiver)) return "self";
  if (SUPER[lang]?.includes(receiver)) return "super";
  return undefined;
}

/** Languages whose `implements` edges (Ruby's include/extend, PHP's `use Trait`) bring methods along. */
const MIXINS = new Set(["ruby", "php"]);

/** True when what a class of `language` implements lends it methods (mixins, traits). */
export function mixesIn(language: string | null): boolean {
  return MIXINS.has(language ?? "");
}

/** True when a bare call in `language` may be a method of the enclosing class. */
export function hasImplicitThis(language: string | null): boolean {
  return IMPLICIT_THIS.has(language ?? "");
}

/**
 * Languages whose methods may be defined out of their class's body
 * (`void Widget::open() { … }` in a `.cpp` file, the class in a header): such
 * a definition names its class, so its class is found by that name. C is
 * here for its headers, which may hold C++ (a C file has no methods).
 */
const OUT_OF_LINE = new Set(["cpp", "c"]);

/** True when a method of `language` may be defined outside its class, naming it (C++). */
export function definesOutOfLine(language: string | null): boolean {
  return OUT_OF_LINE.has(language ?? "");
}

/** How far a bare call of `language` may be resolved by uniqueness (see {@link BARE_SCOPE}). */
export function bareScope(language: string | null): "root" | "folder" | "star" | "script" | "none" {
  return BARE_SCOPE[language ?? ""] ?? "root";
}

/**
 * SQL: node `x`'s signature exports it from a JS/TS module (`export …`,
 * `exports.f = …`, `module.exports = …`).
 */
export const JS_EXPORT_SQL = `(x.signature LIKE 'export %' OR x.signature LIKE 'exports.%'
  OR x.signature LIKE 'module.exports%')`;

const JS_EXPORT = /^(?:export\s|exports\.|module\.exports)/;

/**
 * True when a JS/TS file is a module, not a script sharing the page's
 * globals: it imports something (`imports` references: `import`,
 * `require`) or exports one of its definitions (their `signatures`). A
 * module's top-level names are its own: a bare call elsewhere never means
 * them, and one of its own never means another file's.
 */
export function isJsModule(signatures: Iterable<string | null>, imports: number): boolean {
  if (imports > 0) return true;
  for (const s of signatures) if (s !== null && JS_EXPORT.test(s)) return true;
  return false;
}
