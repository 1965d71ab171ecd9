/**
 * Query parsing (pure): a question as typed → the words to match, the whole
 * forms of the identifiers in it, quoted phrases and excluded words.
 */
import { isStopWord, splitWords, wholeForm } from "../derive/words.ts";

/** A parsed query. Every list but `spelled` is lower-case; none has duplicates; all keep query order. */
export interface ParsedQuery {
  /** The query as typed, trimmed. */
  text: string;
  /** Content words: split identifiers and prose, stop words and one-letter words removed. */
  words: string[];
  /** Whole forms of compound identifiers (`parseHTTPRequest` → `parsehttprequest`). */
  wholes: string[];
  /**
   * The compound identifiers as typed, case kept (`parseHTTPRequest`,
   * `Store.open`, `a::b` as `a.b`): the one exception to lower case.
   */
  spelled: string[];
  /** Quoted phrases, as their words joined by a space. */
  phrases: string[];
  /**
   * What follows a leading `-` and a letter (`-test`, never `-1`), or `-`
   * and a quote: chunks holding it are not returned. A word; the whole form
   * of a compound identifier (`-parseHTTPRequest` → `parsehttprequest`, not
   * every chunk saying `request`; `-std::list` → `std list`); a phrase's content words joined by a
   * space (`-"dry run"`: chunks holding both), as a script without spaces
   * is (`-有効期限`: its pairs). Never a one-letter or stop word (`set -e`,
   * `-a` name flags), nor what the query also asks for (`-math.Max` in a
   * range written next to `+math.Max`).
   */
  excluded: string[];
}

/**
 * Parses a query: `"quoted phrases"`, `-excluded` words, identifiers and
 * `-"phrases"` (a `-` before a letter or a quote: `-1` is a number, not an
 * exclusion; a flag such as `-e` or words the query all asks for are not
 * excluded either), and everything else
 * split into words (identifiers split and kept whole). One-letter words and
 * stop words are dropped from `words` unless nothing else is left.
 *
 * @example
 * ```ts
 * import { parseQuery } from "./query.ts";
 * import assert from "node:assert/strict";
 * const q = parseQuery('retry parseHTTPRequest "exponential backoff" -test');
 * assert.deepEqual(q.words, ["retry", "parse", "http", "request", "exponential", "backoff"]);
 * assert.deepEqual(q.wholes, ["parsehttprequest"]);
 * assert.deepEqual(q.spelled, ["parseHTTPRequest"]);
 * assert.deepEqual(q.phrases, ["exponential backoff"]);
 * assert.deepEqual(q.excluded, ["test"]);
 * ```
 */
export function parseQuery(input: string): ParsedQuery {
  const text = input.trim();
  const all: string[] = [];
  const wholes: string[] = [];
  const spelled: string[] = [];
  const phrases: string[] = [];
  const excluded: { term: string; words: string[] }[] = [];
  const re = /(-?)"([^"]*)"?|(\S+)/g;
  for (const m of text.matchAll(re)) {
    if (m[2] !== undefined) {
      const words = splitWords(m[2]);
      if (m[1] === "-") excluded.push({ term: words.filter(isContent).join(" "), words });
      else {
        if (words.length > 1) phrases.push(words.join(" "));
        for (const w of words) all.push(w);
      }
      continue;
    }
    const token = m[3]!;
    if (/^-[\p{L}_]/u.test(token)) {
      for (const part of token.slice(1).split(IDENTIFIER_GAP)) {
        excluded.push({ term: excludedTerm(part), words: splitWords(part) });
      }
      continue;
    }
    for (const part of token.split(IDENTIFIER_GAP)) {
      const whole = wholeForm(part);
      if (whole !== undefined) {
        wholes.push(whole);
        spelled.push(part.replaceAll("::", "."));
      }
      // One by one: a pasted identifier or text without spaces may split into
      // more words than a call takes arguments (a spread overflows the stack).
      for (const w of splitWords(part)) all.push(w);
    }
  }
  const content = all.filter(isContent);
  // Excluding a word also asked for would drop every chunk that answers; a
  // one-letter or stop word is a command-line flag in a question (`set -e`),
  // and excluding it would drop nearly every chunk.
  const asked = new Set(all);
  const excludable = excluded
    .filter((e) => isContent(e.term) && !e.words.every((w) => asked.has(w)))
    .map((e) => e.term);
  return {
    text,
    // A token of single characters (`k9d2m7q`, an id or a hash typed whole) asks for itself:
    // its letters and digits, each in nearly every chunk, would answer with anything.
    words: unique(content.length > 0 ? content : wholes.length > 0 ? wholes : all),
    wholes: unique(wholes),
    spelled: unique(spelled),
    phrases: unique(phrases),
    excluded: unique(excludable),
  };
}

