import assert from "node:assert/strict";
import { grammarLanguage } from "./header_dialect.ts";

const CASES: [string, string, string, string][] = [
  ["a C header stays C", "zlib.h", "struct z_stream_s {\n  int avail_in;\n};\n", "c"],
  ['a C header with extern "C" stays C', "a.h", '#ifdef __cplusplus\nextern "C" {\n#endif\n', "c"],
  ["a C struct with a bit-field stays C", "a.h", "struct flags {\n  unsigned a : 1;\n};\n", "c"],
  ["a namespace makes it C++", "status.h", "namespace absl {\nint f();\n}\n", "cpp"],
  ["a template makes it C++", "a.h", "template <typename T>\nT max(T a, T b);\n", "cpp"],
  ["a class makes it C++", "a.h", "class ABSL_MUST_USE_RESULT Status final {\n};\n", "cpp"],
  ["a derived struct makes it C++", "a.h", "struct Tag : std::true_type {};\n", "cpp"],
  ["an access specifier makes it C++", "a.h", "struct S {\n public:\n  int x;\n};\n", "cpp"],
  ["an extensionless include makes it C++", "a.h", "#include <string>\n", "cpp"],
  ["a .c file is never C++", "a.c", "namespace x {\n}\n", "c"],
  ["another language is left alone", "a.h", "namespace x {\n}\n", "objc"],
];

for (const [what, path, text, want] of CASES) {
  Deno.test(`grammarLanguage(): ${what}`, () => {
    assert.equal(grammarLanguage(path, want === "objc" ? "objc" : "c", text), want);
  });
}
