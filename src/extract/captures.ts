import type { Node, QueryCapture, QueryMatch } from "./grammars.ts";
import type { LanguageSpec } from "./languages.ts";
import type { Reference, SymbolDef } from "./types.ts";
import { docstringNode, docstringText, precedingDoc } from "./doc_comment.ts";
import { signatureOf } from "./signature.ts";
import { OVERLOADING } from "./arity.ts";
import {
  lastEndingBefore,
  MARK_COMMENT,
  MARK_DECORATOR,
  MARK_LITERAL,
  MARK_WRAPPER,
  outermost,
  type Span,
} from "./source_marks.ts";
import { type HashTarget, structHashes } from "./struct_hash.ts";

/**
 * The shared engine that turns query matches into symbols and references.
 * It knows the capture convention of ./queries/*.scm, not any language:
 *
 * - `@definition.<kind>` the definition node; `@name` its name (without
 *   the `(#set! name_prefix ":")` it starts with, if any); optional
 *   `@body` (where the signature stops; default: the node's `body` field) and
 *   `@receiver` (the container named outside it: Go receivers, C++ `A::f`;
 *   several are joined with `.`). `(#set! within "type …")`: only where every
 *   node above the definition is of one of those types (C's prototypes at
 *   file level, inside include guards, `extern "C" {…}` and namespaces, but
 *   never in a function's body).
 * - `@reference.call` with `@name`, optional `@module` (a static qualifier,
 *   kept as written) or `@qualifier` (the receiver: kept as the module when
 *   its first segment is a name this file imports, e.g. `os.path` in
 *   `os.path.join()`, else kept as the reference's `receiver`, so that
 *   `kwargs.get()` is never taken for a bare call of `get`).
 * - `@binding.type` with `@name` (a variable, parameter or Go receiver) and
 *   `@type` (its type, constructed or annotated): the evident type of that
 *   name inside the innermost definition holding it, given to calls on it as
 *   `receiverType`. Without `@type`, the name is bound to something of no
 *   evident type; a name bound to two different types, or to one and to
 *   something untyped, has none (patterns of one node: a typed one wins).
 *   A name bound there, or in a function around it (a closure's), shadows
 *   what it names elsewhere: `x.m()` is a call on the variable even when an
 *   import is named `x`, `x()` is a call on an unknown receiver (`?.x`), not
 *   of a function `x` (unless the definition holds a function named `x`
 *   itself), and `c = X()` or `new X()` gives no type (`X` holds anything).
 *   A type in the type namespace (`type_identifier`) is never so hidden,
 *   nor one of a pattern that sets `(#set! enclosing "true")` (`cls()`).
 *   A call pattern may say how a binding of its name reads it:
 *   `(#set! shadow "never")`, not at all (Ruby's `count(1)` calls the
 *   method whatever local is named `count`); `(#set! shadow "variable")`,
 *   as a read of the variable, which is no call (Ruby's bare `count`).
 * - `@reference.import` with `@module`, optional `@name` (the binding) and
 *   `@imported` (what is imported, where an alias binds it: `a` of
 *   `from m import a as b`; or `(#set! imported "default")`: the module's
 *   default export, `import d from "m"`);
 *   without `@name`, `(#set! name "*" | "first-segment" | "last-segment")`
 *   derives it from the module (default `*`: the whole module). Several
 *   `@module` captures (nested use lists) are joined with the
 *   `(#set! module_join "::")` property; `(#set! module_field "source")`
 *   reads the module from that field of the reference node instead (an
 *   import without it imports nothing).
 * - `@reference.inherits`, `@reference.implements` with `@name`.
 * - `@global.export` with `@name`: the file makes its own definition of that
 *   name a global (`window.x = x`), so it is not `scoped` even when it is
 *   defined inside a function that is no symbol (the spec's
 *   `anonymousFunctions`).
 * - `@mark.comment`, `@mark.literal`, `@mark.wrapper`, `@mark.decorator`
 *   (generated, see ./source_marks.ts): what the structural hash leaves out
 *   or keeps verbatim, where doc comments are, and what a definition widens
 *   through, without asking the tree for parents or siblings.
 *
 * When two patterns capture the same range and name, the earlier pattern in
 * the query file wins; definitions of one range under different names (the
 * names of a chained assignment) are siblings, and what lies inside belongs
 * to the first of them. `function` inside a class-like container becomes
 * `method`; `method` outside one (and without a receiver) becomes `function`.
 *
 * Cost: one pass over the matches, a few tree calls per definition (its
 * wrapper, decorators, signature, doc), and one pass over the characters of
 * each definition for its structural hash; nothing walks the whole tree.
 * `source` is the file as written, which symbols are sliced from; `parsed`
 * the text the tree was parsed from when that differs (C's, its macros
 * blanked: see ./c_macros.ts), where a doc comment's gap is read.
 */
