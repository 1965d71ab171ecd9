/**
 * The `pre_tokenizer` of a `tokenizer.json`: splits normalised text into the
 * words the model then segments one at a time.
 *
 * Supported types: `Sequence`, `WhitespaceSplit`, `Whitespace`, `Metaspace`
 * (both the current `prepend_scheme`/`split` form and the older
 * `add_prefix_space` form), `BertPreTokenizer` and `Punctuation`. Whitespace
 * is Unicode White_Space (what Rust's `char::is_whitespace` tests), not
 * JavaScript's `\s`, which differs on U+0085 and U+FEFF.
 */
import { TokenizerConfigError } from "./normalizer.ts";
import { buildSteps, type Spec } from "./steps.ts";

/** Words in, words out: each step refines the previous split. */
export type PreTokenize = (words: string[]) => string[];

const WS =
  "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const WS_RUN = new RegExp(`[${WS}]+`, "u");
const PUNCT = /[\p{P}!-/:-@[-`{-~]/u;

/** Builds the pre-tokenizer a tokenizer.json describes; `null` means the whole text is one word. */
export function buildPreTokenizer(spec: unknown): PreTokenize {
  return buildSteps(spec, "pretokenizers", preTokenizer);
}

/** One pre-tokenizer that is not a `Sequence`. */
function preTokenizer(s: Spec): PreTokenize {
  switch (s.type) {
    case "WhitespaceSplit":
      return (words) => words.flatMap((w) => w.split(WS_RUN).filter((p) => p !== ""));
    case "Whitespace":
      // \w+|[^\w\s]+ in the Rust regex crate's Unicode sense.
      return (words) =>
        words.flatMap((w) =>
          w.match(/[\p{L}\p{N}\p{M}\p{Pc}]+|[^\p{L}\p{N}\p{M}\p{Pc}\s]+/gu) ?? []
        );
    case "Metaspace":
      return metaspace(s);
    case "BertPreTokenizer":
      return (words) => words.flatMap(bertSplit);
    case "Punctuation":
      return (words) => words.flatMap(isolatePunctuation);
    default:
      throw new TokenizerConfigError(
        `Unsupported pre_tokenizer type ${JSON.stringify(s.type)} in tokenizer.json`,
      );
  }
}

function metaspace(s: Spec): PreTokenize {
  const rep = typeof s.replacement === "string" ? s.replacement : "▁";
  let scheme = typeof s.prepend_scheme === "string" ? s.prepend_scheme : undefined;
  if (scheme === undefined) scheme = s.add_prefix_space === false ? "never" : "always";
  if (scheme !== "always" && scheme !== "first" && scheme !== "never") {
    throw new TokenizerConfigError(
      `Unsupported Metaspace prepend_scheme ${JSON.stringify(scheme)}`,
    );
  }
  const split = s.split !== false;
  return (words) => {
    const out: string[] = [];
    words.forEach((word, i) => {
      let w = word.replaceAll(" ", rep);
      if (!w.startsWith(rep) && (scheme === "always" || (scheme === "first" && i === 0))) {
        w = rep + w;
      }
      if (!split) {
        out.push(w);
        return;
      }
      // Split with each replacement merged into the piece that follows it.
      let start = 0;
      for (let at = w.indexOf(rep, 1); at !== -1; at = w.indexOf(rep, at + rep.length)) {
        out.push(w.slice(start, at));
        start = at;
      }
      if (start < w.length) out.push(w.slice(start));
    });
    return out;
  };
}

function isolatePunctuation(word: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (const ch of word) {
    if (PUNCT.test(ch)) {
      if (cur) out.push(cur);
      out.push(ch);
      cur = "";
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

function bertSplit(word: string): string[] {
  return word.split(WS_RUN).filter((p) => p !== "").flatMap(isolatePunctuation);
}
