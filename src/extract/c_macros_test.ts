import assert from "node:assert/strict";
import { assertCases } from "../../tests/cases.ts";
import { blankMacros } from "./c_macros.ts";

Deno.test("blankMacros() blanks the macros between class and its name, and nothing else", () => {
  assertCases(blankMacros, [
    ["class YAML_CPP_API Emitter {", "class              Emitter {"],
    ["struct LEVELDB_EXPORT Options {", "struct                Options {"],
    ["class PROTOBUF_EXPORT Arena final {", "class                 Arena final {"],
    ["class A_API B_EXPORT Widget : public Base {", "class                Widget : public Base {"],
    ["class RE2_EXPORT Set;", "class            Set;"],
    [
      "template <typename T>\nclass ABSL_API Holder\n{",
      "template <typename T>\nclass          Holder\n{",
    ],
    // An all-caps class name after a macro: only the macro goes.
    ["class DLL_API URL {", "class         URL {"],
    // Nothing to blank: a plain class, an all-caps name alone, a qualified base, a declaration.
    ["class Emitter {", "class Emitter {"],
    ["class URL {", "class URL {"],
    ["class Derived : Ns::Base {", "class Derived : Ns::Base {"],
    ["struct FOO bar = {0};", "struct FOO bar = {0};"],
    ["class API Foo::Bar {", "class API Foo::Bar {"],
  ]);
});

/** `line` with `macro` (its first occurrence) replaced by as many spaces. */
const blanked = (line: string, macro: string) => line.replace(macro, " ".repeat(macro.length));

/** Each `[line, macro]` comes back with that macro blanked; each of `kept` as written. */
function assertBlanking(lines: readonly (readonly [string, string])[], kept: readonly string[]) {
  assertCases(blankMacros, lines.map(([line, macro]) => [line, blanked(line, macro)]));
  assertCases(blankMacros, kept.map((line) => [line, line]));
}

Deno.test("blankMacros() blanks annotation macros after a declaration, never a statement's macro call", () => {
  const annotated: [string, string][] = [
    [
      "  Status MakeRoomForWrite(bool force) EXCLUSIVE_LOCKS_REQUIRED(mutex_);",
      " EXCLUSIVE_LOCKS_REQUIRED(mutex_)",
    ],
    ["  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() {", " ABSL_EXCLUSIVE_LOCK_FUNCTION()"],
    ["  int size() const LOCKS_EXCLUDED(mu_) override;", " LOCKS_EXCLUDED(mu_)"],
    ["  void Run() OVERRIDE;", " OVERRIDE"],
    ["size_t thread_id() SPDLOG_NOEXCEPT\n{", " SPDLOG_NOEXCEPT"],
    ["  MemTable* mem_ GUARDED_BY(mutex_);", " GUARDED_BY(mutex_)"],
    [
      "  port::Mutex mutex_ ACQUIRED_AFTER(a) ACQUIRED_BEFORE(b);",
      " ACQUIRED_AFTER(a) ACQUIRED_BEFORE(b)",
    ],
  ];
  // Wrapped onto the next line, as clang-format leaves a long declaration.
  const wrapped = "  Status MakeRoomForWrite(bool force)\n      EXCLUSIVE_LOCKS_REQUIRED(mutex_);";
  assert.equal(blankMacros(wrapped), blanked(wrapped, "EXCLUSIVE_LOCKS_REQUIRED(mutex_)"));
  const statement = "  if (!ok)\n    RETURN_IF_ERROR(Flush());";
  assert.equal(blankMacros(statement), statement);
  for (const above of ["#if defined(HAVE_CTAD)", "// Tests Factorial()"]) {
    const test = `${above}\nTEST_F(MathTest, Factorial) {`;
    assert.equal(blankMacros(test), test);
  }
  // Unchanged: statements keep their macro calls (and the calls in their
  // arguments); an ALL-CAPS name is no annotation; a class's name stays.
  const kept = [
    "  if (!ok) RETURN_IF_ERROR(Flush());",
    "  return s CHECK_OK(Open());",
    "  const int MAX_LEN = 5;",
    "  static int UNIQUE_NAME(registrar) = [] { return 0; }();",
    "  static const char* DEFAULT_NAME;",
    "  int x = MAX_SIZE;",
    "  Foo(bar);",
    "class URL {",
    "enum class Color { RED, GREEN };",
  ];
  assertBlanking(annotated, kept);
});

