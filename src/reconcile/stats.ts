/** What one pass did, path by path outcome. */
export interface PassStats {
  /** Paths looked at (stat screen included). */
  seen: number;
  /** Paths whose rows were replaced. */
  changed: number;
  /** Paths only re-stamped (same bytes). */
  touched: number;
  /** Paths whose rows were removed (gone, excluded, or now holding a secret). */
  retracted: number;
  /** Paths whose row already matched the disk. */
  unchanged: number;
  /** Files recorded as skipped (binary, too large). */
  skipped: number;
  /** Secret files met (never stored). */
  secrets: number;
  /** Commits rejected by the generation guard, or files changing while read: requeued. */
  requeued: number;
  /** Files that failed (unreadable); recorded with their error. */
  errors: number;
  /** Symbols (non-file nodes) written by this pass. */
  symbols: number;
}

/** A zeroed {@link PassStats}. */
export function emptyStats(): PassStats {
  return {
    seen: 0,
    changed: 0,
    touched: 0,
    retracted: 0,
    unchanged: 0,
    skipped: 0,
    secrets: 0,
    requeued: 0,
    errors: 0,
    symbols: 0,
  };
}

/** Adds b into a. */
export function addStats(a: PassStats, b: PassStats): PassStats {
  for (const k of Object.keys(a) as (keyof PassStats)[]) a[k] += b[k];
  return a;
}
