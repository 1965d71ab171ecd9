; C#.

; ---- definitions ------------------------------------------------------------

(class_declaration name: (identifier) @name body: (_) @body) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name body: (_) @body) @definition.struct
(interface_declaration name: (identifier) @name body: (_) @body) @definition.interface
(enum_declaration name: (identifier) @name body: (_) @body) @definition.enum
(delegate_declaration name: (identifier) @name) @definition.type
(namespace_declaration name: (_) @name body: (_) @body) @definition.module
; namespace Acme.Store;  (what follows is its own: see captures.ts)
(file_scoped_namespace_declaration name: (_) @name) @definition.module
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name body: (_) @body) @definition.method
(destructor_declaration name: (identifier) @name body: (_) @body) @definition.method
(local_function_statement name: (identifier) @name body: (_) @body) @definition.function

; a property that runs code: `int Area => w * h;`, `{ get { … } set { … } }`
; (an auto-property, `{ get; set; }`, runs none and is no symbol)
(property_declaration
  name: (identifier) @name
  value: (arrow_expression_clause) @body) @definition.method
(property_declaration
  name: (identifier) @name
  accessors: (accessor_list (accessor_declaration body: (_))) @body) @definition.method

((field_declaration
  (modifier) @_const
  (variable_declaration
    (variable_declarator
      name: (identifier) @name))) @definition.constant
  (#eq? @_const "const"))

; ---- references -------------------------------------------------------------

(invocation_expression function: (identifier) @name) @reference.call
(invocation_expression function: (generic_name (identifier) @name)) @reference.call

; a.M(), this.M(), base.M(): the function, the call's first named child, is
; a wildcard that #type? holds to a member access (see ../type_predicates.ts):
; spelled `function: (member_access_expression …)`, tree-sitter's
; compile-time analysis of it costs ~5 ms per pattern on every process
; start. Few other first children have a `name:` field, so the wildcard
; hands over few other nodes.
((invocation_expression
  .
  (_
    expression: (_) @qualifier
    name: [
      (identifier) @name
      (generic_name (identifier) @name)
    ]) @_function) @reference.call
  (#type? @_function "member_access_expression"))

; this.M(), base.M(): the keyword is no named node
((invocation_expression
  .
  (_
    ["this" "base"] @qualifier
    name: [
      (identifier) @name
      (generic_name (identifier) @name)
    ]) @_function) @reference.call
  (#type? @_function "member_access_expression"))

(object_creation_expression
  type: [
    (identifier) @name
    (generic_name (identifier) @name)
    (qualified_name name: (_) @name)
  ]) @reference.call

; using System.Text;  using static System.Math;  — every name of the namespace
((using_directive
  !name
  [(identifier) (qualified_name)] @module) @reference.import
  (#set! name "*"))

; using Json = Newtonsoft.Json.JsonConvert;
(using_directive
  name: (identifier) @name
  [(identifier) (qualified_name) (generic_name)] @module) @reference.import

; Bases of classes, structs and records: a base named I + capital is taken
; for an interface (the .NET convention), since the grammar cannot tell a base
; class from an interface; interface I : J extends its bases (generated: see
; ../query_families.ts)
;; @family csharp.bases

; ---- evident receiver types (see captures.ts, `@binding.type`) -------------

; Foo x = …;   var x = new Foo();   void F(Foo x)
(variable_declaration
  type: (identifier) @type
  (variable_declarator name: (identifier) @name)) @binding.type

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    (object_creation_expression type: (identifier) @type))) @binding.type

(variable_declaration (variable_declarator name: (identifier) @name)) @binding.type
(parameter type: (identifier) @type name: (identifier) @name) @binding.type

; any other parameter holds what no type says: calling one (a delegate,
; `handler()`) never calls a method or a function of its name
(parameter name: (identifier) @name) @binding.type
