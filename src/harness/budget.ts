/**
 * The token budget for context a hook injects (pure).
 *
 * Counts are deliberately pessimistic, so a budget is not overrun whatever
 * tokenizer the agent's model uses: each camelCase hump of letters counts one
 * token per three letters (per 1.2 when it has fewer than one vowel in four),
 * a run of digits one per three digits, a run mixing letters and digits (hex,
 * base64, ids) one per character, every punctuation mark one, every
 * whitespace run but a single space one, and every non-ASCII character as
 * many tokens as it has UTF-8 bytes. Real BPE tokenizers (cl100k, o200k) come
 * out at or below this on prose, code, paths, JSON, test output, hashes and
 * ids (tested); only random letter soup can beat it.
 */

// Other ASCII control characters fall in no piece and cost nothing (they never reach the agent).
// deno-lint-ignore no-control-regex
const PIECE = /[A-Za-z0-9]+|[ ]|\s+|[!-/:-@[-`{-~]|[^\u0000-\u007f]/g;
const HUMP = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+/g;

/** Tokens of one run of letters and digits. */
function alnumTokens(run: string): number {
  const letters = /[A-Za-z]/.test(run);
  const digits = /[0-9]/.test(run);
  // Hex, base64, ids: letters and digits mixed split finely.
  if (letters && digits) return run.length;
  if (digits) return Math.ceil(run.length / 3);
  let tokens = 0;
  for (const m of run.matchAll(HUMP)) {
    const h = m[0];
    const vowels = h.replace(/[^aeiouyAEIOUY]/g, "").length;
    // Word-like humps cost ≤ 1 token per 3 letters; consonant soup splits finer.
    tokens += Math.ceil(h.length / (vowels * 4 >= h.length ? 3 : 1.2));
  }
  return tokens;
}

/** An upper estimate of the tokens `text` costs. O(length). */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const m of text.matchAll(PIECE)) {
    const p = m[0];
    const c = p.charCodeAt(0);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      tokens += alnumTokens(p);
    } else if (p === " ") {
      // A single space merges into the next word in every BPE vocabulary.
    } else if (c > 0x7f) {
      tokens += c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? 4 : 3;
    } else {
      tokens += 1;
    }
  }
  return tokens;
}

/** One thing worth telling the agent, under a section heading. */
export interface ContextItem {
  /** Identifies the item across injections (e.g. `constraint:12`); never shown. */
  key: string;
  /** The section it belongs to (`Constraints (must)`, `Open failed attempts`…). */
  section: string;
  /** One line (or a few) of text. */
  text: string;
  /** For a search result: the file it names (whether the agent then opens it is usage). */
  path?: string;
  /** For a search result of code: the symbol it names, by qualified name. */
  symbol?: string;
}

/** What fitted under the budget. */
export interface FittedContext {
  /** The text to inject, or null when nothing new fitted. */
  text: string | null;
  /** Keys of the items included. */
  keys: string[];
  /** The files of the search results included. */
  paths: string[];
  /** Estimated tokens of `text`. */
  tokens: number;
}

/**
 * Lays `items` out under `title`, in the given order (most important first),
 * grouped by section in order of first appearance, skipping items whose key
 * is in `skip` (already injected this session) and any item that would push
 * the whole text over `budget` tokens. The result never exceeds the budget.
 */
export function fitContext(
  title: string,
  items: readonly ContextItem[],
  budget: number,
  skip: ReadonlySet<string> = new Set(),
): FittedContext {
  const chosen: ContextItem[] = [];
  const render = (list: ContextItem[]): string => {
    const sections: string[] = [];
    const bySection = new Map<string, string[]>();
    for (const it of list) {
      if (!bySection.has(it.section)) {
        bySection.set(it.section, []);
        sections.push(it.section);
      }
      bySection.get(it.section)!.push(`- ${it.text}`);
    }
    return [title, ...sections.map((s) => `${s}:\n${bySection.get(s)!.join("\n")}`)].join("\n");
  };
  const seen = new Set<string>();
  for (const it of items) {
    if (skip.has(it.key) || seen.has(it.key)) continue;
    seen.add(it.key);
    if (estimateTokens(render([...chosen, it])) <= budget) chosen.push(it);
  }
  if (chosen.length === 0) return { text: null, keys: [], paths: [], tokens: 0 };
  const text = render(chosen);
  return {
    text,
    keys: chosen.map((c) => c.key),
    paths: chosen.flatMap((c) => (c.path === undefined ? [] : [c.path])),
    tokens: estimateTokens(text),
  };
}