export function symbolsAndRefs(
  matches: QueryMatch[],
  source: string,
  spec: LanguageSpec,
  errors: readonly ErrorSpan[],
  wantRefs: boolean,
  parsed: string = source,
): { symbols: SymbolDef[]; refs: Reference[] } {
  const defMatches: QueryMatch[] = [];
  const refMatches: QueryMatch[] = [];
  const bindingMatches: QueryMatch[] = [];
  const textMarks: (Span & { comment?: boolean })[] = [];
  const wrappers: Mark[] = [];
  const decorators: Mark[] = [];
  const globals = new Set<string>();
  for (const m of matches) {
    const first = m.captures[0];
    if (first === undefined) continue;
    const name = first.name;
    if (name.startsWith("mark.")) {
      const node = first.node;
      const start = node.startIndex;
      const end = node.endIndex;
      if (name === MARK_COMMENT) textMarks.push({ start, end, comment: true });
      else if (name === MARK_LITERAL) textMarks.push({ start, end });
      else if (name === MARK_WRAPPER) wrappers.push({ start, end, node });
      else if (name === MARK_DECORATOR) decorators.push({ start, end, node });
      continue;
    }
    for (const c of m.captures) {
      if (c.name.startsWith("definition.")) {
        defMatches.push(m);
        break;
      }
      if (c.name.startsWith("reference.")) {
        refMatches.push(m);
        break;
      }
      if (c.name.startsWith("binding.")) {
        bindingMatches.push(m);
        break;
      }
      if (c.name === "global.export") {
        const exported = capture(m, "name")?.text;
        if (exported !== undefined) globals.add(exported);
        break;
      }
    }
  }
  // Comments and literals never overlap once nested ones are dropped.
  const outer = outermost(textMarks);
  const comments = outer.filter((x) => x.comment);
  const literals = outer.filter((x) => !x.comment);

  const defs = collectDefinitions(
    defMatches,
    spec,
    source,
    sortMarks(wrappers),
    sortMarks(decorators),
  );
  nest(defs, new Set([...CLASS_LIKE, ...(spec.methodContainers ?? [])]));
  const overload = OVERLOAD_DECLARATION[spec.grammar];
  if (overload !== undefined) foldOverloads(defs, overload);
  const skipTypes = new Set(spec.decorators ?? []);
  const docstrings = defs.map((d) => spec.docstring ? docstringNode(d.node) : undefined);
  const hashes = structHashes(
    source,
    comments,
    literals,
    defs.map((d, i) => {
      const target: HashTarget = { start: d.start, end: d.end };
      const ds = docstrings[i];
      if (ds) target.skip = { start: ds.startIndex, end: ds.endIndex };
      return target;
    }),
    spec.hashStyle,
  );
  const anonymous = new Set(spec.anonymousFunctions ?? []);
  const symbols = defs.map((d, i) => {
    const sym = toSymbol(
      d,
      source,
      parsed,
      spec,
      skipTypes,
      docstrings[i],
      hashes[i]!,
      errors,
      comments,
    );
    if (anonymous.size > 0 && !globals.has(d.name) && inAnonymousFunction(d, anonymous)) {
      sym.scoped = true;
    }
    return sym;
  });
  const refs = wantRefs
    ? collectReferences(
      refMatches,
      bindingMatches,
      defs,
      OVERLOADING.has(spec.grammar),
      CLOSURES.has(spec.grammar),
      VALUE_TYPES.has(spec.grammar),
      spec.ownThis,
      spec.ownSelf,
      FILE_SCOPE.has(spec.grammar),
    )
    : [];
  symbols.sort((a, b) =>
    a.startLine - b.startLine || b.endLine - a.endLine || cmp(a.qualname, b.qualname) ||
    cmp(a.kind, b.kind)
  );
  return { symbols, refs };
}

/** A region that failed to parse: an ERROR node or a zero-width MISSING one. */
export interface ErrorSpan {
  start: number;
  end: number;
  line: number;
}

/** Every ERROR and MISSING node, outermost only; cost is proportional to the broken parts. */
export function errorSpans(root: Node): ErrorSpan[] {
  const out: ErrorSpan[] = [];
  const visit = (node: Node): void => {
    if (node.isError || node.isMissing) {
      out.push({ start: node.startIndex, end: node.endIndex, line: node.startPosition.row + 1 });
      return;
    }
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i)!;
      if (child.hasError || child.isMissing) visit(child);
    }
  };
  if (root.hasError) visit(root);
  return out;
}

const CLASS_LIKE = new Set(["class", "interface", "struct", "trait", "impl", "enum", "union"]);

interface Def {
  kind: string;
  name: string;
  receiver: string | undefined;
  node: Node;
  outer: Node;
  /** The outer node plus decorators that precede it as siblings. */
  nodes: Node[];
  body: Node | undefined;
  start: number;
  end: number;
  pattern: number;
  lexParent: Def | undefined;
  qualname: string;
  parent: string | undefined;
  /** `(#set! signature "whole")`: the signature is the whole definition, uncut (Python's `__all__`). */
  whole?: true;
}

/** A wrapper or decorator from the `@mark.*` captures. */
interface Mark extends Span {
  node: Node;
}

/** Types of the `(#set! within "…")` lists, split once per list. */
const WITHIN = new Map<string, ReadonlySet<string>>();

/** True when every node above `node` is of a type the space-separated `types` names. */
function onlyWithin(node: Node, types: string): boolean {
  let allowed = WITHIN.get(types);
  if (allowed === undefined) WITHIN.set(types, allowed = new Set(types.split(/\s+/)));
  for (let up = node.parent; up !== null; up = up.parent) {
    if (!allowed.has(up.type)) return false;
  }
  return true;
}

