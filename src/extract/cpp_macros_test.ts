import { assertCases } from "../../tests/cases.ts";
import { blankExportMacros } from "./cpp_macros.ts";

Deno.test("blankExportMacros() blanks the macros between class and its name, and nothing else", () => {
  assertCases(blankExportMacros, [
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
