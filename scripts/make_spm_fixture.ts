/**
 * Trains the reference SentencePiece model the tokenizer tests compare
 * against, and exports it as a `tokenizer.json` in XLM-RoBERTa's layout.
 *
 *     deno run --allow-read --allow-write --allow-run scripts/make_spm_fixture.ts
 *
 * Needs Debian's `sentencepiece` (`apt-get install -y sentencepiece`). Reads
 * `tests/fixtures/tokenizer/spm/corpus.txt` (mixed prose in a dozen scripts,
 * emoji, compatibility characters, code), runs `spm_train` as XLM-R was
 * trained (unigram, `nmt_nfkc` normalisation, no byte fallback), and writes
 * beside the corpus:
 *
 * - `spm.model`: the trained model; `tests/embed_test.ts` runs `spm_encode`
 *   on it live and compares ids.
 * - `tokenizer.json`: the same vocabulary the way Hugging Face's
 *   XLMRobertaConverter lays it out: `<s>`=0 `<pad>`=1 `</s>`=2 `<unk>`=3,
 *   SentencePiece's own pieces from id 4 on (its id + 1), `<mask>` last; the
 *   model's precompiled charsmap as a `Precompiled` normalizer; whitespace
 *   split + `▁` metaspace, which reproduces SentencePiece's whitespace rules
 *   (leading, trailing and repeated spaces dropped).
 *
 * The protobuf (`sentencepiece_model.proto`) is read with a few lines of
 * wire-format decoding below; only the fields used here are looked at.
 */
import { join } from "node:path";
import { xlmrTokenizerJson } from "./xlmr_tokenizer.ts";

const DIR = join(import.meta.dirname!, "..", "tests", "fixtures", "tokenizer", "spm");

/** SentencePiece's piece types (ModelProto.SentencePiece.Type). */
const PIECE_TYPE = { normal: 1, unknown: 2, control: 3, userDefined: 4, unused: 5, byte: 6 };

interface SpmPiece {
  piece: string;
  score: number;
  type: number;
}

interface SpmModel {
  pieces: SpmPiece[];
  normalizerName: string;
  charsmap: Uint8Array;
  addDummyPrefix: boolean;
  removeExtraWhitespaces: boolean;
}

/** The fields of one protobuf message: field number → raw values in order. */
type Fields = Map<number, (bigint | Uint8Array | number)[]>;

function readFields(buf: Uint8Array): Fields {
  const fields: Fields = new Map();
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let i = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[i++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return result;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const key = Number(varint());
    const field = key >>> 3;
    const wire = key & 7;
    let value: bigint | Uint8Array | number;
    if (wire === 0) value = varint();
    else if (wire === 1) {
      value = view.getFloat64(i, true);
      i += 8;
    } else if (wire === 2) {
      const len = Number(varint());
      value = buf.subarray(i, i + len);
      i += len;
    } else if (wire === 5) {
      value = view.getFloat32(i, true);
      i += 4;
    } else throw new Error(`unsupported protobuf wire type ${wire} at byte ${i}`);
    const list = fields.get(field) ?? [];
    list.push(value);
    fields.set(field, list);
  }
  return fields;
}

const text = (v: unknown) => new TextDecoder().decode(v as Uint8Array);

function parseModel(bytes: Uint8Array): SpmModel {
  const top = readFields(bytes);
  const pieces = (top.get(1) ?? []).map((raw) => {
    const f = readFields(raw as Uint8Array);
    return {
      piece: text(f.get(1)?.[0]),
      score: (f.get(2)?.[0] as number | undefined) ?? 0,
      type: Number(f.get(3)?.[0] ?? 1n),
    };
  });
  const norm = readFields((top.get(3)?.[0] as Uint8Array | undefined) ?? new Uint8Array());
  const flag = (n: number, dflt: boolean) => {
    const v = norm.get(n)?.[0];
    return v === undefined ? dflt : v !== 0n;
  };
  return {
    pieces,
    normalizerName: text(norm.get(1)?.[0] ?? new Uint8Array()),
    charsmap: (norm.get(2)?.[0] as Uint8Array | undefined) ?? new Uint8Array(),
    addDummyPrefix: flag(3, true),
    removeExtraWhitespaces: flag(4, true),
  };
}

function toBase64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}

/** The tokenizer.json XLMRobertaConverter would write for this model. */
function toTokenizerJson(m: SpmModel): unknown {
  const [unk, bos, eos] = m.pieces;
  if (
    unk?.type !== PIECE_TYPE.unknown || bos?.type !== PIECE_TYPE.control ||
    eos?.type !== PIECE_TYPE.control
  ) {
    throw new Error("expected <unk>, <s>, </s> as the first three pieces (spm_train's default)");
  }
  const pieces = m.pieces.slice(3).map((p): [string, number] => [p.piece, p.score]);
  const normalizer = { type: "Precompiled", precompiled_charsmap: toBase64(m.charsmap) };
  return xlmrTokenizerJson(pieces, normalizer, m.addDummyPrefix).json;
}

async function main(): Promise<number> {
  const tmp = await Deno.makeTempDir({ prefix: "heimdall-spm-" });
  try {
    const train = await new Deno.Command("spm_train", {
      args: [
        `--input=${join(DIR, "corpus.txt")}`,
        `--model_prefix=${join(tmp, "spm")}`,
        "--model_type=unigram",
        "--vocab_size=1500",
        "--normalization_rule_name=nmt_nfkc",
        "--character_coverage=1.0",
        "--num_threads=1",
        "--shuffle_input_sentence=false",
        "--minloglevel=1",
      ],
      stdout: "inherit",
      stderr: "inherit",
    }).output().catch((e: unknown) => {
      if (e instanceof Deno.errors.NotFound) {
        throw new Error("spm_train is not installed; run: apt-get install -y sentencepiece");
      }
      throw e;
    });
    if (train.code !== 0) throw new Error(`spm_train exited ${train.code}`);
    const bytes = await Deno.readFile(join(tmp, "spm.model"));
    const model = parseModel(bytes);
    if (model.normalizerName !== "nmt_nfkc" || model.charsmap.length === 0) {
      throw new Error(`unexpected normalizer "${model.normalizerName}" without a charsmap`);
    }
    if (!model.removeExtraWhitespaces) {
      throw new Error("the whitespace split layout needs remove_extra_whitespaces");
    }
    await Deno.writeFile(join(DIR, "spm.model"), bytes);
    await Deno.writeTextFile(
      join(DIR, "tokenizer.json"),
      JSON.stringify(toTokenizerJson(model)) + "\n",
    );
    console.log(
      `wrote spm.model and tokenizer.json to ${DIR} (${model.pieces.length} pieces, charsmap ${model.charsmap.length} bytes)`,
    );
    return 0;
  } catch (e: unknown) {
    console.error(`make_spm_fixture: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main());
