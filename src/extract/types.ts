import type { Depth } from "../config/mod.ts";

/** A definition found in a file (L2). Lines are 1-based and inclusive. */
export interface SymbolDef {
  /** function, method, class, interface, type, enum, constant, module, heading… */
  kind: string;
  /** The name as written. */
  name: string;
  /** Dotted path inside the file, e.g. `Outer.Inner.method`; unique per file with `kind` and overload index. */
  qualname: string;
  /** First line. */
  startLine: number;
  /** Last line. */
  endLine: number;
  /** The declaration without its body, when there is one. */
  signature?: string;
  /** The doc comment (or docstring) attached to it, without comment markers. */
  doc?: string;
  /** Hash of the symbol's syntax tree without positions, whitespace or comments. */
  structHash?: string;
  /** `qualname` of the enclosing definition, absent at top level. */
  parent?: string;
  /** True when the symbol sits in or next to a region that failed to parse. */
  partial?: boolean;
  /**
   * True when the symbol is defined inside a function that is no symbol
   * (JS/TS: an IIFE that wraps a script, a callback): only code in that
   * function names it, never another file, whatever its parent says.
   */
  scoped?: boolean;
}

/** A reference from a definition (or the file itself) to a name (L3). */
export interface Reference {
  /** What the reference does: a call, an import, a base class or an implemented interface. */
  kind: "calls" | "imports" | "inherits" | "implements";
  /** `qualname` of the referring definition; `""` for the file (module level). */
  from: string;
  /** The name referred to, as written (`foo`, `Bar`, `pkg.Baz`). */
  name: string;
  /** For imports, and for names bound by an import: the module specifier as written. */
  module?: string;
  /**
   * For a call on a receiver (`x.m()`, `self.m()`, `this.a.m()`): the
   * receiver as written, or `?` when it is not a name or a dotted path of
   * names (`f().m()`, `a[0].m()`). Absent for bare calls and for calls whose
   * qualifier is a module this file imports (those carry `module`).
   */
  receiver?: string;
  /**
   * The receiver's type where the same definition (or one around it) makes
   * it evident: constructed (`x = Foo()`, `new Foo()`), annotated (`x: Foo`,
   * `Foo x`), or a Go method's receiver. Absent when unknown or ambiguous.
   */
  receiverType?: string;
  /**
   * For a call of a macro (Rust's `debug!(…)`): true. Only a macro answers
   * it, never a function, module or type of its name.
   */
  macro?: true;
  /**
   * For an import that binds another name than it imports (`from m import a
   * as b`, `import { a as b }`, `use m::a as b`): what it imports (`a`);
   * `name` is the name bound (`b`).
   */
  imported?: string;
  /**
   * For a call in a language with overloads (Java, C#, C++): how many
   * arguments it passes, which tells them apart. Absent elsewhere.
   */
  args?: number;
  /** The line it is made on, 1-based. */
  line: number;
}

/** A markdown (or other prose) section, chunked by heading. */
export interface Chunk {
  /** The section's heading path (`Guide > Install`); `""` before the first heading. */
  heading: string;
  /** First line, 1-based. */
  startLine: number;
  /** Last line, inclusive. */
  endLine: number;
  /** The section's text. */
  text: string;
}

/** What one file yields at the depth asked for. */
export interface Extraction {
  /** The depth reached: the depth asked for, or less with {@link Extraction.error}. */
  depth: Depth;
  /** Definitions (L2). */
  symbols: SymbolDef[];
  /** References (L3); empty below L3. */
  refs: Reference[];
  /** Prose sections; empty for code. */
  chunks: Chunk[];
  /** Set when extraction degraded (syntax errors, parse budget, grammar failure). */
  error?: string;
}

/** What an extractor can do for one language on this machine, and why not more. */
export interface Capability {
  /** The deepest level it reaches for the language. */
  depth: Depth;
  /** Why not deeper (no grammar, a grammar that failed to load…), when there is a reason. */
  reason?: string;
}

/** The L2/L3 plug: the reconciler calls it; it never touches the journal. */
export interface Extractor {
  /** What this extractor can do for `language` on this machine; cheap, never throws. */
  capability(language: string | undefined): Capability;
  /**
   * `budgetScale` multiplies the time budget (default 1): a file that missed
   * it on a busy machine is tried again with more time.
   */
  extract(
    input: { path: string; language: string; text: string; depth: Depth; budgetScale?: number },
  ): Promise<Extraction>;
  /**
   * Loads now what extracting `language` first needs (a grammar and its
   * compiled queries: 5–800 ms), so that the next file of it does not wait
   * for that. Resolves whatever the outcome: a grammar that cannot load is
   * the next `extract()`'s to report. Absent where nothing is loaded lazily.
   */
  warm?(language: string): Promise<void>;
}
