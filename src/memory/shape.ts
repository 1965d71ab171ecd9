/**
 * A symbol's shape: its body with its own name blanked out, hashed, so that a
 * rename (same body, new name) can be recognised after the fact. The
 * structural hash of the index includes the name, so it cannot do this.
 */
import { contentHash, decodeText, sha1Hex } from "../files/mod.ts";

/** A definition to take the shape of: its name and its line range (1-based, inclusive). */
export interface ShapeTarget {
  name: string;
  start_line: number | null;
  end_line: number | null;
  /**
   * Another name blanked as its own: the name a lost symbol had, when this
   * one is a candidate for it renamed. Its old shape blanked every
   * occurrence of the old name, so a body that still says it where it
   * meant something else (a wrapper's `this.inner.open()` in a method
   * `open` renamed `unlock`) is the same body.
   */
  also?: string;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The shape of `target` in `text` (pure): its lines, every whole-word
 * occurrence of its name (and of `also`) replaced by one marker, runs of whitespace collapsed;
 * 16 hex chars of a sha1. Null without a line range.
 */
export function shapeOf(text: string, target: ShapeTarget): string | null {
  if (target.start_line === null || target.end_line === null || target.name === "") return null;
  const lines = text.split("\n").slice(target.start_line - 1, target.end_line).join("\n");
  const names = [target.name, ...(target.also ? [target.also] : [])].map(escapeRegExp);
  const blanked = lines
    .replace(
      new RegExp(`(?<![\\p{L}\\p{N}_$])(?:${names.join("|")})(?![\\p{L}\\p{N}_$])`, "gu"),
      "\u0000",
    )
    .replace(/\s+/g, " ")
    .trim();
  return sha1Hex(blanked).slice(0, 16);
}

/**
 * Reads `path` once and returns each target's shape, or null for all of them
 * when the file cannot be read or its bytes are not the ones the index holds
 * (`hash`): line numbers from the index would then point at other code.
 */
export function fileShapes(
  path: string,
  hash: string | null,
  targets: readonly ShapeTarget[],
): (string | null)[] {
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(path);
  } catch {
    return targets.map(() => null);
  }
  if (hash === null || contentHash(bytes) !== hash) return targets.map(() => null);
  const text = decodeText(bytes);
  return targets.map((t) => shapeOf(text, t));
}
