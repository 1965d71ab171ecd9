/**
 * A question's words as the index spells them: British and American English
 * differ in a few regular endings (`serialise`/`serialize`, `colour`/`color`,
 * `analyse`/`analyze`, `centre`/`center`, `licence`/`license`,
 * `catalogue`/`catalog`), and the stemmer joins neither pair. Code is mostly
 * written one way (31,121 files: `serialize` in 11,883 chunks, `serialise`
 * in 29), so a question written the other way matched a few comments and
 * missed the code. Each word is looked for in the spelling most of the
 * index's chunks use, whichever side that is: a tree written in British
 * English keeps its own.
 */
import type { Journal } from "../store/mod.ts";
import { type TermCount, termCounts } from "./lexical.ts";

/** Each regular difference: the other spelling of a word that ends so. */
const VARIANTS: readonly [RegExp, string][] = [
  // serialise, initialised, normalising, organisation, optimiser: the -ize family, and back.
  [/is(e|es|ed|ing|er|ers|able|ation|ations)$/, "iz$1"],
  [/iz(e|es|ed|ing|er|ers|able|ation|ations)$/, "is$1"],
  // analyse, paralysed: -yze.
  [/ys(e|es|ed|ing|er|ers)$/, "yz$1"],
  [/yz(e|es|ed|ing|er|ers)$/, "ys$1"],
  // colour, behaviours, favoured, honourable (never four, your, hour, tour: three letters before it).
  [/^(.{3,})our(s|ed|ing|ite|ites|able|ful|less)?$/, "$1or$2"],
  [/^(.{3,})or(s|ed|ing|ite|ites|able|ful|less)?$/, "$1our$2"],
  // centre, metres, fibre: -er.
  [/([tb])re(s)?$/, "$1er$2"],
  [/([tb])er(s)?$/, "$1re$2"],
  // licence, defence, offence: -ense.
  [/([cf])ence(s)?$/, "$1ense$2"],
  [/([cf])ense(s)?$/, "$1ence$2"],
  // catalogue, dialogues, analogue: -og.
  [/([^aeiou])ogue(s)?$/, "$1og$2"],
  [/([^aeiou])og(s)?$/, "$1ogue$2"],
  // judgement, acknowledgement: -dgment.
  [/dgement(s)?$/, "dgment$1"],
  [/dgment(s)?$/, "dgement$1"],
];

/**
 * The other spellings of `word` by {@link VARIANTS} (pure): none for most
 * words. Whether one is a word at all is for the index to say.
 *
 * @example
 * ```ts
 * import { otherSpellings } from "./spelling.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(otherSpellings("serialise"), ["serialize"]);
 * assert.deepEqual(otherSpellings("colours"), ["colors"]);
 * assert.deepEqual(otherSpellings("four"), []);
 * assert.deepEqual(otherSpellings("parse"), []);
 * ```
 */
export function otherSpellings(word: string): string[] {
  const out: string[] = [];
  for (const [re, to] of VARIANTS) {
    if (!re.test(word)) continue;
    const other = word.replace(re, to);
    if (other !== word && !out.includes(other)) out.push(other);
  }
  return out;
}

/**
 * `words` with each one that has another spelling held by more of the
 * index's chunks replaced by it (counted up to `cap`, as the lexical leg
 * counts: two spellings both past it keep the one asked). A word whose
 * other spelling no chunk holds (`promise`, `raise`, `sequence`) is kept.
 * Costs one count per other spelling, each made once while the journal is
 * unchanged.
 */
export function asIndexSpells(j: Journal, words: readonly string[], cap: number): string[] {
  return words.map((word) => {
    const others = otherSpellings(word);
    if (others.length === 0) return word;
    const [asked, ...rest] = termCounts(j, [word, ...others], cap);
    const best = rest.reduce<TermCount>((a, b) => (b.df > a.df ? b : a), asked!);
    return best.term;
  });
}
