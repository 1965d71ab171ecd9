/** The `heimdall` command from any folder: `deno task install`, INIT_CWD, `--version`. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, tempDir, writeTree } from "./helpers.ts";
import { exists } from "../src/files/mod.ts";
import { selfArgv, shellQuote } from "../src/harness/install/command.ts";

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
  assert.ok(Deno.readTextFileSync(bin).includes(`exec ${shellQuote(DENO)} run `));
  const r = await run("/bin/sh", [bin, "--version"], tempDir(), { PATH: empty });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^heimdall \d+\.\d+\.\d+ \(commit unknown\)/, "no git on that PATH");
});

/** Every file under `dir`, relative. */
function filesUnder(dir: string, rel = ""): string[] {
  return [...Deno.readDirSync(join(dir, rel))].flatMap((e) =>
    e.isDirectory ? filesUnder(dir, join(rel, e.name)) : [join(rel, e.name)]
  );
}

Deno.test("the installed heimdall loads exactly the npm versions in the clone's deno.lock and never rewrites it", async () => {
  const lockPath = `${ROOT}deno.lock`;
  const before = Deno.readFileSync(lockPath);
  // A prefix with a space and a quote: the command script must quote every path.
  const prefix = join(tempDir(), "it's my prefix");
  const installed = await run(DENO, ["task", "install", "--root", prefix], ROOT);
  assert.equal(installed.code, 0, installed.stderr);
  const bin = join(prefix, "bin", "heimdall");
  // Nothing to resolve with but the clone's own config and lock: no copy of either.
  assert.deepEqual(filesUnder(prefix), [join("bin", "heimdall")]);
  // What the command resolves, asked of Deno itself: a `deno` first on the PATH
  // turns the command's `deno run …` into `deno info --json …` with the same flags.
  const wrap = tempDir();
  Deno.writeTextFileSync(
    join(wrap, "deno"),
    [
      "#!/bin/sh",
      '[ "$1" = run ] || exit 64',
      "shift",
      'for a do shift; case "$a" in --allow-*|--v8-flags=*) ;; *) set -- "$@" "$a" ;; esac; done',
      `exec ${shellQuote(DENO)} info --json "$@"`,
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  const info = await run(bin, [], tempDir(), { PATH: `${wrap}:${Deno.env.get("PATH")}` });
  assert.equal(info.code, 0, info.stderr);
  const loaded = Object.keys(JSON.parse(info.stdout).npmPackages as Record<string, unknown>);
  const locked = new Set(Object.keys(JSON.parse(new TextDecoder().decode(before)).npm));
  assert.ok(loaded.some((p) => p.startsWith("hono@")), "the MCP SDK's hono is among them");
  assert.deepEqual(loaded.filter((p) => !locked.has(p)), [], "versions the lock does not name");
  // The real command runs, downloads nothing, and leaves the lock byte for byte.
  const home = tempDir();
  const version = await run(bin, ["--version"], tempDir(), { HEIMDALL_HOME: home });
  assert.equal(version.code, 0, version.stderr);
  assert.doesNotMatch(version.stderr, /Download/);
  assert.deepEqual(Deno.readFileSync(lockPath), before, "deno.lock rewritten");
});

Deno.test("the commands init writes for hooks and the MCP server load only the clone's locked npm versions", async () => {
  const lockPath = `${ROOT}deno.lock`;
  const before = Deno.readFileSync(lockPath);
  const locked = new Set(Object.keys(JSON.parse(new TextDecoder().decode(before)).npm));
  for (const entry of ["main", "hook"] as const) {
    const [deno, ...args] = selfArgv(entry);
    assert.ok(args.includes("--frozen"), `${entry}: ${args.join(" ")}`);
    assert.ok(args.includes(`--lock=${lockPath}`), `${entry}: ${args.join(" ")}`);
    // What that command resolves, asked of Deno with the same flags but `info --json`.
    const flags = args.slice(1).filter((a) => !/^--(allow-|no-prompt|quiet)/.test(a));
    const info = await run(deno!, ["info", "--json", ...flags], tempDir());
    assert.equal(info.code, 0, info.stderr);
    const loaded = Object.keys(JSON.parse(info.stdout).npmPackages as Record<string, unknown>);
    assert.deepEqual(loaded.filter((p) => !locked.has(p)), [], `${entry}: versions not locked`);
  }
  const [deno, ...args] = selfArgv("main");
  const version = await run(deno!, [...args, "--version"], tempDir(), { HEIMDALL_HOME: tempDir() });
  assert.equal(version.code, 0, version.stderr);
  assert.deepEqual(Deno.readFileSync(lockPath), before, "deno.lock rewritten");
});

Deno.test("reinstall replaces deno install's leftovers; uninstall of nothing says so; a file not ours is left alone", async () => {
  const prefix = tempDir();
  const bin = join(prefix, "bin");
  // What `deno install --global` left: its script and a copy of deno.json with its own lock.
  writeTree(bin, {
    "heimdall": "#!/bin/sh\n# generated by deno install\nexec deno run main.ts\n",
    ".heimdall/deno.json": "{}\n",
    ".heimdall/deno.lock": "{}\n",
  });
  const again = await run(DENO, ["task", "install", "--root", prefix], ROOT);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(filesUnder(prefix), [join("bin", "heimdall")]);
  const removed = await run(DENO, ["task", "uninstall", "--root", prefix], ROOT);
  assert.equal(removed.code, 0, removed.stderr);
  assert.deepEqual(filesUnder(prefix), []);
  const none = await run(DENO, ["task", "uninstall", "--root", prefix], ROOT);
  assert.equal(none.code, 0, none.stderr);
  assert.match(none.stderr, new RegExp(`nothing to remove: no heimdall command in ${bin}`));
  assert.doesNotMatch(none.stderr, /backtrace/i);
  // A binary someone else put there (a release's heimdall) is neither replaced nor removed.
  Deno.writeFileSync(join(bin, "heimdall"), new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1]));
  for (const action of ["install", "uninstall"]) {
    const r = await run(DENO, ["task", action, "--root", prefix], ROOT);
    assert.equal(r.code, 1, `${action}: ${r.stderr}`);
    assert.match(r.stderr, /was not written by `deno task install`/);
    assert.equal(Deno.readFileSync(join(bin, "heimdall"))[0], 0x7f, `${action} kept it`);
  }
});

