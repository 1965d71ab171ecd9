/**
 * How many arguments a definition takes, read from its signature, and how
 * many a call passes: what tells overloads apart (`f(int)` from
 * `f(String, int)`) where a language has them. Pure.
 */

/** The languages where one name in one scope may be several functions told apart by their parameters. */
export const OVERLOADING: ReadonlySet<string> = new Set(["java", "csharp", "cpp"]);

/** The argument counts a definition accepts: `min` to `max` (Infinity for varargs). */
export interface Arity {
  min: number;
  max: number;
}

/**
 * The argument counts the definition `name` with `signature` accepts, or
 * undefined when the signature does not show its parameter list whole. A
 * parameter with a default (`int b = 2`) may be left out; `...`, `params` and
 * a Java `T... xs` take any number more; `(void)` is none; C#'s `this`
 * parameter of an extension method may be the receiver instead of an
 * argument.
 *
 * @example
 * ```ts
 * import { arityOf } from "./arity.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(arityOf("f", "void f(String s, int b)"), { min: 2, max: 2 });
 * assert.deepEqual(arityOf("g", "void g(int a, int b = 2);"), { min: 1, max: 2 });
 * assert.deepEqual(arityOf("M", "void M<T>(Map<K, V> m, Func<int, int> f)"), { min: 2, max: 2 });
 * assert.deepEqual(arityOf("v", "void v(const char* f, ...)"), { min: 1, max: Infinity });
 * assert.deepEqual(arityOf("F", "static int F(this string s, int x)"), { min: 1, max: 2 });
 * assert.equal(arityOf("f", "void f(int a,"), undefined);
 * ```
 */
export function arityOf(name: string, signature: string | null): Arity | undefined {
  if (signature === null) return undefined;
  const open = listAfter(signature, name);
  if (open === undefined) return undefined;
  const params = topLevelParts(signature, open);
  if (params === undefined) return undefined;
  const list = params.map((p) => p.trim());
  if (list.length === 1 && (list[0] === "" || list[0] === "void")) return { min: 0, max: 0 };
  let min = 0;
  let max = 0;
  for (const [i, p] of list.entries()) {
    if (p.includes("...") || /^params\s/.test(p)) return { min, max: Infinity };
    max++;
    if (hasDefault(p)) continue;
    if (i === 0 && /^this\s/.test(p)) continue;
    min++;
  }
  return { min, max };
}

/** True when `args` arguments can go to a definition of arity `a` (unknown: any). */
export function admits(a: Arity | undefined, args: number): boolean {
  return a === undefined || (a.min <= args && args <= a.max);
}

/**
 * Where the parameter list after `name` starts (just past its `(`): the
 * first place `name` stands as a whole word followed, perhaps after type
 * parameters (`<T>`), by `(`.
 */
function listAfter(signature: string, name: string): number | undefined {
  if (name === "") return undefined;
  for (let at = signature.indexOf(name); at >= 0; at = signature.indexOf(name, at + 1)) {
    if (at > 0 && WORD.test(signature[at - 1]!)) continue;
    let i = at + name.length;
    while (signature[i] === " ") i++;
    if (signature[i] === "<") {
      const close = signature.indexOf(">", i);
      if (close < 0 || signature.slice(i, close).includes("(")) continue;
      i = close + 1;
      while (signature[i] === " ") i++;
    }
    if (signature[i] === "(") return i + 1;
  }
  return undefined;
}

const WORD = /[\p{L}\p{N}_$]/u;

/**
 * The comma-separated parts of the bracketed list whose content starts at
 * `from` (just after its `(`), up to its `)`; undefined when it never closes.
 */
function topLevelParts(text: string, from: number): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === "(" || c === "[" || c === "{" || c === "<") depth++;
    else if (c === ">" && text[i - 1] !== "-" && depth > 0) depth--;
    else if (c === ")" || c === "]" || c === "}") {
      if (depth === 0) {
        parts.push(text.slice(start, i));
        return parts;
      }
      depth--;
    } else if (c === "," && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return undefined;
}

/** A parameter with a default value: an `=` outside any brackets (not `==`, `<=`, `>=`, `!=`). */
function hasDefault(param: string): boolean {
  let depth = 0;
  for (let i = 0; i < param.length; i++) {
    const c = param[i]!;
    if (c === "(" || c === "[" || c === "{" || c === "<") depth++;
    else if (c === ")" || c === "]" || c === "}" || c === ">") depth = Math.max(0, depth - 1);
    else if (
      c === "=" && depth === 0 && param[i + 1] !== "=" && !"=<>!".includes(param[i - 1] ?? "")
    ) return true;
  }
  return false;
}
