/**
 * Pattern families: query patterns that differ only in how deep or through
 * which wrapper a name is reached, generated from a table instead of being
 * written out once per variant. A query file asks for a family with a line
 * `;; @family <name>`; {@link expandFamilies} puts the family's patterns in
 * that line's place, so they keep their position (and precedence: the earlier
 * pattern wins, see ./captures.ts) among the file's written patterns.
 *
 * Tree-sitter queries have alternations (`[ … ]`) but no way to name a
 * sub-pattern and use it twice, nor to match "any depth of" a wrapper; the
 * families below are those two cases. Each matches exactly what the
 * patterns written out before matched, so what a language extracts does not
 * depend on whether a pattern is written or generated; some spell a node as
 * a wildcard held to its type by `#type?` (see ./type_predicates.ts), which
 * compiles several times faster.
 */

/** Sub-patterns as one alternation. */
function alternation(branches: readonly string[]): string {
  return `[${branches.join(" ")}]`;
}

/** `(outer field: (inner field: … x))`: `x` reached through `steps`, outermost first. */
function through(steps: readonly string[], x: string): string {
  return steps.reduceRight((inner, step) => `(${step} ${inner})`, x);
}

// ---- C++ ---------------------------------------------------------------------

/**
 * What a C++ function's name may be: `f`, a field, `~T`, `operator<<`, or
 * `f<int>`, as wildcards that {@link CPP_NAME_TYPES} holds to those types
 * (see ./type_predicates.ts): spelled out, they made tree-sitter analyse
 * each function_declarator around them, 3 ms each, twelve of them.
 */
const CPP_FUNCTION_NAMES = [
  "(_) @name",
  "(_ name: (identifier) @name) @_template",
];
const CPP_FUNCTION_NAME = alternation(CPP_FUNCTION_NAMES);

/** The `#type?` tests of {@link CPP_FUNCTION_NAMES}. */
const CPP_NAME_TYPES =
  `(#type? @name "identifier" "field_identifier" "destructor_name" "operator_name")
  (#type? @_template "template_function")`;

/** The declarators around a function's name: `T f()`, `T* f()`, `T& f()`, `T** f()`. */
const CPP_DECLARATORS: readonly (readonly string[])[] = [
  [],
  ["pointer_declarator declarator:"],
  ["reference_declarator"],
  ["pointer_declarator declarator:", "pointer_declarator declarator:"],
];

/** The scope of a name defined outside it: `ns::`, `Store<T>::`; the scope is the receiver. */
const CPP_SCOPE = "scope: [(namespace_identifier) @receiver (template_type name: (_) @receiver)]";

/**
 * `a::name`, `a::b::name`, … up to `depth` scopes, in one pattern: a
 * qualified_identifier whose name is the function's or, one level down, a
 * qualified_identifier again. Each level is a wildcard that `#type?` holds
 * to qualified_identifier (see ./type_predicates.ts): spelled out, it made
 * tree-sitter analyse all twelve levels (three per declarator), and one
 * pattern per depth analysed the declarators three times, 155 of the C++
 * query's 370 ms compile (25 ms this way).
 */
function cppQualified(depth: number): string {
  // One flat alternation: tree-sitter matches only the first branch of an
  // alternation nested directly in another (`[[a b] c]` misses `b`).
  const name = depth === 1
    ? CPP_FUNCTION_NAME
    : alternation([...CPP_FUNCTION_NAMES, cppQualified(depth - 1)]);
  return `(_ ${CPP_SCOPE} name: ${name}) @_qualified`;
}

/**
 * A function_definition whose declarator, in any of {@link CPP_DECLARATORS},
 * names `name` (made of {@link CPP_FUNCTION_NAMES}), filtered by `predicates`.
 */
function cppFunctionDefinition(name: string, kind: string, predicates: string[]): string {
  const declarators = CPP_DECLARATORS.map((steps) =>
    through(steps, `(function_declarator declarator: ${name})`)
  );
  return `(function_definition
  declarator: ${alternation(declarators)}
  body: (_) @body
  ${[...predicates, CPP_NAME_TYPES].join("\n  ")}) @definition.${kind}
`;
}

/** GoogleTest's test-defining macros: `TEST_F(Suite, Name) { … }` reads as a function named `TEST_F`. */
const GTEST_MACROS = `"^(TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P)$"`;

