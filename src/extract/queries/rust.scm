; Rust.

; ---- definitions ------------------------------------------------------------

(function_item name: (identifier) @name body: (block) @body) @definition.function

; trait methods without a default body
(function_signature_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.union
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.trait

; impl blocks are named after the type they implement for: methods get
; `Store.get`. impl Trait for &'a Path, *const T, [u8], &[T; N], &&&T, dyn
; Error: named after the type inside, so that their methods are
; `Path.into_iter`, not free functions (one pattern per wrapper, generated:
; see ../query_families.ts)
;; @family rust.impls

(type_item name: (type_identifier) @name) @definition.type
(mod_item name: (identifier) @name) @definition.module
(macro_definition name: (identifier) @name) @definition.macro
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant

; ---- references -------------------------------------------------------------

(call_expression function: (identifier) @name) @reference.call

(call_expression
  function: (field_expression
    value: (_) @qualifier
    field: (field_identifier) @name)) @reference.call

; Module::func(), crate::a::f(), Type::<T>::new()
((call_expression
  function: (scoped_identifier
    path: (_) @module
    name: (identifier) @name)) @reference.call
  (#not-match? @module "<"))

(call_expression
  function: (scoped_identifier
    path: (generic_type type: (_) @module)
    name: (identifier) @name)) @reference.call

(call_expression function: (generic_function function: (identifier) @name)) @reference.call

(call_expression
  function: (generic_function
    function: (field_expression
      value: (_) @qualifier
      field: (field_identifier) @name))) @reference.call

(call_expression
  function: (generic_function
    function: (scoped_identifier
      path: (_) @module
      name: (identifier) @name))) @reference.call

; debug!(…): a macro, which only a macro answers (marked, see captures.ts)
((macro_invocation macro: (identifier) @name) @reference.call
  (#set! macro "true"))

((macro_invocation
  macro: (scoped_identifier
    path: (_) @module
    name: (identifier) @name)) @reference.call
  (#set! macro "true"))

; Store { … } builds a value: counted as a call
(struct_expression name: (type_identifier) @name) @reference.call

; use a::b::C;  use serde;
(use_declaration
  argument: (scoped_identifier
    path: (_) @module
    name: (identifier) @name)) @reference.import

(use_declaration argument: (identifier) @name @module) @reference.import

; use a::b::C as D; (`C` is what is imported, `D` the name bound)
(use_declaration
  argument: (use_as_clause
    path: (scoped_identifier path: (_) @module name: (identifier) @imported)
    alias: (identifier) @name)) @reference.import

; use a::b::*;
((use_declaration
  argument: (use_wildcard (_) @module)) @reference.import
  (#set! name "*"))

; use a::b::{C, D as E, self};  use a::{b::C, d::*, e::{F, G}}: the module of a
; nested list is the paths joined (generated: see ../query_families.ts)
;; @family rust.use_lists

(extern_crate_declaration name: (identifier) @name @module) @reference.import

(impl_item
  trait: [
    (type_identifier) @name
    (scoped_type_identifier) @name
    (generic_type type: (_) @name)
  ]) @reference.implements

; trait Named: Display + Clone
(trait_item
  bounds: (trait_bounds [
    (type_identifier) @name
    (scoped_type_identifier) @name
    (generic_type type: (_) @name)
  ])) @reference.inherits

; ---- evident receiver types (see captures.ts, `@binding.type`) -------------

; let x: Store = …;  let x = Store::new(…);  let x = Store { … };  fn f(x: &Store)
(let_declaration
  pattern: (identifier) @name
  type: [(type_identifier) @type (reference_type type: (type_identifier) @type)]) @binding.type

; a constructor by Rust's naming conventions (new, new_*, with_*, default,
; from) returns its type; another associated function (`Request::builder()`)
; may return anything
(let_declaration
  pattern: (identifier) @name
  value: (call_expression function: (scoped_identifier
    path: (identifier) @type
    name: (identifier) @_ctor))
  (#match? @type "^[A-Z]")
  (#match? @_ctor "^(new|default|from|new_[a-z0-9_]+|with_[a-z0-9_]+)$")) @binding.type

(let_declaration
  pattern: (identifier) @name
  value: (struct_expression name: (type_identifier) @type)
  (#match? @type "^[A-Z]")) @binding.type

(let_declaration pattern: (identifier) @name) @binding.type

(parameter
  pattern: (identifier) @name
  type: [(type_identifier) @type (reference_type type: (type_identifier) @type)]) @binding.type

; any other parameter holds what no type says: calling one (`f()`) never
; calls a function of its name
(parameter pattern: (identifier) @name) @binding.type
(closure_parameters (identifier) @name) @binding.type
