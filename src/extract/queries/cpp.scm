; C++ patterns (tree-sitter-cpp 0.23), after c.scm. Started from
; tree-sitter-cpp's queries/tags.scm.

; ---- definitions ------------------------------------------------------------

(class_specifier
  name: (type_identifier) @name
  body: (_) @body) @definition.class

(namespace_definition
  name: (_) @name
  body: (_) @body) @definition.module

; methods defined in a class body
(function_definition
  declarator: [
    (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))
    (reference_declarator (function_declarator declarator: (field_identifier) @name))
  ]
  body: (_) @body) @definition.function

; methods defined outside their class: void Store<T>::put(…) {…}
(function_definition
  declarator: [
    (function_declarator
      declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (_) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name))
    (pointer_declarator
      declarator: (function_declarator
        declarator: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (_) @receiver)]
          name: (identifier) @name)))
    (reference_declarator
      (function_declarator
        declarator: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (_) @receiver)]
          name: (identifier) @name)))
    ; void ns::Store::put(…)
    (function_declarator
      declarator: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (_) @receiver)]
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (_) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
  ]
  body: (_) @body) @definition.method

; method declarations in a class body: void put(…); Store(); ~Store();
(field_declaration_list
  [
    (field_declaration
      declarator: [
        (function_declarator declarator: [(field_identifier) (operator_name)] @name)
        (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))
        (reference_declarator (function_declarator declarator: (field_identifier) @name))
      ])
    (declaration
      declarator: (function_declarator declarator: [(identifier) (destructor_name)] @name))
  ] @definition.function)

; using Id = unsigned long;
(alias_declaration
  name: (type_identifier) @name) @definition.type

; ---- references -------------------------------------------------------------

; std::sort(…), helper::log(…)
(call_expression
  function: (qualified_identifier
    scope: (_) @module
    name: (identifier) @name)) @reference.call

; make_unique<T>(…), std::make_unique<T>(…)
(call_expression
  function: (template_function
    name: (identifier) @name)) @reference.call

(call_expression
  function: (qualified_identifier
    scope: (_) @module
    name: (template_function name: (identifier) @name))) @reference.call

(call_expression
  function: (field_expression
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
