/**
 * Embedding benchmark: the tokenizer's speed, then encoder throughput for
 * the real model shapes on both backends, then what embedding a code base
 * would cost with each.
 *
 *     deno run -A scripts/bench_embed.ts [--shapes minilm,small,bge-m3] [--quant none,int8]
 *        [--backends native,wasm] [--seq 128] [--batch 8] [--seconds 5]
 *        [--symbols 10000,100000,500000] [--skip-tokenizer] [--json]
 *
 * 1. Tokenizer: MB/s of mixed code and prose on one core, through the
 *    SentencePiece fixture vocabulary (1,500 pieces) and a 250,002-piece
 *    vocabulary built from the same text (bge-m3's size), against
 *    SentencePiece's own `spm_encode` (C++) on the same text in the same run.
 * 2. Encoders: `scripts/make_tiny_model.ts` graphs with random weights and
 *    the real shapes (MiniLM 6 × 384, the 12 × 384 "small" models, bge-m3
 *    24 × 1024; float32 and int8),
 *    written under /tmp/heimdall-models once; texts cut to `--seq` tokens,
 *    `--batch` per run, through {@link Embedder} (tokenize, run, pool,
 *    normalise) on 2 threads. Ratios: each row against native MiniLM float32
 *    at the same length.
 * 3. Budget: hours to embed N symbol chunks of `--seq` tokens with each.
 *
 * Each part is a function, so other benchmarks (the vector search one) can
 * run beside them.
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { Embedder } from "../src/embed/mod.ts";
import { Tokenizer } from "../src/embed/tokenizer.ts";
import { makeModel, SHAPES } from "./make_tiny_model.ts";
import {
  type Cleanup,
  clockTicks,
  cpuTicks,
  fmtRatio,
  renderTable,
  runBenchMain,
  UsageError,
  wholeNumber,
} from "./bench_util.ts";

const ROOT = join(import.meta.dirname!, "..");
const SPM_DIR = join(ROOT, "tests", "fixtures", "tokenizer", "spm");
const MODELS_DIR = "/tmp/heimdall-models";

interface Options {
  shapes: string[];
  quant: ("none" | "int8")[];
  backends: ("native" | "wasm")[];
  seq: number[];
  batch: number;
  seconds: number;
  symbols: number[];
  skipTokenizer: boolean;
  json: boolean;
}

// --- 1. tokenizer ------------------------------------------------------------------------

/** One tokenizer measurement. */
export interface TokenizerRow {
  vocab: string;
  pieces: number;
  mbPerSecond: number;
  tokensPerSecond: number;
  /** spm_encode on the same text, same run; null when it is not installed. */
  spmMbPerSecond: number | null;
}

/** The benchmark text: this repository's source and the multilingual corpus, in 2 KB chunks. */
function benchText(): string[] {
  let text = Deno.readTextFileSync(join(SPM_DIR, "corpus.txt"));
  for (const dir of ["src/embed", "src/config", "src/cli", "scripts"]) {
    for (const e of Deno.readDirSync(join(ROOT, dir))) {
      if (e.isFile && e.name.endsWith(".ts")) {
        text += Deno.readTextFileSync(join(ROOT, dir, e.name));
      }
    }
  }
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += 2000) chunks.push(text.slice(i, i + 2000));
  return chunks;
}

/**
 * A unigram tokenizer.json of `size` pieces: the fixture's pieces plus word
 * pieces cut from `chunks`, scored by frequency; bge-m3's vocabulary size
 * without its file.
 */
function largeVocab(chunks: string[], size: number): unknown {
  const base = JSON.parse(Deno.readTextFileSync(join(SPM_DIR, "tokenizer.json")));
  const have = new Set<string>(base.model.vocab.map((v: [string, number]) => v[0]));
  const counts = new Map<string, number>();
  for (const c of chunks) {
    for (const w of c.split(/\s+/)) {
      const word = `▁${w}`;
      for (let i = 0; i < word.length; i++) {
        for (let j = i + 2; j <= Math.min(word.length, i + 12); j++) {
          const p = word.slice(i, j);
          counts.set(p, (counts.get(p) ?? 0) + 1);
        }
      }
    }
  }
  const extra = [...counts].filter(([p]) => !have.has(p)).sort((a, b) => b[1] - a[1]);
  const vocab = base.model.vocab.slice(0, -1) as [string, number][];
  const total = extra.reduce((a, [, n]) => a + n, 0);
  for (const [p, n] of extra) {
    if (vocab.length >= size - 1) break;
    vocab.push([p, Math.log(n / total)]);
  }
  // Pad with unreachable pieces to the exact size.
  for (let i = 0; vocab.length < size - 1; i++) vocab.push([`\u{F0000}${i}`, -30]);
  vocab.push(["<mask>", 0]);
  return { ...base, model: { ...base.model, vocab } };
}

