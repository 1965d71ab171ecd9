import { createHash } from "node:crypto";
import type { Node } from "./grammars.ts";

/** Separators that formatters add or drop without changing meaning. */
const NOISE = new Set([",", ";"]);

/** One definition to hash: the range of its first node (a decorator or itself) to its end. */
export interface HashTarget {
  /** Start index of the first node (decorators included). */
  start: number;
  /** End index of the definition. */
  end: number;
  /** Node type id of the first node, to tell it from an ancestor that starts at the same index. */
  typeId: number;
  /** A region left out (a docstring), by start/end index. */
  skip?: { start: number; end: number };
}

/**
 * Hashes each definition's syntax tree with positions, whitespace and
 * comments left out: node types (named and anonymous) in tree order, their
 * depth, and the text of every leaf (identifiers, literals, operators).
 * Reformatting, moving a definition or editing a comment keeps its hash; an
 * edit to a name, a literal or the structure changes it. `,` and `;` are
 * left out (formatters add and remove them freely), and so is each target's
 * `skip` region (a docstring).
 *
 * Cost: one cursor walk over the parts of the tree that hold a target, then
 * plain string work per target (nested targets reuse the same walk).
 * Returns 16 hex chars of a sha1 per target, in order.
 */
export function structHashes(root: Node, source: string, targets: readonly HashTarget[]): string[] {
  if (targets.length === 0) return [];
  const table = preorder(root, targets);
  const types = root.tree.language.types;
  return targets.map((t) => {
    const parts: string[] = [];
    let i = firstEntry(table, t.start, t.typeId);
    const base = i < 0 ? 0 : table.depth[i]!;
    for (; i >= 0 && i < table.size && table.start[i]! < t.end; i++) {
      const start = table.start[i]!;
      if (t.skip && start >= t.skip.start && start < t.skip.end) continue;
      const type = types[table.type[i]!] ?? "ERROR";
      if (type.includes("comment") || NOISE.has(type)) continue;
      parts.push(`${table.depth[i]! - base}${type}`);
      const leafEnd = table.leafEnd[i]!;
      if (leafEnd >= 0) {
        const text = source.slice(start, leafEnd);
        if (text !== type) parts.push(`=${text}`);
      }
    }
    return createHash("sha1").update(parts.join("\u0001")).digest("hex").slice(0, 16);
  });
}

interface Preorder {
  size: number;
  type: number[];
  start: number[];
  /** End index for leaves, -1 for inner nodes. */
  leafEnd: number[];
  depth: number[];
}

/**
 * Every node in pre-order (so sorted by start), skipping top-level subtrees
 * that hold no target.
 */
function preorder(root: Node, targets: readonly HashTarget[]): Preorder {
  const out: Preorder = { size: 0, type: [], start: [], leafEnd: [], depth: [] };
  const spans = targets.map((t) => [t.start, t.end] as const).sort((a, b) => a[0] - b[0]);
  const cursor = root.walk();
  try {
    let depth = 0;
    let span = 0;
    for (;;) {
      const start = cursor.startIndex;
      let descend = true;
      if (depth === 1) {
        // A top-level node that overlaps no target is skipped whole.
        const end = cursor.endIndex;
        while (span < spans.length && spans[span]![1] <= start) span++;
        descend = span < spans.length && spans[span]![0] < end;
      }
      if (descend) {
        const type = cursor.nodeTypeId;
        out.type.push(type);
        out.start.push(start);
        out.depth.push(depth);
        out.size++;
        if (cursor.gotoFirstChild()) {
          out.leafEnd.push(-1);
          depth++;
          continue;
        }
        out.leafEnd.push(cursor.endIndex);
      }
      while (depth === 0 || !cursor.gotoNextSibling()) {
        if (depth === 0) return out;
        cursor.gotoParent();
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** The entry of the node that starts at `start` with type `typeId` (after any ancestor). */
function firstEntry(table: Preorder, start: number, typeId: number): number {
  let lo = 0;
  let hi = table.size;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (table.start[mid]! < start) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < table.size && table.start[i] === start; i++) {
    if (table.type[i] === typeId) return i;
  }
  return lo < table.size ? lo : -1;
}
