/**
 * Copies onnxruntime-web's WebAssembly runtime into `wasm/` so embeddings
 * never fetch code from the network, under `deno run` or in a compiled
 * binary: `ort-wasm-simd-threaded.wasm` (the runtime, SIMD and threads) and
 * `ort-wasm-simd-threaded.mjs` (its Emscripten loader, which also starts the
 * worker threads), plus `wasm/onnxruntime-web.json` with the package version
 * and each file's sha256. `src/embed/ort_wasm.ts` checks that manifest
 * against the onnxruntime-web it imports before loading anything.
 *
 * Run it only when onnxruntime-web's version in `deno.json` changes; its
 * output is committed:
 *
 *     deno run --allow-read --allow-write --allow-run --allow-env scripts/fetch_ort_wasm.ts
 *
 * Needs `npm` on PATH. The runtime is loaded and made to run a one-node graph
 * before the manifest is written; any failure exits 1 and leaves the
 * previous files in place.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";

/** Must equal the version deno.json maps `onnxruntime-web` to. */
const PACKAGE = { name: "onnxruntime-web", version: "1.30.0" };
const FILES = ["ort-wasm-simd-threaded.wasm", "ort-wasm-simd-threaded.mjs"];
const ROOT = join(import.meta.dirname!, "..");

async function main(): Promise<number> {
  const tmp = await Deno.makeTempDir({ prefix: "heimdall-ort-wasm-" });
  try {
    await Deno.writeTextFile(join(tmp, "package.json"), '{ "private": true }\n');
    const { code } = await new Deno.Command("npm", {
      args: [
        "install",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        "--no-save",
        `${PACKAGE.name}@${PACKAGE.version}`,
      ],
      cwd: tmp,
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (code !== 0) {
      throw new Error(
        `npm install exited ${code} in "${tmp}"; check that npm can reach its registry`,
      );
    }
    const dist = join(tmp, "node_modules", PACKAGE.name, "dist");
    const staged = join(tmp, "staged");
    await Deno.mkdir(staged);
    const files = [];
    for (const name of FILES) {
      const bytes = await Deno.readFile(join(dist, name));
      await Deno.writeFile(join(staged, name), bytes);
      files.push({
        name,
        bytes: bytes.length,
        sha256: createHash("sha256").update(bytes).digest("hex"),
      });
    }
    await smokeTest(staged);
    await Deno.mkdir(join(ROOT, "wasm"), { recursive: true });
    for (const name of FILES) await Deno.copyFile(join(staged, name), join(ROOT, "wasm", name));
    await Deno.writeTextFile(
      join(ROOT, "wasm", "onnxruntime-web.json"),
      JSON.stringify({ package: PACKAGE.name, version: PACKAGE.version, files }, null, 2) + "\n",
    );
    for (const f of files) console.log(`ok  ${f.name}  ${f.bytes} bytes  sha256 ${f.sha256}`);
    console.log(`wrote wasm/onnxruntime-web.json (${PACKAGE.name}@${PACKAGE.version})`);
    return 0;
  } catch (e: unknown) {
    console.error(`fetch_ort_wasm: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

/** Loads the staged runtime and runs the tiny fixture model through it once. */
async function smokeTest(dir: string): Promise<void> {
  const ort = await import("onnxruntime-web");
  if (ort.env.versions.web !== PACKAGE.version) {
    throw new Error(
      `deno.json imports onnxruntime-web ${ort.env.versions.web}, this script copies ${PACKAGE.version}; make them equal`,
    );
  }
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = {
    mjs: new URL(`file://${join(dir, FILES[1]!)}`).href,
    wasm: new URL(`file://${join(dir, FILES[0]!)}`).href,
  };
  ort.env.wasm.wasmBinary = await Deno.readFile(join(dir, FILES[0]!));
  const model = join(ROOT, "tests", "fixtures", "models", "tiny", "model.onnx");
  const session = await ort.InferenceSession.create(await Deno.readFile(model));
  const ids = new ort.Tensor("int64", BigInt64Array.from([0n, 5n, 2n]), [1, 3]);
  const mask = new ort.Tensor("int64", BigInt64Array.from([1n, 1n, 1n]), [1, 3]);
  const out = await session.run({ input_ids: ids, attention_mask: mask });
  if (!out.last_hidden_state || out.last_hidden_state.dims.join(",") !== "1,3,32") {
    throw new Error("the staged runtime did not run tests/fixtures/models/tiny/model.onnx");
  }
  await session.release();
}

if (import.meta.main) Deno.exit(await main());
