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

; ---- references -------------------------------------------------------------

((call
  !receiver
  method: (identifier) @name) @reference.call
  (#not-any-of? @name
    "require" "require_relative" "load" "include" "extend" "prepend"
    "attr_accessor" "attr_reader" "attr_writer" "private" "protected" "public"))

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