/**
 * A GoogleTest test is named by its suite and its name (`Suite.Name`, the
 * suite as its receiver), not by the macro that defines it.
 */
const CPP_GTEST = `(function_definition
  declarator: (function_declarator
    declarator: (identifier) @_macro
    parameters: (parameter_list
      .
      (parameter_declaration type: (type_identifier) @receiver)
      .
      (parameter_declaration type: (type_identifier) @name)
      .))
  body: (_) @body
  (#match? @_macro ${GTEST_MACROS})) @definition.function
`;

// ---- Rust --------------------------------------------------------------------

/** The type an impl block is named after: `Store`, `Store<T>`, `a::Store`, `u8`. */
const RUST_IMPL_TYPE = alternation([
  "(type_identifier) @name",
  "(generic_type type: (type_identifier) @name)",
  "(scoped_type_identifier name: (type_identifier) @name)",
  "(generic_type type: (scoped_type_identifier name: (type_identifier) @name))",
  "(primitive_type) @name",
]);

/**
 * What an implemented type may sit inside: nothing, `&'a T`, `*const T`,
 * `[T]`, `&&T`, `&[T; N]`, `&&&T`, `dyn T`.
 */
const RUST_IMPL_WRAPPERS: readonly (readonly string[])[] = [
  [],
  ["reference_type type:"],
  ["pointer_type type:"],
  ["array_type element:"],
  ["reference_type type:", "reference_type type:"],
  ["reference_type type:", "array_type element:"],
  ["reference_type type:", "reference_type type:", "reference_type type:"],
  ["dynamic_type trait:"],
];

/** A name a `use` list binds: `C`, or `D` of `D as E`'s alias. */
const RUST_USE_NAME = alternation([
  "(identifier) @name",
  "(use_as_clause alias: (identifier) @name)",
]);

/**
 * The patterns of `use a::{…}` lists, one or two lists deep (`use
 * a::{b::{C}}`): what a list holds, and the properties its import needs
 * (the modules of nested lists are joined with `::`).
 */
const RUST_USE_LISTS: readonly { depth: number; holds: string; set: readonly string[] }[] = [
  { depth: 1, holds: RUST_USE_NAME, set: [] },
  { depth: 1, holds: "(self)", set: ['name "last-segment"'] },
  {
    depth: 1,
    holds: "(scoped_identifier path: (_) @module name: (identifier) @name)",
    set: ['module_join "::"'],
  },
  { depth: 1, holds: "(use_wildcard (_) @module)", set: ['name "*"', 'module_join "::"'] },
  { depth: 2, holds: RUST_USE_NAME, set: ['module_join "::"'] },
  { depth: 2, holds: "(use_wildcard (_) @module)", set: ['name "*"', 'module_join "::"'] },
];

/** A `use` list `depth` lists deep whose innermost list holds `holds`. */
function rustUseList(depth: number, holds: string): string {
  const inner = depth === 1 ? holds : rustUseList(depth - 1, holds);
  return `(scoped_use_list path: (_) @module list: (use_list ${inner}))`;
}

// ---- JavaScript and TypeScript ----------------------------------------------

/** A function value: what makes an assignment a function definition. */
const JS_FUNCTION_VALUE = alternation([
  "(arrow_function body: (_) @body)",
  "(function_expression body: (_) @body)",
  "(generator_function body: (_) @body)",
]);

/** `name = value`, one declarator of a `const`, `let` or `var`. */
const JS_DECLARATOR = "(variable_declarator name: (identifier) @name value: (_) @_value)";

/**
 * Module-level values, each at the top of the file, bare or exported: `const`
 * as constants, `var` and `let` as variables (ES5's `var` is its const:
 * lodash's `var camelCase = createCompounder(…)`). A `require()` is an
 * import, never a definition; a function or class value is matched by the
 * patterns before these.
 */
function jsModuleValues(): string {
  const kinds: [string, string][] = [
    [`(lexical_declaration "const" ${JS_DECLARATOR})`, "constant"],
    [
      alternation([
        `(variable_declaration ${JS_DECLARATOR})`,
        `(lexical_declaration "let" ${JS_DECLARATOR})`,
      ]),
      "variable",
    ],
  ];
  return kinds.flatMap(([declaration, kind]) =>
    [[], ["export_statement"]].map((steps) =>
      `((program ${through(steps, `${declaration} @definition.${kind}`)})
  (#not-match? @_value "^require[ \\t]*\\\\("))
`
    )
  ).join("\n");
}

