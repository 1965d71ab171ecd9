/**
 * onnxruntime-node, the native CPU backend (about 4–6× faster than the WASM
 * one on this machine), when this process may load it.
 *
 * Two ways in, tried in order:
 *
 * 1. `import("onnxruntime-node")`: the npm package as published. Under
 *    `deno run` this needs `--allow-ffi` (Deno's permission for Node-API
 *    addons); without it the import fails with `NotCapable`.
 * 2. Extraction, for a compiled binary whose embedded file system cannot hand
 *    a shared library to the dynamic loader: the package's
 *    `bin/napi-v6/<os>/<arch>/` files (the binding and `libonnxruntime`,
 *    found through the binding's `$ORIGIN` runpath) are copied once to
 *    `$HEIMDALL_HOME/lib/onnxruntime-node-<version>/<os>-<arch>/` and the
 *    binding is loaded from there. Also needs `--allow-ffi`.
 *
 * Either failure is reported as {@link NativeUnavailableError} with the
 * reason, and the caller falls back to WASM.
 */
import { EnvironmentError } from "../errors/mod.ts";
import { createRequire } from "node:module";
import { join } from "../files/mod.ts";

/** Why the native backend cannot load here, for `doctor` and the fallback note. */
export class NativeUnavailableError extends EnvironmentError {
  /** The native runtime cannot be loaded here, as `message` says. */
  constructor(message: string) {
    super(message);
    this.name = "NativeUnavailableError";
  }
}

/** The onnxruntime-node version this code is pinned to (deno.json). */
export const NATIVE_VERSION = "1.30.0";

/** A tensor as the binding returns it. */
export interface NativeTensor {
  dims: readonly number[];
  type: string;
  data: unknown;
}

/** A loaded native session, whichever way it was loaded. */
export interface NativeSession {
  inputNames: readonly string[];
  outputNames: readonly string[];
  run(
    feeds: Record<string, unknown>,
    outputs: readonly string[],
  ): Promise<Record<string, NativeTensor>>;
  release(): Promise<void>;
}

/** The native backend: how it was loaded and how to open a session. */
export interface NativeOrt {
  how: "package" | "extracted";
  /** Where the extracted library lives (extraction only). */
  libDir?: string;
  Tensor: new (type: "int64", data: BigInt64Array, dims: readonly number[]) => unknown;
  open(modelPath: string, threads: number): Promise<NativeSession>;
}

const describe = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

/**
 * Loads onnxruntime-node. `mode` "auto" tries the package, then extraction
 * into `libDir`; "package" and "extract" try only that way. Throws
 * {@link NativeUnavailableError} naming each failure.
 */
export async function loadOrtNative(
  libDir: string,
  mode: "auto" | "package" | "extract" = "auto",
): Promise<NativeOrt> {
  if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") {
    throw new NativeUnavailableError(
      "native onnxruntime needs --allow-ffi (Deno's permission to load Node-API addons)",
    );
  }
  const failures: string[] = [];
  if (mode !== "extract") {
    try {
      return await fromPackage();
    } catch (e) {
      failures.push(`onnxruntime-node package: ${describe(e)}`);
    }
  }
  if (mode !== "package") {
    try {
      return await fromExtracted(libDir);
    } catch (e) {
      failures.push(`extracted library: ${describe(e)}`);
    }
  }
  const ffi = failures.some((f) => /ffi/i.test(f));
  throw new NativeUnavailableError(
    `native onnxruntime unavailable (${failures.join("; ")})${
      ffi ? "; run with --allow-ffi to use it" : ""
    }`,
  );
}

async function fromPackage(): Promise<NativeOrt> {
  const ort = await import("onnxruntime-node");
  return {
    how: "package",
    Tensor: ort.Tensor as unknown as NativeOrt["Tensor"],
    async open(modelPath, threads) {
      const s = await ort.InferenceSession.create(modelPath, {
        executionProviders: ["cpu"],
        graphOptimizationLevel: "all",
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
        // A failed run is thrown and reported by the caller; onnxruntime's own colored
        // log line on stderr would say it a second time, in the middle of the output.
        logSeverityLevel: 4,
      });
      return {
        inputNames: s.inputNames,
        outputNames: s.outputNames,
        async run(feeds, outputs) {
          const out = await s.run(feeds as Record<string, InstanceType<typeof ort.Tensor>>, [
            ...outputs,
          ]);
          return out as unknown as Record<string, NativeTensor>;
        },
        release: () => s.release(),
      };
    },
  };
}

interface Binding {
  initOrtOnce(logLevel: number, tensor: unknown, isMainThread: boolean): void;
  InferenceSession: new () => {
    loadModel(path: string, options: Record<string, unknown>): void;
    inputMetadata: { name: string }[];
    outputMetadata: { name: string }[];
    run(
      feeds: Record<string, unknown>,
      fetches: Record<string, null>,
      options: Record<string, unknown>,
    ): Record<string, NativeTensor>;
    dispose(): void;
  };
}

let initialised = false;

async function fromExtracted(libDir: string): Promise<NativeOrt> {
  const platform = `${Deno.build.os === "windows" ? "win32" : Deno.build.os}`;
  const arch = Deno.build.arch === "x86_64" ? "x64" : "arm64";
  const pkg = new URL("../", import.meta.resolve("onnxruntime-node"));
  const src = new URL(`bin/napi-v6/${platform}/${arch}/`, pkg);
  const dir = join(libDir, `onnxruntime-node-${NATIVE_VERSION}`, `${platform}-${arch}`);
  // Under $HEIMDALL_HOME, which is the user's alone (see src/config/private_files.ts).
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  for await (const entry of Deno.readDir(src)) {
    if (!entry.isFile) continue;
    const target = join(dir, entry.name);
    const from = new URL(entry.name, src);
    const size = (await Deno.stat(from)).size;
    const have = await Deno.stat(target).then((s) => s.size, () => -1);
    if (have === size) continue;
    // Copy beside, then rename: two processes extracting at once both end with whole files.
    const tmp = `${target}.${Deno.pid}.tmp`;
    await Deno.writeFile(tmp, await Deno.readFile(from), { mode: 0o600 });
    await Deno.rename(tmp, target);
  }
  const binding = createRequire(import.meta.url)(join(dir, "onnxruntime_binding.node")) as Binding;
  const { Tensor } = await import("onnxruntime-web");
  if (!initialised) {
    binding.initOrtOnce(3, Tensor, true);
    initialised = true;
  }
  return {
    how: "extracted",
    libDir: dir,
    Tensor: Tensor as unknown as NativeOrt["Tensor"],
    open(modelPath, threads) {
      const s = new binding.InferenceSession();
      s.loadModel(modelPath, {
        executionProviders: [{ name: "cpu" }],
        graphOptimizationLevel: "all",
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
        // A failed run is thrown and reported by the caller; onnxruntime's own colored
        // log line on stderr would say it a second time, in the middle of the output.
        logSeverityLevel: 4,
      });
      return Promise.resolve({
        inputNames: s.inputMetadata.map((m) => m.name),
        outputNames: s.outputMetadata.map((m) => m.name),
        run(feeds, outputs) {
          const fetches = Object.fromEntries(outputs.map((o) => [o, null]));
          return Promise.resolve(s.run(feeds, fetches, {}));
        },
        release() {
          s.dispose();
          return Promise.resolve();
        },
      });
    },
  };
}
