/**
 * Writes a real ONNX transformer encoder with deterministic random weights,
 * plus a matching unigram `tokenizer.json` and a model `manifest.json`.
 *
 *     deno run --allow-read --allow-write scripts/make_tiny_model.ts
 *         [--shape tiny|minilm|small|bge-m3] [--quantize int8] [--vocab N] [--external] [--out DIR]
 *
 * `tiny` (2 layers × 32 wide, the default) is what the tests run; its output
 * is checked in under `tests/fixtures/models/tiny/` (and `tiny-int8/`). The
 * `minilm` (6 × 384), `small` (12 × 384: bge-small, e5-small, gte-small) and
 * `bge-m3` (24 × 1024) shapes write to
 * `/tmp/heimdall-models/<shape>[-int8]/` for `scripts/bench_embed.ts`: random
 * weights, but the real layer count, width, heads and FFN size, with real
 * attention (Q/K/V projections, scaled dot product, Softmax over a padding
 * mask), so a forward pass costs what the real model's does. `--vocab` only
 * shrinks the embedding table (a Gather: memory, not compute).
 *
 * The graph: input_ids, attention_mask [batch, seq] int64 → token + position
 * embeddings → LayerNorm → N × (self-attention → Add → LayerNorm → FFN with
 * Erf-GELU → Add → LayerNorm) → last_hidden_state [batch, seq, dim]. With
 * `--quantize int8` every weight MatMul becomes DynamicQuantizeLinear +
 * MatMulInteger on int8 weights (what onnxruntime's dynamic quantization
 * emits) and the embedding tables are int8 with DequantizeLinear.
 *
 * Weights go to `model.onnx_data` beside the graph (ONNX external data) when
 * they would pass protobuf's 2 GB limit (bge-m3 in fp32), or with
 * `--external`. The same seed gives byte-identical files.
 */
import { parseArgs } from "node:util";
import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  type Attr,
  ExternalData,
  type Message,
  model,
  node,
  tensor,
  valueInfo,
  writeMessage,
} from "./onnx_writer.ts";
import { seededRandom } from "./bench_util.ts";
import { xlmrTokenizerJson } from "./xlmr_tokenizer.ts";

/** The dimensions of an encoder. */
export interface Shape {
  name: string;
  layers: number;
  hidden: number;
  heads: number;
  ffn: number;
  vocab: number;
  positions: number;
  /** Uniform range of the token embedding table. */
  embedScale: number;
}

/** The shapes this script knows. `vocab` 0 means "the tokenizer's size". */
export const SHAPES: Record<string, Shape> = {
  tiny: {
    name: "tiny",
    layers: 2,
    hidden: 32,
    heads: 2,
    ffn: 64,
    vocab: 0,
    positions: 130,
    embedScale: 1,
  },
  minilm: {
    name: "minilm",
    layers: 6,
    hidden: 384,
    heads: 12,
    ffn: 1536,
    vocab: 30522,
    positions: 512,
    embedScale: 0.1,
  },
  small: {
    name: "small",
    layers: 12,
    hidden: 384,
    heads: 12,
    ffn: 1536,
    vocab: 30522,
    positions: 512,
    embedScale: 0.1,
  },
  "bge-m3": {
    name: "bge-m3",
    layers: 24,
    hidden: 1024,
    heads: 16,
    ffn: 4096,
    vocab: 250002,
    positions: 8194,
    embedScale: 0.1,
  },
};

const bytesOf = (a: Float32Array | Int8Array | BigInt64Array | Uint8Array) =>
  new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Builds the node list and initializers of one graph. */
class GraphBuilder {
  readonly nodes: Message[] = [];
  readonly initializers: Message[] = [];
  #n = 0;

  constructor(
    readonly rand: () => number,
    readonly quantize: boolean,
    readonly external?: ExternalData,
  ) {}

  op(type: string, inputs: string[], attrs: Record<string, Attr> = {}, outputs = 1): string[] {
    const id = this.#n++;
    const outs = Array.from({ length: outputs }, (_, i) => `${type.toLowerCase()}_${id}_${i}`);
    this.nodes.push(node(type, inputs, outs, `${type}_${id}`, attrs));
    return outs;
  }

  one(type: string, inputs: string[], attrs: Record<string, Attr> = {}): string {
    return this.op(type, inputs, attrs)[0]!;
  }

  floats(name: string, dims: number[], fill: (i: number) => number): string {
    const n = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = fill(i);
    this.initializers.push(tensor(name, "float", dims, bytesOf(data), this.external));
    return name;
  }

