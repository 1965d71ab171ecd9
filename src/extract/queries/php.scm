; PHP.

; ---- definitions ------------------------------------------------------------

; namespace X { … }
(namespace_definition name: (namespace_name) @name body: (_) @body) @definition.module
; namespace X; (a statement holding nothing: the definitions after it, up to
; the next one, are in X; the resolver reads it from the module's line)
(namespace_definition name: (namespace_name) @name !body) @definition.module
(class_declaration name: (name) @name body: (_) @body) @definition.class
(interface_declaration name: (name) @name body: (_) @body) @definition.interface
(trait_declaration name: (name) @name body: (_) @body) @definition.trait
(enum_declaration name: (name) @name body: (_) @body) @definition.enum
(function_definition name: (name) @name body: (_) @body) @definition.function
(method_declaration name: (name) @name) @definition.method
(const_declaration (const_element (name) @name)) @definition.constant

; ---- references -------------------------------------------------------------

; foo(), B\foo(), \B\foo(): the name as written (the resolver reads its namespace)
(function_call_expression
  function: [
    (name) @name
    (qualified_name) @name
  ]) @reference.call

(member_call_expression object: (_) @qualifier name: (name) @name) @reference.call
(nullsafe_member_call_expression object: (_) @qualifier name: (name) @name) @reference.call

; Arr::get() — a static call keeps its class
(scoped_call_expression scope: (_) @module name: (name) @name) @reference.call

((object_creation_expression
  [
    (name) @name
    (qualified_name) @name
  ]) @reference.call
  (#not-any-of? @name "static" "self" "parent"))

; use App\Models\User;  use Foo;
(namespace_use_declaration
  (namespace_use_clause
    [
      (qualified_name (namespace_name) @module (name) @name)
      (name) @name @module
    ]
    !alias)) @reference.import

; use App\Models\User as U;  use Foo as F; (`User` is what is imported, `U` the name bound)
(namespace_use_declaration
  (namespace_use_clause
    (qualified_name (namespace_name) @module (name) @imported)
    alias: (name) @name)) @reference.import

(namespace_use_declaration
  (namespace_use_clause
    . (name) @imported @module
    alias: (name) @name)) @reference.import

; use App\Support\{Str, Arr as A};
(namespace_use_declaration
  (namespace_name) @module
  body: (namespace_use_group
    (namespace_use_clause
      [
        (name) @name
        (qualified_name) @name
      ]
      !alias))) @reference.import

(namespace_use_declaration
  (namespace_name) @module
  body: (namespace_use_group
    (namespace_use_clause
      . (_) @imported
      alias: (name) @name))) @reference.import

; require 'x.php';  require_once __DIR__ . '/x.php';  include, include_once
; (generated: see ../query_families.ts)
;; @family php.includes

(base_clause
  [(name) (qualified_name)] @name) @reference.inherits

(class_interface_clause
  [(name) (qualified_name)] @name) @reference.implements

; use Trait; inside a class
(use_declaration
  [(name) (qualified_name)] @name) @reference.implements

; ---- evident receiver types (see captures.ts, `@binding.type`) -------------

; $x = new Store(…);   function f(Store $x)
(assignment_expression
  left: (variable_name) @name
  right: (object_creation_expression (name) @type)) @binding.type

(assignment_expression left: (variable_name) @name) @binding.type
(simple_parameter type: (named_type (name) @type) name: (variable_name) @name) @binding.type
