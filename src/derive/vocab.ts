/**
 * The words one documented symbol teaches the learned vocabulary (pure): the
 * prose of its doc comment's first sentence against the code words of its
 * name, signature and body. The reconciler derives them on a Worker, inside
 * `desiredRows`; the journal keeps them per path and counts their pairs
 * (src/store/vocab_counts.ts); src/search/vocab_lookup.ts reads the counts.
 */
import type { VocabSet } from "../store/types.ts";
import { isStopWord, splitWords, stem } from "./words.ts";

export type { VocabSet } from "../store/types.ts";

/** At most this many prose stems per symbol (the first ones of its first sentence). */
export const PROSE_MAX = 10;
/** At most this many code stems per symbol: its name's, its signature's, then its body's. */
export const CODE_MAX = 24;
/** At most this many of those code stems come from the body (the most used there). */
export const BODY_MAX = 16;
/** Only the body's first this many words are counted (its start names what it works on). */
export const BODY_SCAN = 160;

/** What {@link vocabWords} reads of one symbol. */
export interface VocabSource {
  name: string;
  signature: string | null;
  doc: string | null;
  /**
   * The symbol's own text as the full-text index holds it (`indexText`:
   * lower-case words separated by spaces, whole forms added).
   */
  body?: string;
}

// Doc-comment boilerplate (by stem, so `returns` and `returned` go too): words
// that stand in most first sentences and say nothing about which code they describe.
const DOC_STOP = new Set([
  "also",
  "call",
  "called",
  "class",
  "function",
  "given",
  "method",
  "must",
  "not",
  "object",
  "one",
  "otherwise",
  "provided",
  "return",
  "returned",
  "returns",
  "specified",
  "used",
  "value",
  "whether",
].map(stem));

// Keywords and built-in types: every symbol of a language has them, so they
// could only add rows that never reach the lift threshold.
const CODE_STOP = new Set([
  "abstract",
  "and",
  "any",
  "as",
  "assert",
  "async",
  "await",
  "bool",
  "boolean",
  "break",
  "byte",
  "case",
  "catch",
  "char",
  "class",
  "const",
  "continue",
  "def",
  "default",
  "defer",
  "del",
  "do",
  "double",
  "elif",
  "else",
  "end",
  "enum",
  "except",
  "export",
  "extends",
  "extern",
  "false",
  "final",
  "finally",
  "float",
  "fn",
  "for",
  "from",
  "func",
  "function",
  "if",
  "impl",
  "implements",
  "import",
  "in",
  "inline",
  "instanceof",
  "int",
  "interface",
  "is",
  "let",
  "long",
  "mut",
  "new",
  "nil",
  "none",
  "not",
  "null",
  "number",
  "object",
  "or",
  "override",
  "pass",
  "private",
  "protected",
  "pub",
  "public",
  "raise",
  "readonly",
  "return",
  "self",
  "short",
  "static",
  "str",
  "string",
  "struct",
  "super",
  "switch",
  "the",
  "this",
  "throw",
  "throws",
  "true",
  "try",
  "typeof",
  "undefined",
  "unsigned",
  "var",
  "void",
  "while",
  "with",
  "yield",
]);

/** A prose word as written: lower-case or Capitalised, or a short acronym. */
const PROSE_TOKEN = /^(?:[A-Z]?[a-z]{2,}|[A-Z]{3,6})$/;
/** A code word after splitting: ASCII letters only, two or more. */
const CODE_WORD = /^[a-z]{2,}$/;
/** A reST/Javadoc/JSDoc field or a docstring section: the summary has ended. */
const FIELD =
  /^(?:[@:\\]|(?:args|arguments|params?|parameters|returns?|raises|throws|yields|examples?|see|note|usage)\s*:)/i;

/**
 * The prose stems and code stems one documented symbol contributes, or
 * undefined when it has no doc comment, or its first sentence no content word,
 * or it has no code word. Prose: the distinct stems of the content words of
 * the doc comment's first sentence (tags, fields, URLs and `code` dropped,
 * words of three letters or more that read as prose, not stop words, not the
 * symbol's name), at most {@link PROSE_MAX}. Code: the distinct stems of the
 * words of its name, its signature, then the {@link BODY_MAX} words the
 * first {@link BODY_SCAN} words of its body use most (ties in order of
 * appearance; keywords, stop words and words of the doc
 * comment left out, so a docstring inside the body is not taken for code), at
 * most {@link CODE_MAX}. Deterministic; linear in the doc, bounded in the body.
 *
 * @example
 * ```ts
 * import { vocabWords } from "./vocab.ts";
 * import assert from "node:assert/strict";
 * const set = vocabWords({
 *   name: "checkLogin",
 *   signature: "function checkLogin(user, secret)",
 *   doc: "Verifies the password of an account. @param user the account",
 * });
 * assert.deepEqual(set, { prose: ["verifi", "password", "account"], code: ["check", "login", "user", "secret"] });
 * ```
 */
