import { Edit, type Tree } from "./grammars.ts";

/** A parse tree kept for the next parse of the same path, with the text it was parsed from. */
interface Kept {
  language: string;
  text: string;
  tree: Tree;
}

/**
 * The last few parse trees, by path, so that re-parsing a file after an edit
 * is incremental: tree-sitter reuses every subtree the edit did not touch (a
 * one-line edit of a 1,000-line file re-parses in a fraction of a full
 * parse). Bounded: at most `maxTrees` trees of at most `maxChars` chars
 * each; the least recently used one is deleted first. A Worker indexing a
 * tree sees each file once, so it only ever holds the last few.
 *
 * Not safe across overlapping parses of one path; the extractor takes and
 * gives back trees only in the synchronous part of a parse.
 */
export class RecentTrees {
  #kept = new Map<string, Kept>();

  constructor(readonly maxTrees = 4, readonly maxChars = 512 * 1024) {}

  /**
   * The old tree for `path`, edited to match `text` (ready to pass to
   * `parser.parse(text, old)`), or undefined. Removes it from the cache: the
   * caller deletes it after the parse.
   */
  take(path: string, language: string, text: string): Tree | undefined {
    const kept = this.#kept.get(path);
    if (kept === undefined) return undefined;
    this.#kept.delete(path);
    if (kept.language !== language) {
      kept.tree.delete();
      return undefined;
    }
    const edit = textEdit(kept.text, text);
    if (edit !== undefined) kept.tree.edit(new Edit(edit));
    return kept.tree;
  }

  /** Keeps `tree` (parsed from `text`) for the next parse of `path`, or deletes it when too big. */
  keep(path: string, language: string, text: string, tree: Tree): void {
    if (this.maxTrees <= 0 || text.length > this.maxChars) {
      tree.delete();
      return;
    }
    this.#kept.get(path)?.tree.delete();
    this.#kept.delete(path);
    this.#kept.set(path, { language, text, tree });
    while (this.#kept.size > this.maxTrees) {
      const [oldest, k] = this.#kept.entries().next().value!;
      k.tree.delete();
      this.#kept.delete(oldest);
    }
  }

  /** Deletes every kept tree. */
  clear(): void {
    for (const k of this.#kept.values()) k.tree.delete();
    this.#kept.clear();
  }
}

interface Point {
  row: number;
  column: number;
}

/** The edit that turns `before` into `after`: their common prefix and suffix are kept. */
export function textEdit(before: string, after: string):
  | {
    startIndex: number;
    oldEndIndex: number;
    newEndIndex: number;
    startPosition: Point;
    oldEndPosition: Point;
    newEndPosition: Point;
  }
  | undefined {
  if (before === after) return undefined;
  const max = Math.min(before.length, after.length);
  let start = 0;
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let suffix = 0;
  while (
    suffix < max - start &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  ) suffix++;
  const oldEnd = before.length - suffix;
  const newEnd = after.length - suffix;
  return {
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: pointAt(before, start),
    oldEndPosition: pointAt(before, oldEnd),
    newEndPosition: pointAt(after, newEnd),
  };
}

/** Row and column (UTF-16 code units, as web-tree-sitter counts them) of an index. */
function pointAt(text: string, index: number): Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: index - lineStart };
}