  random(name: string, dims: number[], scale: number): string {
    return this.floats(name, dims, () => (this.rand() * 2 - 1) * scale);
  }

  ints(name: string, dims: number[], values: number[]): string {
    const data = BigInt64Array.from(values.map(BigInt));
    this.initializers.push(tensor(name, "int64", dims, bytesOf(data)));
    return name;
  }

  scalar(name: string, value: number): string {
    return this.floats(name, [], () => value);
  }

  /** An int8 tensor, symmetric per-tensor scale, from uniform [-scale, scale]. */
  int8(name: string, dims: number[], scale: number): { q: string; s: string; z: string } {
    const n = dims.reduce((a, b) => a * b, 1);
    const data = new Int8Array(n);
    for (let i = 0; i < n; i++) data[i] = Math.round((this.rand() * 2 - 1) * 127);
    this.initializers.push(tensor(name, "int8", dims, bytesOf(data), this.external));
    const s = this.scalar(`${name}_scale`, scale / 127);
    const z = `${name}_zero`;
    this.initializers.push(tensor(z, "int8", [], new Uint8Array(1)));
    return { q: name, s, z };
  }

  /** x · W + b, W random [k, n] with range `scale`: float or int8 as the graph is. */
  linear(x: string, name: string, k: number, n: number, scale: number): string {
    const b = this.random(`${name}.bias`, [n], 0.01);
    if (!this.quantize) {
      const w = this.random(`${name}.weight`, [k, n], scale);
      return this.one("Add", [this.one("MatMul", [x, w]), b]);
    }
    const w = this.int8(`${name}.weight_q`, [k, n], scale);
    const [xq, xs, xz] = this.op("DynamicQuantizeLinear", [x], {}, 3) as [string, string, string];
    const yi = this.one("MatMulInteger", [xq, w.q, xz, w.z]);
    const yf = this.one("Cast", [yi], { to: { int: 1 } });
    const y = this.one("Mul", [yf, this.one("Mul", [xs, w.s])]);
    return this.one("Add", [y, b]);
  }

  layerNorm(x: string, name: string, dim: number): string {
    const g = this.floats(`${name}.weight`, [dim], () => 1);
    const b = this.floats(`${name}.bias`, [dim], () => 0);
    return this.one("LayerNormalization", [x, g, b], {
      axis: { int: -1 },
      epsilon: { float: 1e-5 },
    });
  }

  /** Gather rows of an embedding table (int8 + DequantizeLinear when quantized). */
  embed(ids: string, name: string, rows: number, dim: number, scale: number): string {
    if (!this.quantize) {
      return this.one("Gather", [this.random(name, [rows, dim], scale), ids]);
    }
    const t = this.int8(`${name}_q`, [rows, dim], scale);
    return this.one("DequantizeLinear", [this.one("Gather", [t.q, ids]), t.s, t.z]);
  }
}