Deno.test("deno task install with a wrong argument says so in one line, exit 2, and installs nothing", async () => {
  const prefix = tempDir();
  const cases: [string[], RegExp][] = [
    [["--prefix", prefix], /unknown option "--prefix"/],
    [["--root"], /--root <value>' argument missing/],
    [["bogus"], /unexpected argument "bogus"/],
  ];
  for (const [args, why] of cases) {
    const r = await run(DENO, ["task", "install", ...args], ROOT, { DENO_INSTALL_ROOT: prefix });
    assert.equal(r.code, 2, r.stderr);
    const said = r.stderr.trim().split("\n").filter((l) => !l.startsWith("Task "));
    assert.equal(said.length, 1, r.stderr);
    assert.match(said[0]!, why);
    assert.match(said[0]!, /usage: deno task install\|uninstall \[--root DIR\]/);
  }
  assert.deepEqual(filesUnder(prefix), []);
});

Deno.test("deno task install --root or DENO_INSTALL_ROOT relative means the folder typed in, not the clone", async () => {
  const typed = tempDir();
  // A name of its own: before the fix the command landed here, inside the clone.
  const rel = `heimdall-root-test-${Deno.pid}`;
  try {
    const byOption = await run(DENO, ["task", "install", "--root", rel], ROOT, { INIT_CWD: typed });
    assert.equal(byOption.code, 0, byOption.stderr);
    const bin = join(typed, rel, "bin");
    assert.ok(byOption.stderr.includes(`installed ${join(bin, "heimdall")}`), byOption.stderr);
    assert.ok(byOption.stderr.includes(`export PATH=${shellQuote(bin)}:`), byOption.stderr);
    const byEnv = await run(DENO, ["task", "uninstall"], ROOT, {
      INIT_CWD: typed,
      DENO_INSTALL_ROOT: rel,
    });
    assert.equal(byEnv.code, 0, byEnv.stderr);
    assert.ok(byEnv.stderr.includes(`removed ${join(bin, "heimdall")}`), byEnv.stderr);
    assert.deepEqual(filesUnder(typed), []);
    assert.throws(
      () => Deno.statSync(join(ROOT, rel)),
      Deno.errors.NotFound,
      "nothing in the clone",
    );
  } finally {
    // Only a failing run leaves it.
    if (exists(join(ROOT, rel))) Deno.removeSync(join(ROOT, rel), { recursive: true });
  }
});

Deno.test("the installed command of a clone moved away says which clone is gone and what to run, exit 3", async () => {
  const base = tempDir();
  const clone = join(base, "my clone");
  const prefix = join(base, "prefix");
  for (const part of ["src", "scripts", "main.ts", "deno.json", "deno.lock"]) {
    Deno.mkdirSync(clone, { recursive: true });
    const cp = await new Deno.Command("cp", { args: ["-R", join(ROOT, part), clone] }).output();
    assert.ok(cp.success, part);
  }
  const installed = await run(DENO, ["task", "install", "--root", prefix], clone);
  assert.equal(installed.code, 0, installed.stderr);
  const bin = join(prefix, "bin", "heimdall");
  assert.equal((await run(bin, ["--version"], base)).code, 0);
  Deno.renameSync(clone, join(base, "moved"));
  const r = await run(bin, ["--version"], base);
  assert.equal(r.code, 3, r.stderr);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.ok(r.stderr.includes(`no ${join(clone, "main.ts")} (moved or deleted?)`), r.stderr);
  assert.ok(r.stderr.includes(`run \`deno task install\` in the clone`), r.stderr);
  assert.ok(r.stderr.endsWith(`rm ${shellQuote(bin)}\n`), r.stderr);
});

Deno.test("selfArgv() names a Homebrew heimdall by its opt link, so the hooks and MCP server init writes survive brew upgrade", () => {
  // Linuxbrew's Cellar path, as /proc/self/exe gives it; `brew upgrade` deletes that folder.
  for (const prefix of ["/home/linuxbrew/.linuxbrew", "/opt/homebrew"]) {
    const cellar = `${prefix}/Cellar/heimdall/0.1.0/bin/heimdall`;
    for (const entry of ["main", "hook"] as const) {
      assert.deepEqual(selfArgv(entry, cellar), [`${prefix}/opt/heimdall/bin/heimdall`], entry);
    }
  }
  assert.deepEqual(selfArgv("hook", "/home/a/.local/bin/heimdall"), [
    "/home/a/.local/bin/heimdall",
  ]);
});

Deno.test("selfArgv() under a Homebrew deno names it by its opt link, which brew upgrade deno keeps", () => {
  const cellar = "/home/linuxbrew/.linuxbrew/Cellar/deno/2.9.6/bin/deno";
  for (const entry of ["main", "hook"] as const) {
    const argv = selfArgv(entry, cellar);
    assert.equal(argv[0], "/home/linuxbrew/.linuxbrew/opt/deno/bin/deno", entry);
    assert.equal(argv[1], "run", entry);
  }
  assert.equal(
    selfArgv("main", "/usr/lib/node_modules/deno/deno")[0],
    "/usr/lib/node_modules/deno/deno",
  );
});

Deno.test("with an older deno on the PATH than the one installing, the installed command runs the installing Deno by its path", async () => {
  const prefix = tempDir();
  const old = tempDir(); // a Deno 1 left on the PATH: it cannot read this deno.lock
  Deno.writeTextFileSync(
    join(old, "deno"),
    '#!/bin/sh\n[ "$1" = --version ] && { echo "deno 1.46.3 (stable, release, x86_64-unknown-linux-gnu)"; exit 0; }\necho "error: Unsupported lockfile version \'5\'" >&2\nexit 1\n',
    { mode: 0o755 },
  );
  const path = `${old}:/usr/bin:/bin`;
  const installed = await run(
    DENO,
    ["run", "-A", `${ROOT}scripts/install_cli.ts`, "--root", prefix],
    ROOT,
    { PATH: path },
  );
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(
    installed.stderr,
    /on your PATH is 1\.46\.3, older than this Deno/,
    installed.stderr,
  );
  const bin = join(prefix, "bin", "heimdall");
  assert.ok(Deno.readTextFileSync(bin).includes(`exec ${shellQuote(DENO)} run `));
  // It ran the old deno, which failed on the lock before heimdall said a word.
  const r = await run("/bin/sh", [bin, "--version"], tempDir(), { PATH: path });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^heimdall \d+\.\d+\.\d+ /);
});

Deno.test("deno task heimdall typed in a folder deleted since says so in one line, exit 3, no stack", async () => {
  const gone = join(tempDir(), "deleted-meanwhile");
  const r = await run(DENO, ["run", "-A", "main.ts", "status"], ROOT, {
    INIT_CWD: gone,
    HEIMDALL_HOME: tempDir(),
  });
  assert.equal(r.code, 3, r.stderr);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.ok(r.stderr.includes(`"${gone}" (INIT_CWD), cannot be entered`), r.stderr);
  assert.doesNotMatch(r.stderr, /\bat file:/);
});
