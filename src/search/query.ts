/**
 * Splits an identifier or a query into lower-case words: camelCase,
 * snake_case, kebab-case, dots and digits are boundaries (pure).
 *
 * @example
 * ```ts
 * import { splitWords } from "./query.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(splitWords("parseHTTPRequest v2_body"), ["parse", "http", "request", "v", "2", "body"]);
 * ```
 */
export function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([A-Za-z])([0-9])/g, "$1 $2")
    .replace(/([0-9])([A-Za-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

const STOP = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "by",
  "did",
  "do",
  "for",
  "from",
  "how",
  "i",
  "in",
  "is",
  "it",
  "of",
  "on",
  "or",
  "that",
  "the",
  "this",
  "to",
  "was",
  "we",
  "what",
  "where",
  "which",
  "with",
  "already",
  "solve",
  "solved",
]);

/** The content words of a query: split, lower-cased, stop words and duplicates removed. */
export function contentWords(query: string): string[] {
  return [...new Set(splitWords(query).filter((w) => !STOP.has(w)))];
}
