import type { Node, QueryMatch } from "./grammars.ts";
import type { LanguageSpec } from "./languages.ts";
import type { Reference, SymbolDef } from "./types.ts";
import { docstringNode, docstringText, precedingDoc } from "./doc_comment.ts";
import { signatureOf } from "./signature.ts";
import { type HashTarget, structHashes } from "./struct_hash.ts";

/**
 * The shared engine that turns query matches into symbols and references.
 * It knows the capture convention of ./queries/*.scm, not any language:
 *
 * - `@definition.<kind>` the definition node; `@name` its name; optional
 *   `@body` (where the signature stops; default: the node's `body` field) and
 *   `@receiver` (the container named outside it: Go receivers, C++ `A::f`;
 *   several are joined with `.`).
 * - `@reference.call` with `@name`, optional `@module` (a static qualifier,
 *   kept as written) or `@qualifier` (kept only when its first segment is a
 *   name this file imports, e.g. `os.path` in `os.path.join()`).
 * - `@reference.import` with `@module` and optional `@name` (the binding);
 *   without `@name`, `(#set! name "*" | "first-segment" | "last-segment")`
 *   derives it from the module (default `*`: the whole module). Several
 *   `@module` captures (nested use lists) are joined with the
 *   `(#set! module_join "::")` property.
 * - `@reference.inherits`, `@reference.implements` with `@name`.
 *
 * When two patterns capture the same range and name, the earlier pattern in
 * the query file wins. `function` inside a class-like container becomes
 * `method`; `method` outside one (and without a receiver) becomes `function`.
 */
export function symbolsAndRefs(
  root: Node,
  matches: QueryMatch[],
  source: string,
  spec: LanguageSpec,
  errors: readonly ErrorSpan[],
  wantRefs: boolean,
): { symbols: SymbolDef[]; refs: Reference[] } {
  const defs = collectDefinitions(matches, spec);
  nest(defs, new Set([...CLASS_LIKE, ...(spec.methodContainers ?? [])]));
  const skipTypes = new Set(spec.decorators ?? []);
  const docstrings = defs.map((d) => spec.docstring ? docstringNode(d.node) : undefined);
  const hashes = structHashes(
    root,
    source,
    defs.map((d, i) => {
      const target: HashTarget = { start: d.start, end: d.end, typeId: d.nodes[0]!.typeId };
      const ds = docstrings[i];
      if (ds) target.skip = { start: ds.startIndex, end: ds.endIndex };
      return target;
    }),
  );
  const symbols = defs.map((d, i) =>
    toSymbol(d, source, spec, skipTypes, docstrings[i], hashes[i]!, errors)
  );
  const refs = wantRefs ? collectReferences(matches, defs) : [];
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
}

function collectDefinitions(matches: QueryMatch[], spec: LanguageSpec): Def[] {
  const wrappers = new Set(spec.wrappers ?? []);
  const decorators = new Set(spec.decorators ?? []);
  const byKey = new Map<string, Def>();
  for (const m of matches) {
    const role = m.captures.find((c) => c.name.startsWith("definition."));
    if (!role) continue;
    const name = capture(m, "name")?.text.trim();
    if (!name) continue;
    const outer = widen(role.node, wrappers, decorators);
    const nodes = [outer];
    for (let p = outer.previousSibling; p && decorators.has(p.type); p = p.previousSibling) {
      nodes.unshift(p);
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
      end: outer.endIndex,
      pattern: m.patternIndex,
      lexParent: undefined,
      qualname: name,
      parent: undefined,
    };
    const key = `${def.start}:${def.end}:${name}`;
    const seen = byKey.get(key);
    if (!seen || seen.pattern > def.pattern) byKey.set(key, def);
  }
  return [...byKey.values()].sort((a, b) =>
    a.start - b.start || b.end - a.end || a.pattern - b.pattern
  );
}

/** Climbs through wrapper nodes (export, decorated_definition…) that hold only this definition. */
function widen(node: Node, wrappers: ReadonlySet<string>, decorators: ReadonlySet<string>): Node {
  let outer = node;
  for (let p = outer.parent; p && wrappers.has(p.type); p = p.parent) {
    const held = p.namedChildren.filter((c) =>
      c !== null && !decorators.has(c.type) && !c.type.includes("comment")
    );
    if (held.length !== 1) break;
    outer = p;
  }
  return outer;
}