Deno.test("blankMacros() blanks linkage macros before a C function's type and attribute macros after a parameter", () => {
  const cases: [string, string][] = [
    ["LUA_API int lua_gettop (lua_State *L) {", "LUA_API"],
    ["SQLITE_API int sqlite3_open(const char *filename, sqlite3 **ppDb);", "SQLITE_API"],
    ["static SQLITE_NOINLINE PgHdr1 *pcache1FetchStage2(PCache1 *pCache) {", "SQLITE_NOINLINE"],
    ["CURL_EXTERN CURLcode curl_easy_perform(CURL *curl);", "CURL_EXTERN"],
    ["int Curl_none_shutdown(struct Curl_cfilter *cf UNUSED_PARAM, int x) {", " UNUSED_PARAM"],
  ];
  // An ALL-CAPS type, a call's arguments, a macro call statement: as written.
  const kept = [
    "FILE *fopen(const char *path, const char *mode);",
    "UINT count(void);",
    "  foo(a, MAX_LEN);",
    "  LIST_FOREACH(item, list) {",
    '  DEBUG_LOG("x");',
    "typedef struct DIR DIR;",
    "typedef PVOID SRWLOCK, *PSRWLOCK;",
  ];
  assertBlanking(cases, kept);
});

Deno.test("blankMacros() blanks a macro alone on its line between two statements or members, never a list's item, a continued expression or a function's type", () => {
  const blanked = (text: string) => blankMacros(text).split("\n");
  // CPython's statement macros, a struct's member macro, a header's declaration block.
  assert.deepEqual(
    blanked("  res = listen(fd, n);\n  Py_END_ALLOW_THREADS\n  if (res < 0)"),
    ["  res = listen(fd, n);", " ".repeat(22), "  if (res < 0)"],
  );
  // After a label, an empty statement: a label before `}` would be an error.
  assert.deepEqual(
    blanked("done:\n    Py_END_ALLOW_THREADS\n\n    if (result) {"),
    ["done:", "    ;" + " ".repeat(19), "", "    if (result) {"],
  );
  assert.deepEqual(
    blanked("  endlabel:\n    Py_TRASHCAN_END\n}"),
    ["  endlabel:", "    ;" + " ".repeat(14), "}"],
  );
  assert.deepEqual(
    blanked("typedef struct {\n    PyObject_HEAD // refcount\n    int x;\n} Sock;"),
    ["typedef struct {", " ".repeat(29), "    int x;", "} Sock;"],
  );
  assert.deepEqual(
    blanked("#include <glib.h>\nG_BEGIN_DECLS\nint f(void);\r\nG_END_DECLS\r"),
    ["#include <glib.h>", " ".repeat(13), "int f(void);\r", " ".repeat(11) + "\r"],
  );
  const kept = [
    // The last item of a list, an argument, a continued expression.
    "enum { A,\n  LAST_ONE\n};",
    "x = f(a,\n  MACRO_ARG\n);",
    "x = a +\n  B_CONST\n  ;",
    "  y = 1;\n  WIDTH\n  * 2;",
    // A function's type on the line above its name.
    "}\n\nPyMODINIT_FUNC\nPyInit__socket(void)\n{",
    // Not alone on its line, or no macro's shape.
    "  x = 1;\n  Py_RETURN_NONE;\n}",
    "  x = 1;\n  done\n}",
  ];
  for (const text of kept) assert.equal(blankMacros(text), text, text);
});

