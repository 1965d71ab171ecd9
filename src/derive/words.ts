/**
 * Words of code and prose, the same way at index time and at query time
 * (pure): identifiers split on camelCase, snake_case, kebab-case, dots and
 * digits and also kept whole, and a Porter stemmer for matching words the way
 * the full-text index does.
 */

/**
 * Splits an identifier or a text into lower-case words: camelCase,
 * snake_case, kebab-case, dots and digits are boundaries. A combining mark
 * (Devanagari's vowel signs, Thai's, a decomposed accent) belongs to its
 * word and is then dropped, as the full-text index drops accents. Scripts
 * written without spaces between words (Chinese, Japanese, Thai, Lao,
 * Khmer, Myanmar; Korean, whose words carry their particles) become
 * overlapping pairs of characters (`認証トークン` → `認証 証ト トー ーク
 * クン`), as full-text engines index them: any word of two or more
 * characters inside a sentence is then found, whatever stands around it.
 *
 * @example
 * ```ts
 * import { splitWords } from "./words.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(splitWords("parseHTTPRequest v2_body"), ["parse", "http", "request", "v", "2", "body"]);
 * assert.deepEqual(splitWords("有効期限は"), ["有効", "効期", "期限", "限は"]);
 * assert.deepEqual(splitWords("किताब"), ["कतब"]);
 * ```
 */
export function splitWords(text: string): string[] {
  return splitAscii(text) ?? splitUnicode(text);
}

/** {@link splitWords} by regular expressions, for any script. */
function splitUnicode(text: string): string[] {
  const words = text
    .replace(/([\p{Ll}0-9])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2")
    .replace(/(\p{L})([0-9])/gu, "$1 $2")
    .replace(/([0-9])(\p{L})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .map(withoutMarks)
    .filter((w) => w.length > 0);
  return hasUnspacedScript(text) ? words.flatMap(pairs) : words;
}

const MARK = /\p{M}/u;
const MARKS = /\p{M}+/gu;

/**
 * `text` without its combining marks (`किताब` → `कतब`, `é` written as `e`
 * and U+0301 → `e`): how the index and the query read a word that has them.
 */
export function withoutMarks(text: string): string {
  return MARK.test(text) ? text.replace(MARKS, "") : text;
}

/**
 * A character of a script written without spaces between words: Han,
 * Hiragana, Katakana (with its prolonged sound mark `ー`), Thai, Lao, Khmer,
 * Myanmar, and Hangul (whose words carry their particles: `인증은`).
 */
const UNSPACED_CLASS =
  "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Thai}" +
  "\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}\\u30fc";
/**
 * A character at or above U+0E00 (a surrogate too), where the first of those scripts (Thai)
 * begins: a text with none holds no unspaced script, which this tells
 * without the script classes, whose compiling took 2–3 ms of every
 * process that splits words (a search's start among them).
 */
const ABOVE_UNSPACED_START = /[\u0e00-\uffff]/;
let unspaced: { one: RegExp; runs: RegExp } | undefined;

/** The script classes' expressions, compiled when a text first holds a character that may be one. */
function unspacedExpressions(): { one: RegExp; runs: RegExp } {
  return unspaced ??= {
    one: new RegExp(`[${UNSPACED_CLASS}]`, "u"),
    runs: new RegExp(`[${UNSPACED_CLASS}]+|[^${UNSPACED_CLASS}]+`, "gu"),
  };
}

/** True when a text holds a character of a script written without spaces between words. */
export function hasUnspacedScript(text: string): boolean {
  return ABOVE_UNSPACED_START.test(text) && unspacedExpressions().one.test(text);
}

/** A word's runs of unspaced scripts as overlapping pairs (a lone character as itself), the rest as it is. */
function pairs(word: string): string[] {
  if (!hasUnspacedScript(word)) return [word];
  const { one, runs } = unspacedExpressions();
  const out: string[] = [];
  for (const [run] of word.matchAll(runs)) {
    if (!one.test(run)) {
      out.push(run);
      continue;
    }
    const chars = Array.from(run);
    if (chars.length === 1) out.push(run);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }
  return out;
}

const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;

/** {@link splitWords} of an ASCII text by one scan (the index's and the scorer's hot path); undefined for non-ASCII. */
function splitAscii(token: string): string[] | undefined {
  const out: string[] = [];
  let start = -1;
  let prev = 0;
  const n = token.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? token.charCodeAt(i) : 0;
    if (c > 127) return undefined;
    const t = c >= 97 && c <= 122
      ? LOWER
      : c >= 65 && c <= 90
      ? UPPER
      : c >= 48 && c <= 57
      ? DIGIT
      : 0;
    if (t === 0) {
      if (start >= 0) out.push(token.slice(start, i).toLowerCase());
      start = -1;
    } else if (start < 0) {
      start = i;
    } else if (
      (t === UPPER && prev !== UPPER) || (t === DIGIT) !== (prev === DIGIT) ||
      // The last capital of a run starts the next word: HTTPRequest → HTTP Request.
      (t === LOWER && prev === UPPER && i - start > 1)
    ) {
      const cut = t === LOWER && prev === UPPER ? i - 1 : i;
      out.push(token.slice(start, cut).toLowerCase());
      start = cut;
    }
    prev = t;
  }
  return out;
}

/**
 * The whole form of a compound name: its words joined, so `maxFileBytes`,
 * `max_file_bytes` and `max-file-bytes` all become `maxfilebytes`. Undefined
 * for a name of one word (its word is the whole) and for one in a script
 * written without spaces, whose pairs of characters joined are no word.
 */
export function wholeForm(name: string): string | undefined {
  const words = splitWords(name);
  return words.length > 1 && !hasUnspacedScript(name) ? words.join("") : undefined;
}

const NAME = /[\p{L}\p{M}\p{N}_$]+(?:[-.:][\p{L}\p{M}\p{N}_$]+)*/gu;

/**
 * Text as the full-text index should see it: every identifier split into its
 * words, followed by its whole form when it has several (`fooBar` →
 * `foo bar foobar`). Plain words pass through lower-cased. Linear in the text.
 */
export function indexText(text: string, maxChars = Infinity): string {
  const n = Math.min(text.length, maxChars);
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    const word = c < 128 ? ASCII_WORD[c] === 1 : isWordChar(text, i);
    if (word) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      addForms(out, text.slice(start, i));
      start = -1;
    }
  }
  return out.join(" ");
}

