/** The request and answer shapes of `search()`, shared by the CLI and the MCP server. */
import type { HomePaths } from "../config/mod.ts";
import type { SemanticLeg } from "./legs.ts";
import type { Verdict } from "./verdict.ts";

/** The kinds of things search can be narrowed to. */
export type SearchKind = "code" | "docs" | "notes" | "memory";

/** One search. Only `query` is required. */
export interface SearchRequest {
  /**
   * The question, in words and identifiers; `-word` excludes, `"a phrase"` ranks chunks holding all
   * its words higher.
   */
  query: string;
  /**
   * The text a pasted stack trace is read from (`frames.ts`), when the
   * query is a shortened form of it (the prompt hook's query of a long
   * prompt keeps 32 terms); default the query.
   */
  trace?: string;
  /** Results (files, notes, memories) to return; default 8. */
  limit?: number;
  /**
   * A root (its path or folder name), a folder directly under a root (its
   * name), or an indexed folder inside a root (its absolute path).
   */
  repo?: string;
  /** An absolute path prefix, or one relative to every root. */
  pathPrefix?: string;
  /** A language id (`typescript`, `python`, `markdown`…), in any case. */
  lang?: string;
  /** Only code, prose (`docs`), notes or memories. */
  kind?: SearchKind;
  /**
   * Where hints for the reconciler and the pruning log go. Without it the
   * search writes nothing (verdicts are still computed).
   */
  home?: HomePaths;
  /**
   * The folder the asker works in (absolute): of files that are copies of one
   * another, the one under it is shown and the others listed as its copies.
   */
  near?: string;
  /** Overrides the registered semantic leg; null turns it off. */
  semantic?: SemanticLeg | null;
  /**
   * Who asks (a memory author), or how to find out, asked only when a
   * private memory ranks: another author's private memories are never
   * returned, and without a viewer no private memory is.
   */
  viewer?: string | (() => string | Promise<string>);
}

/** When and how a hit was checked against the disk. */
export interface Freshness {
  /** `hash`: content hashed now; `stat`: size and mtime compared now; `text`: a note's own text. */
  checked: "hash" | "stat" | "text";
  /** When it was checked (ISO 8601). */
  verified_at: string;
  /** How far the index is behind the file (ms since the file changed), when it is. */
  index_behind_ms: number | null;
  /** When the hit's root was last audited in full (ISO 8601), if ever. */
  root_audited_at: string | null;
}

/** A symbol or section of a hit's file that answers the query, with its score in that file. */
export interface HitSymbol {
  /** Qualname or heading path. */
  name: string;
  /** Its kind (`function`, `class`, `heading`…). */
  kind: string;
  /** Its first line, 1-based. */
  line: number;
  /** Its last line, inclusive. */
  end_line: number;
  /** Its score among the file's symbols for this query (higher is better). */
  score: number;
}

/** A symbol at its lines in another file: where a hit's answer is copied word for word. */
export interface CodePlace {
  /** The file, absolute. */
  path: string;
  /** Its qualname there. */
  symbol: string;
  /** Its first line, 1-based, as indexed. */
  line: number;
  /** Its last line, inclusive, as indexed. */
  end_line: number;
}

/** One result: a file (its best chunk named), a note or a memory. */
export interface SearchHit {
  /** Its place in the answer, from 1. */
  rank: number;
  /** What the disk says now: STRONG, WEAK or REBUILT (STALE hits are pruned, never shown). */
  verdict: Exclude<Verdict, "STALE">;
  /** Why it is not STRONG; null when it is. */
  reason: string | null;
  /** The file (for a note or memory: the file it points at), or null. */
  path: string | null;
  /** The repository: the nearest folder holding `.git` within the root (its name), else the root. */
  repo: string | null;
  /** The first line of the named symbol or section, 1-based; null for a whole file. */
  line: number | null;
  /** Its last line, inclusive; null for a whole file. */
  end_line: number | null;
  /** Qualname, heading path or note title; null for a whole file. */
  symbol: string | null;
  /** Symbol kind, `file`, `section`, `note` or `memory`. */
  kind: string | null;
  /** Whether it is code, prose, a note or a memory. */
  source: SearchKind;
  /** The ranking model's score (higher is better; comparable within one search). */
  score: number;
  /**
   * Probability that the hit names the right answer (0–1), calibrated on the
   * benchmark (`confidence.ts`); the hooks inject only confident hits.
   */
  confidence: number;
  /** Share of the query's content words in the hit's own text (read from disk now). */
  coverage: number;
  /** The indexed path, when the hit was found again elsewhere (REBUILT). */
  moved_from: string | null;
  /** Signature, doc line or summary; for a hit of `match_line`, that line. */
  summary: string | null;
  /**
   * For a hit that names no symbol or section (a whole file, a window of a
   * file's text): the line within it that holds the most of the query's
   * words, where a reader should look (`ci.yml:11`, not line 1); null
   * otherwise, or when no line holds one.
   */
  match_line: number | null;
  /** Other chunks of the same file that matched. */
  others: number;
  /**
   * The file's symbols (or sections) that answer the query, best first, at
   * most 5; the hit's own `symbol`/`line`/`end_line` are the first. Empty
   * for a note, a memory or a file with no symbol matching.
   */
  symbols: HitSymbol[];
  /** Other files with the same content or the same units, folded into this hit. */
  copies: string[];
  /**
   * Other files' symbols whose lines are the hit's symbol's word for word (a
   * function copied into another module, a bundle's copy of it), folded into
   * this hit so that they do not crowd the list; each still on disk.
   */
  same_code: CodePlace[];
  /** The note's or memory's id, for those. */
  ref_id: number | string | null;
  /** The legs that found it. */
  legs: string[];
  /** When and how it was checked against the disk. */
  freshness: Freshness;
}

/** What each leg did. */
export interface LegsReport {
  /**
   * The full-text leg, always on: how many chunks it gave, and how many of
   * the query's words it left out when there were more than it matches
   * (`MAX_QUERY_WORDS`; absent when none were).
   */
  lexical: { on: true; chunks: number; words_ignored?: number };
  /** The graph leg: how many chunks and seeds it used, or why it was off. */
  graph: { on: true; chunks: number; seeds: number } | { on: false; reason: string };
  /** The semantic leg: its model and how many chunks it gave, or why it was off. */
  semantic: { on: true; model: string; chunks: number } | { on: false; reason: string };
}

/** A gone hit that was not found again: never ranked; the reconciler is hinted to retract it. */
export interface PrunedHit {
  /** The path that is gone. */
  path: string;
  /** The symbol it named; null for a whole file. */
  symbol: string | null;
  /** Why it was pruned. */
  reason: string;
}

/** The answer to one search. */
export interface SearchResult {
  /** The query as asked. */
  query: string;
  /** Time the search took, in ms. */
  took_ms: number;
  /** What each leg did. */
  legs: LegsReport;
  /** The hits, best first. */
  hits: SearchHit[];
  /** Gone hits that were not found again. */
  pruned: PrunedHit[];
  /** One line for a person: counts by verdict, time, legs. */
  summary: string;
}
