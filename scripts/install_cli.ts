/**
 * `deno task install` / `deno task uninstall`: puts a `heimdall` command on
 * the PATH that runs this clone's `main.ts` from any folder, with the same
 * permissions as the compiled binary (`build_flags.ts`), through
 * `deno install --global` into `$DENO_INSTALL_ROOT/bin` (default `~/.deno/bin`).
 *
 *   deno task install [--root DIR]
 *   deno task uninstall [--root DIR]
 *
 * `deno install` writes a shell script that runs `deno` from the PATH. When
 * this Deno came from `npx` and no `deno` is on the PATH, the script is
 * pointed at this Deno's own executable instead, and the user is told that it
 * lives in npm's cache.
 */
import { parseArgs } from "node:util";
import { ROOT, RUN_FLAGS } from "./build_flags.ts";

const NAME = "heimdall";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: { root: { type: "string" } },
});
const action = positionals[0] ?? "install";
if (action !== "install" && action !== "uninstall") {
  console.error(`install_cli: unknown action "${action}"; use install or uninstall`);
  Deno.exit(2);
}
const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? "";
const root = values.root ?? Deno.env.get("DENO_INSTALL_ROOT") ?? `${home}/.deno`;
const bin = `${root}/bin`;
const deno = Deno.execPath();

function run(args: string[]): number {
  const out = new Deno.Command(deno, { args, cwd: ROOT, stdout: "inherit", stderr: "piped" })
    .outputSync();
  if (!out.success) Deno.stderr.writeSync(out.stderr);
  return out.code;
}

/** True when `deno` run by name from a shell finds an executable. */
function denoOnPath(): boolean {
  try {
    return new Deno.Command("sh", {
      args: ["-c", "command -v deno"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

if (action === "uninstall") {
  const code = run(["uninstall", "--global", "--root", root, NAME]);
  if (code === 0) console.error(`removed ${bin}/${NAME}`);
  Deno.exit(code);
}

const code = run([
  "install",
  "--global",
  "--force",
  "--root",
  root,
  "--name",
  NAME,
  "--config",
  `${ROOT}deno.json`,
  ...RUN_FLAGS,
  `${ROOT}main.ts`,
]);
if (code !== 0) {
  console.error(`install_cli: deno install failed (exit ${code}); nothing was changed in ${bin}`);
  Deno.exit(code);
}
const shim = `${bin}/${NAME}`;
if (Deno.build.os !== "windows" && !denoOnPath()) {
  const text = Deno.readTextFileSync(shim);
  Deno.writeTextFileSync(shim, text.replace(/^exec deno /m, `exec '${deno}' `));
  console.error(
    `note: no \`deno\` on your PATH, so ${shim} runs ${deno}, which npm may clean from its ` +
      "cache; `npm i -g deno@2.9.6` and `deno task install` again make it permanent",
  );
}
console.error(`installed ${shim}: it runs ${ROOT}main.ts from any folder`);
const path = (Deno.env.get("PATH") ?? "").split(":");
if (!path.includes(bin)) {
  console.error(`add it to your PATH:  export PATH="${bin}:$PATH"`);
}
