/**
 * Release machinery that can run without deno compile's runtime base: the
 * packaging of archives and SHA256SUMS (on a stand-in file: no compile
 * happens here), `release.ts` refusing to build without DENORT_BIN, the smoke
 * test against this checkout's heimdall, install.sh against a loopback HTTP
 * server serving a release folder made here, the Homebrew formula through
 * Ruby's parser, and the release workflow through a YAML parser.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { existsSync } from "node:fs";
import { denoDir, MAIN, needTool, removeTree, tempDir, withTempDir } from "./helpers.ts";
import { archiveName, packArchive, TARGETS } from "../scripts/release_archive.ts";
import { packInto, projectVersion } from "../scripts/release.ts";
import { homebrewFormula, MissingArchiveError } from "../scripts/homebrew_formula.ts";
import { smoke } from "../scripts/smoke_release.ts";
import { includes } from "../scripts/build_flags.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const DENO = Deno.execPath();
const VERSION = projectVersion();
/** Deno's module cache: tests that move HOME keep using it, instead of downloading anew. */
const DENO_DIR = denoDir();

const HAS_RUBY = needTool("ruby", ["--version"], "apt-get install -y ruby");
const HAS_PYTHON = needTool("python3", ["--version"], "apt-get install -y python3");

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(
  cmd: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<Ran> {
  const out = await new Deno.Command(cmd, {
    args,
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
    ...options,
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

const MTIME = new Date("2026-11-30T12:34:56Z");
const STAND_IN = new TextEncoder().encode("#!/bin/sh\necho 'stand-in, not a compiled heimdall'\n");

Deno.test("every Worker module the source starts is embedded in the compiled binary", () => {
  // A Worker is loaded by URL at run time: one missing from `--include`
  // fails only in the binary, the first time that Worker starts.
  const started = new Set<string>();
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(join(ROOT, dir))) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory) walk(rel);
      else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) {
        const text = Deno.readTextFileSync(join(ROOT, rel));
        for (const m of text.matchAll(/new URL\("\.\/([\w.]+_worker\.ts)", import\.meta\.url\)/g)) {
          started.add(`${dir}/${m[1]}`);
        }
      }
    }
  };
  walk("src");
  assert.ok(started.size >= 4, `Worker modules found: ${[...started].join(", ")}`);
  const embedded = new Set(includes());
  assert.deepEqual([...started].filter((w) => !embedded.has(w)), [], "missing from includes()");
});

Deno.test("packArchive() (packaging only, on a stand-in file) makes a tar.gz that tar unpacks to the same bytes, executable", () =>
  withTempDir(async (dir) => {
    const target = "aarch64-apple-darwin";
    const a = await packArchive(VERSION, target, STAND_IN, MTIME);
    assert.equal(a.name, `heimdall-${VERSION}-aarch64-apple-darwin.tar.gz`);
    Deno.writeFileSync(join(dir, a.name), a.bytes);
    const list = await run("tar", ["-tvzf", a.name], { cwd: dir });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^-rwxr-xr-x .* heimdall$/m);
    const x = await run("tar", ["-xzf", a.name], { cwd: dir });
    assert.equal(x.code, 0, x.stderr);
    assert.deepEqual(Deno.readFileSync(join(dir, "heimdall")), STAND_IN);
    const st = Deno.statSync(join(dir, "heimdall"));
    assert.equal(st.mode! & 0o777, 0o755);
    assert.equal(st.mtime?.getTime(), MTIME.getTime());
    // Same input, same bytes: archives are reproducible.
    assert.deepEqual((await packArchive(VERSION, target, STAND_IN, MTIME)).bytes, a.bytes);
  }));

