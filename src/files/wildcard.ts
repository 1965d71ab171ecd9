/**
 * The one wildcard match behind ignore rules and the map's globs (pure):
 * a pattern of tokens, some of which are `*` (any run of characters), the
 * rest each matching one character.
 */

/**
 * Whether `tokens` match all of `text` (characters, or code points as an
 * array): the two-pointer wildcard match, which on a mismatch resumes after
 * the last `*` only, so the time is at most the product of the two lengths
 * however many `*` there are (a regular expression of `*a*a*a…b`
 * backtracks exponentially).
 *
 * @example
 * ```ts
 * import { wildcardMatch } from "./wildcard.ts";
 * import assert from "node:assert/strict";
 * const tokens = [..."*a*b"];
 * const star = (t: string) => t === "*";
 * const one = (t: string, c: string) => t === c;
 * assert.equal(wildcardMatch(tokens, "xxaxxb", star, one), true);
 * assert.equal(wildcardMatch(tokens, "a".repeat(50), star, one), false);
 * ```
 */
export function wildcardMatch<T>(
  tokens: readonly T[],
  text: ArrayLike<string>,
  isStar: (token: T) => boolean,
  matchesOne: (token: T, char: string) => boolean,
): boolean {
  let t = 0;
  let c = 0;
  let starT = -1;
  let starC = 0;
  while (c < text.length) {
    const tok = tokens[t];
    if (tok !== undefined && isStar(tok)) {
      starT = t++;
      starC = c;
    } else if (tok !== undefined && matchesOne(tok, text[c]!)) {
      t++;
      c++;
    } else if (starT >= 0) {
      t = starT + 1;
      c = ++starC;
    } else return false;
  }
  while (t < tokens.length && isStar(tokens[t]!)) t++;
  return t === tokens.length;
}