export function vocabWords(sym: VocabSource): VocabSet | undefined {
  if (sym.doc === null || sym.doc === "") return undefined;
  const prose = proseStems(sym.doc, sym.name);
  if (prose.length === 0) return undefined;
  const code: string[] = [];
  const seen = new Set<string>();
  const add = (word: string) => {
    if (code.length >= CODE_MAX || !CODE_WORD.test(word) || CODE_STOP.has(word)) return;
    // Comments inside a body are prose: their stop words are no code words.
    if (isStopWord(word)) return;
    const s = stem(word);
    if (seen.has(s)) return;
    seen.add(s);
    code.push(s);
  };
  for (const w of splitWords(sym.name)) add(w);
  if (sym.signature !== null) { for (const w of splitWords(sym.signature)) add(w); }
  if (sym.body !== undefined && code.length < CODE_MAX) {
    const inDoc = docWords(sym.doc);
    let taken = 0;
    for (const w of mostUsed(sym.body, inDoc)) {
      if (taken >= BODY_MAX || code.length >= CODE_MAX) break;
      const before = code.length;
      add(w);
      if (code.length > before) taken++;
    }
  }
  return code.length === 0 ? undefined : { prose, code };
}

/**
 * The (prose, code) pairs one symbol contributes to the counts: every prose
 * stem of {@link vocabWords} with every code stem, less pairs of a stem with
 * itself. Empty for an undocumented symbol.
 */
export function vocabPairs(sym: VocabSource): [string, string][] {
  const set = vocabWords(sym);
  const out: [string, string][] = [];
  if (!set) return out;
  for (const p of set.prose) for (const c of set.code) if (p !== c) out.push([p, c]);
  return out;
}

/** The doc comment's first sentence: its text up to a blank line, a field, or a full stop. */
export function firstSentence(doc: string): string {
  const lines: string[] = [];
  for (const raw of doc.split("\n")) {
    const line = raw.trim();
    if (line === "") {
      if (lines.length > 0) break;
      continue;
    }
    if (FIELD.test(line)) break;
    lines.push(line);
  }
  const text = lines.join(" ")
    .replace(/\{@\w+[^}]*\}/g, " ")
    .replace(/\]\([^)]*\)/g, " ")
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, " ")
    .replace(/`[^`]*`/g, " ");
  const end = text.search(/[.!?](?:\s|$)/);
  return end < 0 ? text : text.slice(0, end);
}

function proseStems(doc: string, name: string): string[] {
  const out: string[] = [];
  const own = name.toLowerCase();
  for (const m of firstSentence(doc).matchAll(/[\p{L}\p{N}_$]+/gu)) {
    const token = m[0];
    if (!PROSE_TOKEN.test(token)) continue;
    const word = token.toLowerCase();
    if (word === own || isStopWord(word)) continue;
    const s = stem(word);
    if (DOC_STOP.has(s)) continue;
    if (!out.includes(s)) out.push(s);
    if (out.length >= PROSE_MAX) break;
  }
  return out;
}

/** The lower-case words of a doc comment, camelCase split (ASCII only: cheap on long docs). */
function docWords(doc: string): Set<string> {
  return new Set(doc.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/));
}

/**
 * The code words of a body (index text: lower-case words separated by
 * spaces; its first {@link BODY_SCAN}), most used first (ties: first seen first), less keywords and the
 * words in `skip`. A whole form the full-text index appends after a compound
 * identifier's parts (`maxfilebytes` after `max file bytes`) is not a word.
 */
function mostUsed(body: string, skip: ReadonlySet<string>): string[] {
  const words = body.split(" ", BODY_SCAN);
  // 0 marks a word that is never a code word; its test runs once per distinct word.
  const counts = new Map<string, number>();
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const n = counts.get(w);
    if (n === undefined) {
      const no = !CODE_WORD.test(w) || CODE_STOP.has(w) || isStopWord(w) || skip.has(w) ||
        isWholeForm(words, i);
      counts.set(w, no ? 0 : 1);
    } else if (n > 0) counts.set(w, n + 1);
  }
  // A stable sort keeps first-seen order among equal counts.
  return [...counts].filter((e) => e[1] > 0).sort((a, b) => b[1] - a[1]).map((e) => e[0]);
}

/** True when `words[i]` is the words just before it joined (2 to 8 of them). */
function isWholeForm(words: readonly string[], i: number): boolean {
  const w = words[i]!;
  let joined = "";
  for (let k = 1; k <= 8 && i - k >= 0; k++) {
    joined = words[i - k]! + joined;
    if (joined.length > w.length) return false;
    if (k >= 2 && joined === w) return true;
  }
  return false;
}
