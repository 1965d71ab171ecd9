/**
 * The `tokenizer.json` layout Hugging Face's XLMRobertaConverter writes, shared
 * by the scripts that make tokenizer fixtures (make_tiny_model.ts,
 * make_spm_fixture.ts).
 */

/**
 * A Unigram tokenizer.json: `<s>`=0 `<pad>`=1 `</s>`=2 `<unk>`=3, then
 * `pieces` (piece, score) in order, `<mask>` last; `normalizer` as given;
 * whitespace split + `▁` metaspace (`addPrefixSpace` on the pre-tokenizer);
 * RoBERTa's `<s> … </s>` post-processing. `size` is the vocabulary's length.
 */
export function xlmrTokenizerJson(
  pieces: Iterable<[string, number]>,
  normalizer: unknown,
  addPrefixSpace: boolean,
): { json: unknown; size: number } {
  const vocab: [string, number][] = [["<s>", 0], ["<pad>", 0], ["</s>", 0], ["<unk>", 0]];
  for (const p of pieces) vocab.push(p);
  vocab.push(["<mask>", 0]);
  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: content === "<mask>",
    rstrip: false,
    normalized: false,
    special: true,
  });
  const json = {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: [
      special(0, "<s>"),
      special(1, "<pad>"),
      special(2, "</s>"),
      special(3, "<unk>"),
      special(vocab.length - 1, "<mask>"),
    ],
    normalizer,
    pre_tokenizer: {
      type: "Sequence",
      pretokenizers: [
        { type: "WhitespaceSplit" },
        { type: "Metaspace", replacement: "▁", add_prefix_space: addPrefixSpace },
      ],
    },
    post_processor: {
      type: "RobertaProcessing",
      sep: ["</s>", 2],
      cls: ["<s>", 0],
      trim_offsets: true,
      add_prefix_space: true,
    },
    decoder: { type: "Metaspace", replacement: "▁", add_prefix_space: true },
    model: { type: "Unigram", unk_id: 3, vocab, byte_fallback: false },
  };
  return { json, size: vocab.length };
}