/** Builds the encoder graph into `g`; returns the output tensor's name. */
function buildEncoder(g: GraphBuilder, s: Shape, vocab: number): string {
  const d = s.hidden;
  const dh = d / s.heads;
  const wScale = Math.sqrt(3 / d);
  // Token + position embeddings.
  let x = g.embed("input_ids", "embeddings.word", vocab, d, s.embedScale);
  const shape = g.one("Shape", ["input_ids"]);
  const seqLen = g.one("Gather", [shape, g.ints("one_scalar", [], [1])], { axis: { int: 0 } });
  const positions = g.one("Range", [
    g.ints("zero_scalar", [], [0]),
    seqLen,
    g.ints("one_step", [], [1]),
  ]);
  x = g.one("Add", [x, g.embed(positions, "embeddings.position", s.positions, d, 0.02)]);
  x = g.layerNorm(x, "embeddings.norm", d);
  // Padding mask → additive bias [batch, 1, 1, seq].
  const maskF = g.one("Cast", ["attention_mask"], { to: { int: 1 } });
  const inv = g.one("Sub", [g.scalar("one_f", 1), maskF]);
  const bias = g.one("Unsqueeze", [
    g.one("Mul", [inv, g.scalar("neg_big", -10000)]),
    g.ints("axes_12", [2], [1, 2]),
  ]);
  const split = g.ints("split_heads", [4], [0, 0, s.heads, dh]);
  const merge = g.ints("merge_heads", [3], [0, 0, d]);
  const rsqrt = g.scalar("attn_scale", 1 / Math.sqrt(dh));
  const sqrt2 = g.scalar("sqrt2", Math.SQRT2);
  const half = g.scalar("half", 0.5);
  for (let l = 0; l < s.layers; l++) {
    const p = `layer.${l}`;
    const heads = (t: string, perm: number[]) =>
      g.one("Transpose", [g.one("Reshape", [t, split])], { perm: { ints: perm } });
    const q = heads(g.linear(x, `${p}.q`, d, d, wScale), [0, 2, 1, 3]);
    const k = heads(g.linear(x, `${p}.k`, d, d, wScale), [0, 2, 3, 1]);
    const v = heads(g.linear(x, `${p}.v`, d, d, wScale), [0, 2, 1, 3]);
    const scores = g.one("Add", [g.one("Mul", [g.one("MatMul", [q, k]), rsqrt]), bias]);
    const probs = g.one("Softmax", [scores], { axis: { int: -1 } });
    const ctx = g.one("Reshape", [
      g.one("Transpose", [g.one("MatMul", [probs, v])], { perm: { ints: [0, 2, 1, 3] } }),
      merge,
    ]);
    const attn = g.linear(ctx, `${p}.o`, d, d, wScale);
    x = g.layerNorm(g.one("Add", [x, attn]), `${p}.attn_norm`, d);
    const h = g.linear(x, `${p}.ffn_in`, d, s.ffn, wScale);
    const erf = g.one("Erf", [g.one("Div", [h, sqrt2])]);
    const gelu = g.one("Mul", [
      g.one("Mul", [h, g.one("Add", [erf, g.scalar(`${p}.one`, 1)])]),
      half,
    ]);
    const out = g.linear(gelu, `${p}.ffn_out`, s.ffn, d, Math.sqrt(3 / s.ffn));
    x = g.layerNorm(g.one("Add", [x, out]), `${p}.ffn_norm`, d);
  }
  return g.one("Identity", [x]);
}

/** The words of the tiny tokenizer's vocabulary: English and code, most frequent first. */
const WORDS = (
  "the of and to in is for with on that this by from as be it are or an at not " +
  "function return class def import export const let var if else while for try catch " +
  "throw new async await type interface struct enum impl fn pub self this null true false " +
  "file path read write open close lock unlock search index query result error retry " +
  "backoff exponential delay timeout request response server client http json parse " +
  "string number list map set get put delete update insert select table row column " +
  "database journal commit transaction writer reader single process thread worker queue " +
  "hash content byte bytes size limit token model vector embed cosine score rank match " +
  "user name id key value config option default test assert expect check verify " +
  "memory cache store load save node edge graph tree parse symbol call caller callee"
).split(/\s+/);

const SUFFIXES = ["s", "ed", "ing", "er", "ly", "tion", "able", "ment", "ness", "es"];

/** The tiny model's tokenizer.json: a small unigram vocab in XLM-R's layout. */
function tinyTokenizer(): { json: unknown; size: number } {
  const pieces: [string, number][] = [];
  WORDS.forEach((w, i) => pieces.push([`▁${w}`, -3 - i / 100]));
  SUFFIXES.forEach((s, i) => pieces.push([s, -5 - i / 100]));
  const chars = [];
  for (let c = 0x21; c < 0x7f; c++) chars.push(String.fromCharCode(c));
  chars.push("é", "ü", "ß", "中", "文");
  pieces.push(["▁", -6]);
  chars.forEach((c, i) => pieces.push([c, -8 - i / 1000]));
  return xlmrTokenizerJson(pieces, { type: "NFKC" }, true);
}

/** Options of one run. */
export interface MakeOptions {
  shape: Shape;
  quantize: boolean;
  out: string;
  seed: number;
  vocab?: number;
  /** Keep weights in `model.onnx_data` beside the graph even when they would fit inside. */
  external?: boolean;
}