/** 1 for the ASCII characters of identifiers: letters, digits, `_` and `$`. */
const ASCII_WORD = new Uint8Array(128).map((_, c) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36
    ? 1
    : 0
);

function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  // The second half of a character beyond the Basic Multilingual Plane (`𠮷`) is what its first is.
  if (c >= 0xdc00 && c <= 0xdfff && i > 0) return isWordChar(text, i - 1);
  return /[\p{L}\p{M}\p{N}]/u.test(String.fromCodePoint(text.codePointAt(i)!));
}

/**
 * Like {@link indexText} for names, headings and paths, where `a.b-c` and
 * `x::y` are one name: its parts are split and the whole kept as well.
 */
export function nameText(text: string): string {
  const out: string[] = [];
  for (const m of text.matchAll(NAME)) {
    const token = m[0];
    const parts = token.split(/[-.:]+/);
    for (const p of parts) addForms(out, p);
    if (parts.length > 1) {
      const whole = wholeForm(token);
      if (whole !== undefined && !out.includes(whole)) out.push(whole);
    }
  }
  return out.join(" ");
}

function addForms(out: string[], token: string): void {
  const ascii = splitAscii(token);
  const words = ascii ?? splitWords(token);
  for (const w of words) out.push(w);
  if (words.length > 1 && (ascii !== undefined || !hasUnspacedScript(token))) {
    out.push(words.join(""));
  }
}

/**
 * The stems of a text's distinct words, for coverage: every form
 * {@link indexText} makes. With `starts`, only of the words that begin with
 * one of them: a word stems to `s` only if it begins with `stemPrefix(s)`,
 * so a caller that looks for a few stems passes their prefixes and the
 * other words are never stemmed.
 */
export function stemSet(text: string, starts?: readonly string[]): Set<string> {
  if (starts !== undefined && !starts.includes("") && !NON_ASCII.test(text)) {
    return asciiStemsStarting(text, starts);
  }
  const out = new Set<string>();
  // A word repeats often in code: each distinct one is stemmed once.
  for (const w of new Set(indexText(text).split(" "))) {
    if (w === "" || (starts !== undefined && !starts.some((p) => w.startsWith(p)))) continue;
    out.add(stem(w));
  }
  return out;
}

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * {@link stemSet} of an ASCII text with prefixes, splitting only the
 * identifiers that can hold a word beginning with one: every form of an
 * identifier (its parts, its whole form) is a piece of it lower-cased, but
 * for the `_` and `$` the whole form drops, so an identifier in which no
 * prefix occurs, and that has neither, has no such word.
 */
