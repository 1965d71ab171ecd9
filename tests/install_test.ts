/** The `heimdall` command from any folder: `deno task install`, INIT_CWD, `--version`. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, tempDir, writeTree } from "./helpers.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const DENO = Deno.execPath();

/** This process's environment without INIT_CWD: under `deno task test` it names the clone. */
function cleanEnv(): Record<string, string> {
  const env = Deno.env.toObject();
  delete env.INIT_CWD;
  return env;
}

async function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const out = await new Deno.Command(cmd, {
    args,
    cwd,
    // A nested `deno task` keeps an INIT_CWD it inherits, as npm does: start from none.
    clearEnv: true,
    env: { ...cleanEnv(), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("--version names Heimdall's version, its commit, Deno and SQLite", async () => {
  const home = tempDir();
  const r = await cli(home, ["--version"]);
  assert.equal(r.code, 0, r.stderr);
  const version = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).version;
  assert.match(
    r.stdout.trim(),
    new RegExp(
      `^heimdall ${
        version.replaceAll(".", "\\.")
      } \\(commit ([0-9a-f]{12}(\\+dirty)?|unknown)\\) · deno ${Deno.version.deno} · sqlite 3\\.\\d+\\.\\d+$`,
    ),
  );
});

Deno.test("deno task install puts a heimdall command on the PATH that works from any folder; uninstall removes it", async () => {
  const prefix = tempDir();
  const home = tempDir();
  const project = tempDir();
  writeTree(project, { "lib/retry.py": "def retry_with_backoff(fn):\n    return fn()\n" });
  const installed = await run(DENO, ["task", "install"], ROOT, { DENO_INSTALL_ROOT: prefix });
  assert.equal(installed.code, 0, installed.stderr);
  const bin = join(prefix, "bin", "heimdall");
  assert.match(installed.stderr, new RegExp(`installed ${bin}`));
  assert.match(installed.stderr, /export PATH=/, "says how to put it on the PATH");
  // From the project: a relative folder is the project's, and the answer names it.
  const env = { HEIMDALL_HOME: home, PATH: `${Deno.env.get("PATH")}` };
  const indexed = await run(bin, ["index", "lib"], project, env);
  assert.equal(indexed.code, 0, indexed.stderr);
  const found = await run(bin, ["search", "--json", "retry with backoff"], project, env);
  assert.equal(found.code, 0, found.stderr);
  const hits = JSON.parse(found.stdout).hits as { path: string; symbol: string }[];
  assert.equal(hits[0]?.path, join(Deno.realPathSync(project), "lib/retry.py"));
  assert.equal(hits[0]?.symbol, "retry_with_backoff");
  const removed = await run(DENO, ["task", "uninstall"], ROOT, { DENO_INSTALL_ROOT: prefix });
  assert.equal(removed.code, 0, removed.stderr);
  assert.throws(() => Deno.statSync(bin), Deno.errors.NotFound);
});

Deno.test("under deno task heimdall, a relative path means the folder the user typed in", async () => {
  const home = tempDir();
  const project = tempDir();
  writeTree(project, { "notes/plan.md": "# Plan\n\nShip the importer.\n" });
  const r = await run(
    DENO,
    ["task", "--quiet", "--config", `${ROOT}deno.json`, "heimdall", "index", "notes"],
    project,
    { HEIMDALL_HOME: home },
  );
  assert.equal(r.code, 0, r.stderr);
  const roots = await cli(home, ["roots"]);
  assert.match(roots.stdout, new RegExp(`^${Deno.realPathSync(project)}/notes\\b`, "m"));
  assert.doesNotMatch(roots.stdout, new RegExp(`^${ROOT}`, "m"), "never the clone");
});

Deno.test("without a deno on the PATH (Deno from npx), the installed command runs this Deno by its path", async () => {
  const prefix = tempDir();
  const empty = tempDir(); // a PATH with nothing on it
  const installed = await run(
    DENO,
    ["run", "-A", `${ROOT}scripts/install_cli.ts`, "--root", prefix],
    ROOT,
    {
      PATH: empty,
    },
  );
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stderr, /no `deno` on your PATH/);
  const bin = join(prefix, "bin", "heimdall");
  assert.match(Deno.readTextFileSync(bin), new RegExp(`exec '${DENO}' run `));
  const r = await run("/bin/sh", [bin, "--version"], tempDir(), { PATH: empty });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^heimdall \d+\.\d+\.\d+ \(commit unknown\)/, "no git on that PATH");
});
