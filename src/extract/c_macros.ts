/**
 * C and C++ code leans on macros that the preprocessor makes vanish and that
 * tree-sitter, which has no preprocessor, reads as code:
 *
 * - an export or attribute macro between `class` and the class's name
 *   (`class YAML_CPP_API Emitter {`, `struct LEVELDB_EXPORT Options {`,
 *   `class PROTOBUF_EXPORT Arena final {`): read as the class's name, the
 *   rest an error, the class and every member declared in it lost
 *   (yaml-cpp's `Emitter`, `Node` and `Parser` were);
 * - an annotation after a declaration, as clang's thread-safety analysis is
 *   spelled in Google-style code (`Status Write() EXCLUSIVE_LOCKS_REQUIRED(mu_);`,
 *   `void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() {`, `int size_ GUARDED_BY(mu_);`):
 *   an error on the declaration, which then never answers a call
 *   (leveldb's `DBImpl::MakeRoomForWrite` did not);
 * - a linkage macro before a function's return type (`LUA_API int
 *   lua_gettop (…)`, `SQLITE_API`, `CURL_EXTERN`) and an attribute after a
 *   parameter (`UNUSED_PARAM`): an error on the function's head, which then
 *   answers no call either.
 */

/**
 * The text with such macros replaced by as many spaces (pure): the same
 * length, lines and offsets, so every position the parser reports holds in
 * the original text, from which signatures, doc comments and literals are
 * sliced. A macro here is an ALL-CAPS name (digits and `_` allowed) in one
 * of four places, each with its own guard below: between `class`, `struct`
 * or `union` and the name; before a function's return type at the start of
 * its line; after a parameter's name; after a declaration's `)` or a
 * member's name (with or without arguments, on its line or the next), before
 * `;`, `{`, `=`, `override` or `final`. A line that begins a statement
 * (`return`, `if`, …) keeps its macros, since there such a shape is a macro
 * call whose arguments may hold calls. The same shapes in a comment or a
 * string are blanked too, which changes nothing the index keeps. About
 * 75 µs per KiB, a small share of the parse that follows.
 *
 * @example
 * ```ts
 * import { blankMacros } from "./c_macros.ts";
 * import assert from "node:assert/strict";
 * assert.equal(blankMacros("class YAML_CPP_API Emitter {"), "class              Emitter {");
 * assert.equal(blankMacros("void Lock() LOCK_FN(mu);"), "void Lock()            ;");
 * assert.equal(blankMacros("class Emitter {"), "class Emitter {");
 * ```
 */
export function blankMacros(text: string): string {
  let out = text;
  // Each shape whose macros always go: a cheap test first, then the pattern
  // (group 1 kept, group 2 blanked).
  for (const [maybe, pattern] of PLAIN_SHAPES) {
    if (maybe.test(out)) {
      out = out.replace(
        pattern,
        (_all, head: string, macros: string) => head + " ".repeat(macros.length),
      );
    }
  }
  if (MAYBE_ANNOTATION.test(out)) {
    out = out.replace(
      ANNOTATIONS,
      (all: string, head: string, macros: string, _args, after: string) =>
        STATEMENT.test(all) || !annotates(head, macros, after)
          ? all
          : head + " ".repeat(macros.length),
    );
    // The same, wrapped onto a line of its own under the declaration.
    out = out.replace(ANNOTATION_LINES, (all: string, at: number, whole: string) => {
      const start = whole.lastIndexOf("\n", whole.lastIndexOf("\n", at - 1) - 1) + 1;
      const above = whole.slice(start, at);
      return STATEMENT.test(above) || NOT_CODE.test(above) ? all : " ".repeat(all.length);
    });
  }
  return out;
}

/** A cheap test first: most files have no class of this shape. */
const MAYBE_EXPORT = /\b(?:class|struct|union)[ \t]+[A-Z][A-Z0-9_]+[ \t]+[A-Za-z_]/;