Deno.test("blankMacros() blanks a calling-convention macro before a function's name, a lower-case storage macro, and a prototype's list wrapper", () => {
  const cases: [string, string][] = [
    ["uLong ZEXPORT adler32(adler, buf, len)", " ZEXPORT"],
    ["int WINAPI WinMain(HINSTANCE h)", " WINAPI"],
    ["unsigned long ZEXPORT crc32(crc, buf, len)", " ZEXPORT"],
    ["const char * ZEXPORT zError(err)", "ZEXPORT"],
    ["typedef enum XML_Error PTRCALL Processor(XML_Parser parser,", " PTRCALL"],
    ["XML_Parser XMLCALL\nXML_ParserCreate(const XML_Char *e)", " XMLCALL"],
    ["  void(XMLCALL *m_unknownEncodingRelease)(void *);", "XMLCALL"],
    ["BOOL (WINAPI *pfn)(HANDLE);", "WINAPI"],
    // zlib's `#define local static`, in a header the file includes.
    ["local void slide_hash(s)", "local"],
    ["local block_state deflate_stored(s, flush)", "local"],
  ];
  // An ALL-CAPS type, a keyword, a macro named as the function, a call.
  const kept = [
    "static UINT count(void)",
    "static UINT\ncount(void)",
    "typedef unsigned int\tUINT8\t__attribute__((__mode__(__QI__)));",
    "sqlite3_mutex_methods const *sqlite3NoopMutex(void){",
    "void f(FILE *fp);",
    "x = (FOO *) p;",
    "unsigned long UINT_FN(x)",
    "static int FOO(a)",
    "struct stat STAT_FN(x)",
    "typedef int INT_T(int);",
    "return foo bar(x);",
    "else if (x)",
    "const char *name(void)",
    "  x = f((a + b) * c);",
    "  if (FOO((a)))",
    "  y = g ((1));",
    "#define FNV32_BASE ((unsigned int) 0x811c9dc5)",
    "  return MAX ((a), (b));",
  ];
  assertBlanking(cases, kept);
  // The wrapper's name and its outer parentheses go; the list stays, at its place.
  assert.equal(
    blankMacros("local void fill_window OF((deflate_state *s));"),
    "      void fill_window    (deflate_state *s) ;",
  );
  assert.equal(blankMacros("int foo __P((int a, char *b));"), "int foo     (int a, char *b) ;");
  assert.equal(
    blankMacros("extern char *xstrdup PARAMS ((const char *));"),
    "extern char *xstrdup         (const char *) ;",
  );
});

Deno.test("blankMacros() finds a parameter's macros where the list's `(` lies up to 200 characters back on its line", () => {
  // The rule as one pattern, with the lookbehind the code replaced for speed.
  const rule =
    /(?<=\([^;()\n]{0,200})([*&]?[A-Za-z_]\w*)((?:[ \t]+[A-Z][A-Z0-9_]{2,})+)(?=[ \t]*[,)])/g;
  const pad = (n: number) => "x".repeat(n);
  const lines = [
    "int f(int a UNUSED, int *b UNUSED_PARAM NONNULL)",
    "int f(struct s **pp ATTR)",
    "int f(int &r REF_ATTR, int v)",
    `int f(${pad(190)}, int a UNUSED)`,
    `int f(${pad(199)} a UNUSED)`,
    `int f(${pad(200)} a UNUSED)`,
    `int f(${pad(260)} a UNUSED)`,
    "g(x); int a UNUSED, b;",
    "int f(int a) UNUSED, b;",
    "int f(\n  int a UNUSED)",
    "call(g(a) UNUSED)",
    "h(abc DEF, (ghi JKL))",
  ];
  for (const line of lines) {
    const expected = line.replace(
      rule,
      (_all, head: string, macros: string) => head + " ".repeat(macros.length),
    );
    assert.equal(blankMacros(line), expected, line);
  }
});

Deno.test("blankMacros() stays linear on a long ALL-CAPS word under a `)` (expat's xmlparse.c took minutes)", () => {
  // A pattern that let the word split into macros tried every split when no `;` followed.
  const line = "      EXPAT_BILLION_LAUGHS_ATTACK_PROTECTION_MAXIMUM_AMPLIFICATION_DEFAULT},";
  const text = `  {(long int)\n${line}\n  int f() LOCK(mu);\n`;
  assert.equal(blankMacros(text), text.replace(" LOCK(mu)", " ".repeat(9)));
});

Deno.test("blankMacros() blanks a 16-bit pointer's FAR or NEAR between a declaration's words, never where it is defined", () => {
  assertCases(blankMacros, [
    ["    const unsigned char FAR *buf;", "    const unsigned char     *buf;"],
    ["typedef Byte  FAR Bytef;", "typedef Byte      Bytef;"],
    ["    code FAR * FAR *table;", "    code     *     *table;"],
    ["HRESULT Query(LPVOID NEAR *ppv);", "HRESULT Query(LPVOID      *ppv);"],
    // Then the calling convention after it.
    [
      "const z_crc_t FAR * ZEXPORT get_crc_table()",
      "const z_crc_t     *         get_crc_table()",
    ],
    // Where the macro is defined or tested, and a name that only ends so.
    ["#  define FAR _far", "#  define FAR _far"],
    ["#ifndef FAR\n#  define FAR\n#endif", "#ifndef FAR\n#  define FAR\n#endif"],
    ["  op = FTSQUERY_NEAR * 2;", "  op = FTSQUERY_NEAR * 2;"],
    ["  x = FAR;", "  x = FAR;"],
  ]);
});
