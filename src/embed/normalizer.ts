/**
 * The `normalizer` of a `tokenizer.json`, as a function from text to text.
 *
 * Supported types: `Sequence`, `NFC`, `NFD`, `NFKC`, `NFKD` (JavaScript's
 * `String.prototype.normalize`, the same Unicode algorithm), `Precompiled`
 * (SentencePiece's charsmap, see `precompiled.ts`), `Replace` (a string or a
 * regex pattern), `Strip`, `Lowercase`, `StripAccents`, `Prepend` and
 * `BertNormalizer`. Anything else raises {@link TokenizerConfigError} naming
 * the type, so an unsupported model fails at load, not with wrong ids.
 */
import { EnvironmentError } from "../errors/mod.ts";
import { PrecompiledCharsMap } from "./precompiled.ts";
import { buildSteps, type Spec } from "./steps.ts";

/** A tokenizer.json this module cannot follow; the message names the part and the value. */
export class TokenizerConfigError extends EnvironmentError {
  /** A `tokenizer.json` that cannot be used, as `message` says. */
  constructor(message: string) {
    super(message);
    this.name = "TokenizerConfigError";
  }
}

/** Text in, normalised text out. */
export type Normalize = (text: string) => string;

/** Builds the normalizer a tokenizer.json describes; `null` means none (identity). */
export function buildNormalizer(spec: unknown): Normalize {
  return buildSteps(spec, "normalizers", normalizer);
}

/** One normalizer that is not a `Sequence`. */
function normalizer(s: Spec): Normalize {
  switch (s.type) {
    case "NFC":
    case "NFD":
    case "NFKC":
    case "NFKD": {
      const form = s.type;
      return (t) => t.normalize(form);
    }
    case "Precompiled": {
      const b64 = s.precompiled_charsmap;
      if (typeof b64 !== "string" || b64 === "") return (t) => t;
      const map = PrecompiledCharsMap.fromBase64(b64);
      return (t) => map.normalize(t);
    }
    case "Replace":
      return buildReplace(s);
    case "Strip": {
      const left = s.strip_left !== false;
      const right = s.strip_right !== false;
      return (t) => (left && right ? t.trim() : left ? t.trimStart() : right ? t.trimEnd() : t);
    }
    case "Lowercase":
      return (t) => t.toLowerCase();
    case "StripAccents":
      return stripAccents;
    case "Prepend": {
      const p = String(s.prepend ?? "");
      return (t) => (t === "" ? t : p + t);
    }
    case "BertNormalizer":
      return bertNormalizer(s);
    default:
      throw new TokenizerConfigError(
        `Unsupported normalizer type ${JSON.stringify(s.type)} in tokenizer.json`,
      );
  }
}

function buildReplace(s: Spec): Normalize {
  const pattern = s.pattern as { String?: string; Regex?: string } | undefined;
  const content = String(s.content ?? "");
  if (pattern?.String !== undefined) {
    const needle = pattern.String;
    return (t) => t.split(needle).join(content);
  }
  if (pattern?.Regex !== undefined) {
    let re: RegExp;
    try {
      re = new RegExp(pattern.Regex, "gu");
    } catch (e) {
      throw new TokenizerConfigError(
        `Replace pattern ${JSON.stringify(pattern.Regex)} is not a regex JavaScript accepts: ${
          (e as Error).message
        }`,
      );
    }
    return (t) => t.replace(re, () => content);
  }
  throw new TokenizerConfigError(`Replace normalizer without a pattern: ${JSON.stringify(s)}`);
}

const MARKS = /\p{Mn}/gu;

function stripAccents(t: string): string {
  return t.normalize("NFD").replace(MARKS, "");
}

/** BERT's normalizer: clean control characters, space out CJK, strip accents, lowercase. */
function bertNormalizer(s: Spec): Normalize {
  const clean = s.clean_text !== false;
  const chinese = s.handle_chinese_chars !== false;
  const lower = s.lowercase !== false;
  // `strip_accents: null` follows `lowercase`, as in BERT.
  const strip = s.strip_accents === null || s.strip_accents === undefined
    ? lower
    : s.strip_accents === true;
  return (text) => {
    let t = text;
    if (clean) {
      let out = "";
      for (const ch of t) {
        const cp = ch.codePointAt(0)!;
        if (cp === 0 || cp === 0xfffd) continue;
        if (ch === "\t" || ch === "\n" || ch === "\r") out += " ";
        else if (/\p{Cc}|\p{Cf}/u.test(ch)) continue;
        else if (/\s/u.test(ch)) out += " ";
        else out += ch;
      }
      t = out;
    }
    if (chinese) t = t.replace(CJK, (c) => ` ${c} `);
    if (strip) t = stripAccents(t);
    if (lower) t = t.toLowerCase();
    return t;
  };
}

/** The CJK Unified Ideograph blocks BERT pads with spaces. */
const CJK =
  /[\u{4E00}-\u{9FFF}\u{3400}-\u{4DBF}\u{20000}-\u{2A6DF}\u{2A700}-\u{2B73F}\u{2B740}-\u{2B81F}\u{2B820}-\u{2CEAF}\u{F900}-\u{FAFF}\u{2F800}-\u{2FA1F}]/gu;