Deno.test({
  name:
    "packArchive() (packaging only, on a stand-in file) makes the Windows zip that Python's zipfile checks and unpacks",
  ignore: !HAS_PYTHON,
  async fn() {
    const dir = tempDir();
    try {
      const a = await packArchive(VERSION, "x86_64-pc-windows-msvc", STAND_IN, MTIME);
      assert.equal(a.name, `heimdall-${VERSION}-x86_64-pc-windows-msvc.zip`);
      Deno.writeFileSync(join(dir, a.name), a.bytes);
      const py = [
        "import sys, zipfile",
        "z = zipfile.ZipFile(sys.argv[1])",
        "assert z.testzip() is None, 'bad CRC'",
        "i = z.getinfo('heimdall.exe')",
        "print(oct(i.external_attr >> 16 & 0o777), i.date_time)",
        "sys.stdout.buffer.write(z.read('heimdall.exe'))",
      ].join("\n");
      const r = await run("python3", ["-c", py, a.name], { cwd: dir });
      assert.equal(r.code, 0, r.stderr);
      const [head, ...body] = r.stdout.split("\n");
      assert.equal(head, "0o755 (2026, 11, 30, 12, 34, 56)");
      assert.equal(body.join("\n"), new TextDecoder().decode(STAND_IN));
    } finally {
      removeTree(dir);
    }
  },
});

Deno.test("writeSums() writes SHA256SUMS that sha256sum -c accepts, and rejects a changed archive", () =>
  withTempDir(async (dir) => {
    for (const t of Object.keys(TARGETS)) await packInto(dir, VERSION, t, STAND_IN, MTIME);
    Deno.writeTextFileSync(join(dir, "notes.txt"), "not an archive");
    const sums = Deno.readTextFileSync(join(dir, "SHA256SUMS"));
    assert.deepEqual(
      sums.trim().split("\n").map((l) => l.split("  ")[1]),
      Object.keys(TARGETS).map((t) => archiveName(VERSION, t)).sort(),
    );
    const ok = await run("sha256sum", ["-c", "SHA256SUMS"], { cwd: dir });
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    const zip = archiveName(VERSION, "x86_64-pc-windows-msvc");
    Deno.writeFileSync(join(dir, zip), STAND_IN);
    const bad = await run("sha256sum", ["-c", "SHA256SUMS"], { cwd: dir });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stdout, new RegExp(`${zip.replaceAll(".", "\\.")}: FAILED`));
  }));

Deno.test("release.ts build without DENORT_BIN refuses, saying the runtime base cannot be downloaded here and how to provide it", () =>
  withTempDir(async (dir) => {
    const script = join(ROOT, "scripts", "release.ts");
    const r = await run(DENO, ["run", "-A", script, "build", "--out", dir], {
      env: { DENORT_BIN: "", DENO_NO_UPDATE_CHECK: "1" },
    });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /DENORT_BIN is not set/);
    assert.match(r.stderr, /runtime base \(denort\) cannot be downloaded on this machine/);
    assert.match(r.stderr, /DENORT_BIN=\/path\/to\/denort/);
    assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing was built");
    const bad = await run(DENO, ["run", "-A", script, "build", "--out", dir], {
      env: { DENORT_BIN: join(dir, "no-such-denort"), DENO_NO_UPDATE_CHECK: "1" },
    });
    assert.equal(bad.code, 3, bad.stderr);
    assert.ok(bad.stderr.includes(`DENORT_BIN="${join(dir, "no-such-denort")}"`), bad.stderr);
    assert.match(bad.stderr, /release: deno compile for \S+ failed/);
    assert.ok(!existsSync(join(dir, "SHA256SUMS")), "no archive, no SHA256SUMS");
    const t = await run(DENO, ["run", "-A", script, "pack", "--target", "sparc", "--binary", MAIN]);
    assert.equal(t.code, 2);
    assert.match(
      t.stderr,
      /Unknown target "sparc"; releases are built for x86_64-unknown-linux-gnu/,
    );
  }));