/**
 * In the chains of assignments below, every node but the names is a
 * wildcard held to its type by these `#type?` tests (see
 * ./type_predicates.ts): the links to assignment_expression, the member
 * expressions to member_expression, the function value to the three of
 * {@link JS_FUNCTION_VALUE}. Spelled out, tree-sitter analysed each of them
 * in each of the nine patterns when the query compiled, 105 of the
 * TypeScript query's 205 ms (3 ms this way).
 */
const JS_CHAIN_TYPES = [
  `(#type? @_assignment "assignment_expression")`,
  `(#type? @_member "member_expression")`,
  `(#type? @_function "arrow_function" "function_expression" "generator_function")`,
].join("\n  ");

/** {@link JS_FUNCTION_VALUE} as a wildcard (see {@link JS_CHAIN_TYPES}). */
const JS_FUNCTION_WILDCARD = "(_ body: (_) @body) @_function";

/** `Foo.prototype.name`, with the receiver captured (see {@link JS_CHAIN_TYPES}). */
const JS_PROTOTYPE_MEMBER = "(_ object: (_ " +
  "object: (identifier) @receiver property: (property_identifier) @_prototype) @_member " +
  "property: (property_identifier) @name) @_member";

/** `name`, `a.b.name`: a plain assignment target (see {@link JS_CHAIN_TYPES}). */
const JS_ASSIGNED_NAME = alternation([
  "(identifier) @name",
  "(_ property: (property_identifier) @name) @_member",
]);

/**
 * The `at`-th name (0-based) of a chain of `length` assignments of a function
 * (`a = b = function …`): each link is an assignment_expression whose right
 * side is the next, the last one's right side the function.
 */
function jsAssignmentChain(length: number, at: number, left: string): string {
  let chain = JS_FUNCTION_WILDCARD;
  for (let i = length - 1; i >= 0; i--) {
    chain = `(_ ${i === at ? `left: ${left} ` : ""}right: ${chain}) @_assignment`;
  }
  return chain;
}

/**
 * Every name of a chain of up to `longest` assignments, in the order the
 * chains were written out: shorter chains first, then by position.
 */
function jsChainPositions(longest: number): [number, number][] {
  const out: [number, number][] = [];
  for (let length = 1; length <= longest; length++) {
    for (let at = 0; at < length; at++) out.push([length, at]);
  }
  return out;
}

/** `Foo.prototype.bar = function …` in chains of up to two, then `a.b = c = function …` up to three. */
function jsAssignments(): string {
  const prototype = jsChainPositions(2).map(([length, at]) =>
    `((expression_statement
  ${jsAssignmentChain(length, at, JS_PROTOTYPE_MEMBER)}) @definition.method
  (#eq? @_prototype "prototype")
  ${JS_CHAIN_TYPES})
`
  );
  const plain = jsChainPositions(3).map(([length, at]) =>
    `((expression_statement
  ${jsAssignmentChain(length, at, JS_ASSIGNED_NAME)}) @definition.function
  ${JS_CHAIN_TYPES})
`
  );
  return [...prototype, ...plain].join("\n");
}

// ---- C# ----------------------------------------------------------------------

/** A name in a base list: `Base`, `Ns.Base`, `Base<T>`. */
const CSHARP_BASE = alternation([
  "(identifier) @name",
  "(qualified_name) @name",
  "(generic_name (identifier) @name)",
]);

/** Base lists of these declarations, as `@capture`, the name filtered by `predicate`. */
function csharpBases(
  declarations: readonly string[],
  capture: string,
  predicate?: string,
): string {
  const lists = declarations.map((d) => `(${d} (base_list ${CSHARP_BASE}))`);
  if (lists.length === 1 && predicate === undefined) return `${lists[0]} @${capture}\n`;
  const filter = predicate === undefined ? "" : `\n  ${predicate}`;
  return `(${alternation(lists)} @${capture}${filter})\n`;
}

