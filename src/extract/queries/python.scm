; Python.

; ---- definitions ------------------------------------------------------------

(class_definition name: (identifier) @name body: (block) @body) @definition.class
(function_definition name: (identifier) @name body: (block) @body) @definition.function

; `f = lambda x: ...` is a function named f
(expression_statement
  (assignment
    left: (identifier) @name
    right: (lambda body: (_) @body))) @definition.function

; Python 3.12 `type Alias = ...`
(type_alias_statement (type (identifier) @name)) @definition.type

; module-level UPPER_CASE assignments are constants, also under a
; module-level `if`, `try` or `with` (`if sys.platform == "win32": SEP =
; "\\"`, `try: import ssl except ImportError: HAS_SSL = False`); never in a
; function's or a class's body
((expression_statement
   (assignment
     left: (identifier) @name)) @definition.constant
  (#match? @name "^_*[A-Z][A-Z0-9_]*$")
  (#set! within "module block if_statement elif_clause else_clause try_statement except_clause finally_clause with_statement"))

; `__all__ = [...]`, `(...)`, `+= [...]`: the names `from m import *` passes
; on; the whole statement is its signature, which the resolver reads. One
; built otherwise (`+= core.__all__`, `.extend(…)`) is kept too: it says the
; list is not only what is written, so the resolver reads none of it.
(module
  (expression_statement
    [(assignment left: (identifier) @name)
     (augmented_assignment left: (identifier) @name)
     (call function: (attribute object: (identifier) @name attribute: (identifier) @method))]) @definition.constant
  (#eq? @name "__all__")
  (#set! signature "whole"))

; ---- references -------------------------------------------------------------

(call function: (identifier) @name) @reference.call

(call
  function: (attribute
    object: (_) @qualifier
    attribute: (identifier) @name)) @reference.call

; import os.path  -> binds `os`
((import_statement
  name: (dotted_name) @module) @reference.import
  (#set! name "first-segment"))

; import numpy as np (the module whole, not a name it defines)
((import_statement
  name: (aliased_import
    name: (dotted_name) @module
    alias: (identifier) @name)) @reference.import
  (#set! imported "*"))

; from .pkg import a, b
(import_from_statement module_name: (_) @module name: (dotted_name) @name) @reference.import

; from pkg import a as b (`a` is what is imported, `b` the name bound)
(import_from_statement
  module_name: (_) @module
  name: (aliased_import
    name: (dotted_name) @imported
    alias: (identifier) @name)) @reference.import

; from pkg import *
(import_from_statement module_name: (_) @module (wildcard_import) @name) @reference.import

(class_definition
  superclasses: (argument_list
    [(identifier) (attribute)] @name)) @reference.inherits

; ---- evident receiver types (see captures.ts, `@binding.type`) -------------

; x = Foo(…)   x: Foo = …   def f(x: Foo)
(assignment
  left: (identifier) @name
  right: (call function: (identifier) @type)
  (#match? @type "^_*[A-Z]")) @binding.type

; x = cls(…) in a classmethod: an instance of the enclosing class, so
; x.m() is read as cls.m() (`enclosing`: the parameter `cls` does not hide it)
(assignment
  left: (identifier) @name
  right: (call function: (identifier) @type)
  (#eq? @type "cls")
  (#set! enclosing "true")) @binding.type

(assignment left: (identifier) @name type: (type (identifier) @type)) @binding.type

; any other binding of the name leaves its type unknown
(assignment left: (identifier) @name) @binding.type
(typed_parameter (identifier) @name type: (type (identifier) @type)) @binding.type
(typed_default_parameter name: (identifier) @name type: (type (identifier) @type)) @binding.type

; parameters, loop variables and `with … as x` hold what no type says: they
; shadow an import or a function of their name (see captures.ts)
(parameters (identifier) @name) @binding.type
(lambda_parameters (identifier) @name) @binding.type
(default_parameter name: (identifier) @name) @binding.type
(list_splat_pattern (identifier) @name) @binding.type
(dictionary_splat_pattern (identifier) @name) @binding.type
(for_statement left: (identifier) @name) @binding.type
(for_statement left: (pattern_list (identifier) @name)) @binding.type
(for_statement left: (tuple_pattern (identifier) @name)) @binding.type
(as_pattern alias: (as_pattern_target (identifier) @name)) @binding.type
(except_clause (as_pattern alias: (as_pattern_target (identifier) @name))) @binding.type
; a comprehension's variables, `(x := …)`, and unpacking (`a, b = …`)
(for_in_clause left: (identifier) @name) @binding.type
(for_in_clause left: (pattern_list (identifier) @name)) @binding.type
(for_in_clause left: (tuple_pattern (identifier) @name)) @binding.type
(named_expression name: (identifier) @name) @binding.type
(assignment left: (pattern_list (identifier) @name)) @binding.type
(assignment left: (tuple_pattern (identifier) @name)) @binding.type
(assignment left: (list_pattern (identifier) @name)) @binding.type
