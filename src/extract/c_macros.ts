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
 *   answers no call either;
 * - a calling convention between a function's type and its name (`uLong
 *   ZEXPORT adler32(…)`, `int WINAPI WinMain(…)`, `void (XMLCALL *f)(…)`),
 *   a storage macro in lower case (zlib's `local void slide_hash(s)`),
 *   a prototype's list wrapped for old compilers (`fill_window
 *   OF((deflate_state *s))`, `__P`, `PARAMS`), and a 16-bit pointer's size
 *   (`unsigned char FAR *buf;`): the head in error again, and zlib's files
 *   two thirds partial;
 * - a macro alone on its line where a statement or a member goes, which
 *   expands to code that ends itself (`Py_BEGIN_ALLOW_THREADS`,
 *   `PyObject_HEAD`, `Q_OBJECT`): read as an expression missing its `;`,
 *   which joined it to the statement after it (`done: Py_END_ALLOW_THREADS
 *   if (result) {`) and left CPython's `socketmodule.c` in error from its
 *   first line.
 */

/**
 * The text with such macros replaced by as many spaces (pure): the same
 * length, lines and offsets, so every position the parser reports holds in
 * the original text, from which signatures, doc comments and literals are
 * sliced. A macro here is an ALL-CAPS name (digits and `_` allowed) in one
 * of these places, each with its own guard below: between `class`, `struct`
 * or `union` and the name; before a function's return type at the start of
 * its line (or in lower case, before two more names); between the type and
 * the name, or before a function pointer's `*`; around a prototype's
 * parameter list (`OF((…))`); `FAR` or `NEAR` between a declaration's
 * words; after a parameter's name; after a
 * declaration's `)` or a member's name (with or without arguments, on its
 * line or the next), before `;`, `{`, `=`, `override` or `final`; alone on
 * its line (after a prefix such as `Py_`) between two statements. A line
 * that begins a statement (`return`, `if`, …) keeps its macros, since there
 * such a shape is a macro call whose arguments may hold calls. The same
 * shapes in a comment or a string are blanked too, which changes nothing
 * the index keeps. About 36 µs per KiB (the corpus's 57.6 MiB of C and C++
 * in 2.1 s warm, 1.5 s before the shapes of 2026-12-05), a small share of
 * the parse that follows (about 2% of a C file's extraction).
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
  // Each shape whose macros always go: a cheap test first, then the blanking.
  for (const [maybe, blank] of PLAIN_SHAPES) {
    if (maybe.test(out)) out = blank(out);
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
 * A calling-convention or export macro between a function's return type and
 * its name, at the start of its line (`uLong ZEXPORT adler32(…)`, `int
 * WINAPI WinMain(…)`, `typedef enum XML_Error PTRCALL Processor(…)`), the
 * name on the same line or the next
 * (`XML_Parser XMLCALL` above `XML_ParserCreate(…)`): the type is one name,
 * after `typedef`, `static`, `inline`, `extern`, `const`, `unsigned`,
 * `signed`, `long`, `short`, `struct`, `enum` or `union`; the macro is
 * ALL-CAPS and a name follows it, then `(` (`static UINT count(` has none:
 * UINT is the type).
 */
const MAYBE_MIDDLE =
  /^[ \t]*(?:\w+[ \t*]+)+[A-Z][A-Z0-9_]{2,}[ \t*]*\r?\n?[ \t*]*[A-Za-z_]\w*[ \t]*\(/m;
const MIDDLE_MACROS =
  /^([ \t]*(?:(?:typedef|static|inline|extern|const|unsigned|signed|long|short|struct|enum|union)[ \t]+)*(?!(?:typedef|static|inline|extern|const|struct|enum|union|return|else|case|goto)\b)[A-Za-z_]\w*[ \t*]+)([A-Z][A-Z0-9_]{2,})(?=[ \t*]+(?!__attribute__|__declspec|__asm)[A-Za-z_]\w*[ \t]*\(|[ \t*]*\r?\n[ \t*]*[A-Za-z_]\w*[ \t]*\()/gm;

/**
 * A calling convention inside a function pointer's declarator: `void
 * (XMLCALL *release)(void *)`, `BOOL (WINAPI *pfn)(HANDLE)`. Only before
 * `*name)` and a parameter list: `(FILE *fp)` is a parameter, not this.
 */
const MAYBE_POINTER_CONVENTION = /\([ \t]*[A-Z][A-Z0-9_]{2,}[ \t]*\*/;
const POINTER_CONVENTION =
  /(\([ \t]*)([A-Z][A-Z0-9_]{2,})(?=[ \t]*\*[ \t]*[A-Za-z_]\w*[ \t]*\)[ \t]*\()/g;

/**
 * A 16-bit pointer's size, which compilers since have defined away: `FAR`
 * and `NEAR` between a declaration's words (zlib's `const unsigned char
 * FAR *buf;`, `typedef Byte FAR Bytef;`, Windows' `LPVOID FAR *ppv`), where
 * an expression never puts two names in a row. Not after `define` (a
 * header's `#define FAR _far` names it).
 */
const MAYBE_POINTER_SIZE = /[\w*][ \t]+(?:FAR|NEAR)[ \t]*[\w*]/;
const POINTER_SIZE = /([\w*][ \t]+)(?<!\bdefine[ \t]+)(FAR|NEAR)(?=[ \t]*[A-Za-z_*])/g;

/**
 * A storage-class macro written in lower case before a function's return
 * type, at the start of its line: zlib's `local void slide_hash(s)` and
 * `local block_state deflate_stored(s, flush)` (`#define local static`,
 * in a header). A name that is no keyword of C or C++ followed by two more
 * before `(`: two types in a row cannot be, so the first is a macro.
 */
const MAYBE_LOWER_LEADING = /^[a-z][a-z0-9_]*[ \t]+[A-Za-z_]\w*[ \t*]+[A-Za-z_]\w*[ \t]*\(/m;
const LOWER_LEADING = /^([a-z][a-z0-9_]*)(?=[ \t]+[A-Za-z_]\w*[ \t*]+[A-Za-z_]\w*[ \t]*\()/gm;

/**
 * A parameter list wrapped for compilers without prototypes, after a
 * function's name: zlib's `local void fill_window OF((deflate_state *s));`,
 * BSD's `int foo __P((int a));`, GNU's `PARAMS ((…))`. The macro's name and
 * its outer parentheses are blanked, the list inside is kept: `fill_window
 * (deflate_state *s)`. Its name is in capitals (or `__P`), and `((`
 * follows it, which a call's arguments never begin with after a name.
 */
const WRAPPED_PARAMETERS = /\b[A-Z_][A-Z0-9_]*[ \t]*\((?=\()/g;

/** The function's name and the blanks before a {@link WRAPPED_PARAMETERS} macro, at its end. */
const NAME_BEFORE = /(?:^|[^\w])([A-Za-z_]\w*)[ \t]+$/;

/**
 * `text` with each {@link WRAPPED_PARAMETERS} macro and the parenthesis
 * closing it blanked, where a function's name stands before it. The macro
 * is found first (a capital letter before `((`), the name looked for in
 * the 80 characters before it: a pattern that began at the name was tried
 * at every identifier of the file, a fifth of this module's time.
 */
function blankWrappedParameters(text: string): string {
  const chars = text.split("");
  let changed = false;
  for (const m of text.matchAll(WRAPPED_PARAMETERS)) {
    const at = m.index!;
    // `#define FNV32_BASE ((unsigned int) …)`, `return MAX ((a), (b))`: no function's name.
    const name = NAME_BEFORE.exec(text.slice(Math.max(0, at - 80), at))?.[1];
    if (name === undefined || name === "define" || KEYWORDS.has(name)) continue;
    const open = at + m[0].length - 1;
    const close = matchingParenthesis(text, open);
    if (close === -1) continue;
    for (let i = at; i <= open; i++) chars[i] = " ";
    chars[close] = " ";
    changed = true;
  }
  return changed ? chars.join("") : text;
}

/** The offset of the `)` closing the `(` at `open` on its line or the next few, or -1. */
function matchingParenthesis(text: string, open: number): number {
  let depth = 0;
  const end = Math.min(text.length, open + 2000);
  for (let i = open; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 40) depth++; // (
    else if (c === 41 && --depth === 0) return i; // )
    else if (c === 59 || c === 123) return -1; // ; {
  }
  return -1;
}

/** The keywords of C and C++ that may begin a line of a declaration or a statement. */
const KEYWORDS = new Set(
  `auto bool break case char class const constexpr consteval constinit continue default
  delete do double else enum explicit export extern float for friend goto if inline int long
  mutable namespace new noexcept operator private protected public register restrict return
  short signed sizeof static struct switch template thread_local throw typedef typename union
  unsigned using virtual void volatile while wchar_t char8_t char16_t char32_t co_await
  co_return co_yield concept requires static_assert decltype alignas alignof _Bool _Noreturn
  _Thread_local _Atomic _Static_assert __inline __inline__ __attribute__ __declspec __extension__
  asm __asm__`.split(/\s+/),
);

/**
 * `text` with each lower-case storage macro ({@link LOWER_LEADING}) blanked
 * that is no keyword and is followed by no qualifier: in `sqlite3_mutex_methods
 * const *sqlite3NoopMutex(void)` the first name is the type.
 */
function blankLowerLeading(text: string): string {
  return text.replace(LOWER_LEADING, (word: string, _name: string, at: number) => {
    const next = /^[ \t]+([A-Za-z_]\w*)/.exec(text.slice(at + word.length, at + word.length + 80));
    return KEYWORDS.has(word) || QUALIFIERS.has(next?.[1] ?? "") ? word : " ".repeat(word.length);
  });
}

/** What may follow a type's name in a declaration: no second type. */
const QUALIFIERS = new Set(["const", "volatile", "restrict", "__restrict", "__restrict__"]);

/**
 * An attribute macro after a parameter's name (`struct Curl_easy *data
 * UNUSED_PARAM,`): only inside a parameter list opened on the same line,
 * directly after an identifier and before `,` or `)`, where C has nothing
 * else to say (`typedef PVOID SRWLOCK, *PSRWLOCK;` is no parameter list).
 */
const MAYBE_PARAMETER = /[A-Za-z_0-9][ \t]+[A-Z][A-Z0-9_]{2,}[ \t]*[,)]/;
/**
 * The parameter and its macros; {@link opensParameterList} checks what comes
 * before. (As one pattern, the `(` before was a lookbehind of up to 200
 * characters, tried at every identifier of the file: most of this module's
 * time on C code.)
 */
const PARAMETER_MACROS = /([*&]?[A-Za-z_]\w*)((?:[ \t]+[A-Z][A-Z0-9_]{2,})+)(?=[ \t]*[,)])/g;
/** How far back from a parameter its list's `(` may be. */
const PARAMETER_REACH = 200;

/**
 * True when a `(` lies at most {@link PARAMETER_REACH} characters before
 * `at` with no `;`, `(`, `)` or line break between.
 */
function opensParameterList(text: string, at: number): boolean {
  for (let i = at - 1; i >= 0 && i >= at - 1 - PARAMETER_REACH; i--) {
    const c = text.charCodeAt(i);
    if (c === 40) return true; // (
    if (c === 59 || c === 41 || c === 10) return false; // ; ) \n
  }
  return false;
}

/**
 * `text` with each parameter's attribute macros blanked: every match of
 * {@link PARAMETER_MACROS} that {@link opensParameterList} admits, tried at
 * each position in turn, as the pattern with its lookbehind would be.
 */
function blankParameterMacros(text: string): string {
  let out = "";
  let last = 0;
  PARAMETER_MACROS.lastIndex = 0;
  for (let m = PARAMETER_MACROS.exec(text); m !== null; m = PARAMETER_MACROS.exec(text)) {
    if (!opensParameterList(text, m.index)) {
      PARAMETER_MACROS.lastIndex = m.index + 1;
      continue;
    }
    out += text.slice(last, m.index) + m[1]! + " ".repeat(m[2]!.length);
    last = m.index + m[0].length;
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * A macro alone on its line (`Py_BEGIN_ALLOW_THREADS`, `PyObject_HEAD`,
 * `Q_OBJECT`): an ALL-CAPS name, after a prefix such as `Py_` or
 * `PyObject_`, with nothing else but a comment.
 */
const LONE_MACRO =
  /^[ \t]*(?:[A-Za-z][A-Za-z0-9]*_)?[A-Z][A-Z0-9_]{2,}[ \t]*(?:\/\/[^\n]*|\/\*[^\n]*?\*\/[ \t]*)?\r?$/gm;

/**
 * `text` with each {@link LONE_MACRO} blanked where it stands between two
 * statements or members: the code line before it ends with `;`, `{`, `}`
 * or a label's `:` (not `,` or an operator: the last item of a list, a
 * continued expression) or there is none, and the one after it does not
 * begin with what continues an expression (`(`, `;`, `,`, `=`, an operator,
 * `)`). Directive, comment and blank lines between are passed over. After
 * a label it becomes an empty statement, `;`, the same length.
 */
function blankLoneMacros(text: string): string {
  return text.replace(LONE_MACRO, (line: string, at: number) => {
    const before = codeLineBefore(text, at);
    const next = codeLineAfter(text, at + line.length);
    const after = next.trim();
    if (!(before === "" || /[;{}:]$/.test(before)) || CONTINUES.test(after)) return line;
    if (DECLARATOR.test(next)) return line;
    // After a label (`endlabel: Py_TRASHCAN_END }`), an empty statement: a
    // label before `}` is an error, which left the next functions inside.
    const blank = line.replace(/[^\r]/g, " ");
    if (!before.endsWith(":")) return blank;
    const at0 = line.search(/\S/);
    return blank.slice(0, at0) + ";" + blank.slice(at0 + 1);
  });
}

/**
 * A function's name at the start of a line (`PyInit__socket(void)`): the
 * macro alone on the line above is its return type (`PyMODINIT_FUNC`).
 */
const DECLARATOR = /^\**[A-Za-z_]\w*[ \t]*\(/;

/** What begins a line that continues the expression before it. */
const CONTINUES = /^(?:::|[-(;,=)+*/%&|^!<>?.[])/;

/** The nearest line before offset `at` that holds code, trimmed ("" at the top). */
function codeLineBefore(text: string, at: number): string {
  let end = at;
  while (end > 0) {
    const start = text.lastIndexOf("\n", end - 2) + 1;
    const line = text.slice(start, end).trim();
    if (line !== "" && !NOT_CODE.test(line)) return line.replace(/\s*\/\/.*$/, "");
    if (start === 0) return "";
    end = start;
  }
  return "";
}

/** The nearest line after offset `at` (a line's end) that holds code, as written ("" at the end). */
function codeLineAfter(text: string, at: number): string {
  let start = at;
  while (start < text.length) {
    const next = text.indexOf("\n", start + 1);
    const end = next === -1 ? text.length : next;
    const line = text.slice(start + 1, end).trimEnd();
    // A line that begins with `*` is read as code here: `* 2;` continues an expression.
    if (line.trim() !== "" && !/^[ \t]*(?:#|\/\/|\/\*)/.test(line)) return line;
    if (next === -1) return "";
    start = next;
  }
  return "";
}

/** The shapes blanked without a further check, as `[cheap test, blanking]`. */
const PLAIN_SHAPES: readonly (readonly [RegExp, (text: string) => string])[] = [
  // First: the shapes after it read a prototype's list as `name (…)`.
  [/\b[A-Z_][A-Z0-9_]*[ \t]*\(\(/, blankWrappedParameters],
  [MAYBE_EXPORT, (text) => blankGroup(text, EXPORT_MACROS)],
  [MAYBE_LEADING, (text) => blankGroup(text, LEADING_MACROS)],
  // Before the calling conventions: `const z_crc_t FAR * ZEXPORT get_crc_table()`.
  [MAYBE_POINTER_SIZE, (text) => blankGroup(text, POINTER_SIZE)],
  [MAYBE_MIDDLE, (text) => blankGroup(text, MIDDLE_MACROS)],
  [MAYBE_POINTER_CONVENTION, (text) => blankGroup(text, POINTER_CONVENTION)],
  [MAYBE_LOWER_LEADING, blankLowerLeading],
  [MAYBE_PARAMETER, blankParameterMacros],
  [new RegExp(LONE_MACRO.source, "m"), blankLoneMacros],
];

/** `text` with group 2 of each match of `pattern` blanked, group 1 kept. */
function blankGroup(text: string, pattern: RegExp): string {
  return text.replace(
    pattern,
    (_all, head: string, macros: string) => head + " ".repeat(macros.length),
  );
}

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
