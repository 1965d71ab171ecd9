/**
 * How far the index is behind this build's extractor: files whose rows an
 * older (or newer) build derived, which the next audit derives again.
 */
import {
  DERIVATION,
  derivationOf,
  type DerivationVersions,
  derivedBy,
} from "../extract/derivation.ts";
import type { Journal } from "../store/mod.ts";

/**
 * Indexed files whose stored derivation is not the one this build gives
 * their language (with the learned vocabulary when `vocabularyWeight` is
 * above 0, as the reconciler derives). Read-only; one grouped scan of the
 * paths.
 */
export function filesToRederive(
  j: Journal,
  vocabularyWeight: number,
  versions: DerivationVersions = DERIVATION,
): number {
  const want = vocabularyWeight > 0 ? { ...versions, vocabulary: true } : versions;
  let n = 0;
  for (
    const r of j.all<{ language: string | null; derivation: string | null; n: number }>(
      `SELECT language, derivation, count(*) AS n FROM paths WHERE state = 'indexed'
       GROUP BY language, derivation`,
    )
  ) if (!derivedBy(r.derivation, derivationOf(r.language, want))) n += r.n;
  return n;
}
