/**
 * One ONNX inference session behind one interface, on the native backend
 * (onnxruntime-node) when it loads, else on WASM (onnxruntime-web from
 * `wasm/`), which is always there.
 *
 * `backend: "auto"` (the default, or `HEIMDALL_EMBED_BACKEND`) tries native
 * first and says why it fell back; "native" fails instead of falling back;
 * "wasm" never tries native. Both backends run the graph as it is, so a
 * model whose weights are int8 (QLinear/MatMulInteger/DequantizeLinear
 * nodes) needs nothing special.
 */
import { basename } from "../files/mod.ts";
import {
  loadOrtNative,
  NATIVE_VERSION,
  type NativeSession,
  NativeUnavailableError,
} from "./ort_native.ts";
import { defaultThreads, loadOrtWasm } from "./ort_wasm.ts";

/** Which runtime runs the graph. */
export type BackendName = "native" | "wasm";

/**
 * How to choose and set up the runtime.
 *
 * @internal
 */
export interface RuntimeOptions {
  backend?: "auto" | BackendName;
  /** Intra-op threads; default one per core, at most 4. */
  threads?: number;
  /** Where the native library is extracted when it must be (`$HEIMDALL_HOME/lib`). */
  libDir: string;
  /** Native loading route (tests force "extract" to exercise the compiled-binary path). */
  nativeLoad?: "auto" | "package" | "extract";
}

/**
 * An int64 input tensor, as the embedder builds them.
 *
 * @internal
 */
export interface Int64Input {
  data: BigInt64Array;
  dims: readonly number[];
}

/**
 * A float32 output tensor.
 *
 * @internal
 */
export interface FloatOutput {
  data: Float32Array;
  dims: readonly number[];
}

/** A model loaded on one backend. */
export interface Session {
  /** The runtime it runs on. */
  readonly backend: BackendName;
  /** Intra-op threads it uses. */
  readonly threads: number;
  /** For a person: runtime, version, how it was loaded. */
  readonly detail: string;
  /** Why `auto` did not get the native backend; null when it did, or was not asked to. */
  readonly fallback: string | null;
  /** The graph's input names. */
  readonly inputNames: readonly string[];
  /** The graph's output names. */
  readonly outputNames: readonly string[];
  /** Runs the graph on `feeds` and returns the output named `output`. */
  run(feeds: Record<string, Int64Input>, output: string): Promise<FloatOutput>;
  /** Frees the session. */
  close(): Promise<void>;
}

/**
 * The model files a session is made from.
 *
 * @internal
 */
export interface GraphFiles {
  /** The `.onnx` graph. */
  graph: string;
  /** External weights beside the graph (the graph names them by file name), if any. */
  weights?: string;
}

/**
 * onnxruntime-node 1.30.0's library overflows the main thread's stack,
 * aborting the process, when it creates a session in a process whose command
 * line is longer than about 28,000 bytes (measured on Linux x64: a `heimdall
 * search` of a pasted log). Past this many bytes of arguments the native
 * backend is not tried; the rest of the command line (the runtime's path and
 * flags) fits in the margin.
 */
export const NATIVE_MAX_ARG_BYTES = 16_384;

/** Why the native backend must not be loaded in this process, or null. */
function nativeRefused(): string | null {
  const bytes = Deno.args.reduce((a, arg) => a + new TextEncoder().encode(arg).length + 1, 0);
  if (bytes <= NATIVE_MAX_ARG_BYTES) return null;
  return `native onnxruntime not loaded: this command line holds ${bytes} bytes of arguments, and onnxruntime-node aborts the process (stack overflow) on a command line over about 28,000 bytes; pass a shorter query (at most ${NATIVE_MAX_ARG_BYTES} bytes) to use it`;
}

/** Opens `files` on the backend `options` asks for; see the module doc for the rules. */
export async function openSession(files: GraphFiles, options: RuntimeOptions): Promise<Session> {
  const env = Deno.env.get("HEIMDALL_EMBED_BACKEND");
  const want = options.backend ?? (env === "native" || env === "wasm" ? env : "auto");
  const threads = options.threads ?? defaultThreads();
  let fallback: string | null = null;
  const refused = want === "wasm" ? null : nativeRefused();
  if (refused !== null) {
    if (want === "native") throw new NativeUnavailableError(refused);
    fallback = refused;
  } else if (want !== "wasm") {
    try {
      const native = await loadOrtNative(options.libDir, options.nativeLoad ?? "auto");
      const s = await native.open(files.graph, threads);
      return nativeSession(
        s,
        native.Tensor,
        threads,
        `onnxruntime-node ${NATIVE_VERSION} (${
          native.how === "package" ? "npm package" : `extracted to ${native.libDir}`
        })`,
      );
    } catch (e) {
      if (want === "native") throw e;
      fallback = (e as Error).message;
    }
  }
  return await wasmSession(files, threads, fallback);
}

function nativeSession(
  s: NativeSession,
  Tensor: new (type: "int64", data: BigInt64Array, dims: readonly number[]) => unknown,
  threads: number,
  detail: string,
): Session {
  return {
    backend: "native",
    threads,
    detail,
    fallback: null,
    inputNames: s.inputNames,
    outputNames: s.outputNames,
    async run(feeds, output) {
      const tensors = Object.fromEntries(
        Object.entries(feeds).map(([k, v]) => [k, new Tensor("int64", v.data, v.dims)]),
      );
      const out = (await s.run(tensors, [output]))[output];
      return checkFloat(out, output);
    },
    close: () => s.release(),
  };
}

async function wasmSession(
  files: GraphFiles,
  threadsWanted: number,
  fallback: string | null,
): Promise<Session> {
  const { ort, threads } = await loadOrtWasm(threadsWanted);
  const graph = await Deno.readFile(files.graph);
  const externalData = files.weights
    ? [{
      path: basename(files.weights),
      data: await Deno.readFile(files.weights),
    }]
    : undefined;
  const s = await ort.InferenceSession.create(graph, {
    executionProviders: ["wasm"],
    graphOptimizationLevel: "all",
    ...(externalData ? { externalData } : {}),
  });
  // One run at a time: the WASM backend shares one heap and thread pool.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    backend: "wasm",
    threads,
    detail: `onnxruntime-web ${ort.env.versions.web} (WebAssembly SIMD, ${threads} thread${
      threads === 1 ? "" : "s"
    })`,
    fallback,
    inputNames: s.inputNames,
    outputNames: s.outputNames,
    run(feeds, output) {
      const next = queue.then(async () => {
        const tensors = Object.fromEntries(
          Object.entries(feeds).map(([k, v]) => [k, new ort.Tensor("int64", v.data, [...v.dims])]),
        );
        const out = await s.run(tensors, [output]);
        return checkFloat(out[output], output);
      });
      queue = next.catch(() => {});
      return next;
    },
    close: () => s.release(),
  };
}

function checkFloat(
  t: { dims: readonly number[]; type: string; data: unknown } | undefined,
  name: string,
): FloatOutput {
  if (!t) throw new Error(`the model returned no output "${name}"`);
  if (t.type !== "float32" || !(t.data instanceof Float32Array)) {
    throw new Error(
      `output "${name}" is ${t.type}, expected float32; use a float32 or int8-weight export of the model`,
    );
  }
  return { data: t.data, dims: t.dims };
}