function sortMarks(marks: Mark[]): Mark[] {
  return marks.sort((a, b) => a.start - b.start || b.end - a.end);
}

function collectDefinitions(
  matches: QueryMatch[],
  spec: LanguageSpec,
  source: string,
  wrappers: readonly Mark[],
  decorators: readonly Mark[],
): Def[] {
  const decoratorTypes = new Set(spec.decorators ?? []);
  // Several patterns may capture the same node under the same name: the
  // earliest pattern wins, before any tree call is spent on the others.
  const first = new Map<string, { m: QueryMatch; role: QueryCapture; name: string }>();
  for (const m of matches) {
    const role = m.captures.find((c) => c.name.startsWith("definition."));
    if (!role) continue;
    // `(#set! name_prefix ":")`: the name without it (Ruby's `attr_reader :name`).
    const prefix = m.setProperties?.["name_prefix"];
    let name = capture(m, "name")?.text.trim();
    if (prefix && name?.startsWith(prefix)) name = name.slice(prefix.length);
    if (!name) continue;
    const within = m.setProperties?.["within"];
    if (within && !onlyWithin(role.node, within)) continue;
    const key = `${role.node.id}:${role.name}:${name}`;
    const seen = first.get(key);
    if (!seen || seen.m.patternIndex > m.patternIndex) first.set(key, { m, role, name });
  }
  const chain = new WrapperChain(wrappers);
  const byKey = new Map<string, Def>();
  const found = [...first.values()].sort((a, b) => a.role.node.startIndex - b.role.node.startIndex);
  for (const { m, role, name } of found) {
    const outer = chain.widen(role.node, decoratorTypes);
    const nodes = [outer];
    for (let i = lastEndingBefore(decorators, outer.startIndex); i >= 0; i--) {
      const dec = decorators[i]!;
      if (!isBlank(source, dec.end, nodes[0]!.startIndex)) break;
      nodes.unshift(dec.node);
    }
    const def: Def = {
      kind: role.name.slice("definition.".length),
      name,
      receiver: m.captures.filter((c) => c.name === "receiver").map((c) => c.node.text.trim())
        .join(".") || undefined,
      node: role.node,
      outer,
      nodes,
      body: capture(m, "body") ?? role.node.childForFieldName("body") ?? undefined,
      start: nodes[0]!.startIndex,
      // C#'s `namespace Acme.Store;` holds what follows it, to the end of the file.
      end: role.node.type === "file_scoped_namespace_declaration"
        ? role.node.tree.rootNode.endIndex
        : outer.endIndex,
      pattern: m.patternIndex,
      lexParent: undefined,
      qualname: name,
      parent: undefined,
    };
    if (m.setProperties?.["signature"] === "whole") def.whole = true;
    const key = `${def.start}:${def.end}:${name}`;
    const seen = byKey.get(key);
    if (!seen || seen.pattern > def.pattern) byKey.set(key, def);
  }
  return [...byKey.values()].sort((a, b) =>
    a.start - b.start || b.end - a.end || a.pattern - b.pattern
  );
}

/**
 * The wrapper nodes (export, decorated_definition…) of a file, swept in
 * order of start: at any point it holds the chain of wrappers that contain
 * the current definition, so climbing out of one needs no `parent` call
 * (each of which walks down from the root).
 */
class WrapperChain {
  #wrappers: readonly Mark[];
  #next = 0;
  #open: Mark[] = [];

  constructor(wrappers: readonly Mark[]) {
    this.#wrappers = wrappers;
  }

  /**
   * The definition node widened through the wrappers that hold only it.
   * Calls must come in order of the nodes' start.
   */
  widen(node: Node, decorators: ReadonlySet<string>): Node {
    if (this.#wrappers.length === 0) return node;
    const start = node.startIndex;
    const open = this.#open;
    while (this.#next < this.#wrappers.length && this.#wrappers[this.#next]!.start <= start) {
      const w = this.#wrappers[this.#next++]!;
      while (open.length > 0 && open[open.length - 1]!.end <= w.start) open.pop();
      open.push(w);
    }
    while (open.length > 0 && open[open.length - 1]!.end <= start) open.pop();
    let outer = node;
    let outerEnd = node.endIndex;
    for (let i = open.length - 1; i >= 0; i--) {
      const w = open[i]!;
      if (w.node.id === outer.id || w.end < outerEnd) continue;
      // The innermost wrapper around `outer`: it widens only if it is the parent holding just it.
      if (!holdsOnly(w.node, outer, decorators)) {
        // A wrapper of the same range may be nested inside `outer`: look further out.
        if (w.start === outer.startIndex && w.end === outerEnd) continue;
        break;
      }
      outer = w.node;
      outerEnd = w.end;
    }
    return outer;
  }
}

/**
 * True when `child` is the one named child of `node` that is not a
 * decorator or a comment. Stops at the second one: a Go `const (…)` block of
 * 500 specs costs two steps, not 500 node objects per spec.
 */
function holdsOnly(node: Node, child: Node, decorators: ReadonlySet<string>): boolean {
  const cursor = node.walk();
  try {
    let held = 0;
    let isChild = false;
    for (let ok = cursor.gotoFirstChild(); ok; ok = cursor.gotoNextSibling()) {
      if (!cursor.nodeIsNamed) continue;
      const type = cursor.nodeType;
      if (decorators.has(type) || type.includes("comment")) continue;
      if (++held > 1) return false;
      isChild = cursor.nodeId === child.id;
    }
    return isChild;
  } finally {
    cursor.delete();
  }
}

function isBlank(source: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = source.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 11) return false;
  }
  return true;
}

