import type { Depth } from "../config/mod.ts";

/** A definition found in a file (L2). Lines are 1-based and inclusive. */
export interface SymbolDef {
  /** function, method, class, interface, type, enum, constant, module, heading… */
  kind: string;
  name: string;
  /** Dotted path inside the file, e.g. `Outer.Inner.method`; unique per file with `kind` and overload index. */
  qualname: string;
  startLine: number;
  endLine: number;
  signature?: string;
  doc?: string;
  /** Hash of the symbol's syntax tree without positions, whitespace or comments. */
  structHash?: string;
  /** `qualname` of the enclosing definition, absent at top level. */
  parent?: string;
  /** True when the symbol sits in or next to a region that failed to parse. */
  partial?: boolean;
}

/** A reference from a definition (or the file itself) to a name (L3). */
export interface Reference {
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
  line: number;
}

/** A markdown (or other prose) section, chunked by heading. */
export interface Chunk {
  heading: string;
  startLine: number;
  endLine: number;
  text: string;
}

/** What one file yields at the depth asked for. */
export interface Extraction {
  depth: Depth;
  symbols: SymbolDef[];
  refs: Reference[];
  chunks: Chunk[];
  /** Set when extraction degraded (syntax errors, parse budget, grammar failure). */
  error?: string;
}

/** What an extractor can do for one language on this machine, and why not more. */
export interface Capability {
  depth: Depth;
  reason?: string;
}

/** The L2/L3 plug: the reconciler calls it; it never touches the journal. */
export interface Extractor {
  capability(language: string | undefined): Capability;
  /**
   * `budgetScale` multiplies the time budget (default 1): a file that missed
   * it on a busy machine is tried again with more time.
   */
  extract(
    input: { path: string; language: string; text: string; depth: Depth; budgetScale?: number },
  ): Promise<Extraction>;
}