Deno.test("compile.ts interrupted mid-build removes build_info.json, so --version from source names the clone's commit again", async () => {
  const dir = tempDir();
  // A runtime base that never arrives: deno compile waits reading this FIFO.
  // `holder` is its writer: it says "opened" once deno compile opened it, and
  // ending `holder` ends deno compile's wait (EOF), fixed or not.
  const fifo = join(dir, "denort");
  const made = await run("mkfifo", [fifo]);
  assert.equal(made.code, 0, made.stderr);
  const holder = new Deno.Command("sh", {
    args: ["-c", 'exec 3>"$0"; echo opened; exec sleep 600', fifo],
    stdin: "null",
    stdout: "piped",
  }).spawn();
  const buildInfo = join(ROOT, "build_info.json");
  const child = new Deno.Command(DENO, {
    args: ["run", "-A", join(ROOT, "scripts", "compile.ts"), "--output", join(dir, "heimdall")],
    cwd: ROOT,
    env: { DENORT_BIN: fifo, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  try {
    // The first line only: `sleep` keeps holder's stdout open.
    const opened = holder.stdout.getReader().read();
    const first = await Promise.race([
      opened.then(() => "compiling"),
      child.status.then(() => "exited"),
    ]);
    if (first !== "compiling") assert.fail(`compile.ts ended before compiling: ${await stderr}`);
    assert.ok(existsSync(buildInfo), "build_info.json is there while the binary compiles");
    child.kill("SIGINT");
    const { code } = await child.status;
    holder.kill(); // a deno compile left running reads EOF, fails and exits
    const said = await stderr;
    assert.equal(code, 130, said);
    assert.match(said, /deno compile interrupted \(SIGINT\); no binary was built/);
    assert.ok(!existsSync(buildInfo), "build_info.json left in the clone");
  } finally {
    try {
      holder.kill();
    } catch {
      // Already ended.
    }
    await holder.status;
    await holder.stdout.cancel().catch(() => {});
    await child.status;
    await stderr;
    removeTree(dir);
  }
});

Deno.test("the release smoke test passes on this checkout's heimdall and fails on a binary that only echoes", async () => {
  const good = await smoke([DENO, "run", "-A", "--quiet", MAIN]);
  assert.deepEqual(good.map((r) => [r.check, r.ok]), [
    ["version", true],
    ["index", true],
    ["search", true],
    ["hook", true],
    ["mcp", true],
  ], JSON.stringify(good));
  const echo = await smoke(["/bin/echo", `heimdall ${VERSION}`]);
  assert.deepEqual(echo.map((r) => [r.check, r.ok]), [
    ["version", true],
    ["index", true],
    ["search", false],
  ]);
});

// ------------------------------------------------------------------ install.sh

/** This machine's target triple, as install.sh detects it. */
function hostTarget(): string {
  const os = Deno.build.os === "darwin" ? "apple-darwin" : "unknown-linux-gnu";
  return `${Deno.build.arch}-${os}`;
}

/**
 * A release folder: every target's archive holding a launcher that runs this
 * checkout's heimdall (standing in for the compiled binary, which needs
 * denort), and SHA256SUMS.
 */
async function makeRelease(dir: string, targets = Object.keys(TARGETS)): Promise<void> {
  const launcher = new TextEncoder().encode(
    `#!/bin/sh\nexec '${DENO}' run --quiet -A '${MAIN}' "$@"\n`,
  );
  for (const t of targets) await packInto(dir, VERSION, t, launcher, MTIME);
}

/** Serves a folder on 127.0.0.1; records the paths asked for. */
function serveFolder(dir: string) {
  const asked: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const name = decodeURIComponent(new URL(req.url).pathname).replace(/^\/+/, "");
    asked.push(name);
    try {
      return new Response(Deno.readFileSync(join(dir, name)));
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, asked, close: () => server.shutdown() };
}

/**
 * Runs `body` with a fresh temp folder (`root`) whose `release` folder holds
 * every target's archive ({@link makeRelease}), served on 127.0.0.1; stops
 * the server and removes the folder after, whatever `body` did.
 */
async function withRelease(
  body: (root: string, server: ReturnType<typeof serveFolder>, release: string) => Promise<void>,
): Promise<void> {
  const root = tempDir();
  const release = join(root, "release");
  await makeRelease(release);
  const server = serveFolder(release);
  try {
    await body(root, server, release);
  } finally {
    await server.close();
    removeTree(root);
  }
}

async function installSh(args: string[], env: Record<string, string>): Promise<Ran> {
  return await run("sh", [join(ROOT, "install.sh"), ...args], {
    env: { DENO_NO_UPDATE_CHECK: "1", DENO_DIR, ...env },
  });
}

function listDir(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  } catch {
    return [];
  }
}

Deno.test("install.sh installs the verified archive for this machine into ~/.local/bin and says how to add it to PATH", async () => {
  await withRelease(async (root, server) => {
    const home = join(root, "home");
    const r = await installSh([], { HOME: home, HEIMDALL_BASE_URL: server.url + "/" });
    assert.equal(r.code, 0, r.stderr);
    const bin = join(home, ".local", "bin", "heimdall");
    const name = archiveName(VERSION, hostTarget());
    assert.deepEqual(server.asked, ["SHA256SUMS", name]);
    assert.ok(r.stderr.includes(`Installed ${bin} (${name}, sha256 verified)`), r.stderr);
    assert.ok(r.stderr.includes(`heimdall ${VERSION}`), "it ran the installed heimdall");
    assert.ok(r.stderr.includes(`${join(home, ".local", "bin")} is not on your PATH`), r.stderr);
    assert.ok(r.stderr.includes(`export PATH="${join(home, ".local", "bin")}:$PATH"`), r.stderr);
    assert.equal(Deno.statSync(bin).mode! & 0o777, 0o755);
    const v = await run(bin, ["--version"], { env: { HEIMDALL_HOME: join(root, "hh"), DENO_DIR } });
    assert.equal(v.code, 0, v.stderr);
    assert.match(v.stdout, new RegExp(`^heimdall ${VERSION.replaceAll(".", "\\.")}`));
    assert.deepEqual(listDir(join(home, ".local", "bin")), ["heimdall"], "no temporary left");
  });
});

Deno.test("install.sh --prefix and --base-url install into PREFIX/bin, silent about a PATH that has it", async () => {
  await withRelease(async (root, server) => {
    const prefix = join(root, "opt heimdall");
    const bin = join(prefix, "bin");
    const r = await installSh(["--prefix", prefix, "--base-url", server.url], {
      HOME: join(root, "home"),
      PATH: `${bin}:${Deno.env.get("PATH")}`,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(listDir(bin), ["heimdall"]);
    assert.ok(!r.stderr.includes("not on your PATH"), r.stderr);
    assert.deepEqual(listDir(join(root, "home")), [], "nothing under HOME");
  });
});

Deno.test("install.sh refuses an archive whose checksum does not match, installing nothing", async () => {
  const root = tempDir();
  const release = join(root, "release");
  await makeRelease(release);
  // The archive served is not the one SHA256SUMS describes (corrupted or tampered with).
  const name = archiveName(VERSION, hostTarget());
  const bytes = Deno.readFileSync(join(release, name));
  bytes[bytes.length - 9]! ^= 0xff;
  Deno.writeFileSync(join(release, name), bytes);
  const server = serveFolder(release);
  try {
    const prefix = join(root, "p");
    const r = await installSh(["--prefix", prefix], {
      HOME: join(root, "home"),
      HEIMDALL_BASE_URL: server.url,
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`checksum mismatch for ${name.replaceAll(".", "\\.")}`));
    assert.match(r.stderr, /nothing was installed/);
    assert.deepEqual(listDir(join(prefix, "bin")), []);
  } finally {
    await server.close();
    removeTree(root);
  }
});

Deno.test("install.sh names this machine's platform when the release has no archive for it", async () => {
  const root = tempDir();
  const release = join(root, "release");
  const others = Object.keys(TARGETS).filter((t) => t !== hostTarget());
  await makeRelease(release, others);
  const server = serveFolder(release);
  try {
    const prefix = join(root, "p");
    const r = await installSh(["--prefix", prefix, "--base-url", server.url], {
      HOME: join(root, "home"),
    });
    assert.equal(r.code, 1, r.stderr);
    assert.ok(
      r.stderr.includes(
        `the release at ${server.url} has no archive for this machine (${hostTarget()})`,
      ),
      r.stderr,
    );
    assert.ok(r.stderr.includes(archiveName(VERSION, others[0]!)), "it lists what the release has");
    assert.deepEqual(server.asked, ["SHA256SUMS"]);
    assert.deepEqual(listDir(join(prefix, "bin")), []);
    const gone = await installSh(["--prefix", prefix, "--base-url", server.url + "/nope"], {
      HOME: join(root, "home"),
    });
    assert.equal(gone.code, 1);
    assert.ok(
      gone.stderr.includes(`could not download ${server.url}/nope/SHA256SUMS`),
      gone.stderr,
    );
  } finally {
    await server.close();
    removeTree(root);
  }
});

Deno.test("install.sh names a prefix it cannot create and the option that fixes it", async () => {
  await withRelease(async (root, server) => {
    // A file where the prefix's folder should be: mkdir fails even for root.
    const prefix = join(root, "taken");
    Deno.writeTextFileSync(prefix, "a file");
    const r = await installSh(["--prefix", prefix, "--base-url", server.url], {
      HOME: join(root, "home"),
    });
    assert.equal(r.code, 1, r.stderr);
    assert.ok(r.stderr.includes(`cannot create ${prefix}/bin; pass --prefix DIR`), r.stderr);
  });
});

Deno.test("install.sh --prefix relative to the folder it runs in installs there and prints an absolute PATH line", async () => {
  await withRelease(async (root, server) => {
    const work = join(root, "work");
    Deno.mkdirSync(work);
    const r = await run("sh", [
      join(ROOT, "install.sh"),
      "--prefix",
      "tools",
      "--base-url",
      server.url,
    ], {
      cwd: work,
      env: { DENO_NO_UPDATE_CHECK: "1", DENO_DIR, HOME: join(root, "home"), PATH: "/usr/bin:/bin" },
    });
    assert.equal(r.code, 0, r.stderr);
    const bin = join(work, "tools", "bin");
    assert.deepEqual(listDir(bin), ["heimdall"]);
    assert.ok(r.stderr.includes(`Installed ${bin}/heimdall (`), r.stderr);
    // "rel/bin" in a PATH line finds heimdall only from the folder the installer ran in.
    assert.ok(r.stderr.includes(`export PATH="${bin}:$PATH"`), r.stderr);
  });
});

Deno.test("install.sh --prefix with an empty value is a usage error, not an install into /bin", () =>
  withTempDir(async (root) => {
    const work = join(root, "work");
    Deno.mkdirSync(work);
    // Nothing is served: a usage error is found before any download.
    const r = await run("sh", [
      join(ROOT, "install.sh"),
      "--prefix",
      "",
      "--base-url",
      "http://127.0.0.1:9",
    ], {
      cwd: work,
      env: { HOME: join(root, "home"), PATH: "/usr/bin:/bin" },
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--prefix needs a folder/);
    assert.deepEqual(listDir(work), []);
  }));

Deno.test("install.sh says when an older heimdall earlier on PATH still answers to heimdall", async () => {
  await withRelease(async (root, server) => {
    const old = join(root, "old bin");
    Deno.mkdirSync(old);
    Deno.writeTextFileSync(join(old, "heimdall"), "#!/bin/sh\necho 'heimdall 0.0.1 (old)'\n", {
      mode: 0o755,
    });
    const prefix = join(root, "p");
    const bin = join(prefix, "bin");
    const r = await installSh(["--prefix", prefix, "--base-url", server.url], {
      HOME: join(root, "home"),
      PATH: `${old}:${bin}:/usr/bin:/bin`,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(listDir(bin), ["heimdall"]);
    // Said nothing, and \`heimdall --version\` in the next shell still said 0.0.1.
    assert.ok(r.stderr.includes(`${join(old, "heimdall")} (heimdall 0.0.1 (old))`), r.stderr);
    assert.ok(r.stderr.includes(`comes before ${bin} on your PATH`), r.stderr);
    const alone = await installSh(["--prefix", prefix, "--base-url", server.url], {
      HOME: join(root, "home"),
      PATH: `${bin}:${old}:/usr/bin:/bin`,
    });
    assert.equal(alone.code, 0, alone.stderr);
    assert.ok(!alone.stderr.includes("comes before"), alone.stderr);
    assert.ok(!alone.stderr.includes("not on your PATH"), alone.stderr);
  });
});

Deno.test("install.sh's PATH line goes to the startup file of the user's shell: zsh's, bash's, fish's own command", async () => {
  await withRelease(async (root, server) => {
    const home = join(root, "home");
    const bin = join(home, ".local", "bin");
    const said = async (shell: string) => {
      const r = await installSh([], {
        HOME: home,
        HEIMDALL_BASE_URL: server.url,
        PATH: "/usr/bin:/bin",
        SHELL: shell,
      });
      assert.equal(r.code, 0, r.stderr);
      return r.stderr;
    };
    // macOS's default shell reads ~/.zshrc, never ~/.profile: the line printed did nothing there.
    assert.ok(
      (await said("/bin/zsh")).includes(`echo 'export PATH="${bin}:$PATH"' >> ~/.zshrc`),
      await said("/bin/zsh"),
    );
    assert.ok((await said("/bin/bash")).includes(`>> ~/.bashrc`));
    assert.ok((await said("/usr/bin/fish")).includes(`fish_add_path ${bin}`));
    assert.ok((await said("/bin/dash")).includes(`>> ~/.profile`));
  });
});

Deno.test("install.sh --help piped to sh (curl … | sh -s -- --help) prints its usage, as run from a file does", async () => {
  const script = Deno.readTextFileSync(join(ROOT, "install.sh"));
  const child = new Deno.Command("sh", {
    args: ["-s", "--", "--help"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(script));
  await w.close();
  const piped = await child.output();
  const fromFile = await run("sh", [join(ROOT, "install.sh"), "--help"]);
  assert.equal(piped.code, 0);
  assert.equal(fromFile.code, 0);
  // Piped, it printed nothing: the text was read from "$0", which is then "sh".
  const said = new TextDecoder().decode(piped.stderr);
  for (const text of [said, fromFile.stderr]) {
    assert.match(text, /--version X\.Y\.Z|--version 0\.1\.0/, text);
    assert.match(text, /--prefix DIR/, text);
    assert.match(text, /HEIMDALL_BASE_URL/, text);
  }
});

Deno.test("install.sh without HOME (a CI job, a service) installs into --prefix, and without either names both", async () => {
  await withRelease(async (root, server) => {
    const prefix = join(root, "p");
    // No HOME at all: it died on "HOME: parameter not set", --prefix or not.
    const env = { DENO_NO_UPDATE_CHECK: "1", DENO_DIR, PATH: "/usr/bin:/bin" };
    const given = await new Deno.Command("sh", {
      args: [join(ROOT, "install.sh"), "--prefix", prefix, "--base-url", server.url],
      clearEnv: true,
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const said = new TextDecoder().decode(given.stderr);
    assert.equal(given.code, 0, said);
    assert.deepEqual(listDir(join(prefix, "bin")), ["heimdall"]);
    const neither = await new Deno.Command("sh", {
      args: [join(ROOT, "install.sh"), "--base-url", server.url],
      clearEnv: true,
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const why = new TextDecoder().decode(neither.stderr);
    assert.equal(neither.code, 2, why);
    assert.match(why, /HOME is not set/);
    assert.match(why, /--prefix DIR/);
  });
});

// ------------------------------------------------------------------ Homebrew

async function formulaFor(dir: string, targets = Object.keys(TARGETS)): Promise<string> {
  for (const t of targets) await packInto(dir, VERSION, t, STAND_IN, MTIME);
  return homebrewFormula({
    version: VERSION,
    baseUrl: "https://example.test/releases/v" + VERSION + "/",
    homepage: "https://example.test/heimdall",
    sums: Deno.readTextFileSync(join(dir, "SHA256SUMS")),
  });
}

Deno.test({
  name: "homebrewFormula() writes Ruby that ruby -c accepts, and a cut-off copy does not",
  ignore: !HAS_RUBY,
  async fn() {
    const dir = tempDir();
    try {
      const file = join(dir, "heimdall.rb");
      Deno.writeTextFileSync(file, await formulaFor(dir));
      const ok = await run("ruby", ["-c", file]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.equal(ok.stdout.trim(), "Syntax OK");
      Deno.writeTextFileSync(file, Deno.readTextFileSync(file).replace(/end\n$/, ""));
      const cut = await run("ruby", ["-c", file]);
      assert.notEqual(cut.code, 0);
    } finally {
      removeTree(dir);
    }
  },
});

Deno.test({
  name:
    "homebrewFormula() picks each OS and CPU's archive and checksum (evaluated by Ruby under a minimal Formula DSL)",
  ignore: !HAS_RUBY,
  async fn() {
    const dir = tempDir();
    try {
      const file = join(dir, "heimdall.rb");
      Deno.writeTextFileSync(file, await formulaFor(dir));
      // Homebrew is not here: a few lines of Ruby give the formula's DSL calls a meaning.
      const dsl = `
        module Hardware; module CPU; def self.arm?; $arm; end; end; end
        class Formula
          def self.method_missing(*) = nil
          def self.test(*) = nil
          def self.on_macos; yield if $os == "macos"; end
          def self.on_linux; yield if $os == "linux"; end
          def self.url(u); $url = u; end
          def self.sha256(s); $sha = s; end
        end
        $os, $arm = ARGV[1], ARGV[2] == "arm"
        load ARGV[0]
        puts "#{$url} #{$sha}"`;
      const sums = new Map(
        Deno.readTextFileSync(join(dir, "SHA256SUMS")).trim().split("\n").map((l) => {
          const [sha, name] = l.split("  ");
          return [name!, sha!];
        }),
      );
      for (
        const [os, cpu, target] of [
          ["macos", "arm", "aarch64-apple-darwin"],
          ["macos", "intel", "x86_64-apple-darwin"],
          ["linux", "arm", "aarch64-unknown-linux-gnu"],
          ["linux", "intel", "x86_64-unknown-linux-gnu"],
        ] as const
      ) {
        const r = await run("ruby", ["-e", dsl, file, os, cpu]);
        assert.equal(r.code, 0, r.stderr);
        const name = archiveName(VERSION, target);
        assert.equal(
          r.stdout.trim(),
          `https://example.test/releases/v${VERSION}/${name} ${sums.get(name)}`,
          `${os} ${cpu}`,
        );
      }
    } finally {
      removeTree(dir);
    }
  },
});

Deno.test("homebrewFormula() names an archive SHA256SUMS lacks", () =>
  withTempDir(async (dir) => {
    await assert.rejects(
      formulaFor(dir, ["x86_64-apple-darwin", "aarch64-apple-darwin"]),
      (e: unknown) => {
        assert.ok(e instanceof MissingArchiveError);
        assert.match(e.message, /SHA256SUMS lists no "heimdall-.*-unknown-linux-gnu\.tar\.gz"/);
        return true;
      },
    );
  }));

// ------------------------------------------------------------------ workflow

Deno.test({
  name:
    "release.yml parses as YAML: a v* tag builds every target with Deno 2.9.6 through deno task compile, smoke-tests, publishes SHA256SUMS",
  ignore: !HAS_RUBY,
  async fn() {
    const file = join(ROOT, ".github", "workflows", "release.yml");
    const r = await run("ruby", [
      "-ryaml",
      "-rjson",
      "-e",
      "puts JSON.generate(YAML.safe_load(File.read(ARGV[0])))",
      file,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const wf = JSON.parse(r.stdout);
    // YAML 1.1 reads the key `on` as true.
    assert.deepEqual((wf.on ?? wf.true).push.tags, ["v*"]);
    const build = wf.jobs.build;
    const matrix = build.strategy.matrix.include as { target: string; exe: string }[];
    assert.deepEqual(matrix.map((m) => m.target).sort(), Object.keys(TARGETS).sort());
    for (const m of matrix) assert.equal(m.exe, TARGETS[m.target]!.exe);
    type Step = { uses?: string; run?: string; with?: Record<string, unknown> };
    for (const job of Object.values(wf.jobs) as { steps: Step[] }[]) {
      for (const s of job.steps.filter((s) => s.uses?.startsWith("denoland/setup-deno"))) {
        assert.equal(String(s.with?.["deno-version"]), "2.9.6");
      }
    }
    const runs = (job: { steps: Step[] }) => job.steps.map((s) => s.run ?? "").join("\n");
    assert.match(runs(build), /deno task compile --target \$\{\{ matrix\.target \}\}/);
    assert.match(runs(build), /scripts\/smoke_release\.ts -- dist\//);
    assert.match(runs(build), /scripts\/release\.ts pack --target/);
    assert.match(runs(wf.jobs.publish), /scripts\/release\.ts sums/);
    assert.match(runs(wf.jobs.publish), /sha256sum -c SHA256SUMS/);
    assert.match(runs(wf.jobs.publish), /gh release create/);
    assert.equal(wf.jobs.publish.permissions.contents, "write");
  },
});

Deno.test("the release scripts answer a wrong option or a missing binary in one line naming it, exit 2", () =>
  withTempDir(async (dir) => {
    const notRunnable = join(dir, "heimdall.txt");
    Deno.writeTextFileSync(notRunnable, "not a program\n", { mode: 0o644 });
    const script = (name: string) => join(ROOT, "scripts", `${name}.ts`);
    const cases: [string[], string][] = [
      [[script("compile"), "--out", join(dir, "h")], 'compile: unknown option "--out"'],
      [[script("release"), "build", "--ouput", dir], 'release: unknown option "--ouput"'],
      [[script("homebrew_formula"), "--sum", dir], 'homebrew_formula: unknown option "--sum"'],
      [
        [script("smoke_release"), "--", join(dir, "dist", "heimdall")],
        `smoke_release: cannot run "${join(dir, "dist", "heimdall")}": no such program`,
      ],
      [
        [script("smoke_release"), notRunnable],
        `smoke_release: cannot run "${notRunnable}": not executable`,
      ],
    ];
    for (const [args, said] of cases) {
      const r = await run(DENO, ["run", "-A", ...args], {
        env: { DENORT_BIN: "", DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
      });
      assert.equal(r.code, 2, r.stderr);
      const lines = r.stderr.trim().split("\n");
      assert.equal(lines.length, 1, r.stderr);
      assert.ok(lines[0]!.startsWith(said), r.stderr);
    }
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["heimdall.txt"]);
    assert.ok(!existsSync(join(ROOT, "build_info.json")), "compile left no build info behind");
  }));
