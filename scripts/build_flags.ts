/**
 * The flags every way of running Heimdall shares: the compiled binary
 * (`scripts/compile.ts`), the `heimdall` command `deno task install` puts on
 * the PATH (`scripts/install_cli.ts`) and the release build. Permissions are
 * scoped (never -A; the network is open because the team store and model
 * downloads go to hosts the user configures).
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gitCommit } from "../src/cli/version.ts";
import { LAZY_IMPORTS } from "../src/harness/install/command.ts";

/**
 * The project root (the folder holding deno.json), with a trailing slash;
 * a file path, so a clone under a folder whose name has a space is named
 * as it is (a URL's `pathname` would spell it `%20`).
 */
export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Permissions and V8 flags of the `heimdall` process, wherever it runs from. */
export const RUN_FLAGS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  // The native ONNX runtime (onnxruntime-node) is a Node-API library.
  "--allow-ffi",
  // Hosts are the user's to choose: the team's PostgreSQL and a model's home.
  "--allow-net",
  "--v8-flags=--expose-gc,--max-semi-space-size=4",
] as const;

/**
 * `deno run`'s arguments up to the subcommand for the `heimdall` command
 * `deno task install` writes: this checkout's `main.ts` with its `deno.json`
 * and exactly the npm versions its `deno.lock` names, each module loaded
 * when first imported, with {@link RUN_FLAGS}. The benchmarks time this
 * command line, the one a user's `heimdall …` runs.
 */
export function installedRunArgs(): string[] {
  return [
    "run",
    "--frozen",
    `--lock=${ROOT}deno.lock`,
    // Each command loads its own modules, not every module the CLI can reach.
    LAZY_IMPORTS,
    "--config",
    `${ROOT}deno.json`,
    ...RUN_FLAGS,
    `${ROOT}main.ts`,
  ];
}

/**
 * Assets read at run time relative to `import.meta.dirname`, embedded in a
 * binary with `--include` (only those present: grammars and wasm are fetched).
 */
export function includes(): string[] {
  return [
    "src/reconcile/watcher_worker.ts",
    "src/reconcile/prepare_worker.ts",
    "src/reconcile/resolve_worker.ts",
    "src/vector/scan_worker.ts",
    "grammars",
    "wasm",
    "src/extract/queries",
    "src/ui/assets",
    "build_info.json",
  ].filter((p) => existsSync(ROOT + p));
}

/**
 * Writes `build_info.json` (the commit a binary is built from; `--version`
 * reads it inside the binary, where there is no git); the caller removes it
 * once the binary is built.
 */
export function writeBuildInfo(): { commit: string; path: string } {
  const commit = gitCommit(ROOT) ?? "unknown";
  const path = `${ROOT}build_info.json`;
  Deno.writeTextFileSync(path, JSON.stringify({ commit }) + "\n");
  return { commit, path };
}
