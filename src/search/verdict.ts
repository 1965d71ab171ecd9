/**
 * Verdicts (pure): what the facts found on disk at query time say about a
 * hit, and how much of the query the hit's own text covers.
 */
import { isGrammarPair, stem, stemPrefix, stemSet, withoutMarks } from "../derive/words.ts";

/** The label an agent acts on. STALE hits are never shown: they are pruned. */
export type Verdict = "STRONG" | "WEAK" | "REBUILT" | "STALE";

/**
 * Share of query words a hit's own text must hold to be STRONG: all but one
 * word of a query of four or more. Calibrated on `scripts/bench_search.ts`:
 * 70% of the hits that answer a query reach it, 28% of the others; stricter
 * thresholds separate the two at most 3 points better but demote up to half
 * of the answers (see `docs/performance.md`, Search).
 */
export const COVERAGE_THRESHOLD = 0.75;

/**
 * How much of the query a text answers: the share of `words` it holds, and the ones it lacks.
 *
 * @internal
 */
export interface Coverage {
  coverage: number;
  missing: string[];
}

/**
 * The share of `asked` (query content words) found in `text`, each word
 * matched by its Porter stem against every word and identifier part of the
 * text, diacritics aside as the index matches them (pure). An empty query
 * is fully covered. Japanese grammar (`isGrammarPair`: `ます`, `の有`) need
 * not be covered, as English stop words never reach here.
 *
 * @example
 * ```ts
 * import { coverage } from "./verdict.ts";
 * import assert from "node:assert/strict";
 * const c = coverage(["optimization", "portfolio", "jam"], "class PortfolioOptimizer {}");
 * assert.equal(c.coverage, 2 / 3);
 * assert.deepEqual(c.missing, ["jam"]);
 * ```
 */
export function coverage(asked: readonly string[], text: string): Coverage {
  const content = asked.filter((w) => !isGrammarPair(w));
  const words = content.length > 0 ? content : asked;
  if (words.length === 0) return { coverage: 1, missing: [] };
  const bare = words.map(withoutDiacritics);
  const stems = bare.map(stem);
  // Only the text's words that may stem to a word asked (or to its own form) are stemmed.
  const have = stemSet(withoutDiacritics(text), [...stems, ...bare].map(stemPrefix));
  const missing = words.filter((_, i) => !have.has(stems[i]!) && !have.has(bare[i]!));
  return { coverage: (words.length - missing.length) / words.length, missing };
}

/**
 * `text` with its letters' diacritics removed (`clé` → `cle`), as the index's
 * tokenizer (`remove_diacritics 2`) reads it: a word the index matched
 * without its accent is covered without it too. Composed again afterwards:
 * a Hangul syllable decomposes into letters that are not marks (`인` →
 * `ᄋ ᅵ ᆫ`), and stays one character.
 */
function withoutDiacritics(text: string): string {
  return /[\u0080-\uffff]/.test(text) ? withoutMarks(text.normalize("NFD")).normalize("NFC") : text;
}

/**
 * What verification found about one hit.
 *
 * @internal
 */
export interface HitFacts {
  /** The indexed file exists (for a note: every path it points at does). */
  exists: boolean;
  /** Where a gone file or symbol was found again, and how it was recognised. */
  relocated?: { from: string; how: string };
  /** Size and mtime equal the index's. */
  sameStat: boolean;
  /** The content hash, when it was checked. */
  hash: "same" | "differs" | "unchecked";
  coverage: Coverage;
  /** Only the semantic leg found it. */
  semanticOnly: boolean;
  /** How long ago the file was modified, when it changed since it was indexed. */
  changedAgoMs?: number;
  /** A path a note points at that is gone (the note itself stays). */
  missingPath?: string;
  /** The hit's symbol, which its changed file no longer holds where it can be found. */
  lostSymbol?: string;
  /** Why the file, there by its stat, could not be read now (its text was not checked). */
  unreadable?: string;
  /**
   * A frame of the question's stack trace names it (its file and function,
   * or its lines): what the question is about, whatever share of a trace's
   * words its text holds.
   */
  framed?: true;
  threshold: number;
}

/** Missing words a WEAK reason names, at most. */
const MISSING_SHOWN = 8;

/**
 * Decides a hit's verdict and the reason for anything not STRONG (pure).
 * Gone and not found → STALE; found again elsewhere → REBUILT (the reason
 * also says when it covers little); changed since indexed, low coverage
 * (unless a frame of the question's stack trace names it) or semantic-only
 * → WEAK; otherwise STRONG.
 */
export function decideVerdict(f: HitFacts): { verdict: Verdict; reason: string | null } {
  if (!f.exists && f.missingPath === undefined && !f.relocated) {
    return { verdict: "STALE", reason: "gone from disk and not found under its root" };
  }
  const reasons: string[] = [];
  if (f.missingPath !== undefined) reasons.push(`points at ${f.missingPath}, which is gone`);
  if (f.hash === "differs" && f.sameStat) {
    reasons.push(
      "content differs from the index though size and mtime match; run `heimdall reconcile --deep PATH`",
    );
  } else if (f.hash === "differs" || (!f.sameStat && f.hash !== "same")) {
    reasons.push(
      `changed since indexed${f.changedAgoMs !== undefined ? ` ${ago(f.changedAgoMs)}` : ""}`,
    );
  }
  if (f.lostSymbol !== undefined) reasons.push(`${f.lostSymbol} not found in it now`);
  if (f.unreadable !== undefined) {
    reasons.push(`cannot be read now, so its text is unchecked (${f.unreadable})`);
  }
  // Unread, its text is not known to lack a word: only its name and doc comment were checked.
  if (f.coverage.coverage < f.threshold && f.unreadable === undefined && !f.framed) {
    const { missing } = f.coverage;
    // A long question (a pasted log) lacks dozens: the first few say what the hit is not about.
    const more = missing.length > MISSING_SHOWN
      ? ` and ${missing.length - MISSING_SHOWN} more`
      : "";
    reasons.push(
      `covers ${Math.round(f.coverage.coverage * 100)}% of the query (missing: ${
        missing.slice(0, MISSING_SHOWN).join(", ")
      }${more})`,
    );
  }
  if (f.semanticOnly) reasons.push("semantic match only");
  if (f.relocated) {
    // Moved is what an agent must know first; how well it answers follows.
    reasons.unshift(`moved from ${f.relocated.from} (${f.relocated.how})`);
    return { verdict: "REBUILT", reason: reasons.join("; ") };
  }
  if (reasons.length > 0) return { verdict: "WEAK", reason: reasons.join("; ") };
  return { verdict: "STRONG", reason: null };
}

/** `3m ago`, for a reason or a freshness stamp (pure). */
export function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}
