import type { HashStyle } from "./struct_hash.ts";

/**
 * The tree-sitter language table: which grammar and query files serve a
 * language id, and the few syntax facts the shared capture engine cannot read
 * from a query (which nodes wrap or decorate a definition, what a doc comment
 * looks like). Adding a language: a grammar in scripts/fetch_grammars.ts, a
 * query file in ./queries/, and one entry here.
 */
export interface LanguageSpec {
  /** The grammar's folder under `grammars/` (a row of grammars/manifest.json). */
  grammar: string;
  /** Query files in ./queries/ (without `.scm`), concatenated in this order. */
  queries: readonly string[];
  /**
   * Node types that wrap a single definition and belong to its range and
   * signature (`export_statement`, Python's `decorated_definition`, Go's
   * one-spec `type_declaration`).
   */
  wrappers?: readonly string[];
  /**
   * Node types of decorators, annotations and attributes: leading ones are
   * skipped by the signature, preceding siblings are pulled into the range.
   */
  decorators?: readonly string[];
  /** A preceding comment counts as documentation only if it matches (default: any). */
  docComment?: RegExp;
  /** Python: the first string statement of the body is the docstring. */
  docstring?: boolean;
  /**
   * Symbol kinds whose functions are methods, beyond class, interface,
   * struct, trait, impl, enum and union (Ruby: `module`).
   */
  methodContainers?: readonly string[];
  /** What layout means to the structural hash: statement-ending line breaks, indentation, 1-tuples. */
  hashStyle?: HashStyle;
  /**
   * C and C++: a syntax error inside the body of a function, class or
   * struct (most often a macro the grammar cannot read: `UNUSED(x)`, a
   * member's `GUARDED_BY(mu)`) leaves its name, written before the body, as
   * it is: it is not marked partial for it, so calls may land on it and its
   * methods may be found through it.
   */
  bodyErrorsKeepName?: boolean;
  /**
   * JS/TS: the nodes that bind their own `this` (`function () { this.x() }`,
   * an object literal's method as `object>method_definition`), and the node
   * that ends the search (a class's body, whose `this` is the class): a call
   * on `this` inside one of the former is made on an unknown receiver. An
   * arrow function keeps the `this` around it.
   */
  ownThis?: { binders: readonly string[]; classBody: string };
  /**
   * Python: the receivers that name the class only as a method's first
   * parameter (`self`, `cls`), and the decorators after which that
   * parameter is none (`@staticmethod`): a call on one of these names
   * anywhere else (a static method's `self`, a nested function's own
   * parameter `self`, a `cls` no parameter binds) is made on an unknown
   * receiver.
   */
  ownSelf?: { names: readonly string[]; staticDecorators: readonly string[] };
  /**
   * JS/TS: the nodes of a function that no definition names (`(function ()
   * { … })()`, `describe("x", () => { … })`): what is defined inside one is
   * that function's own (`scoped`), which no other file sees by its name,
   * unless the file makes it a global (`window.x = x`, `@global.export`).
   */
  anonymousFunctions?: readonly string[];
}

const JS_WRAPPERS = ["export_statement", "ambient_declaration", "expression_statement"] as const;
const JS_DECORATORS = ["decorator"] as const;
const JS_OWN_THIS = {
  binders: [
    "function_expression",
    "function_declaration",
    "function",
    "generator_function",
    "generator_function_declaration",
    "object>method_definition",
  ],
  classBody: "class_body",
} as const;
const JS_ANONYMOUS_FUNCTIONS = [
  "function_expression",
  "function",
  "generator_function",
  "arrow_function",
] as const;

/** Language id (from detectLanguage) → spec. */
export const LANGUAGES: Readonly<Record<string, LanguageSpec>> = {
  python: {
    grammar: "python",
    queries: ["python"],
    wrappers: ["decorated_definition"],
    decorators: ["decorator"],
    docstring: true,
    ownSelf: { names: ["self", "cls"], staticDecorators: ["staticmethod"] },
    hashStyle: { newlines: true, indent: true, tupleComma: true },
  },
  javascript: {
    grammar: "javascript",
    ownThis: JS_OWN_THIS,
    anonymousFunctions: JS_ANONYMOUS_FUNCTIONS,
    queries: ["ecmascript", "javascript", "jsx"],
    wrappers: JS_WRAPPERS,
    decorators: JS_DECORATORS,
  },
  typescript: {
    grammar: "typescript",
    ownThis: JS_OWN_THIS,
    anonymousFunctions: JS_ANONYMOUS_FUNCTIONS,
    queries: ["ecmascript", "typescript"],
    wrappers: JS_WRAPPERS,
    decorators: JS_DECORATORS,
  },
  tsx: {
    grammar: "tsx",
    ownThis: JS_OWN_THIS,
    anonymousFunctions: JS_ANONYMOUS_FUNCTIONS,
    queries: ["ecmascript", "typescript", "jsx"],
    wrappers: JS_WRAPPERS,
    decorators: JS_DECORATORS,
  },
  go: {
    grammar: "go",
    queries: ["go"],
    wrappers: ["type_declaration", "const_declaration", "var_declaration"],
  },
  rust: {
    grammar: "rust",
    queries: ["rust"],
    decorators: ["attribute_item"],
    docComment: /^(\/\/\/|\/\/!|\/\*\*|\/\*!)/,
    hashStyle: { tupleComma: true },
  },
  java: {
    grammar: "java",
    queries: ["java"],
    decorators: ["annotation", "marker_annotation"],
  },
  c: {
    grammar: "c",
    queries: ["c"],
    bodyErrorsKeepName: true,
  },
  cpp: {
    grammar: "cpp",
    queries: ["c", "cpp"],
    bodyErrorsKeepName: true,
    wrappers: ["template_declaration"],
    // Only so that `template <…>` does not stop the widening to template_declaration.
    decorators: ["template_parameter_list"],
  },
  csharp: {
    grammar: "csharp",
    queries: ["csharp"],
    decorators: ["attribute_list"],
  },
  ruby: {
    grammar: "ruby",
    queries: ["ruby"],
    methodContainers: ["module"],
    hashStyle: { newlines: true },
  },
  php: {
    grammar: "php",
    queries: ["php"],
    decorators: ["attribute_list"],
  },
  bash: {
    grammar: "bash",
    queries: ["bash"],
    hashStyle: { newlines: true },
  },
};

/** The spec for a language id, or undefined when no grammar serves it. */
export function languageSpec(language: string | undefined): LanguageSpec | undefined {
  if (language === undefined || !Object.hasOwn(LANGUAGES, language)) return undefined;
  return LANGUAGES[language];
}