async function spmSeconds(chunks: string[]): Promise<number | null> {
  const input = new TextEncoder().encode(
    chunks.map((c) => c.replaceAll("\n", " ")).join("\n") + "\n",
  );
  try {
    const t0 = performance.now();
    const child = new Deno.Command("spm_encode", {
      args: [`--model=${join(SPM_DIR, "spm.model")}`, "--output_format=id"],
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const w = child.stdin.getWriter();
    await w.write(input);
    await w.close();
    await child.status;
    return (performance.now() - t0) / 1000;
  } catch {
    return null;
  }
}

/** Tokenizer MB/s (best of 3 passes over the text) for the fixture and a bge-m3-sized vocabulary. */
export async function benchTokenizer(): Promise<TokenizerRow[]> {
  const chunks = benchText();
  const oneLine = chunks.map((c) => c.replaceAll("\n", " "));
  const mb = new TextEncoder().encode(oneLine.join("")).length / 1e6;
  const reps = Math.max(1, Math.ceil(2 / mb));
  const spm: number[] = [];
  for (let i = 0; i < 3; i++) {
    const s = await spmSeconds(Array.from({ length: reps }, () => chunks).flat());
    if (s !== null) spm.push(s);
  }
  const rows: TokenizerRow[] = [];
  for (
    const [label, json] of [
      ["spm fixture", JSON.parse(Deno.readTextFileSync(join(SPM_DIR, "tokenizer.json")))],
      ["250k pieces", largeVocab(chunks, 250_002)],
    ] as const
  ) {
    const tok = Tokenizer.fromJSON(json);
    let best = Infinity;
    let tokens = 0;
    for (let pass = 0; pass < 3; pass++) {
      const t0 = performance.now();
      tokens = 0;
      for (let r = 0; r < reps; r++) for (const c of oneLine) tokens += tok.tokenize(c).length;
      best = Math.min(best, (performance.now() - t0) / 1000);
    }
    rows.push({
      vocab: label,
      pieces: tok.vocabSize,
      mbPerSecond: (mb * reps) / best,
      tokensPerSecond: tokens / best,
      spmMbPerSecond: spm.length ? (mb * reps) / Math.min(...spm) : null,
    });
  }
  return rows;
}

// --- 2. encoders -------------------------------------------------------------------------

/** One encoder measurement. */
export interface EncoderRow {
  model: string;
  layers: number;
  hidden: number;
  quant: "none" | "int8";
  backend: string;
  detail: string;
  seq: number;
  batch: number;
  chunksPerSecond: number;
  /** Process CPU seconds per wall second during the runs: ~2 means both cores worked. */
  cores: number;
  loadSeconds: number;
  error?: string;
}

/** Writes the shaped model under /tmp/heimdall-models unless it is there already. */
async function ensureModel(shape: string, quant: "none" | "int8"): Promise<string> {
  const dir = join(MODELS_DIR, `${shape}${quant === "int8" ? "-int8" : ""}`);
  try {
    await Deno.stat(join(dir, "manifest.json"));
  } catch {
    console.error(`[bench_embed] writing ${dir} (once)`);
    await makeModel({
      shape: SHAPES[shape]!,
      quantize: quant === "int8",
      out: dir,
      seed: 20240601,
    });
  }
  return dir;
}

/** A text that tokenizes to at least `tokens` tokens with the shaped models' tokenizer. */
function longText(tokens: number, salt: number): string {
  const words =
    "retry with exponential backoff when the journal writer lock is held by another process"
      .split(" ");
  const out: string[] = [];
  for (let i = 0; out.length < tokens; i++) out.push(words[(i * 7 + salt) % words.length]!);
  return out.join(" ");
}

/** Chunks per second for each shape × quantization × backend × length. */
export async function benchEncoders(
  o: Pick<Options, "shapes" | "quant" | "backends" | "seq" | "batch" | "seconds">,
  cleanup: Cleanup,
): Promise<EncoderRow[]> {
  const rows: EncoderRow[] = [];
  const hz = await clockTicks();
  const lib = await Deno.makeTempDir({ prefix: "heimdall-bench-lib-" });
  cleanup.add("remove the native library copy", () => Deno.remove(lib, { recursive: true }));
  for (const shape of o.shapes) {
    for (const quant of o.quant) {
      const dir = await ensureModel(shape, quant);
      for (const backend of o.backends) {
        for (const seq of o.seq) {
          const s = SHAPES[shape]!;
          const base = {
            model: `${shape}-shaped`,
            layers: s.layers,
            hidden: s.hidden,
            quant,
            seq,
            batch: o.batch,
          };
          const t0 = performance.now();
          let e: Embedder | undefined;
          try {
            e = await Embedder.open(dir, { libDir: lib, backend, threads: 2, maxTokens: seq });
            const loadSeconds = (performance.now() - t0) / 1000;
            const texts = (k: number) =>
              Array.from({ length: o.batch }, (_, i) => longText(seq, k * o.batch + i));
            await e.embed(texts(0)); // warm-up: first run allocates and plans
            let chunks = 0;
            const c0 = cpuTicks(Deno.pid);
            const w0 = performance.now();
            for (let k = 1; chunks === 0 || performance.now() - w0 < o.seconds * 1000; k++) {
              chunks += (await e.embed(texts(k))).length;
            }
            const wall = (performance.now() - w0) / 1000;
            rows.push({
              ...base,
              backend: e.backend,
              detail: e.backendDetail,
              chunksPerSecond: chunks / wall,
              cores: (cpuTicks(Deno.pid) - c0) / hz / wall,
              loadSeconds,
            });
          } catch (err) {
            rows.push({
              ...base,
              backend,
              detail: "",
              chunksPerSecond: NaN,
              cores: NaN,
              loadSeconds: (performance.now() - t0) / 1000,
              error: (err as Error).message.split("\n")[0]!,
            });
          } finally {
            await e?.close();
          }
          const r = rows.at(-1)!;
          console.error(
            `[bench_embed] ${r.model} ${quant} ${backend} seq ${seq}: ${
              r.error ?? `${r.chunksPerSecond.toFixed(2)} chunks/s`
            }`,
          );
        }
      }
    }
  }
  return rows;
}

// --- 3. budget ---------------------------------------------------------------------------

/** Hours to embed `symbols` chunks with one configuration. */
export interface BudgetRow {
  model: string;
  quant: string;
  backend: string;
  seq: number;
  hours: Record<number, number>;
}

/** From measured throughput to wall-clock hours for each symbol count. Pure. */
export function embeddingBudget(
  rows: readonly EncoderRow[],
  symbols: readonly number[],
): BudgetRow[] {
  return rows.filter((r) => Number.isFinite(r.chunksPerSecond)).map((r) => ({
    model: r.model,
    quant: r.quant,
    backend: r.backend,
    seq: r.seq,
    hours: Object.fromEntries(symbols.map((n) => [n, n / r.chunksPerSecond / 3600])),
  }));
}

// --- main --------------------------------------------------------------------------------

interface Result {
  tokenizer: TokenizerRow[];
  encoders: EncoderRow[];
  budget: BudgetRow[];
  symbols: number[];
}

function list<T extends string>(raw: string, name: string, allowed: readonly T[]): T[] {
  const items = raw.split(",").map((s) => s.trim()).filter(Boolean);
  for (const i of items) {
    if (!allowed.includes(i as T)) {
      throw new UsageError(`Invalid --${name} "${i}": expected ${allowed.join(", ")}`);
    }
  }
  return items as T[];
}

function parse(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      shapes: { type: "string", default: "minilm,bge-m3" },
      quant: { type: "string", default: "none,int8" },
      backends: { type: "string", default: "native,wasm" },
      seq: { type: "string", default: "128" },
      batch: { type: "string", default: "8" },
      seconds: { type: "string", default: "5" },
      symbols: { type: "string", default: "10000,100000,500000" },
      "skip-tokenizer": { type: "boolean" },
      json: { type: "boolean" },
    },
  });
  return {
    shapes: list(values.shapes!, "shapes", ["minilm", "small", "bge-m3"] as const),
    quant: list(values.quant!, "quant", ["none", "int8"] as const),
    backends: list(values.backends!, "backends", ["native", "wasm"] as const),
    seq: values.seq!.split(",").map((s) => wholeNumber("seq", s, 8)),
    batch: wholeNumber("batch", values.batch!, 1),
    seconds: wholeNumber("seconds", values.seconds!, 0),
    symbols: values.symbols!.split(",").map((s) => wholeNumber("symbols", s, 1)),
    skipTokenizer: values["skip-tokenizer"] === true,
    json: values.json === true,
  };
}

