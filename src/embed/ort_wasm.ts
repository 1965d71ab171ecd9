/**
 * onnxruntime-web's WebAssembly backend, loaded from the project's `wasm/`
 * folder (`scripts/fetch_ort_wasm.ts` puts it there), never from the network:
 * `import.meta.url`-relative, so `deno run` and a compiled binary that
 * `--include`s `wasm/` load it the same way.
 *
 * Threads: onnxruntime-web runs its intra-op thread pool on Emscripten
 * pthreads, which under Deno are `node:worker_threads` Workers started from
 * `wasm/ort-wasm-simd-threaded.mjs`; {@link loadOrtWasm} asks for one thread
 * per core (at most 4) unless told otherwise. The thread count is fixed by the
 * first load in a process; later calls get the module as it was set up.
 */
import { EnvironmentError } from "../errors/mod.ts";
import { createHash } from "node:crypto";

/** The onnxruntime-web module, as imported. */
export type OrtWeb = typeof import("onnxruntime-web");

const WASM_DIR = new URL("../../wasm/", import.meta.url);
const MANIFEST = new URL("onnxruntime-web.json", WASM_DIR);

/** The `wasm/` runtime is missing or does not match the code; the message says how to fix it. */
export class WasmRuntimeError extends EnvironmentError {
  /** The WASM runtime failed, as `message` says. */
  constructor(message: string) {
    super(message);
    this.name = "WasmRuntimeError";
  }
}

let loaded: Promise<{ ort: OrtWeb; threads: number }> | undefined;

/** The default thread count: one per core, at most 4. */
export function defaultThreads(): number {
  return Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1));
}

/**
 * Imports onnxruntime-web and points it at `wasm/`: the binary is read and
 * checked against `wasm/onnxruntime-web.json` (version and sha256), so a
 * stale copy fails here with the remedy instead of misbehaving later.
 * Resolves to the module and the thread count it actually uses.
 */
export function loadOrtWasm(threads = defaultThreads()): Promise<{ ort: OrtWeb; threads: number }> {
  loaded ??= load(threads).catch((e) => {
    loaded = undefined;
    throw e;
  });
  return loaded;
}

async function load(threads: number): Promise<{ ort: OrtWeb; threads: number }> {
  let manifest: { version: string; files: { name: string; sha256: string }[] };
  try {
    manifest = JSON.parse(await Deno.readTextFile(MANIFEST));
  } catch (e) {
    throw new WasmRuntimeError(
      `Cannot read "${MANIFEST.pathname}" (${
        (e as Error).message
      }); run scripts/fetch_ort_wasm.ts to put onnxruntime-web's runtime in wasm/`,
    );
  }
  const ort = await import("onnxruntime-web");
  if (ort.env.versions.web !== manifest.version) {
    throw new WasmRuntimeError(
      `wasm/ holds onnxruntime-web ${manifest.version} but the code imports ${ort.env.versions.web}; run scripts/fetch_ort_wasm.ts`,
    );
  }
  const wasmName = "ort-wasm-simd-threaded.wasm";
  const mjsName = "ort-wasm-simd-threaded.mjs";
  const wasmUrl = new URL(wasmName, WASM_DIR);
  const binary = await Deno.readFile(wasmUrl);
  const want = manifest.files.find((f) => f.name === wasmName)?.sha256;
  const got = createHash("sha256").update(binary).digest("hex");
  if (want !== got) {
    throw new WasmRuntimeError(
      `${wasmUrl.pathname} has sha256 ${got}, wasm/onnxruntime-web.json says ${want}; run scripts/fetch_ort_wasm.ts`,
    );
  }
  ort.env.wasm.numThreads = threads;
  ort.env.wasm.wasmPaths = { mjs: new URL(mjsName, WASM_DIR).href, wasm: wasmUrl.href };
  ort.env.wasm.wasmBinary = binary;
  ort.env.logLevel = "error";
  return { ort, threads };
}
