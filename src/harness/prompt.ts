/**
 * What a user's prompt becomes in a hook (pure): whether it is worth a task,
 * the task's title, and the search query for prior work. A prompt can be
 * any size (a pasted log, a whole file), and the warm hook server answers
 * every session's hooks on one thread, so each of these looks at a bounded
 * part of the prompt and yields a bounded result, whatever its length.
 */
import { hasUnspacedScript, isStopWord, parseQuery } from "../search/mod.ts";
import { redactSecrets } from "../files/secrets.ts";

/**
 * At most this many characters of a prompt are looked at for its task and
 * its query. Room for any prompt typed by hand; a longer one is pasted
 * material, whose opening is what the query is built from.
 */
export const PROMPT_SCAN_CHARS = 16_000;
/**
 * The most search terms (distinct content words, and identifiers typed
 * whole) a prompt's query has: a search's cost grows with its terms, and
 * more than a few sentences' worth of them find nothing better.
 */
export const QUERY_TERMS = 32;
/** A prompt this long or shorter, within {@link QUERY_TERMS}, is searched as typed. */
const AS_TYPED_CHARS = 2000;
/** A word longer than this (a blob, a minified line) is left out of a query built from a long prompt. */
const LONGEST_WORD = 100;
/** A word that splits into more terms than this (a hash, base64) is noise in a query. */
const MOST_TERMS_PER_WORD = 8;

/** The start of `prompt` that is looked at, leading white space skipped. */
function scanned(prompt: string): string {
  return prompt.trimStart().slice(0, PROMPT_SCAN_CHARS);
}

/**
 * A prompt worth making a task of: a few words, not a slash command. Looks
 * at its first {@link PROMPT_SCAN_CHARS} characters only.
 *
 * @example
 * ```ts
 * import { isTaskPrompt } from "./prompt.ts";
 * import assert from "node:assert/strict";
 * assert.equal(isTaskPrompt("Fix compute_total for negative discounts"), true);
 * assert.equal(isTaskPrompt("/clear"), false);
 * assert.equal(isTaskPrompt("thanks!"), false);
 * ```
 */
export function isTaskPrompt(prompt: string): boolean {
  const p = scanned(prompt);
  return !p.startsWith("/") && p.split(/\s+/, 3).filter((w) => w !== "").length >= 3;
}

/**
 * A task title from a prompt: its first line, at most 200 characters,
 * secrets redacted. Looks at the prompt's first {@link PROMPT_SCAN_CHARS}
 * characters only (a secret is redacted before the title is cut, so one
 * that runs past the cut is still recognised by its start).
 *
 * @example
 * ```ts
 * import { taskTitle } from "./prompt.ts";
 * import assert from "node:assert/strict";
 * assert.equal(taskTitle("\n  Fix the totals\nthen run the tests"), "Fix the totals");
 * assert.equal(taskTitle("x".repeat(5_000_000)).length, 200);
 * ```
 */
export function taskTitle(prompt: string): string {
  const first = scanned(prompt).split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
  // It goes to the session file, the team store and teammates' conflict warnings.
  const line = redactSecrets(first);
  return line.length > 200 ? line.slice(0, 199) + "…" : line;
}

/** The search terms of a text: its content words and the identifiers it types whole. */
function termsOf(text: string): string[] {
  const q = parseQuery(text);
  return [
    ...q.words.filter((w) => w.length > 1 && !isStopWord(w)).map((w) => `w:${w}`),
    ...q.wholes.map((w) => `n:${w}`),
  ];
}

/**
 * Whether a prompt asks anything prior work could answer: two content words
 * or more, or one word that names code. A reply of one word (`continue`,
 * `fix it`, `yes, go ahead`) asks nothing: searched, its word alone covered
 * some function in any repository fully (`continue` found
 * `continuesBefore`), and that was injected as strong prior work. Looks at
 * the prompt's first {@link PROMPT_SCAN_CHARS} characters only.
 *
 * @example
 * ```ts
 * import { asksForPriorWork } from "./prompt.ts";
 * import assert from "node:assert/strict";
 * assert.equal(asksForPriorWork("continue"), false);
 * assert.equal(asksForPriorWork("fix it"), false);
 * assert.equal(asksForPriorWork("compute_total?"), true);
 * assert.equal(asksForPriorWork("why do negative discounts raise totals"), true);
 * ```
 */
export function asksForPriorWork(prompt: string): boolean {
  const p = scanned(prompt);
  if (p.split(/\s+/).some(namesCode)) return true;
  const terms = new Set<string>();
  for (const w of p.split(/\s+/)) {
    for (const t of termsOf(w)) {
      terms.add(t);
      if (t.startsWith("n:") || terms.size >= 2) return true;
    }
  }
  return false;
}