function fmtHours(h: number): string {
  if (h < 1) return `${(h * 60).toFixed(0)} min`;
  if (h < 48) return `${h.toFixed(1)} h`;
  return `${(h / 24).toFixed(1)} days`;
}

function render(r: Result): string {
  const out: string[] = [];
  if (r.tokenizer.length) {
    out.push("Tokenizer (one core, mixed code and prose, best of 3)");
    out.push(renderTable(
      ["vocabulary", "pieces", "MB/s", "tokens/s", "spm_encode MB/s", "ratio"],
      r.tokenizer.map((t) => [
        t.vocab,
        String(t.pieces),
        t.mbPerSecond.toFixed(2),
        Math.round(t.tokensPerSecond).toLocaleString("en"),
        t.spmMbPerSecond === null ? "—" : t.spmMbPerSecond.toFixed(2),
        t.spmMbPerSecond === null ? "—" : fmtRatio(t.mbPerSecond, t.spmMbPerSecond),
      ]),
      [1, 2, 3, 4, 5],
    ));
    out.push("target: ≥ 1 MB/s; ratio = ours / spm_encode (C++, process start included)\n");
  }
  const baseline = (seq: number) =>
    r.encoders.find((e) =>
      e.model === "minilm-shaped" && e.quant === "none" && e.backend === "native" && e.seq === seq
    )?.chunksPerSecond ?? NaN;
  out.push("Encoders (random weights, real shapes; 2 threads; batch of texts cut to seq tokens)");
  out.push(renderTable(
    [
      "model",
      "layers×width",
      "weights",
      "backend",
      "seq",
      "chunks/s",
      "vs native minilm f32",
      "cores",
      "chunks/CPU-s",
      "load",
    ],
    r.encoders.map((e) => [
      e.model,
      `${e.layers}×${e.hidden}`,
      e.quant === "int8" ? "int8" : "float32",
      e.error ? `${e.backend} (failed: ${e.error})` : e.backend,
      String(e.seq),
      Number.isFinite(e.chunksPerSecond) ? e.chunksPerSecond.toFixed(2) : "—",
      fmtRatio(e.chunksPerSecond, baseline(e.seq)),
      Number.isFinite(e.cores) ? e.cores.toFixed(2) : "—",
      Number.isFinite(e.cores) ? (e.chunksPerSecond / e.cores).toFixed(2) : "—",
      `${e.loadSeconds.toFixed(1)} s`,
    ]),
    [4, 5, 6, 7, 8, 9],
  ));
  const details = [...new Set(r.encoders.map((e) => e.detail).filter(Boolean))];
  out.push(details.map((d) => `  ${d}`).join("\n"));
  out.push(
    "cores = process CPU seconds per wall second (2.00: both cores busy; less on a shared machine)\n",
  );
  out.push(`Budget: wall-clock time to embed N chunks on this machine`);
  out.push(renderTable(
    ["model", "weights", "backend", "seq", ...r.symbols.map((n) => `${n.toLocaleString("en")}`)],
    r.budget.map((b) => [
      b.model,
      b.quant === "int8" ? "int8" : "float32",
      b.backend,
      String(b.seq),
      ...r.symbols.map((n) => fmtHours(b.hours[n]!)),
    ]),
    [3, 4, 5, 6, 7],
  ));
  return out.join("\n");
}

if (import.meta.main) {
  Deno.exit(
    await runBenchMain<Options, Result>("bench_embed", parse, async (o, cleanup) => {
      const tokenizer = o.skipTokenizer ? [] : await benchTokenizer();
      const encoders = await benchEncoders(o, cleanup);
      return {
        tokenizer,
        encoders,
        budget: embeddingBudget(encoders, o.symbols),
        symbols: o.symbols,
      };
    }, render),
  );
}