const EXPORT_MACROS =
  /(?<!typedef[ \t]+)\b((?:class|struct|union)[ \t]+)((?:[A-Z][A-Z0-9_]+[ \t]+)+)(?=[A-Za-z_]\w*[ \t]*(?:final\b[ \t]*)?(?::(?!:)|\{|;|\r?\n|$))/gm;

/**
 * Linkage and attribute macros before a function's return type, at the start
 * of its line (after `static`, `inline`, `extern`): `LUA_API int
 * lua_gettop (lua_State *L)`, `SQLITE_API int sqlite3_open(…)`, `static
 * SQLITE_NOINLINE int f(…)`, `CURL_EXTERN CURLcode curl_easy_perform(…)`.
 * What follows must read as a type and a name before `(`, so an ALL-CAPS
 * type (`FILE *fopen(…)`, `UINT count(void)`) is left alone.
 */
const MAYBE_LEADING = /^[ \t]*(?:\w+[ \t]+)?[A-Z][A-Z0-9_]{2,}[ \t]+[A-Za-z_]/m;
const LEADING_MACROS =
  /^([ \t]*(?:(?:static|inline|extern|__inline|__inline__)[ \t]+)*)((?:[A-Z][A-Z0-9_]{2,}[ \t]+)+)(?=(?:(?:const|unsigned|signed|struct|enum|union)[ \t]+)*[A-Za-z_]\w*[ \t*]+[A-Za-z_]\w*[ \t]*\()/gm;

/**
 * An attribute macro after a parameter's name (`struct Curl_easy *data
 * UNUSED_PARAM,`): only inside a parameter list opened on the same line,
 * directly after an identifier and before `,` or `)`, where C has nothing
 * else to say (`typedef PVOID SRWLOCK, *PSRWLOCK;` is no parameter list).
 */
const MAYBE_PARAMETER = /[A-Za-z_0-9][ \t]+[A-Z][A-Z0-9_]{2,}[ \t]*[,)]/;
const PARAMETER_MACROS =
  /(?<=\([^;()\n]{0,200})([*&]?[A-Za-z_]\w*)((?:[ \t]+[A-Z][A-Z0-9_]{2,})+)(?=[ \t]*[,)])/g;

/** The shapes blanked without a further check, as `[cheap test, pattern]`. */
const PLAIN_SHAPES: readonly (readonly [RegExp, RegExp])[] = [
  [MAYBE_EXPORT, EXPORT_MACROS],
  [MAYBE_LEADING, LEADING_MACROS],
  [MAYBE_PARAMETER, PARAMETER_MACROS],
];

/** A cheap test first: most files have no annotated declaration. */
const MAYBE_ANNOTATION =
  /[\w)\n][ \t]+[A-Z][A-Z0-9_]{2,}(?:\([^()\n]*\))?[ \t]*(?:[;{=]|override\b|final\b|\r?\n[ \t]*\{)/;

const ANNOTATIONS =
  /^([^\n]{0,300}?(?:\)(?:[ \t]*(?:const|noexcept|&&?))*|[A-Za-z_]\w*))((?:[ \t]+[A-Z][A-Z0-9_]{2,}(\([^()\n]*\))?)+)(?=[ \t]*([;{=]|override\b|final\b|\r?\n[ \t]*\{))/gm;

/** Annotation macros alone on the line after a declaration's `)` (see {@link ANNOTATIONS}). */
const ANNOTATION_LINES =
  /(?<=\)(?:[ \t]*(?:const|noexcept|&&?))*[ \t]*\r?\n[ \t]*)[A-Z][A-Z0-9_]{2,}\b(?:\([^()\n]*\))?(?:[ \t]+[A-Z][A-Z0-9_]{2,}\b(?:\([^()\n]*\))?)*[ \t]*(?=[;{=]|override\b|final\b)/gm;

/**
 * Whether the macros after `head` annotate a declaration: after a function's
 * `)` any; after a member's name only macros with arguments before `;` or
 * `=` (a bare ALL-CAPS word there is the name itself: `const int MAX_LEN = 5;`),
 * and never after a keyword (`class URL {`).
 */
function annotates(head: string, macros: string, after: string): boolean {
  if (/\)(?:[ \t]*(?:const|noexcept|&&?))*$/.test(head)) return true;
  if (KEYWORD_BEFORE.test(head) || TYPE_BEFORE.test(head) || after === "{") return false;
  return /^(?:[ \t]+[A-Z][A-Z0-9_]{2,}\([^()\n]*\))+$/.test(macros);
}

/**
 * A built-in type or a specifier last: the macro is the declarator itself
 * (`static int INTERNAL_CATCH_UNIQUE_NAME(registrar) = …`), not an annotation
 * of a name.
 */
const TYPE_BEFORE =
  /\b(?:int|char|bool|void|long|short|float|double|unsigned|signed|auto|const|static|inline|extern|volatile|mutable|constexpr)$/;

/** Words after which an ALL-CAPS word is a name, not an annotation. */
const KEYWORD_BEFORE =
  /\b(?:class|struct|union|enum|namespace|typename|template|new|sizeof|operator|using|typedef|friend|return|case|goto)$/;

/**
 * A preprocessor or comment line (`#if defined(X)`, `// Tests Factorial()`):
 * what follows it is not its annotation.
 */
const NOT_CODE = /^[ \t]*(?:#|\/\/|\/\*|\*)/;

/** A line that begins a statement, not a declaration. */
const STATEMENT =
  /^[ \t]*(?:return|if|else|while|for|switch|case|do|throw|co_return|co_yield|goto|delete)\b/;