/** Sets lexical parents (containment), qualnames, parents and method/function kinds. */
function nest(defs: Def[], classLike: ReadonlySet<string>): void {
  const stack: Def[] = [];
  const byQualname = new Map<string, Def>();
  for (const d of defs) {
    while (stack.length > 0 && !(d.end <= stack[stack.length - 1]!.end)) stack.pop();
    const top = stack[stack.length - 1];
    if (top !== undefined && sameRange(d, top)) {
      // The names of a chained assignment (`a.x = a.y = function …`) are
      // siblings; what is inside belongs to the first one written.
      d.lexParent = top.lexParent;
    } else {
      d.lexParent = top;
      stack.push(d);
    }
    const prefix = d.lexParent ? `${d.lexParent.qualname}.` : "";
    let container = d.lexParent;
    if (d.receiver) {
      const owner = prefix + dotted(d.receiver);
      d.qualname = `${owner}.${d.name}`;
      container = byQualname.get(owner) ?? d.lexParent;
    } else {
      d.qualname = prefix + d.name;
    }
    d.parent = container?.qualname;
    const inClass = container !== undefined && classLike.has(container.kind);
    if (d.kind === "function" && inClass) d.kind = "method";
    else if (d.kind === "method" && !inClass && !d.receiver) d.kind = "function";
    if (!byQualname.has(d.qualname)) byQualname.set(d.qualname, d);
  }
}

/** The bodiless declarations TypeScript writes an overload as. */
const OVERLOAD_SIGNATURES = new Set([
  "function_signature",
  "method_signature",
  "abstract_method_signature",
]);

/** Python's `@overload` (`@typing.overload`, `@t.overload`). */
const OVERLOAD_DECORATOR = /^@\s*(?:[A-Za-z_]\w*\s*\.\s*)*overload\s*$/;

/** Per grammar, whether a definition only declares one overload of a function. */
const OVERLOAD_DECLARATION: Readonly<Record<string, (d: Def) => boolean>> = {
  typescript: (d) => OVERLOAD_SIGNATURES.has(d.node.type),
  tsx: (d) => OVERLOAD_SIGNATURES.has(d.node.type),
  python: (d) =>
    d.outer.type === "decorated_definition" &&
    d.outer.namedChildren.some((c) => c?.type === "decorator" && OVERLOAD_DECORATOR.test(c.text)),
};

/**
 * Folds overloads into one definition, in place: a run of declarations of
 * one overload each, of one name in one scope (TypeScript's bodiless
 * `function each(o: T): void`, Python's `@overload def conv(x: int)`), and
 * the definition right after them of that name (its implementation, or the
 * run's last signature in a `.d.ts` or an interface) are one function,
 * which starts at the first declaration (so the doc comment above it is its
 * doc). Left as several definitions, a TypeScript call of the name was
 * ambiguous between them and landed nowhere, and `callers conv` had to be
 * told which of three.
 */
function foldOverloads(defs: Def[], declaresOverload: (d: Def) => boolean): void {
  let kept = 0;
  for (let i = 0; i < defs.length; i++) {
    const d = defs[i]!;
    const prev = kept > 0 ? defs[kept - 1]! : undefined;
    if (
      prev !== undefined && prev.qualname === d.qualname && prev.lexParent === d.lexParent &&
      prev.kind === d.kind && prev.end <= d.start && declaresOverload(prev)
    ) {
      d.nodes = [prev.nodes[0]!, ...d.nodes];
      d.start = prev.start;
      defs[kept - 1] = d;
      continue;
    }
    defs[kept++] = d;
  }
  defs.length = kept;
}

/**
 * True when a function that no definition names (one of `types`) lies
 * between `d` and the definition holding it (the file, when none does): a
 * few parent steps, each a walk down from the root.
 */
function inAnonymousFunction(d: Def, types: ReadonlySet<string>): boolean {
  const holder = d.lexParent?.node;
  for (let n = d.outer.parent; n !== null; n = n.parent) {
    if (
      holder !== undefined && n.startIndex <= holder.startIndex && holder.endIndex <= n.endIndex
    ) {
      return false;
    }
    if (types.has(n.type)) return true;
  }
  return false;
}

function sameRange(a: Def, b: Def): boolean {
  return a.start === b.start && a.end === b.end;
}

