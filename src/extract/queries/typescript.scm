; TypeScript and TSX (tree-sitter-typescript 0.23), after ecmascript.scm.

; ---- definitions ------------------------------------------------------------

; overload signatures and `declare function`
(function_signature name: (identifier) @name) @definition.function
(abstract_class_declaration name: (_) @name body: (_) @body) @definition.class
(class name: (_) @name body: (_) @body) @definition.class
(method_signature name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method

; new (value: number): Date; in an interface: how lib.d.ts declares a
; constructor (DateConstructor.new)
(construct_signature
  "new" @name) @definition.method

; handle = () => {…} in a class. The value is a wildcard that #type? holds
; to a function (see ../type_predicates.ts): spelled as an alternation of the
; two, tree-sitter's compile-time analysis of them under
; public_field_definition costs ~10 ms of every process start.
((public_field_definition
  name: (_) @name
  value: (_ body: (_) @body) @_value) @definition.method
  (#type? @_value "arrow_function" "function_expression"))

(interface_declaration name: (_) @name body: (_) @body) @definition.interface
(type_alias_declaration name: (_) @name) @definition.type
(enum_declaration name: (_) @name body: (_) @body) @definition.enum

; namespace N {…}
(internal_module name: (_) @name body: (_) @body) @definition.module

; declare module "m" {…}
(module name: (_) @name body: (_) @body) @definition.module

; ---- references -------------------------------------------------------------

; import x = require("m")
(import_statement
  (import_require_clause
    (identifier) @name
    source: (string (string_fragment) @module))) @reference.import

(extends_clause
  value: [(identifier) (member_expression)] @name) @reference.inherits

(implements_clause
  [(type_identifier) (nested_type_identifier)] @name) @reference.implements

(implements_clause (generic_type name: (_) @name)) @reference.implements

; interface I extends J
(extends_type_clause
  type: [(type_identifier) (nested_type_identifier)] @name) @reference.inherits

(extends_type_clause type: (generic_type name: (_) @name)) @reference.inherits

; ---- evident receiver types (see captures.ts, `@binding.type`) -------------

; const x: Foo = …   function f(x: Foo)
(variable_declarator
  name: (identifier) @name
  type: (type_annotation (type_identifier) @type)) @binding.type

(required_parameter
  pattern: (identifier) @name
  type: (type_annotation (type_identifier) @type)) @binding.type

(optional_parameter
  pattern: (identifier) @name
  type: (type_annotation (type_identifier) @type)) @binding.type

; any other parameter holds what no type says: it shadows an import or a
; function of its name
(required_parameter pattern: (identifier) @name) @binding.type
(optional_parameter pattern: (identifier) @name) @binding.type
