; JavaScript, TypeScript and TSX: what the three grammars share (the rest is in
; javascript.scm, typescript.scm and jsx.scm).

; ---- definitions ------------------------------------------------------------

(function_declaration name: (identifier) @name body: (_) @body) @definition.function
(generator_function_declaration name: (identifier) @name body: (_) @body) @definition.function
(class_declaration name: (_) @name body: (_) @body) @definition.class

(method_definition
  name: [
    (property_identifier)
    (private_property_identifier)
    (computed_property_name)
    (number)
  ] @name
  body: (_) @body) @definition.method

; "ArrayExpression, ArrayPattern"(node) {…}: named without the quotes
(method_definition name: (string (string_fragment) @name) body: (_) @body) @definition.method

; an ES5 method in an object literal: { send: function (…) {…} }, like the
; shorthand `{ send(…) {…} }` above (arrow functions there are callbacks
; far more often than methods, and are left out)
(pair
  key: [
    (property_identifier) @name
    (string (string_fragment) @name)
  ]
  value: [
    (function_expression body: (_) @body)
    (generator_function body: (_) @body)
  ]) @definition.method

; const f = () => …, const f = function () {…}, var/let alike (generated: see
; ../query_families.ts)
;; @family ecmascript.function_variables

; const A = class {…}
(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: (class body: (_) @body))) @definition.class

;; Assignments of a function. A chain (`res.contentType = res.type =
;; function …`) gives one symbol per name, each over the whole statement: the
;; statement is the definition node of all of them, so they are siblings and
;; what is inside belongs to the first (see nest() in ../captures.ts). Chains
;; of up to three names are matched, one pattern per name of each length
;; (generated: see ../query_families.ts).

; Foo.prototype.bar = function () {…}, Foo.prototype.a = Foo.prototype.b =
; function () {…}; then module.exports.f = function () {…}, exports.f = () =>
; …, f = () => …, res.contentType = res.type = function contentType() {…},
; a = b = c = function () {…}
;; @family ecmascript.assignments

; export default function (…) {…}, export default (…) => …: a function with
; no name of its own is named `default`, what `import d from "m"` calls
(export_statement
  "default" @name
  value: [
    (function_expression !name body: (_) @body)
    (arrow_function body: (_) @body)
  ]) @definition.function

; a named function assigned is also found by its own name, the one in
; stack traces: module.exports = function isSurrogatePair (…) {…}
(expression_statement
  (assignment_expression
    right: (function_expression
      name: (identifier) @name
      body: (_) @body))) @definition.function

; exports.A = class {…}, Foo.Bar = class extends Base {…} (a class with a
; name of its own is found by that name)
(expression_statement
  (assignment_expression
    left: (member_expression property: (property_identifier) @name)
    right: (class
      !name
      body: (_) @body))) @definition.class

