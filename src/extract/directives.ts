/**
 * Conditional compilation (`#if`, `#ifdef`, `#elif`, `#else`, `#endif`) is
 * a node tree-sitter reads between members or statements, but one inside a
 * declaration's head, or two branches that each open a function, breaks
 * the declaration, which takes its members with it:
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
 * members named by the interface (`IConvertible`). The extractor parses
 * such a file again without them, and keeps the tree with less in error.
 */

/** A conditional directive's keyword, at the start of a line. */
const DIRECTIVE = /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b/;

/** True when `text` holds a conditional directive line (cheap: one scan). */
export function hasDirectives(text: string): boolean {
  return /^[ \t]*#[ \t]*(?:if|elif|else|endif)/m.test(text);
}

/**
 * The text with conditional directive lines (and their `\` continuations)
 * replaced by as many spaces (pure): the same length, lines and offsets,
 * every branch's code kept, as if each condition held. In a file that
 * opens as many braces as it closes, every conditional is so blanked (one
 * `#if` may open a block that a later one closes); in one that does not,
 * where branches each open a block (`#if A` `else {` `#else` `else if (b)
 * {` `#endif`), only a conditional whose every branch is brace-neutral:
 * the others would leave a brace open, and the function swallow the rest
 * of the file.
 *
 * @example
 * ```ts
 * import { blankDirectives } from "./directives.ts";
 * const text = "class A : B\n#if X\n, C\n#endif\n{}";
 * console.assert(blankDirectives(text) === "class A : B\n     \n, C\n      \n{}");
 * const open = "#if X\nelse {\n#else\nelse if (b) {\n#endif\n}";
 * console.assert(blankDirectives(open) === open);
 * ```
 */
export function blankDirectives(text: string): string {
  const lines = text.split("\n");
  // Per open conditional: its directive lines, and whether each branch so far is brace-neutral.
  const open: { lines: number[]; depth: number; neutral: boolean }[] = [];
  const blank: number[] = [];
  // Every conditional's directive lines, and the file's brace balance.
  const all: number[] = [];
  let balance = 0;
  let continued: number[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (continued) {
      continued.push(i);
      if (!/\\\r?$/.test(line)) continued = undefined;
      continue;
    }
    const directive: string | undefined = DIRECTIVE.exec(line)?.[1];
    if (directive === undefined) {
      let delta = 0;
      for (const c of line) delta += c === "{" ? 1 : c === "}" ? -1 : 0;
      for (const group of open) group.depth += delta;
      balance += delta;
      continue;
    }
    if (directive.startsWith("if")) open.push({ lines: [], depth: 0, neutral: true });
    const group = open.at(-1);
    if (group === undefined) continue;
    group.lines.push(i);
    if (/\\\r?$/.test(line)) continued = group.lines;
    if (directive.startsWith("if")) continue;
    if (group.depth !== 0) group.neutral = false;
    group.depth = 0;
    if (directive !== "endif") continue;
    open.pop();
    if (group.neutral) blank.push(...group.lines);
    else all.push(...group.lines);
  }
  const balanced = balance === 0 && open.length === 0;
  if (balanced) blank.push(...all);
  for (const i of blank) lines[i] = lines[i]!.replace(/[^\r]/g, " ");
  return lines.join("\n");
}

/**
 * The text as a preprocessor that takes the first branch of every
 * conditional would see it (pure): each conditional's first branch kept
 * (the `#else` or `#elif` branch of an `#if 0`), its other branches and
 * every directive line replaced by as many spaces, so lines and offsets
 * stay. Where branches each open or close a block differently (`#ifdef
 * WIN32` `if (a) {` `#else` `if (b) {` `#endif`), keeping all of them
 * leaves the braces unbalanced and the whole file in error (curl's
 * `url.c`: the tree's root was an error, every function partial); one
 * branch is what a compiler reads. Other branches' directives (`#define
 * IPPROTO_AH 51` under `#else`) stay, lines of their own. A function only
 * another branch defines is not seen, so the extractor keeps this reading
 * only when less of the file is in error than with every branch.
 *
 * @example
 * ```ts
 * import { firstBranches } from "./directives.ts";
 * const text = "#ifdef W\nint f() {\n#else\nint f(int a) {\n#endif\n  return 1;\n}";
 * console.assert(
 *   firstBranches(text) === "        \nint f() {\n     \n              \n      \n  return 1;\n}",
 * );
 * console.assert(firstBranches("#if 0\nold();\n#else\nnew();\n#endif") === "     \n      \n     \nnew();\n      ");
 * console.assert(firstBranches("#ifdef W\n#else\n#define N 1\n#endif") === "        \n     \n#define N 1\n      ");
 * ```
 */
export function firstBranches(text: string): string {
  const lines = text.split("\n");
  // Per open conditional: whether its current branch is read, and whether one was.
  const open: { reading: boolean; read: boolean }[] = [];
  let live = true;
  // The line continues a directive (`\` at its end): blanked with it, or kept with a `#define`.
  let continued: "blank" | "keep" | undefined;
  const blank = (i: number) => (lines[i] = lines[i]!.replace(/[^\r]/g, " "));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const more = /\\\r?$/.test(line);
    if (continued !== undefined) {
      if (continued === "blank") blank(i);
      if (!more) continued = undefined;
      continue;
    }
    const directive: string | undefined = DIRECTIVE.exec(line)?.[1];
    if (directive === undefined) {
      // Another branch's `#define`, `#include`… stays: a line of its own, no block opened.
      if (!live && !/^[ \t]*#/.test(line)) blank(i);
      else if (more) continued = "keep";
      continue;
    }
    if (more) continued = "blank";
    blank(i);
    if (directive.startsWith("if")) {
      const never = directive === "if" &&
        /^[ \t]*#[ \t]*if[ \t]+0[ \t]*(?:\/[/*].*)?\r?$/.test(line);
      open.push({ reading: !never, read: !never });
    } else if (directive === "endif") open.pop();
    else {
      const group = open.at(-1);
      if (group !== undefined) {
        group.reading = !group.read;
        group.read = true;
      }
    }
    live = open.every((g) => g.reading);
  }
  return lines.join("\n");
}
