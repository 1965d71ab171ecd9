/** The depth ladder: L0 path, L1 file, L2 symbols, L3 graph. */
export type Depth = 0 | 1 | 2 | 3;

/** What a root asks for: a fixed level, or `max` (whatever this machine can do). */
export type DepthRequest = Depth | "max";

/** Every depth, shallowest first. */
export const DEPTHS: readonly Depth[] = [0, 1, 2, 3];

const NAMES = ["L0 path", "L1 file", "L2 symbols", "L3 graph"] as const;

/** A depth's human name, e.g. `L2 symbols`. */
export function depthName(depth: Depth): string {
  return NAMES[depth];
}

/**
 * Parses `max`, `3`, `L3` or `l3`; returns undefined for anything else so the
 * caller can say which value was wrong and where it came from.
 */
export function parseDepth(text: string): DepthRequest | undefined {
  const t = text.trim().toLowerCase();
  if (t === "max") return "max";
  const m = /^l?([0-3])$/.exec(t);
  return m ? (Number(m[1]) as Depth) : undefined;
}
