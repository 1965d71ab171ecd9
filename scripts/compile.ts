/**
 * Builds the single `heimdall` binary with `deno compile`.
 *
 * Permissions are scoped (never -A; the network is open because the team store
 * and model downloads go to hosts the user configures). Assets are embedded with `--include` and
 * read at run time relative to `import.meta.dirname`, so they load the same
 * way under `deno run` and inside the binary. The runtime base (`denort`) is
 * downloaded by `deno compile` unless `DENORT_BIN` points at a local copy,
 * which deno compile honours as is.
 *
 *   deno task compile [--target x86_64-unknown-linux-gnu] [--output dist/heimdall]
 */
import { parseArgs } from "node:util";
import { existsSync } from "node:fs";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    target: { type: "string" },
    output: { type: "string" },
    "dry-run": { type: "boolean" },
  },
});

const root = new URL("..", import.meta.url).pathname;
const includes = [
  "src/reconcile/watcher_worker.ts",
  "src/reconcile/prepare_worker.ts",
  "src/vector/scan_worker.ts",
  "grammars",
  "wasm",
  "src/extract/queries",
].filter((p) => existsSync(root + p));

const args = [
  "compile",
  "--no-check",
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
  ...includes.flatMap((p) => ["--include", p]),
  "--output",
  values.output ?? "dist/heimdall",
  ...(values.target ? ["--target", values.target] : []),
  "main.ts",
];

const denort = Deno.env.get("DENORT_BIN");
console.error(`deno ${args.join(" ")}${denort ? `   (DENORT_BIN=${denort})` : ""}`);
if (values["dry-run"]) Deno.exit(0);
const { code } = await new Deno.Command(Deno.execPath(), { args, cwd: root }).spawn().status;
if (code !== 0) {
  console.error(
    denort
      ? `deno compile failed; check that DENORT_BIN="${denort}" is a denort binary of deno ${Deno.version.deno}`
      : "deno compile failed; without network, download denort elsewhere and set DENORT_BIN=/path/to/denort",
  );
}
Deno.exit(code);
