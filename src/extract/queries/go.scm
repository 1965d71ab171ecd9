; Go.

; ---- definitions ------------------------------------------------------------

;; Bodies are optional: `func Ctz64(x uint64) int` without one is
;; implemented in assembly or linked from the runtime, and still what a
;; reader looks for.
(function_declaration name: (identifier) @name) @definition.function

; func (s *Store[T]) Get() — qualname Store.Get
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @receiver
        (pointer_type (type_identifier) @receiver)
        (generic_type type: (type_identifier) @receiver)
        (pointer_type (generic_type type: (type_identifier) @receiver))
      ]))
  name: (field_identifier) @name) @definition.method

(type_spec
  name: (type_identifier) @name
  type: (struct_type (field_declaration_list) @body)) @definition.struct

(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type

; methods listed in an interface
(method_elem name: (field_identifier) @name) @definition.method

(source_file
  (const_declaration
    (const_spec
      name: (identifier) @name) @definition.constant))

(source_file
  (var_declaration
    (var_spec
      name: (identifier) @name) @definition.variable))

; a grouped block, `var ( ErrClosed = errors.New("closed") … )`: the grammar
; puts its specs in a list (a grouped const block has none)
(source_file
  (var_declaration
    (var_spec_list
      (var_spec
        name: (identifier) @name) @definition.variable)))

; ---- references -------------------------------------------------------------

(call_expression function: (identifier) @name) @reference.call

(call_expression
  function: (selector_expression
    operand: (_) @qualifier
    field: (field_identifier) @name)) @reference.call

; Store{…} and pkg.Type{…} build a value: counted as a call, like `new`
(composite_literal type: (type_identifier) @name) @reference.call

(composite_literal
  type: (qualified_type
    package: (package_identifier) @qualifier
    name: (type_identifier) @name)) @reference.call

(import_spec
  name: [(package_identifier) (blank_identifier) (dot)] @name
  path: (_) @module) @reference.import

((import_spec
  !name
  path: (_) @module) @reference.import
  (#set! name "last-segment"))

; embedded fields and interfaces
(field_declaration_list
  (field_declaration
    !name
    type: [
      (type_identifier) @name
      (qualified_type) @name
      (pointer_type [(type_identifier) (qualified_type)] @name)
    ])) @reference.inherits

(interface_type
  (type_elem
    .
    [(type_identifier) (qualified_type)] @name
    .)) @reference.inherits

; ---- evident receiver types (see captures.ts, `@binding.type`) -------------

; func (s *Store) f(o Options)
(parameter_declaration
  name: (identifier) @name
  type: [(type_identifier) @type (pointer_type (type_identifier) @type)]) @binding.type

; x := Store{…}   x := &Store{…}   var x Store
(short_var_declaration
  left: (expression_list . (identifier) @name .)
  right: (expression_list . [
    (composite_literal type: (type_identifier) @type)
    (unary_expression operand: (composite_literal type: (type_identifier) @type))
  ] .)) @binding.type

(short_var_declaration left: (expression_list (identifier) @name)) @binding.type

(var_spec
  name: (identifier) @name
  type: [(type_identifier) @type (pointer_type (type_identifier) @type)]) @binding.type

; any other parameter or variable holds what no type says: calling one
; (`cb()`) never calls a function of its name
(parameter_declaration name: (identifier) @name) @binding.type
(var_spec name: (identifier) @name) @binding.type
(range_clause left: (expression_list (identifier) @name)) @binding.type
