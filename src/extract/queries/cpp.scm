; C++ (tree-sitter-cpp 0.23), after c.scm.

; ---- definitions ------------------------------------------------------------

(class_specifier name: (type_identifier) @name body: (_) @body) @definition.class
(namespace_definition name: (_) @name body: (_) @body) @definition.module

;; Function definitions, whatever the declarator around the name: `T f()`,
;; `T* f()`, `T& f()`, `T** f()`; the name an identifier, a field (in a class
;; body), an operator (`operator<<`), a destructor or a template
;; specialisation (`f<int>`). Every declarator and name is spelled out, so
;; these patterns are generated (see ../query_families.ts).

; free functions and methods defined in a class body
;; @family cpp.functions

; methods defined outside their class: void Store<T>::put(…) {…},
; ns::Store::put, a::b::C::f (one to three scopes, which are the receiver)
;; @family cpp.qualified_methods

; specialisations and classes defined outside their scope:
; template <> struct hash<Key> {…}, class Outer::Inner {…}
(class_specifier
  name: (template_type name: (type_identifier) @name)
  body: (_) @body) @definition.class

(struct_specifier
  name: (template_type name: (type_identifier) @name)
  body: (_) @body) @definition.struct

(class_specifier
  name: (qualified_identifier
    scope: [(namespace_identifier) @receiver (template_type name: (_) @receiver)]
    name: [(type_identifier) @name (template_type name: (type_identifier) @name)])
  body: (_) @body) @definition.class

(struct_specifier
  name: (qualified_identifier
    scope: [(namespace_identifier) @receiver (template_type name: (_) @receiver)]
    name: [(type_identifier) @name (template_type name: (type_identifier) @name)])
  body: (_) @body) @definition.struct

; method declarations in a class body: void put(…); Store(); ~Store(); each
; name a wildcard that #type? holds to its types (see ../type_predicates.ts:
; spelled out, tree-sitter's compile-time analysis of the declarators around
; them cost 11 ms)
((field_declaration_list
  [
    (field_declaration
      declarator: [
        (function_declarator declarator: (_) @name @_member)
        (pointer_declarator declarator: (function_declarator declarator: (_) @name @_field))
        (reference_declarator (function_declarator declarator: (_) @name @_field))
      ])
    (declaration
      declarator: (function_declarator declarator: (_) @name @_function))
  ] @definition.function)
  (#type? @_member "field_identifier" "operator_name")
  (#type? @_field "field_identifier")
  (#type? @_function "identifier" "destructor_name"))

; using Id = unsigned long;
(alias_declaration name: (type_identifier) @name) @definition.type

; ---- references -------------------------------------------------------------

; std::sort(…), helper::log(…)
(call_expression
  function: (qualified_identifier
    scope: (_) @module
    name: (identifier) @name)) @reference.call

; make_unique<T>(…), std::make_unique<T>(…)
(call_expression function: (template_function name: (identifier) @name)) @reference.call

(call_expression
  function: (qualified_identifier
    scope: (_) @module
    name: (template_function name: (identifier) @name))) @reference.call

(call_expression
  function: (field_expression
    argument: (_) @qualifier
    field: (template_method name: (field_identifier) @name))) @reference.call

(new_expression
  type: [
    (type_identifier) @name
    (template_type name: (type_identifier) @name)
    (qualified_identifier
      scope: (_) @module
      name: [(type_identifier) @name (template_type name: (type_identifier) @name)])
  ]) @reference.call

; using namespace std;
((using_declaration
  "namespace"
  [(identifier) (qualified_identifier)] @module) @reference.import
  (#set! name "*"))

; using std::string;
(using_declaration
  (qualified_identifier
    scope: (_) @module
    name: (identifier) @name)) @reference.import

(base_class_clause
  [
    (type_identifier) @name
    (qualified_identifier) @name
    (template_type name: (_) @name)
  ]) @reference.inherits

; ---- evident receiver types (see captures.ts, `@binding.type`) -------------

; Foo x;  Foo x(…);  Foo* x = new Foo;  void f(Foo& x)
(declaration
  type: (type_identifier) @type
  declarator: [
    (identifier) @name
    (init_declarator declarator: [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (reference_declarator (identifier) @name)
    ])
    (pointer_declarator declarator: (identifier) @name)
  ]) @binding.type

(parameter_declaration
  type: (type_identifier) @type
  declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (reference_declarator (identifier) @name)
  ]) @binding.type
