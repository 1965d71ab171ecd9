import assert from "node:assert/strict";
import { Tokenizer, TokenizerConfigError } from "./tokenizer.ts";
import { seededRandom } from "../../tests/seeded_random.ts";
import { hasCommand, withoutTool } from "../../tests/helpers.ts";

const SPM_DIR = new URL("../../tests/fixtures/tokenizer/spm/", import.meta.url).pathname;
const SPM_JSON = JSON.parse(Deno.readTextFileSync(`${SPM_DIR}tokenizer.json`));

/** Strings no two tokenizers agree on by accident. Each is one line: spm_encode reads lines. */
const VARIED = [
  "",
  "plain ascii text: retry with exponential backoff",
  "Hello  world ﬁ ①",
  "Déjà vu, naïve façade — crème brûlée",
  "De\u0301ja\u0300 vu (decomposed accents) A\u030A",
  "Zażółć gęślą jaźń. ZAŻÓŁĆ GĘŚLĄ JAŹŃ",
  "Fußgängerübergänge und Größenordnung",
  "中文分词是一个有趣的问题。我们在这里测试",
  "日本語のテキスト: 東京は大きな都市です。ｶﾀｶﾅ ﾊﾝｶｸ",
  "한국어 문장도 있습니다",
  "Ελληνικά и русский текст, العربية, हिन्दी",
  "emoji 😀 👍🏽 🎉 🚀 ❤️ 🇵🇱 👨‍👩‍👧 ✅ ⚠️",
  "ＦＵＬＬ ｗｉｄｔｈ １２３ ＡＢＣ； ﬃ ﬄ ㎏ ™ ½ ² ㍻",
  "ℌ𝔢𝔩𝔩𝔬 𝕎𝕠𝕣𝕝𝕕 𝐛𝐨𝐥𝐝",
  "function retry(fn, n = 5) { return fn().catch(() => retry(fn, n - 1)); }",
  "if (a && b) { c->d[0] = e::f<g>(h); } // comment /* block */",
  "def f(x: int) -> str:  return f'{x!r}'  # python",
  "    leading and trailing    ",
  "a\t\tb   c      d\t",
  " ".repeat(40) + "x" + " ".repeat(40),
  "\u00a0nbsp\u3000ideographic\u2003em\u2009thin",
  "control\u0001chars\u0007and\u001bescape",
  "<s> literal </s> <pad> <unk> <mask> tags",
  "☃ snowman ⛄ and unknown runs ☃☃☃ ꙮꙮ",
  "| ---------------------------------------- | ------------ | ===== | ******** |",
  "ﬀﬂ fffly ffffff ========== ----------------",
  "x".repeat(600),
  "mixed: café 中文 😀 ｆｕｌｌ code() {}",
];

/** Deterministic noise over many scripts and compatibility characters. */
function noise(count: number): string[] {
  const rand = seededRandom(20240601);
  const ranges: [number, number][] = [
    [0x20, 0x7e],
    [0x20, 0x7e],
    [0x20, 0x7e],
    [0xa0, 0x17f],
    [0x300, 0x36f],
    [0x370, 0x3ff],
    [0x400, 0x4ff],
    [0x3040, 0x30ff],
    [0x4e00, 0x4e80],
    [0xff01, 0xff9f],
    [0x1f600, 0x1f64f],
    [0x2000, 0x206f],
    [0xfb00, 0xfb06],
    [0x2460, 0x24ff],
    [0x3300, 0x33ff],
    [0x1d400, 0x1d4ff],
    [0xac00, 0xac40],
    [0x9, 0x9],
    [0x1, 0x1f],
  ];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let s = "";
    const n = 1 + Math.floor(rand() * 40);
    for (let k = 0; k < n; k++) {
      const [a, b] = ranges[Math.floor(rand() * ranges.length)]!;
      const cp = a + Math.floor(rand() * (b - a + 1));
      s += String.fromCodePoint(cp === 0xa || cp === 0xd ? 0x20 : cp);
    }
    out.push(s);
  }
  return out;
}