; exports.x = …, module.exports.y = … at module level, whatever the value:
; a function assigned this way is matched above and that earlier pattern
; wins; a class with a name of its own keeps it. `exports.helper = helper`
; exports the file's own `helper` under its name: no second definition of it
; (calls of helper land on the function, in the file and through require).
((program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (_) @_exports
        property: (property_identifier) @name)
      right: (_) @_value)) @definition.constant)
  (#match? @_exports "^(module\\.)?exports$")
  (#not-match? @_value "^class\\b")
  (#not-eq? @_value @name))

; module-level const (a constant), var and let (variables: ES5's `var` is
; its const, lodash's `var camelCase = createCompounder(function …)`), at
; the top and exported, never a require() (generated: see
; ../query_families.ts)
;; @family ecmascript.module_values

; window.x = x, globalThis.x = x, self.x = x (also as the last of a chain:
; window.jQuery = window.$ = jQuery): a script makes its own x a global,
; even one defined inside the IIFE that wraps it (see `scoped` in
; ../captures.ts).
((assignment_expression
  left: (member_expression
    object: (identifier) @_global
    property: (property_identifier) @name)
  right: [
    (identifier) @_value
    (assignment_expression right: (identifier) @_value)
  ]) @global.export
  (#any-of? @_global "window" "globalThis" "self")
  (#eq? @name @_value))

; ---- references -------------------------------------------------------------

((call_expression
  function: (identifier) @name) @reference.call
  (#not-eq? @name "require"))

(call_expression
  function: (member_expression
    object: (_) @qualifier
    property: (property_identifier) @name)) @reference.call

(new_expression constructor: (identifier) @name) @reference.call

(new_expression
  constructor: (member_expression
    object: (_) @qualifier
    property: (property_identifier) @name)) @reference.call

; import d from "m" (`d` is the module's default export, whatever its name)
((import_statement
  (import_clause (identifier) @name)
  source: (string (string_fragment) @module)) @reference.import
  (#set! imported "default"))

; import * as ns from "m"
(import_statement
  (import_clause (namespace_import (identifier) @name))
  source: (string (string_fragment) @module)) @reference.import

; import { a } from "m". A list of specifiers followed by a required
; `source:` would keep one half-matched state per specifier alive to the end
; of the list (quadratic: 25 s for 1,600 names); the module is read from the
; statement's `source` field instead (module_field in captures.ts).
((import_statement
  (import_clause
    (named_imports
      (import_specifier
        name: (_) @name
        !alias)))) @reference.import
  (#set! module_field "source"))

; import { a as b } from "m" (`a` is what is imported, `b` the name bound)
((import_statement
  (import_clause
    (named_imports
      (import_specifier
        name: (_) @imported
        alias: (_) @name)))) @reference.import
  (#set! module_field "source"))

; import "m"
(import_statement
  "import"
  .
  source: (string (string_fragment) @module)) @reference.import

; export { a } from "m" (without `from`, nothing is imported)
((export_statement
  (export_clause
    (export_specifier
      name: (_) @name
      !alias))) @reference.import
  (#set! module_field "source"))

; export { b as c } from "m" (`b` is what is imported, `c` the name passed on)
((export_statement
  (export_clause
    (export_specifier
      name: (_) @imported
      alias: (_) @name))) @reference.import
  (#set! module_field "source"))

; export * from "m", export * as ns from "m"
((export_statement
  "*"
  source: (string (string_fragment) @module)) @reference.import
  (#set! name "*"))

; const x = require("m"), const { a, b: c } = require("m")
((variable_declarator
  name: [
    (identifier) @name
    (object_pattern (shorthand_property_identifier_pattern) @name)
    (object_pattern (pair_pattern value: (identifier) @name))
  ]
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @module)))) @reference.import
  (#eq? @_require "require"))

; require("m") anywhere else (a bare require, require("m").config())
((call_expression
  function: (identifier) @_require
  arguments: (arguments . (string (string_fragment) @module))) @reference.import
  (#eq? @_require "require"))

; import("m")
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @module))) @reference.import

; ---- evident receiver types (see captures.ts, `@binding.type`) -------------

; const x = new Foo(…)
(variable_declarator
  name: (identifier) @name
  value: (new_expression constructor: (identifier) @type)) @binding.type

(assignment_expression
  left: (identifier) @name
  right: (new_expression constructor: (identifier) @type)) @binding.type

; any other binding of the name leaves its type unknown
(variable_declarator name: (identifier) @name) @binding.type
(assignment_expression left: (identifier) @name) @binding.type

; parameters hold what no type says (a typed one's type wins, see
; typescript.scm): they shadow an import or a function of their name
(arrow_function parameter: (identifier) @name) @binding.type
(assignment_pattern left: (identifier) @name) @binding.type
(rest_pattern (identifier) @name) @binding.type
(for_in_statement left: (identifier) @name) @binding.type
(catch_clause parameter: (identifier) @name) @binding.type
; destructuring, in a declaration or a parameter: const { a, b: c = 1 } = …,
; const [a, ...b] = …, function f({ a }) (a `require` of it is an import)
(object_pattern (shorthand_property_identifier_pattern) @name) @binding.type
(object_assignment_pattern left: (shorthand_property_identifier_pattern) @name) @binding.type
(pair_pattern value: (identifier) @name) @binding.type
(array_pattern (identifier) @name) @binding.type