function toSymbol(
  d: Def,
  source: string,
  parsed: string,
  spec: LanguageSpec,
  skipTypes: ReadonlySet<string>,
  docstring: Node | undefined,
  structHash: string,
  errors: readonly ErrorSpan[],
  comments: readonly Span[],
): SymbolDef {
  const first = d.nodes[0]!;
  const endRow = d.outer.endPosition.row - (d.outer.endPosition.column === 0 ? 1 : 0);
  const sym: SymbolDef = {
    kind: d.kind,
    name: d.name,
    qualname: d.qualname,
    startLine: first.startPosition.row + 1,
    endLine: Math.max(first.startPosition.row, endRow) + 1,
  };
  const signature = d.whole
    ? wholeText(source, d.outer)
    : signatureOf(d.outer, d.body, source, skipTypes);
  if (signature !== undefined) sym.signature = signature;
  const doc = docstring
    ? docstringText(docstring)
    : precedingDoc(source, comments, d.start, spec.docComment, parsed);
  if (doc !== undefined) sym.doc = doc;
  sym.structHash = structHash;
  if (d.parent !== undefined) sym.parent = d.parent;
  if (errors.some((e) => e.start <= d.end && d.start <= e.end && !inBody(e, d, spec))) {
    sym.partial = true;
  }
  return sym;
}

/**
 * A definition's whole text, whitespace and comments collapsed, uncut: the
 * names Python's `__all__` lists, however many, which the resolver reads
 * (the comments go: a `# "x"` is no name).
 */