/** Writes model.onnx (+ model.onnx_data when large), tokenizer.json and manifest.json to `out`. */
export async function makeModel(o: MakeOptions): Promise<{ files: string[]; bytes: number }> {
  await Deno.mkdir(o.out, { recursive: true });
  const tok = tinyTokenizer();
  const vocab = o.vocab ?? (o.shape.vocab || tok.size);
  const s = o.shape;
  // fp32 weights of the bge-m3 shape pass protobuf's 2 GB limit: keep them beside the graph.
  const params = vocab * s.hidden + s.layers * (4 * s.hidden ** 2 + 2 * s.hidden * s.ffn);
  const externalName = "model.onnx_data";
  const dataFile = o.external || (!o.quantize && params * 4 > 1.5e9)
    ? await Deno.open(join(o.out, externalName), { write: true, create: true, truncate: true })
    : undefined;
  const files = ["model.onnx"];
  try {
    const g = new GraphBuilder(
      seededRandom(o.seed),
      o.quantize,
      dataFile ? new ExternalData(dataFile, externalName) : undefined,
    );
    const last = buildEncoder(g, s, vocab);
    g.nodes.push(node("Identity", [last], ["last_hidden_state"], "output"));
    const m = model({
      name: `heimdall-${s.name}${o.quantize ? "-int8" : ""}`,
      nodes: g.nodes,
      initializers: g.initializers,
      inputs: [
        valueInfo("input_ids", "int64", ["batch", "sequence"]),
        valueInfo("attention_mask", "int64", ["batch", "sequence"]),
      ],
      outputs: [valueInfo("last_hidden_state", "float", ["batch", "sequence", s.hidden])],
      docString:
        `Random-weight ${s.layers}x${s.hidden} encoder (${s.heads} heads, FFN ${s.ffn}, vocab ${vocab}), seed ${o.seed}`,
    });
    writeMessage(join(o.out, "model.onnx"), m);
  } finally {
    dataFile?.close();
  }
  if (dataFile) files.push(externalName);
  await Deno.writeTextFile(join(o.out, "tokenizer.json"), JSON.stringify(tok.json) + "\n");
  files.push("tokenizer.json");

  let bytes = 0;
  const entries = [];
  for (const f of files) {
    const path = join(o.out, f);
    const size = (await Deno.stat(path)).size;
    bytes += size;
    entries.push({
      name: f,
      role: f === "tokenizer.json" ? "tokenizer" : f === "model.onnx" ? "model" : "weights",
      sha256: await sha256File(path),
      bytes: size,
    });
  }
  const name = `${s.name === "tiny" ? "tiny" : `${s.name}-shaped`}${o.quantize ? "-int8" : ""}`;
  const manifest = {
    name,
    description:
      `Random-weight ${s.layers}×${s.hidden} encoder written by scripts/make_tiny_model.ts ` +
      `(seed ${o.seed}); real shape, meaningless vectors`,
    dims: s.hidden,
    pooling: "mean",
    normalize: true,
    maxTokens: s.name === "tiny" ? 128 : 512,
    prefixes: { query: "", passage: "" },
    quantization: o.quantize ? "int8" : "none",
    output: "last_hidden_state",
    files: entries,
  };
  await Deno.writeTextFile(join(o.out, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  return { files: [...files, "manifest.json"], bytes };
}

async function sha256File(path: string): Promise<string> {
  const h = createHash("sha256");
  const f = await Deno.open(path);
  for await (const chunk of f.readable) h.update(chunk);
  return h.digest("hex");
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      shape: { type: "string", default: "tiny" },
      quantize: { type: "string" },
      vocab: { type: "string" },
      out: { type: "string" },
      seed: { type: "string", default: "20240601" },
      external: { type: "boolean" },
    },
  });
  const shape = SHAPES[values.shape!];
  if (!shape) {
    console.error(`Unknown --shape "${values.shape}": expected ${Object.keys(SHAPES).join(", ")}`);
    return 2;
  }
  if (values.quantize !== undefined && values.quantize !== "int8") {
    console.error(`Unknown --quantize "${values.quantize}": only int8 is supported`);
    return 2;
  }
  const vocab = values.vocab === undefined ? undefined : Number(values.vocab);
  if (vocab !== undefined && (!Number.isInteger(vocab) || vocab < 8)) {
    console.error(`Invalid --vocab "${values.vocab}": expected a whole number ≥ 8`);
    return 2;
  }
  const quantize = values.quantize === "int8";
  const suffix = quantize ? "-int8" : "";
  const out = values.out ??
    (shape.name === "tiny"
      ? join(import.meta.dirname!, "..", "tests", "fixtures", "models", `tiny${suffix}`)
      : join("/tmp", "heimdall-models", `${shape.name}${suffix}`));
  const t0 = performance.now();
  const { files, bytes } = await makeModel({
    shape,
    quantize,
    out,
    seed: Number(values.seed),
    external: values.external === true,
    ...(vocab !== undefined ? { vocab } : {}),
  });
  console.log(
    `wrote ${files.join(", ")} to ${out} (${(bytes / 1048576).toFixed(1)} MiB, ${
      ((performance.now() - t0) / 1000).toFixed(1)
    } s)`,
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main());