function asciiStemsStarting(text: string, starts: readonly string[]): Set<string> {
  const out = new Set<string>();
  const lower = text.toLowerCase();
  const holds = new Uint8Array(text.length);
  for (const p of new Set(starts)) {
    for (let at = lower.indexOf(p); at !== -1; at = lower.indexOf(p, at + 1)) holds[at] = 1;
  }
  const forms: string[] = [];
  let start = -1;
  let wanted = false;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if (ASCII_WORD[c] === 1) {
      if (start < 0) {
        start = i;
        wanted = false;
      }
      if (holds[i] === 1 || c === 95 || c === 36) wanted = true;
      continue;
    }
    if (start >= 0 && wanted) addForms(forms, text.slice(start, i));
    start = -1;
  }
  for (const w of new Set(forms)) if (starts.some((p) => w.startsWith(p))) out.add(stem(w));
  return out;
}

/**
 * What every word stemming to `stemmed` begins with (pure): the stem but
 * its last letter, which may not be its word's (retry → retri, possibility →
 * possibl, and in short words too: key → kei, any → ani); a stem of two
 * letters, or of three not ending in `i`, whole.
 *
 * @example
 * ```ts
 * import { stem, stemPrefix } from "./words.ts";
 * import assert from "node:assert/strict";
 * assert.ok("retrying".startsWith(stemPrefix(stem("retry"))));
 * assert.equal(stemPrefix("get"), "get");
 * ```
 */
export function stemPrefix(stemmed: string): string {
  return stemmed.length >= 4 || (stemmed.length === 3 && stemmed.endsWith("i"))
    ? stemmed.slice(0, -1)
    : stemmed;
}

// The Porter stemmer (M.F. Porter, 1980), the algorithm of FTS5's `porter`
// tokenizer, so coverage matches words the way the index does.
const STEP2: Record<string, string> = {
  ational: "ate",
  tional: "tion",
  enci: "ence",
  anci: "ance",
  izer: "ize",
  bli: "ble",
  alli: "al",
  entli: "ent",
  eli: "e",
  ousli: "ous",
  ization: "ize",
  ation: "ate",
  ator: "ate",
  alism: "al",
  iveness: "ive",
  fulness: "ful",
  ousness: "ous",
  aliti: "al",
  iviti: "ive",
  biliti: "ble",
  logi: "log",
};
const STEP3: Record<string, string> = {
  icate: "ic",
  ative: "",
  alize: "al",
  iciti: "ic",
  ical: "ic",
  ful: "",
  ness: "",
};
const C = "[^aeiou][^aeiouy]*";
const V = "[aeiouy][aeiou]*";
const MGR0 = new RegExp(`^(${C})?${V}${C}`);
const MEQ1 = new RegExp(`^(${C})?${V}${C}(${V})?$`);
const MGR1 = new RegExp(`^(${C})?${V}${C}${V}${C}`);
const HAS_VOWEL = new RegExp(`^(${C})?[aeiouy]`);
const CVC = new RegExp(`^${C}[aeiouy][^aeiouwxy]$`);
const STEP2_RE =
  /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/;
const STEP4_RE =
  /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;
const stemCache = new Map<string, string>();

/**
 * The Porter stem of a lower-case word (`optimization`, `optimizer` →
 * `optim`). Words under three letters and words with non-ASCII letters are
 * returned as they are.
 */
export function stem(word: string): string {
  // Only words that pass the test below are cached, so a hit needs no test.
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  if (word.length < 3 || word.length > 64 || !/^[a-z]+$/.test(word)) return word;
  const out = porter(word);
  if (stemCache.size > 50_000) stemCache.clear();
  stemCache.set(word, out);
  return out;
}

