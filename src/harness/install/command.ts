/**
 * How a harness should run this Heimdall: the absolute path of the compiled
 * binary, or under `deno run` the Deno executable with the same scoped
 * permissions, this checkout's `deno.json` and `main.ts` — so the command
 * works from any working directory and never picks up a project's own
 * deno.json.
 */
import { dirname, join, lastingBinaryPath, runningUnderDeno } from "../../files/mod.ts";

/** This module's folder: the checkout's files are found from it (`node:url` would cost a hook ~10 ms). */
const HERE = import.meta.dirname!;

/** The permissions `heimdall` runs with (as `scripts/compile.ts` bakes into the binary). */
export const RUN_PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  "--allow-net=127.0.0.1,localhost",
];

export { lastingBinaryPath, runningUnderDeno } from "../../files/mod.ts";

/**
 * The argv that starts Heimdall: `[binary]`, or under `deno run`
 * `[deno, run, …perms, --config, deno.json, ENTRY]` where ENTRY is `main.ts`,
 * or for `hook` the hook's own small entry module (`src/cli/hook_main.ts`),
 * which spares every hook call the analysis of the whole CLI's module graph.
 * Either way the command line continues with the subcommand (`hook`, `mcp`).
 */
export function selfArgv(entry: "main" | "hook" = "main", execPath = Deno.execPath()): string[] {
  if (!runningUnderDeno(execPath)) return [lastingBinaryPath(execPath)];
  const hook = join(HERE, "../../cli/hook_main.ts");
  return denoRunArgv(execPath, RUN_PERMISSIONS, entry === "hook" ? hook : undefined);
}

/**
 * Why the program `execPath` (the Deno or heimdall a hook, MCP server or
 * service is written to run) may not last, or null: a Deno that `npx`
 * fetched (the README's `npx -y deno@… task heimdall …`) lives in npm's npx
 * cache (`~/.npm/_npx/…`), which npm may clean or replace with another
 * version's, and every command written with it then fails; hooks fail
 * open, so without a word.
 */
export function transientProgram(execPath = Deno.execPath()): string | null {
  if (!/[\\/]_npx[\\/]/.test(execPath)) return null;
  return `the command written runs ${execPath}, a Deno that npx fetched into npm's cache, which npm may clean (every hook then fails, silently): \`npm i -g deno@${Deno.version.deno}\` and run this again with that deno, or install heimdall (docs/install.md)`;
}

/**
 * Under `deno run`, a module imported with `import("…")` is read when that
 * line runs, not with the entry module: by default Deno reads and parses
 * every module any `import("…")` could reach before it starts, which is the
 * whole CLI (about 30 ms of every command, hook and search, measured
 * 2026-12-04). `deno compile` still embeds them all.
 */
export const LAZY_IMPORTS = "--unstable-lazy-dynamic-imports";

/**
 * `[deno, run, --quiet, --no-prompt, --frozen, --lock=deno.lock,
 * --unstable-lazy-dynamic-imports, …permissions, --config, deno.json,
 * module]`: runs `module` (default: `main.ts`) of this checkout with its
 * `deno.json` and exactly the npm versions its `deno.lock` names, whatever
 * the working directory (`--frozen`: a hook or service never resolves,
 * downloads or rewrites the lock; one out of date is an error), loading each
 * module when it is first imported ({@link LAZY_IMPORTS}).
 */
export function denoRunArgv(
  execPath: string,
  permissions: readonly string[],
  module?: string,
): string[] {
  const main = join(HERE, "../../../main.ts");
  return [
    lastingBinaryPath(execPath),
    "run",
    "--quiet",
    "--no-prompt",
    "--frozen",
    `--lock=${join(dirname(main), "deno.lock")}`,
    LAZY_IMPORTS,
    ...permissions,
    "--config",
    join(dirname(main), "deno.json"),
    module ?? main,
  ];
}

export { shellLine, shellQuote } from "../../present/shell.ts";