function wholeText(source: string, node: Node): string {
  return source.slice(node.startIndex, node.endIndex).replace(/#[^\n]*/g, "")
    .replace(/\s+/g, " ").trim();
}

/**
 * True when error `e` lies within the body of a function or a class-like
 * definition, where it cannot have changed the name written before it (C, C++).
 */
function inBody(e: ErrorSpan, d: Def, spec: LanguageSpec): boolean {
  if (!spec.bodyErrorsKeepName || !(d.kind in KEEPS_NAME)) return false;
  const body = d.body;
  return body !== undefined && body.startIndex < e.start && e.end <= body.endIndex;
}

/** Definitions named before their body (see {@link inBody}). */
const KEEPS_NAME = { function: 1, method: 1, class: 1, struct: 1, union: 1, enum: 1 } as const;

const REF_KINDS: Record<string, Reference["kind"]> = {
  call: "calls",
  import: "imports",
  inherits: "inherits",
  implements: "implements",
};

/**
 * The references of the matches. `countArgs`: a call also says how many
 * arguments it passes (its node's `arguments` field), which tells overloads
 * apart. `closures`: a function nested in another sees its parameters and
 * variables (see {@link CLOSURES}); `valueTypes`: a constructed type is a
 * value a binding may hide (see {@link VALUE_TYPES}). `ownThis`: where `this` is no longer
 * the class's (see `LanguageSpec.ownThis`); `ownSelf`: where `self` and
 * `cls` are the class's (see `LanguageSpec.ownSelf`); `fileScope`: a
 * function sees the variables bound at its file's top, or in code around
 * it that is no definition (see {@link FILE_SCOPE}).
 */
function collectReferences(
  matches: QueryMatch[],
  bindingMatches: QueryMatch[],
  defs: Def[],
  countArgs: boolean,
  closures: boolean,
  valueTypes: boolean,
  ownThis: LanguageSpec["ownThis"],
  ownSelf?: LanguageSpec["ownSelf"],
  fileScope = false,
): Reference[] {
  const raw: { kind: Reference["kind"]; m: QueryMatch; role: Node; anchor: Node }[] = [];
  for (const m of matches) {
    const role = m.captures.find((c) => c.name.startsWith("reference."));
    const kind = role && REF_KINDS[role.name.slice("reference.".length)];
    if (!role || !kind) continue;
    raw.push({
      kind,
      m,
      role: role.node,
      anchor: capture(m, "name") ?? capture(m, "module") ?? role.node,
    });
  }

  const refs: Reference[] = [];
  const bindings = new Set<string>();
  /** Where imports write their names: `const x = require("x")` binds `x` as an import. */
  const importNames = new Set<number>();
  for (const { kind, m, role, anchor } of raw) {
    if (kind !== "imports") continue;
    const module = moduleText(m, role);
    if (module === undefined) continue;
    const nameNode = capture(m, "name");
    if (nameNode) importNames.add(nameNode.startIndex);
    const named = nameNode?.text.trim();
    const name = named || derivedName(m.setProperties?.["name"], module);
    bindings.add(name);
    const r = ref(kind, defs, anchor, name, module);
    const imported = capture(m, "imported")?.text.trim() ?? m.setProperties?.["imported"] ??
      undefined;
    if (imported && imported !== name) r.imported = imported;
    refs.push(r);
  }
  const types = typeBindings(
    bindingMatches,
    defs,
    importNames,
    closures,
    valueTypes,
    fileScope,
  );
  // Definitions by the definition right around them (see scopedName).
  const nested = new Set(defs.map((d) => scopedName(d.lexParent, d.name)));
  for (const { kind, m, role, anchor } of raw) {
    if (kind === "imports") continue;
    const name = collapse(capture(m, "name")?.text ?? "");
    // Error recovery can make a call of a stray `}`: a name has a word character.
    if (!/[\p{L}\p{N}_$]/u.test(name)) continue;
    let module = capture(m, "module")?.text;
    const qualifier = capture(m, "qualifier")?.text;
    const scope = enclosing(defs, anchor.startIndex);
    let receiver: string | undefined;
    if (module === undefined && qualifier !== undefined) {
      const head = qualifier.split(/[.:\\/]/, 1)[0]!;
      if (!bindings.has(head)) receiver = receiverText(qualifier);
      else if (!types.binds(head, scope)) module = qualifier;
      // A parameter or variable of the definition shadows the import of its
      // name: its type (if evident) says where the call lands, its name
      // never does (the resolver would read it as the import).
      else receiver = types.typeOf(head, scope) === undefined ? "?" : receiverText(qualifier);
    } else if (
      module === undefined && m.setProperties?.["shadow"] !== "never" &&
      types.binds(name, scope) && !nested.has(scopedName(scope, name))
    ) {
      // Ruby's bare `count`: a read of the variable where one is bound, a
      // call of the method only where none is.
      if (m.setProperties?.["shadow"] === "variable") continue;
      // `cb()` of a parameter or variable `cb`: what it holds is unknown, so
      // the call is made on an unknown receiver, never on the function
      // (imported, of this file or elsewhere) that happens to share its name.
      receiver = "?";
    }
    // `function () { this.load() }` inside a method: whatever calls it
    // says what `this` is, never the class.
    if (
      ownThis && receiver !== undefined && /^(this|super)(\.|$)/.test(receiver) &&
      bindsOwnThis(role, ownThis)
    ) receiver = "?";
    // `self.open()` in a `@staticmethod`, `cls.open()` where no parameter
    // binds `cls`: not the class.
    if (
      ownSelf && receiver !== undefined && ownSelf.names.includes(receiver.split(".", 1)[0]!) &&
      !isOwnSelf(receiver.split(".", 1)[0]!, scope, ownSelf)
    ) receiver = "?";
    const r = ref(kind, defs, anchor, name, module === undefined ? undefined : collapse(module));
    if (receiver !== undefined) {
      r.receiver = receiver;
      const made = qualifier === undefined ? undefined : constructed(qualifier);
      const type = receiver !== "?"
        ? types.typeOf(receiver, scope)
        // `new Car().m()` with a parameter or variable `Car`: not the class.
        : made === undefined || (valueTypes && types.binds(made, scope))
        ? undefined
        : made;
      // `c = cls()` names the class only where `cls` is a classmethod's.
      const self = type !== undefined && ownSelf?.names.includes(type) &&
        !isOwnSelf(type, scope, ownSelf);
      if (type !== undefined && !self) r.receiverType = type;
    }
    if (countArgs && kind === "calls") {
      const args = argumentCount(role);
      if (args !== undefined) r.args = args;
    }
    if (m.setProperties?.["macro"]) r.macro = true;
    refs.push(r);
  }

  // `const x = require("m")` also matches the bare `require("m")` pattern: a
  // whole-module import is dropped when the same line names a binding from it.
  const named = new Set(
    refs.filter((r) => r.kind === "imports" && r.name !== "*").map((r) =>
      `${r.line}\u0000${r.module}`
    ),
  );
  refs.sort((a, b) =>
    a.line - b.line || cmp(a.kind, b.kind) || cmp(a.from, b.from) || cmp(a.name, b.name) ||
    cmp(a.module ?? "", b.module ?? "") || cmp(a.receiver ?? "", b.receiver ?? "") ||
    (a.args ?? -1) - (b.args ?? -1) || Number(a.macro ?? false) - Number(b.macro ?? false)
  );
  // Sorted on every field, duplicates are neighbours.
  const unique: Reference[] = [];
  for (const r of refs) {
    if (r.kind === "imports" && r.name === "*" && named.has(`${r.line}\u0000${r.module}`)) continue;
    const last = unique[unique.length - 1];
    if (
      last !== undefined && last.line === r.line && last.kind === r.kind && last.from === r.from &&
      last.name === r.name && last.module === r.module && last.receiver === r.receiver &&
      last.args === r.args && last.imported === r.imported && last.macro === r.macro
    ) continue;
    unique.push(r);
  }
  return unique;
}

function ref(
  kind: Reference["kind"],
  defs: Def[],
  anchor: Node,
  name: string,
  module: string | undefined,
): Reference {
  const r: Reference = {
    kind,
    from: enclosing(defs, anchor.startIndex)?.qualname ?? "",
    name,
    line: anchor.startPosition.row + 1,
  };
  if (module !== undefined && module !== "") r.module = module;
  return r;
}

/** The arguments a call node passes (comments aside), or undefined when it has no argument list. */
function argumentCount(call: Node): number | undefined {
  const list = call.childForFieldName("arguments");
  if (list === null) return undefined;
  let n = 0;
  for (const c of list.namedChildren) if (c !== null && !c.type.includes("comment")) n++;
  return n;
}

/**
 * A receiver as the resolver reads it: a name or a dotted path of names
 * (`::`, `->` and `?.` read as `.`; `super()` as `super`), else `?`.
 */
function receiverText(qualifier: string): string {
  const text = collapse(qualifier).replace(/\s*(::|->|\?\.|\.)\s*/g, ".").replace(
    /^super\(\)/,
    "super",
  );
  return /^[\p{L}_$@][\p{L}\p{N}_$]*(\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u.test(text) ? text : "?";
}

/**
 * True when a node that binds its own `this` (`ownThis.binders`; `a>b`: a
 * `b` whose parent is an `a`) lies between `node` and the class body
 * around it, or there is no class body around it. A few parent steps.
 */
function bindsOwnThis(node: Node, ownThis: NonNullable<LanguageSpec["ownThis"]>): boolean {
  for (let n = node.parent; n !== null; n = n.parent) {
    if (n.type === ownThis.classBody) return false;
    const parent = n.parent?.type ?? "";
    if (ownThis.binders.some((b) => b === n!.type || b === `${parent}>${n!.type}`)) return true;
  }
  return false;
}

/**
 * True when `name` (`self`, `cls`) is, inside `def`, the first parameter of
 * a method that is no static method: `def` itself or the method a nested
 * function closes over. A function between that binds `name` as a
 * parameter of its own, or none that binds it at all, says it is not.
 */
function isOwnSelf(
  name: string,
  def: Def | undefined,
  ownSelf: NonNullable<LanguageSpec["ownSelf"]>,
): boolean {
  for (let d = def; d && FUNCTION_KINDS.has(d.kind); d = d.lexParent) {
    // A comment between the parameters (`def get(  # type: ignore`) is none of them.
    const params = (d.node.childForFieldName("parameters")?.namedChildren ?? [])
      .filter((p) => p !== null && p.type !== "comment");
    const names = params.map((p) => parameterName(p!));
    if (!names.includes(name)) continue;
    if (names[0] !== name || d.kind !== "method") return false;
    return !decoratorsOf(d).some((text) => ownSelf.staticDecorators.includes(text));
  }
  return false;
}

/** The decorators written on `def` (`@staticmethod` as `staticmethod`), the wrapper's children. */
function decoratorsOf(def: Def): string[] {
  const out: string[] = [];
  for (const c of def.node.parent?.namedChildren ?? []) {
    if (c?.type.includes("decorator")) out.push(c.text.replace(/^@\s*/, "").trim());
  }
  return out;
}

/** The name a parameter node binds (`self`, `self: "Conn"`, `x=1`), or "" for `*args` and the like. */
function parameterName(param: Node): string {
  if (param.type === "identifier") return param.text;
  const named = param.childForFieldName("name") ?? param.namedChildren[0] ?? null;
  return named?.type === "identifier" ? named.text : "";
}

/** `Foo` when the receiver is just `new Foo(…)` (the parentheses balanced to the end), else undefined. */
function constructed(qualifier: string): string | undefined {
  const text = collapse(qualifier);
  const m = /^new ?([\p{L}_$][\p{L}\p{N}_$]*) ?\(/u.exec(text);
  if (!m || !text.endsWith(")")) return undefined;
  let depth = 0;
  for (let i = m[0].length - 1; i < text.length; i++) {
    const c = text[i];
    if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i === text.length - 1 ? m[1] : undefined;
  }
  return undefined;
}

/** The `@binding.type` captures: which type a name evidently has inside a definition. */
function typeBindings(
  matches: QueryMatch[],
  defs: Def[],
  importNames: ReadonlySet<number>,
  closures: boolean,
  valueTypes: boolean,
  fileScope: boolean,
) {
  // Per binding node: the type its patterns name (undefined: bound to something untyped).
  const byNode = new Map<
    string,
    { key: string; type: string | undefined; value: boolean }
  >();
  for (const m of matches) {
    const role = m.captures.find((c) => c.name.startsWith("binding."))?.node;
    const name = capture(m, "name");
    if (!role || !name || importNames.has(name.startIndex)) continue;
    const typeNode = capture(m, "type");
    const type = typeNode?.text;
    const t = type === undefined ? undefined : collapse(type).replace(/::/g, ".");
    // A type written as a value (`Foo()`, `new Foo()`, Python's annotations)
    // is whatever a binding of its name holds there; one in the type
    // namespace (`type_identifier`: `x: Foo`, `Foo x`) is the type, and so is
    // the enclosing class a pattern says it names (`cls()`).
    const value = valueTypes && typeNode !== undefined && !typeNode.type.includes("type") &&
      !m.setProperties?.["enclosing"];
    const at = `${role.id}:${name.startIndex}`;
    const seen = byNode.get(at);
    if (seen?.type !== undefined && seen.type !== t) {
      if (t !== undefined) seen.type = "";
      continue;
    }
    const scope = enclosing(defs, name.startIndex)?.qualname ?? "";
    byNode.set(at, { key: `${scope}\u0000${collapse(name.text)}`, type: t, value });
  }
  // "scope qualname\0name" → type, or null when bindings of it disagree or one has none.
  const byScope = new Map<string, string | null>();
  // Keys whose type is written as a value (see above).
  const asValue = new Set<string>();
  for (const { key, type, value } of byNode.values()) {
    const seen = byScope.get(key);
    byScope.set(key, seen === undefined || seen === type ? type || null : null);
    if (value) asValue.add(key);
  }
  /**
   * True when `name` is bound in `def` itself or, where `closures`, in a
   * function around it (a closure sees its enclosing function's parameters
   * and variables); not looked up past a class or the file, whose bindings
   * a method does not see by name (Python), or which are the module's own.
   */
  const topDefs = new Set(defs.filter((d) => d.lexParent === undefined).map((d) => d.name));
  const bindsAround = (name: string, def: Def | undefined): boolean => {
    if (byScope.has(scopedName(def, name))) return true;
    if (!closures) return false;
    for (let d = def; d && FUNCTION_KINDS.has(d.kind); d = d.lexParent) {
      const up = d.lexParent;
      if (!up || !FUNCTION_KINDS.has(up.kind)) break;
      if (byScope.has(scopedName(up, name))) return true;
    }
    // `var keys = nativeKeys;` at the top of a script (or of the IIFE that
    // wraps it, which is no definition): every function of it calls that.
    // (Not one that names a definition there: `const f = () => …` is f.)
    return fileScope && def !== undefined && byScope.has(scopedName(undefined, name)) &&
      !topDefs.has(name);
  };
  return {
    /**
     * The type of `name` bound in `def` itself (the file for top-level code).
     * Not looked up further out: a parameter without a type, or a name bound
     * in a way no pattern captures, may shadow an outer binding. None when
     * the type is written as a value whose name is bound around it
     * (`Car = Dog; c = Car()`, a parameter `Car`): it is not the import or
     * the class of that name.
     */
    typeOf(name: string, def: Def | undefined): string | undefined {
      const key = scopedName(def, name);
      const type = byScope.get(key) ?? undefined;
      if (type === undefined || !asValue.has(key)) return type;
      const head = type.split(".", 1)[0]!;
      return head !== name && bindsAround(head, def) ? undefined : type;
    },
    /** True when `name` is bound in `def` or a function around it (a parameter, a variable), typed or not. */
    binds: bindsAround,
  };
}

/** Definitions whose parameters and variables the functions nested in them see. */
const FUNCTION_KINDS: ReadonlySet<string> = new Set(["function", "method"]);

/**
 * Grammars where a class is a value of the scope, so a parameter or
 * variable of its name hides it in `Car()`, `new Car()` (Python, JS/TS); in
 * C# a type's name is read as a type there whatever a local is named.
 */
const VALUE_TYPES: ReadonlySet<string> = new Set(["python", "javascript", "typescript", "tsx"]);

/**
 * Grammars whose functions see the variables bound at their file's top (a
 * script's or a module's own `var`, `let`, `const`): a call of such a name
 * is a call of the variable, never of a function of its name elsewhere.
 * Python's module globals are left out: `fast = None` after a failed
 * import is a fallback of the function it imports.
 */
const FILE_SCOPE: ReadonlySet<string> = new Set(["javascript", "typescript", "tsx"]);

/**
 * Grammars whose nested functions close over the enclosing function's
 * parameters and variables (Python, JS/TS, C#'s local functions); a Rust
 * `fn`, a PHP or Ruby `def` inside another sees none of them.
 */
const CLOSURES: ReadonlySet<string> = new Set([
  "python",
  "javascript",
  "typescript",
  "tsx",
  "csharp",
]);

/** `name` inside definition `scope` (the file when undefined), as one key. */
function scopedName(scope: Def | undefined, name: string): string {
  return `${scope?.qualname ?? ""}\u0000${name}`;
}

/** The innermost definition whose range holds `index` (defs sorted by start). */
function enclosing(defs: Def[], index: number): Def | undefined {
  let lo = 0;
  let hi = defs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (defs[mid]!.start <= index) lo = mid + 1;
    else hi = mid;
  }
  // Of the names of one chained assignment, the first one written owns the body.
  while (lo > 1 && sameRange(defs[lo - 1]!, defs[lo - 2]!)) lo--;
  for (let d = defs[lo - 1]; d; d = d.lexParent) {
    if (index < d.end) return d;
  }
  return undefined;
}

/**
 * The binding an import makes when the query names none: `first-segment`
 * (`os.path` binds `os`), `last-segment` (`net/http` binds `http`; a version
 * suffix such as `/v2` or `.v3` is skipped), or the rule itself (`*`).
 */
function derivedName(rule: string | null | undefined, module: string): string {
  const sep = /[/\\]|::/.test(module) ? /[/\\]+|::/ : /\.+/;
  const parts = module.split(sep).filter((p) => p !== "");
  if (rule === "first-segment") return parts[0] ?? module;
  if (rule === "last-segment") {
    if (parts.length > 1 && /^v\d+$/.test(parts[parts.length - 1]!)) parts.pop();
    return parts[parts.length - 1]?.replace(/\.v\d+$/, "") ?? module;
  }
  return rule ?? "*";
}

/**
 * The `@module` capture(s), unquoted; several are joined with the
 * `module_join` property. With the `module_field` property, the text of that
 * field of the reference node instead (undefined when it has none: `export
 * { a }` imports nothing).
 */
function moduleText(m: QueryMatch, role: Node): string | undefined {
  const field = m.setProperties?.["module_field"];
  if (field) {
    const node = role.childForFieldName(field);
    return node ? unquote(node.text) : undefined;
  }
  const parts = m.captures.filter((c) => c.name === "module").map((c) => unquote(c.node.text));
  return parts.join(m.setProperties?.["module_join"] ?? "");
}

function capture(m: QueryMatch, name: string): Node | undefined {
  return m.captures.find((c) => c.name === name)?.node;
}

function unquote(text: string): string {
  return collapse(text).replace(/^(["'`<])(.*)[>"'`]$/, "$2");
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function dotted(receiver: string): string {
  return receiver.replace(/::|->|\\/g, ".");
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
