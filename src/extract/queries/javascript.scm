; JavaScript-only patterns (tree-sitter-javascript 0.25), after ecmascript.scm.

; class fields holding a function: handle = () => {…}
(field_definition
  property: (property_identifier) @name
  value: [
    (arrow_function body: (_) @body)
    (function_expression body: (_) @body)
  ]) @definition.method

(class name: (identifier) @name body: (_) @body) @definition.class

(class_heritage
  [(identifier) (member_expression)] @name) @reference.inherits

; ---- evident receiver types (see captures.ts, `@binding.type`) -------------

; a parameter holds what no type says: it shadows an import or a function of its name
(formal_parameters (identifier) @name) @binding.type