/**
 * The most content words a search matches. A question is a sentence or
 * two; a longer query (a log or a file pasted whole) costs a count and a
 * scan per word, and an 8,000-word one took 35 s where its first words
 * find what it is about.
 */
export const MAX_QUERY_WORDS = 64;

/**
 * `q` cut to its first {@link MAX_QUERY_WORDS} content words, its whole
 * forms, spellings, phrases and exclusions to a quarter, an eighth and a
 * quarter of that (pure); `ignored` counts the content words left out.
 *
 * @example
 * ```ts
 * import { boundedQuery, MAX_QUERY_WORDS, parseQuery } from "./query.ts";
 * import assert from "node:assert/strict";
 * // 100 distinct words: kaa, kba, … kjj.
 * const long = Array.from({ length: 100 }, (_, i) => "k" + "abcdefghij"[i % 10] + "abcdefghij"[i / 10 | 0]);
 * const q = boundedQuery(parseQuery(long.join(" ")));
 * assert.deepEqual(q.words.slice(0, 2), ["kaa", "kba"]);
 * assert.equal(q.words.length, MAX_QUERY_WORDS);
 * assert.equal(q.ignored, 100 - MAX_QUERY_WORDS);
 * ```
 */
export function boundedQuery(q: ParsedQuery): ParsedQuery & { ignored: number } {
  const most = MAX_QUERY_WORDS;
  return {
    text: q.text,
    words: q.words.slice(0, most),
    wholes: q.wholes.slice(0, most / 4),
    spelled: q.spelled.slice(0, most / 4),
    phrases: q.phrases.slice(0, most / 8),
    excluded: q.excluded.slice(0, most / 4),
    ignored: Math.max(0, q.words.length - most),
  };
}

/** The content words of a query: split, lower-cased, stop words and duplicates removed. */
export function contentWords(query: string): string[] {
  return parseQuery(query).words;
}

/** What separates the identifiers of a token: `a,b` is two, `Foo::bar` and `x-y` one each. */
const IDENTIFIER_GAP = /[^\p{L}\p{M}\p{N}_$.:-]+/u;

/**
 * An excluded identifier as the index holds it, its parts ANDed: a compound
 * name by its whole form (`parseHTTPRequest` → `parsehttprequest`, indexed
 * wherever it is written), each part of a dotted, `::` or hyphenated one so
 * (`std::list` → `std list`: only a name holds `stdlist`), a script written
 * without spaces by its pairs; one-letter and stop words left out.
 */
function excludedTerm(part: string): string {
  return part.split(/[-.:]+/).flatMap((p) => {
    const words = splitWords(p);
    return words.length > 1 ? [wholeForm(p) ?? words.filter(isContent).join(" ")] : words;
  }).filter((w) => w !== "" && isContent(w)).join(" ");
}

/** True for a word that says something: neither one letter nor a stop word. */
function isContent(word: string): boolean {
  return word.length > 1 && !isStopWord(word);
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

/**
 * The joined forms of words that prose, not code, writes with a hyphen or
 * dots: `classlevel` of "class-level", `eg` of "e.g.", `104` of "10.4". An
 * identifier typed whole (`parseHeader`, `os.path`) is not among them.
 *
 * @example
 * ```ts
 * import { parseQuery, proseWholes } from "./query.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual([...proseWholes(parseQuery("class-level parseHeader, e.g. os.path"))], ["classlevel", "eg"]);
 * ```
 */
export function proseWholes(query: ParsedQuery): Set<string> {
  const out = new Set<string>();
  for (const typed of query.spelled) {
    const prose = typed.includes("-") || ABBREVIATION.test(typed) || DOTTED_NUMBER.test(typed);
    const whole = prose ? wholeForm(typed) : undefined;
    if (whole !== undefined) out.add(whole);
  }
  return out;
}

/** Letters each followed by a dot: "e.g.", "i.e.", "U.S.". */
const ABBREVIATION = /^(?:\p{L}\.)+\p{L}?\.?$/u;
/** A version or a decimal: "10.4", "1.2.3". */
const DOTTED_NUMBER = /^\d+(?:\.\d+)+\.?$/;