/** A word that names code: camelCase, snake_case, a dotted or `::` name, a path, a call. */
function namesCode(word: string): boolean {
  return /\p{Ll}\p{Lu}|\p{L}(?:_|\.|::|\/)\p{L}|\p{L}\(/u.test(word);
}

/**
 * The query prior work is searched with for `prompt`, with at most
 * {@link QUERY_TERMS} terms however long the prompt is. A prompt of up to
 * 2,000 characters within that many terms is the query as typed, less its
 * opening request ({@link withoutRequest}). Of a
 * longer one, the words of its first {@link PROMPT_SCAN_CHARS} characters
 * are taken, each once, in the prompt's order: its opening words up to half
 * the terms (what is asked), then the words that name code anywhere in that
 * part (what it is about: identifiers, dotted names, paths), then more of
 * the opening. Quotes and a leading `-` are dropped (a pasted text means no
 * phrase and no exclusion), and so are words without two letters in a row
 * (numbers, times) and words of more than 100 characters or 8 terms
 * (blobs, hashes). Chinese, Japanese, Korean, Thai and the other scripts
 * written without spaces between words are cut at their punctuation, then
 * into pieces of 8 terms (9 characters, each piece starting on the last
 * character of the one before, so no pair of characters is lost): a
 * sentence is words, not a blob. Costs one query parse per distinct word
 * looked at.
 *
 * @example
 * ```ts
 * import { promptQuery } from "./prompt.ts";
 * import assert from "node:assert/strict";
 * const asked = "Why does produceWithPatches drop the inverse patches? Log:";
 * assert.equal(promptQuery(asked), asked);
 * assert.equal(promptQuery("Please add retry with backoff to the uploader"), "retry with backoff to the uploader");
 * const log = Array.from({ length: 1000 }, (_, i) => `line ${i} ok`).join("\n");
 * const q = promptQuery(`${asked}\n${log}\n  at applyPatches (src/patch.ts:40)`);
 * // Each term once ("patches" came with produceWithPatches); stop words and numbers left out.
 * assert.equal(q, "produceWithPatches drop inverse Log: line ok applyPatches (src/patch.ts:40)");
 * ```
 */
export function promptQuery(typed: string): string {
  const prompt = withoutRequest(typed);
  if (prompt.length <= AS_TYPED_CHARS && new Set(termsOf(prompt)).size <= QUERY_TERMS) {
    return prompt;
  }
  const words = scanned(prompt).split(/\s+/)
    .flatMap((w) => hasUnspacedScript(w) ? unspacedPieces(w) : [w])
    .map((w) => w.replaceAll('"', "").replace(/^-+/, ""))
    // Numbers, times and counts (no two letters in a row) are what a log is full of, and
    // find no code.
    .filter((w) => w.length <= LONGEST_WORD && /\p{L}{2}/u.test(w));
  // A word repeated (a log's) is parsed once.
  const parsed = new Map<string, string[]>();
  const terms = new Set<string>();
  const chosen = new Set<number>();
  /** Adds the word's terms to the query, if they are new and fit. */
  const take = (i: number) => {
    const word = words[i];
    if (word === undefined || chosen.has(i)) return;
    let own = parsed.get(word);
    if (own === undefined) parsed.set(word, own = termsOf(word));
    if (own.length > MOST_TERMS_PER_WORD) return;
    const fresh = [...new Set(own.filter((t) => !terms.has(t)))];
    if (fresh.length === 0 || terms.size + fresh.length > QUERY_TERMS) return;
    for (const t of fresh) terms.add(t);
    chosen.add(i);
  };
  // The opening says what is asked; the names of code, what it is about.
  for (let i = 0; i < words.length && terms.size < QUERY_TERMS / 2; i++) take(i);
  for (let i = 0; i < words.length && terms.size < QUERY_TERMS; i++) {
    if (namesCode(words[i] ?? "")) take(i);
  }
  for (let i = 0; i < words.length && terms.size < QUERY_TERMS; i++) take(i);
  return [...chosen].sort((a, b) => a - b).map((i) => words[i]).join(" ");
}

/**
 * Politeness and the verb a prompt opens with to say what to do to the code
 * ("please", "can you", then "add", "fix", "implement"…): the task, not
 * what the prior work it needs is called. "add a retry with exponential
 * backoff to the uploader" has its answer in `retryWithBackoff`, which
 * covered 60% of the query with "add" in it and was not injected.
 */
const REQUEST = new RegExp(
  String.raw`^(?:(?:please|pls|kindly|(?:can|could|would|will) you|let'?s|let us|` +
    String
      .raw`(?:we|i) (?:need|want|have) to|we should|i'?d like to|help me|go ahead and)[\s,]+)*` +
    String
      .raw`(?:add|fix|implement|write|create|update|change|refactor|remove|delete|rename|move|` +
    String.raw`support|handle|improve|optimi[sz]e|ensure|introduce|extend|rewrite|debug|` +
    String.raw`investigate|look into|clean up|set up|wire up|hook up)[\s,:]+`,
  "iu",
);

/**
 * `prompt` without its opening request ({@link REQUEST}), or as typed when
 * it opens with none or nothing worth a search is left ("fix it").
 *
 * @example
 * ```ts
 * import { withoutRequest } from "./prompt.ts";
 * import assert from "node:assert/strict";
 * assert.equal(withoutRequest("Can you fix the rounding in apply_discount"), "the rounding in apply_discount");
 * assert.equal(withoutRequest("fix it"), "fix it");
 * assert.equal(withoutRequest("make test fails on CI"), "make test fails on CI");
 * ```
 */
export function withoutRequest(prompt: string): string {
  const start = prompt.trimStart();
  const m = REQUEST.exec(start);
  if (m === null) return prompt;
  const rest = start.slice(m[0].length);
  return termsOf(rest).length > 0 ? rest : prompt;
}

/** A word of a script written without spaces as pieces of at most {@link MOST_TERMS_PER_WORD} terms. */
function unspacedPieces(word: string): string[] {
  const out: string[] = [];
  for (const part of word.split(/[\p{P}\p{S}]+/u)) {
    const chars = Array.from(part);
    if (chars.length <= MOST_TERMS_PER_WORD + 1) {
      if (part !== "") out.push(part);
      continue;
    }
    for (let i = 0; i + 1 < chars.length; i += MOST_TERMS_PER_WORD) {
      out.push(chars.slice(i, i + MOST_TERMS_PER_WORD + 1).join(""));
    }
  }
  return out;
}