/** Runs spm_encode on `lines`; its ids mapped into the XLM-R layout (+1, unk 0 → 3). */
async function spmEncode(lines: string[]): Promise<number[][]> {
  const child = new Deno.Command("spm_encode", {
    args: [`--model=${SPM_DIR}spm.model`, "--output_format=id"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = child.output();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(lines.join("\n") + "\n"));
  await w.close();
  const out = await output;
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const rows = new TextDecoder().decode(out.stdout).split("\n");
  return lines.map((_, i) => {
    const row = rows[i]!.trim();
    return row === "" ? [] : row.split(" ").map((t) => (Number(t) === 0 ? 3 : Number(t) + 1));
  });
}

/** The lines the parity check tokenizes: the varied set, seeded noise, the training corpus. */
function parityLines(): string[] {
  const corpus = Deno.readTextFileSync(`${SPM_DIR}corpus.txt`).split("\n").filter((l) => l);
  return [...VARIED, ...noise(800), ...corpus];
}

/**
 * SentencePiece's ids for {@link parityLines}, committed so the parity check
 * runs on machines without `spm_encode`; the next test proves they are still
 * spm_encode's own. Rewrite with `UPDATE_SPM_IDS=1 deno test -A src/embed/tokenizer_test.ts`.
 */
const REFERENCE_IDS = `${SPM_DIR}reference_ids.json`;

Deno.test("Tokenizer gives SentencePiece's ids on varied text, noise and the training corpus", () => {
  const tok = Tokenizer.fromJSON(SPM_JSON);
  const lines = parityLines();
  const want = JSON.parse(Deno.readTextFileSync(REFERENCE_IDS)) as number[][];
  assert.equal(want.length, lines.length, `${REFERENCE_IDS} is for other lines; rewrite it`);
  const wrong = lines.flatMap((line, i) => {
    const got = tok.tokenize(line);
    return JSON.stringify(got) === JSON.stringify(want[i])
      ? []
      : [`${JSON.stringify(line)}\n  spm:  ${want[i]!.join(" ")}\n  ours: ${got.join(" ")}`];
  });
  assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} of ${lines.length} lines differ`);
  // The varied set really exercises the vocabulary, the unknown piece and the charsmap.
  const all = lines.slice(0, VARIED.length).flatMap((l) => tok.tokenize(l));
  assert.ok(all.includes(tok.unkId), "some characters are unknown to the small vocabulary");
  assert.ok(new Set(all).size > 200);
});

Deno.test({
  name: "the committed reference ids are spm_encode's own",
  ignore: withoutTool("spm_encode", hasCommand("spm_encode"), "apt-get install -y sentencepiece"),
  async fn() {
    const ids = await spmEncode(parityLines());
    if (Deno.env.get("UPDATE_SPM_IDS") === "1") {
      Deno.writeTextFileSync(REFERENCE_IDS, JSON.stringify(ids) + "\n");
    }
    const committed = JSON.parse(Deno.readTextFileSync(REFERENCE_IDS)) as number[][];
    assert.deepEqual(committed, ids, "spm_encode disagrees with the committed ids; rewrite them");
  },
});

Deno.test("Tokenizer.encode() adds <s> … </s> and truncates to maxTokens, specials included", () => {
  const tok = Tokenizer.fromJSON(SPM_JSON);
  assert.deepEqual([tok.prefix, tok.suffix, tok.padId], [[0], [2], 1]);
  const short = tok.encode("retry with backoff");
  assert.equal(short.truncated, false);
  assert.deepEqual(short.ids, [0, ...tok.tokenize("retry with backoff"), 2]);
  const long = "retry with exponential backoff ".repeat(200);
  const all = tok.tokenize(long);
  const cut = tok.encode(long, 16);
  assert.equal(cut.truncated, true);
  assert.deepEqual(cut.ids, [0, ...all.slice(0, 14), 2]);
  assert.equal(tok.encode(long).ids.length, 512);
  assert.equal(tok.encode("").ids.length, 2);
  assert.throws(() => tok.encode("x", 2), RangeError);
});

Deno.test("Tokenizer follows the current XLM-R layout: Replace(' {2,}') + Metaspace(always, split)", () => {
  const json = structuredClone(SPM_JSON);
  json.normalizer = {
    type: "Sequence",
    normalizers: [
      json.normalizer,
      { type: "Replace", pattern: { Regex: " {2,}" }, content: " " },
    ],
  };
  json.pre_tokenizer = {
    type: "Metaspace",
    replacement: "▁",
    prepend_scheme: "always",
    split: true,
  };
  const current = Tokenizer.fromJSON(json);
  const legacy = Tokenizer.fromJSON(SPM_JSON);
  // Single interior spaces: both layouts give SentencePiece's ids.
  for (const t of ["retry with backoff", "Déjà vu 中文", "a b c"]) {
    assert.deepEqual(current.tokenize(t), legacy.tokenize(t), t);
  }
  // Leading spaces merge into the prefix ▁; trailing ones become a lone ▁ (as in tokenizers).
  const space = SPM_JSON.model.vocab.findIndex(([p]: [string]) => p === "▁");
  assert.ok(space > 3);
  assert.deepEqual(current.tokenize("   a"), legacy.tokenize("a"));
  assert.deepEqual(current.tokenize("a   b  "), [...legacy.tokenize("a b"), space]);
});

/** A small BERT-style WordPiece tokenizer.json, like bge-small-en's and gte-small's. */
function bertJson(): unknown {
  const words = [
    "[PAD]",
    "[UNK]",
    "[CLS]",
    "[SEP]",
    "[MASK]",
    "hello",
    ",",
    "world",
    "!",
    "un",
    "##aff",
    "##able",
    "retry",
    "##ing",
    "中",
    "文",
    "cafe",
    "the",
  ];
  return {
    added_tokens: words.slice(0, 5).map((w, id) => ({ id, content: w, special: true })),
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
      ],
      special_tokens: {
        "[CLS]": { id: "[CLS]", ids: [2], tokens: ["[CLS]"] },
        "[SEP]": { id: "[SEP]", ids: [3], tokens: ["[SEP]"] },
      },
    },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(words.map((w, i) => [w, i])),
    },
  };
}

Deno.test("WordPiece: lowercase, strip accents, split punctuation, ## pieces, [UNK] per word", () => {
  const tok = Tokenizer.fromJSON(bertJson());
  const cases: [string, number[]][] = [
    ["Hello, World!", [2, 5, 6, 7, 8, 3]],
    ["unaffable", [2, 9, 10, 11, 3]],
    ["Retrying", [2, 12, 13, 3]],
    ["Café", [2, 16, 3]],
    ["中文", [2, 14, 15, 3]],
    ["the zebra retry", [2, 17, 1, 12, 3]],
    ["unaffablex", [2, 1, 3]],
    ["\u0000\u200bhello\tworld", [2, 5, 7, 3]],
  ];
  for (const [text, ids] of cases) assert.deepEqual(tok.encode(text).ids, ids, text);
  assert.equal(tok.kind, "wordpiece");
  assert.equal(tok.padId, 0);
});

Deno.test("Tokenizer.fromJSON() names the part of tokenizer.json it cannot follow", () => {
  const bad: [unknown, RegExp][] = [
    [{ ...SPM_JSON, model: { type: "BPE", vocab: {}, merges: [] } }, /model type "BPE"/],
    [{ ...SPM_JSON, normalizer: { type: "Nmt" } }, /normalizer type "Nmt"/],
    [{ ...SPM_JSON, pre_tokenizer: { type: "ByteLevel" } }, /pre_tokenizer type "ByteLevel"/],
    [{ ...SPM_JSON, model: { ...SPM_JSON.model, unk_id: 99999 } }, /unk_id 99999/],
    [[], /one JSON object/],
  ];
  for (const [json, re] of bad) {
    assert.throws(
      () => Tokenizer.fromJSON(json),
      (e: unknown) => e instanceof TokenizerConfigError && re.test(e.message),
    );
  }
});