/** An interface is told from a base class only by its name: `I` and a capital (the .NET convention). */
const CSHARP_INTERFACE_NAME = String.raw`"(^|\\.)I[A-Z][^.]*$"`;

// ---- PHP ---------------------------------------------------------------------

/** A string literal's content: `'x.php'`, `"x.php"`. */
const PHP_STRINGS = [
  "(string (string_content) @module)",
  "(encapsed_string (string_content) @module)",
];

/** The path of an include: a literal, or the literal ending `__DIR__ . '/x.php'`. */
const PHP_INCLUDE_PATH = alternation([
  ...PHP_STRINGS,
  `(binary_expression right: ${alternation(PHP_STRINGS)})`,
]);

/** The expressions that include a file. */
const PHP_INCLUDES = ["require", "require_once", "include", "include_once"];

// ---- the table -----------------------------------------------------------------

/** Family name → its patterns, in order. */
const FAMILIES: Readonly<Record<string, () => string>> = {
  // free functions and methods defined in a class body
  "cpp.functions": () =>
    cppFunctionDefinition(CPP_FUNCTION_NAME, "function", [`(#not-match? @name ${GTEST_MACROS})`]) +
    "\n" + CPP_GTEST,
  // methods defined outside their class, under one to three scopes
  "cpp.qualified_methods": () =>
    cppFunctionDefinition(cppQualified(3), "method", [
      `(#type? @_qualified "qualified_identifier")`,
    ]),
  "rust.impls": () =>
    RUST_IMPL_WRAPPERS.map((steps) =>
      `(impl_item
  type: ${through(steps, RUST_IMPL_TYPE)}
  body: (declaration_list) @body) @definition.impl
`
    ).join("\n"),
  "rust.use_lists": () =>
    RUST_USE_LISTS.map(({ depth, holds, set }) => {
      const pattern = `(use_declaration argument: ${rustUseList(depth, holds)}) @reference.import`;
      return set.length === 0
        ? `${pattern}\n`
        : `(${pattern}\n${set.map((p) => `  (#set! ${p})`).join("\n")})\n`;
    }).join("\n"),
  // const f = () => …, var f = function () {…}
  "ecmascript.function_variables": () =>
    ["lexical_declaration", "variable_declaration"].map((declaration) =>
      `(${declaration} (variable_declarator name: (identifier) @name value: ${JS_FUNCTION_VALUE})) @definition.function\n`
    ).join("\n"),
  "ecmascript.assignments": jsAssignments,
  "ecmascript.module_values": jsModuleValues,
  "csharp.bases": () =>
    [
      csharpBases(
        ["class_declaration", "struct_declaration", "record_declaration"],
        "reference.implements",
        `(#match? @name ${CSHARP_INTERFACE_NAME})`,
      ),
      csharpBases(
        ["class_declaration", "record_declaration"],
        "reference.inherits",
        `(#not-match? @name ${CSHARP_INTERFACE_NAME})`,
      ),
      csharpBases(["interface_declaration"], "reference.inherits"),
    ].join("\n"),
  "php.includes": () =>
    `(${
      alternation(PHP_INCLUDES.map((k) => `(${k}_expression ${PHP_INCLUDE_PATH})`))
    } @reference.import
  (#set! name "*"))
`,
};

/** The line that asks for a family. */
const FAMILY_LINE = /^;;\s*@family\s+(\S+)\s*$/gm;

/** The names of the families this build can generate. */
export function familyNames(): string[] {
  return Object.keys(FAMILIES);
}

/**
 * `source` (the text of query file `file`) with each `;; @family <name>` line
 * replaced by the patterns of that family; a file without such lines comes
 * back unchanged (pure). Throws when a line names a family not defined here:
 * a mistake in the shipped files, found on the first load of the language.
 */
export function expandFamilies(source: string, file: string): string {
  return source.replace(FAMILY_LINE, (_line, name: string) => {
    const family = Object.hasOwn(FAMILIES, name) ? FAMILIES[name] : undefined;
    if (family === undefined) {
      throw new Error(
        `query file "${file}.scm" asks for pattern family "${name}", which ` +
          `src/extract/query_families.ts does not define (it has ${familyNames().join(", ")}); ` +
          `fix the name in the query file or add the family`,
      );
    }
    return `; ---- family ${name} (generated) ----\n${family()}`;
  });
}
