; Java.

; ---- definitions ------------------------------------------------------------

(class_declaration name: (identifier) @name body: (class_body) @body) @definition.class
; new Runnable() { … }: an anonymous class, named `new` (no class can be), so
; that a call in it finds its own methods first
(object_creation_expression "new" @name (class_body) @body) @definition.class
(record_declaration name: (identifier) @name body: (_) @body) @definition.class
(interface_declaration name: (identifier) @name body: (_) @body) @definition.interface
(annotation_type_declaration name: (identifier) @name body: (_) @body) @definition.interface
(enum_declaration name: (identifier) @name body: (_) @body) @definition.enum
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name body: (_) @body) @definition.method
(compact_constructor_declaration name: (identifier) @name body: (_) @body) @definition.method
(annotation_type_element_declaration name: (identifier) @name) @definition.method

; static final fields are constants
((field_declaration
  (modifiers) @_modifiers
  declarator: (variable_declarator
    name: (identifier) @name)) @definition.constant
  (#match? @_modifiers "static")
  (#match? @_modifiers "final"))

; ---- references -------------------------------------------------------------

(method_invocation !object name: (identifier) @name) @reference.call
(method_invocation object: (_) @qualifier name: (identifier) @name) @reference.call

(object_creation_expression
  type: [
    (type_identifier) @name
    (scoped_type_identifier) @name
    (generic_type [(type_identifier) (scoped_type_identifier)] @name)
  ]) @reference.call

; import a.b.C;  import static a.B.c;
(import_declaration
  (scoped_identifier
    scope: (_) @module
    name: (identifier) @name)
  .) @reference.import

; import a.b.*;
((import_declaration
  (scoped_identifier) @module
  (asterisk)) @reference.import
  (#set! name "*"))

(superclass
  [
    (type_identifier) @name
    (scoped_type_identifier) @name
    (generic_type [(type_identifier) (scoped_type_identifier)] @name)
  ]) @reference.inherits

(super_interfaces
  (type_list
    [
      (type_identifier) @name
      (scoped_type_identifier) @name
      (generic_type [(type_identifier) (scoped_type_identifier)] @name)
    ])) @reference.implements

; interface I extends J
(extends_interfaces
  (type_list
    [
      (type_identifier) @name
      (scoped_type_identifier) @name
      (generic_type [(type_identifier) (scoped_type_identifier)] @name)
    ])) @reference.inherits

; ---- evident receiver types (see captures.ts, `@binding.type`) -------------

; Foo x = …;   var x = new Foo();   void f(Foo x)
(local_variable_declaration
  type: (type_identifier) @type
  declarator: (variable_declarator name: (identifier) @name)
  (#not-eq? @type "var")) @binding.type

(local_variable_declaration
  declarator: (variable_declarator
    name: (identifier) @name
    value: (object_creation_expression type: (type_identifier) @type))) @binding.type

(local_variable_declaration
  declarator: (variable_declarator name: (identifier) @name)) @binding.type

(formal_parameter type: (type_identifier) @type name: (identifier) @name) @binding.type
