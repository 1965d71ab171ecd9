/**
 * Builds the single `heimdall` binary with `deno compile`.
 *
 * Permissions and assets come from `build_flags.ts`. Assets are embedded with `--include` and
 * read at run time relative to `import.meta.dirname`, so they load the same
 * way under `deno run` and inside the binary. The runtime base (`denort`) is
 * downloaded by `deno compile` unless `DENORT_BIN` points at a local copy,
 * which deno compile honours as is.
 *
 *   deno task compile [--target x86_64-unknown-linux-gnu] [--output dist/heimdall]
 */
import { parseScriptArgs } from "./script_args.ts";
import { includes, ROOT, RUN_FLAGS, writeBuildInfo } from "./build_flags.ts";

const { values } = parseScriptArgs(
  "compile",
  "deno task compile [--target TRIPLE] [--output PATH] [--dry-run]",
  {
    args: Deno.args,
    options: {
      target: { type: "string" },
      output: { type: "string" },
      "dry-run": { type: "boolean" },
    },
  },
);

// Interrupted (Ctrl-C, a CI job cancelled), the build stops and build_info.json
// still goes: left in the clone, it would be the commit every later
// `deno task heimdall --version` names.
let child: Deno.ChildProcess | undefined;
const signals: Deno.Signal[] = Deno.build.os === "windows"
  ? ["SIGINT"]
  : ["SIGINT", "SIGTERM", "SIGHUP"];
for (const signal of signals) {
  Deno.addSignalListener(signal, () => {
    try {
      child?.kill("SIGTERM");
    } catch {
      // It has already exited.
    }
    removeBuildInfo();
    console.error(`deno compile interrupted (${signal}); no binary was built`);
    Deno.exit(signal === "SIGTERM" ? 143 : signal === "SIGHUP" ? 129 : 130);
  });
}
// The binary's commit lives in build_info.json only while it is compiled: a
// copy left in the clone would make `--version` of a source run name an old commit.
const buildInfo = writeBuildInfo();
const args = [
  "compile",
  "--no-check",
  ...RUN_FLAGS,
  ...includes().flatMap((p) => ["--include", p]),
  "--output",
  values.output ?? "dist/heimdall",
  ...(values.target ? ["--target", values.target] : []),
  "main.ts",
];

const denort = Deno.env.get("DENORT_BIN");
console.error(`deno ${args.join(" ")}${denort ? `   (DENORT_BIN=${denort})` : ""}`);
if (!values["dry-run"]) {
  child = new Deno.Command(Deno.execPath(), { args, cwd: ROOT }).spawn();
}
const { code } = child ? await child.status : { code: 0 };
removeBuildInfo();
if (code !== 0) {
  console.error(
    denort
      ? `deno compile failed; check that DENORT_BIN="${denort}" is a denort binary of deno ${Deno.version.deno}`
      : "deno compile failed; without network, download denort elsewhere and set DENORT_BIN=/path/to/denort",
  );
}
Deno.exit(code);

function removeBuildInfo(): void {
  try {
    Deno.removeSync(buildInfo.path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}
