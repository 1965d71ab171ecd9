; C, and the C part of C++: every node type here is in both grammars; C++ adds cpp.scm.

; ---- definitions ------------------------------------------------------------

; int f(…) {…}, char *f(…) {…}, char **f(…) {…}; not GoogleTest's TEST_F(Suite, Name) {…},
; which cpp.scm names by its suite and name. The names here and in the
; prototypes below are wildcards that #type? holds to identifiers (see
; ../type_predicates.ts): spelled out, tree-sitter's compile-time analysis
; of each function_declarator around them costs 3 ms.
(function_definition
  declarator: [
    (function_declarator declarator: (_) @name)
    (pointer_declarator declarator: (function_declarator declarator: (_) @name))
    (pointer_declarator
      declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name)))
  ]
  body: (_) @body
  (#not-match? @name "^(TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P)$")
  (#type? @name "identifier")) @definition.function

; prototypes at file level: int f(int); also inside include guards and other conditionals,
; `extern "C" {…}` and C++ namespaces, where a header declares its API with its documentation
; (curl's `CURL_EXTERN CURLcode curl_easy_setopt(…);`, leveldb's `NewLRUCache`), but never
; in a function's body, where `Foo x(y);` declares a variable
((declaration
    declarator: [
      (function_declarator declarator: (_) @name)
      (pointer_declarator declarator: (function_declarator declarator: (_) @name))
    ]) @definition.function
  (#type? @name "identifier")
  (#set! within "translation_unit preproc_ifdef preproc_if preproc_else preproc_elif preproc_elifdef linkage_specification namespace_definition declaration_list"))

(struct_specifier name: (type_identifier) @name body: (_) @body) @definition.struct
(union_specifier name: (type_identifier) @name body: (_) @body) @definition.union
(enum_specifier name: (type_identifier) @name body: (_) @body) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.macro

; ---- references -------------------------------------------------------------

(call_expression function: (identifier) @name) @reference.call

(call_expression
  function: (field_expression
    argument: (_) @qualifier
    field: (field_identifier) @name)) @reference.call

((preproc_include
  path: (_) @module) @reference.import
  (#set! name "*"))

; ---- bound names (see captures.ts, `@binding.type`) -------------------------

; parameters and local variables (`void (*cb)(void)`, `int (*f)(void) = g;`,
; `handler_fn h`): calling one calls what it holds, never a function of its name
(parameter_declaration declarator: (identifier) @name) @binding.type
(parameter_declaration declarator: (pointer_declarator declarator: (identifier) @name)) @binding.type
(parameter_declaration
  declarator: (function_declarator
    declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))) @binding.type
(declaration declarator: (identifier) @name) @binding.type
(declaration declarator: (init_declarator declarator: (identifier) @name)) @binding.type
(declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @binding.type
(declaration
  declarator: [
    (function_declarator
      declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
    (init_declarator
      declarator: (function_declarator
        declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
  ]) @binding.type
