/**
 * C#'s conditional compilation (`#if`, `#elif`, `#else`, `#endif`) between
 * members is a node tree-sitter-c-sharp reads, but one inside a
 * declaration's head is an error that takes the declaration with it:
 *
 * ```cs
 * public class JValue : JToken, IComparable
 * #if !(NETFX_CORE || PORTABLE)
 *     , IConvertible
 * #endif
 * {
 * ```
 *
 * left Newtonsoft.Json's `JValue` unread: its methods were functions of the
 * namespace (`Newtonsoft.Json.Linq.Compare`), its explicit interface
 * members named by the interface (`IConvertible`).
 */

/** A line that is a conditional directive, up to its end (its newline kept). */
const DIRECTIVE = /^[ \t]*#[ \t]*(?:if|elif|else|endif)\b[^\n]*/gm;

/**
 * The text with every conditional directive line replaced by as many spaces
 * (pure): the same length, lines and offsets, every branch's code kept, as
 * if each condition held. Text without such a line comes back as it is.
 *
 * @example
 * ```ts
 * import { blankDirectives } from "./cs_directives.ts";
 * const text = "class A : B\n#if X\n, C\n#endif\n{}";
 * console.assert(blankDirectives(text) === "class A : B\n     \n, C\n      \n{}");
 * ```
 */
export function blankDirectives(text: string): string {
  return text.replace(DIRECTIVE, (line) => " ".repeat(line.length));
}

/** True when `text` holds a conditional directive line (cheap: one scan). */
export function hasDirectives(text: string): boolean {
  DIRECTIVE.lastIndex = 0;
  return DIRECTIVE.test(text);
}