/** Sets lexical parents (containment), qualnames, parents and method/function kinds. */
function nest(defs: Def[], classLike: ReadonlySet<string>): void {
  const stack: Def[] = [];
  const byQualname = new Map<string, Def>();
  for (const d of defs) {
    while (stack.length > 0 && !(d.end <= stack[stack.length - 1]!.end)) stack.pop();
    d.lexParent = stack[stack.length - 1];
    stack.push(d);
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

function toSymbol(
  d: Def,
  source: string,
  spec: LanguageSpec,
  skipTypes: ReadonlySet<string>,
  docstring: Node | undefined,
  structHash: string,
  errors: readonly ErrorSpan[],
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
  const signature = signatureOf(d.outer, d.body, source, skipTypes);
  if (signature !== undefined) sym.signature = signature;
  const doc = docstring ? docstringText(docstring) : precedingDoc(first, spec.docComment);
  if (doc !== undefined) sym.doc = doc;
  sym.structHash = structHash;
  if (d.parent !== undefined) sym.parent = d.parent;
  if (errors.some((e) => e.start <= d.end && d.start <= e.end)) sym.partial = true;
  return sym;
}

const REF_KINDS: Record<string, Reference["kind"]> = {
  call: "calls",
  import: "imports",
  inherits: "inherits",
  implements: "implements",
};

function collectReferences(matches: QueryMatch[], defs: Def[]): Reference[] {
  const raw: { kind: Reference["kind"]; m: QueryMatch; anchor: Node }[] = [];
  for (const m of matches) {
    const role = m.captures.find((c) => c.name.startsWith("reference."));
    const kind = role && REF_KINDS[role.name.slice("reference.".length)];
    if (!role || !kind) continue;
    raw.push({ kind, m, anchor: capture(m, "name") ?? capture(m, "module") ?? role.node });
  }

  const refs: Reference[] = [];
  const bindings = new Set<string>();
  for (const { kind, m, anchor } of raw) {
    if (kind !== "imports") continue;
    const module = moduleText(m);
    const named = capture(m, "name")?.text.trim();
    const name = named || derivedName(m.setProperties?.["name"], module);
    bindings.add(name);
    refs.push(ref(kind, defs, anchor, name, module));
  }
  for (const { kind, m, anchor } of raw) {
    if (kind === "imports") continue;
    const name = collapse(capture(m, "name")?.text ?? "");
    // Error recovery can make a call of a stray `}`: a name has a word character.
    if (!/[\p{L}\p{N}_$]/u.test(name)) continue;
    let module = capture(m, "module")?.text;
    const qualifier = capture(m, "qualifier")?.text;
    if (module === undefined && qualifier !== undefined) {
      const head = qualifier.split(/[.:\\/]/, 1)[0]!;
      if (bindings.has(head)) module = qualifier;
    }
    refs.push(ref(kind, defs, anchor, name, module === undefined ? undefined : collapse(module)));
  }

  // `const x = require("m")` also matches the bare `require("m")` pattern: a
  // whole-module import is dropped when the same line names a binding from it.
  const named = new Set(
    refs.filter((r) => r.kind === "imports" && r.name !== "*").map((r) =>
      `${r.line}\u0000${r.module}`
    ),
  );
  const seen = new Set<string>();
  const unique = refs.filter((r) => {
    if (r.kind === "imports" && r.name === "*" && named.has(`${r.line}\u0000${r.module}`)) {
      return false;
    }
    const key = `${r.kind}\u0000${r.from}\u0000${r.name}\u0000${r.module ?? ""}\u0000${r.line}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.sort((a, b) =>
    a.line - b.line || cmp(a.kind, b.kind) || cmp(a.from, b.from) || cmp(a.name, b.name) ||
    cmp(a.module ?? "", b.module ?? "")
  );
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

/** The innermost definition whose range holds `index` (defs sorted by start). */
function enclosing(defs: Def[], index: number): Def | undefined {
  let lo = 0;
  let hi = defs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (defs[mid]!.start <= index) lo = mid + 1;
    else hi = mid;
  }
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

/** The `@module` capture(s), unquoted; several are joined with the `module_join` property. */
function moduleText(m: QueryMatch): string {
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
