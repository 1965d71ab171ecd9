; Ruby.

; ---- definitions ------------------------------------------------------------

(method name: (_) @name) @definition.method

; def self.open(…)
(singleton_method name: (_) @name) @definition.method

(class
  name: [
    (constant) @name
    (scope_resolution name: (_) @name)
  ]) @definition.class

(module
  name: [
    (constant) @name
    (scope_resolution name: (_) @name)
  ]) @definition.module

(assignment left: (constant) @name) @definition.constant

; attr_reader :name: a method of the class, which a bare `name` calls
((call
  !receiver
  method: (identifier) @_attr
  arguments: (argument_list (simple_symbol) @name)) @definition.method
  (#any-of? @_attr "attr_reader" "attr_accessor")
  (#set! name_prefix ":"))

; ---- references -------------------------------------------------------------

; check(k), check k, save!: a call of the method whatever local is so named.
; A call without a receiver starts with its method, so the name is the first
; named child, a wildcard that #type? holds to an identifier (see
; ../type_predicates.ts): spelled `method: (identifier)`, tree-sitter's
; compile-time analysis of the field under `call` costs ~10 ms of every
; process start; a lone unfielded wildcard child is not followed through
; the parse table. (A wildcard `call` would cost nothing to compile but
; slows every query run: its states start at every node and live through
; the node's whole subtree.)
((call
  !receiver
  .
  (_) @name) @reference.call
  (#type? @name "identifier")
  (#not-any-of? @name
    "require" "require_relative" "load" "include" "extend" "prepend"
    "attr_accessor" "attr_reader" "attr_writer" "private" "protected" "public")
  (#set! shadow "never"))

; check, x = compute, helper.save, puts value: a bare name is a call of a
; method of self where no local variable (an assignment, a parameter, a
; block's) of its method holds it, and a read of the variable where one does.
; Under the parents whose few children take tree-sitter long to analyse when
; the query compiles (binary alone 20 ms, each modifier 2), the name is a
; wildcard that #type? holds to an identifier (see ../type_predicates.ts);
; under a parent of many children (a body's statements, an argument list)
; the wildcard would hand every one of them over as a match, so those keep
; the type.
([
  (program (identifier) @name @reference.call)
  (body_statement (identifier) @name @reference.call)
  (block_body (identifier) @name @reference.call)
  (then (identifier) @name @reference.call)
  (else (identifier) @name @reference.call)
  (do (identifier) @name @reference.call)
  (begin (_) @name @reference.call)
  (ensure (identifier) @name @reference.call)
  (parenthesized_statements (_) @name @reference.call)
  (argument_list (identifier) @name @reference.call)
  (block_argument (identifier) @name @reference.call)
  (assignment right: (identifier) @name @reference.call)
  (operator_assignment right: (identifier) @name @reference.call)
  (call receiver: (identifier) @name @reference.call)
  (binary (_) @name @reference.call)
  (unary operand: (identifier) @name @reference.call)
  (conditional (_) @name @reference.call)
  (if condition: (identifier) @name @reference.call)
  (unless condition: (identifier) @name @reference.call)
  (while condition: (identifier) @name @reference.call)
  (until condition: (identifier) @name @reference.call)
  (if_modifier (_) @name @reference.call)
  (unless_modifier (_) @name @reference.call)
  (while_modifier (_) @name @reference.call)
  (until_modifier (_) @name @reference.call)
  (interpolation (identifier) @name @reference.call)
  (array (identifier) @name @reference.call)
  (pair value: (identifier) @name @reference.call)
  (element_reference (_) @name @reference.call)
  (case value: (identifier) @name @reference.call)
  (case_match value: (identifier) @name @reference.call)
  (pattern (identifier) @name @reference.call)
  (in (identifier) @name @reference.call)
  (optional_parameter value: (identifier) @name @reference.call)
  (keyword_parameter value: (identifier) @name @reference.call)
]
  (#not-any-of? @name
    "private" "protected" "public" "module_function" "private_class_method"
    "public_class_method" "it" "_1" "_2" "_3" "_4" "_5" "_6" "_7" "_8" "_9")
  (#type? @name "identifier")
  (#set! shadow "variable"))

(call receiver: (_) @qualifier method: (identifier) @name) @reference.call

((call
  method: (identifier) @_require
  arguments: (argument_list . (string (string_content) @module))) @reference.import
  (#any-of? @_require "require" "require_relative" "load")
  (#set! name "*"))

(class
  superclass: (superclass
    [(constant) (scope_resolution)] @name)) @reference.inherits

; mixins: include, prepend, extend
((call
  !receiver
  method: (identifier) @_mixin
  arguments: (argument_list [(constant) (scope_resolution)] @name)) @reference.implements
  (#any-of? @_mixin "include" "prepend" "extend"))

; ---- evident receiver types (see captures.ts, `@binding.type`) -------------

; x = Store.new(…)
(assignment
  left: (identifier) @name
  right: (call
    receiver: (constant) @type
    method: (identifier) @_new)
  (#eq? @_new "new")) @binding.type

(assignment left: (identifier) @name) @binding.type
(operator_assignment left: (identifier) @name) @binding.type
(left_assignment_list (identifier) @name) @binding.type
(rest_assignment (identifier) @name) @binding.type
(destructured_left_assignment (identifier) @name) @binding.type
(method_parameters (identifier) @name) @binding.type
(lambda_parameters (identifier) @name) @binding.type
(block_parameters (identifier) @name) @binding.type
(destructured_parameter (identifier) @name) @binding.type
(optional_parameter name: (identifier) @name) @binding.type
(keyword_parameter name: (identifier) @name) @binding.type
(splat_parameter name: (identifier) @name) @binding.type
(hash_splat_parameter name: (identifier) @name) @binding.type
(block_parameter name: (identifier) @name) @binding.type
(exception_variable (identifier) @name) @binding.type
(for pattern: (identifier) @name) @binding.type
(array_pattern (identifier) @name) @binding.type
(in_clause pattern: (identifier) @name) @binding.type
(as_pattern name: (identifier) @name) @binding.type
(keyword_pattern key: (hash_key_symbol) @name !value) @binding.type
