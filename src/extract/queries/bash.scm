; Bash (tree-sitter-bash ships no tags.scm).

; ---- definitions ------------------------------------------------------------

(function_definition name: (word) @name body: (_) @body) @definition.function

; top-level UPPER_CASE assignments are constants (also `export X=…`, `readonly X=…`)
((program
  (variable_assignment
    name: (variable_name) @name) @definition.constant)
  (#match? @name "^[A-Z_][A-Z0-9_]*$"))

((program
  (declaration_command
    (variable_assignment
      name: (variable_name) @name)) @definition.constant)
  (#match? @name "^[A-Z_][A-Z0-9_]*$"))

; ---- references -------------------------------------------------------------

; every command is a call; `source`/`.` are imports
((command
  name: (command_name (word) @name)) @reference.call
  (#not-any-of? @name "source" "." "return" ":" "true" "false" "shift" "break" "continue"))

((command
  name: (command_name (word) @_source)
  .
  argument: [
    (word) @module
    (raw_string) @module
    (string) @module
  ]) @reference.import
  (#any-of? @_source "source" ".")
  (#set! name "*"))