function porter(input: string): string {
  let w = input;
  const y = w[0] === "y";
  if (y) w = "Y" + w.slice(1);
  // Step 1a
  let m = /^(.+?)(ss|i)es$/.exec(w) ?? /^(.+?)([^s])s$/.exec(w);
  if (m) w = m[1]! + m[2]!;
  // Step 1b
  m = /^(.+?)eed$/.exec(w);
  if (m) {
    if (MGR0.test(m[1]!)) w = w.slice(0, -1);
  } else if ((m = /^(.+?)(ed|ing)$/.exec(w)) && HAS_VOWEL.test(m[1]!)) {
    w = m[1]!;
    if (/(at|bl|iz)$/.test(w)) w += "e";
    else if (/([^aeiouylsz])\1$/.test(w)) w = w.slice(0, -1);
    else if (CVC.test(w)) w += "e";
  }
  // Step 1c
  m = /^(.+?)y$/.exec(w);
  if (m && HAS_VOWEL.test(m[1]!)) w = m[1]! + "i";
  // Step 2
  m = STEP2_RE.exec(w);
  if (m && MGR0.test(m[1]!)) w = m[1]! + STEP2[m[2]!]!;
  // Step 3
  m = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/.exec(w);
  if (m && MGR0.test(m[1]!)) w = m[1]! + STEP3[m[2]!]!;
  // Step 4
  m = STEP4_RE.exec(w);
  if (m) {
    if (MGR1.test(m[1]!)) w = m[1]!;
  } else if ((m = /^(.+?)(s|t)(ion)$/.exec(w)) && MGR1.test(m[1]! + m[2]!)) {
    w = m[1]! + m[2]!;
  }
  // Step 5
  m = /^(.+?)e$/.exec(w);
  if (m) {
    const s = m[1]!;
    if (MGR1.test(s) || (MEQ1.test(s) && !CVC.test(s))) w = s;
  }
  if (/ll$/.test(w) && MGR1.test(w)) w = w.slice(0, -1);
  if (y) w = "y" + w.slice(1);
  return w;
}

/** Words that say nothing about what is searched for (of a question, of a doc comment). */
const STOP = new Set([
  "a",
  "about",
  "all",
  "already",
  "an",
  "and",
  "any",
  "are",
  "as",
  "at",
  "be",
  "been",
  "but",
  "by",
  "can",
  "did",
  "do",
  "does",
  "for",
  "from",
  "has",
  "have",
  "how",
  "i",
  "if",
  "in",
  "into",
  "is",
  "it",
  "its",
  "me",
  "my",
  "of",
  "on",
  "or",
  "our",
  "should",
  "so",
  "solve",
  "solved",
  "some",
  "that",
  "the",
  "their",
  "then",
  "there",
  "these",
  "this",
  "to",
  "up",
  "was",
  "we",
  "were",
  "what",
  "when",
  "where",
  "which",
  "who",
  "why",
  "will",
  "with",
  "you",
  "your",
]);

/** True for a word that says nothing about what is searched for. */
export function isStopWord(word: string): boolean {
  return STOP.has(word);
}

/**
 * True for a pair of Japanese characters (see {@link splitWords}) that is
 * grammar, not part of a word: all hiragana (particles and endings: `ます`,
 * `てい`) or straddling two of its scripts (`の有` of `トークンの有効期限`,
 * `ー認` of `ユーザー認証`), where a word of kanji or katakana begins or
 * ends. Such pairs still rank (next to each other they are a phrase's
 * evidence); a hit need not cover them.
 *
 * @example
 * ```ts
 * import { isGrammarPair } from "./words.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(["ます", "の有", "有効", "トー", "缓存"].map(isGrammarPair), [true, true, false, false, false]);
 * ```
 */
export function isGrammarPair(word: string): boolean {
  if (word.length !== 2) return false;
  const a = japaneseScript(word.charCodeAt(0));
  const b = japaneseScript(word.charCodeAt(1));
  return a !== undefined && b !== undefined && (a === b ? a === HIRAGANA : true);
}

const HIRAGANA = 1;
const KATAKANA = 2;
const KANJI = 3;

/** Which Japanese script a UTF-16 unit is of (the prolonged sound mark `ー` is katakana's). */
function japaneseScript(c: number): number | undefined {
  if (c >= 0x3041 && c <= 0x309f) return HIRAGANA;
  if ((c >= 0x30a0 && c <= 0x30ff) || (c >= 0x31f0 && c <= 0x31ff)) return KATAKANA;
  if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || c === 0x3005) return KANJI;
  return undefined;
}
