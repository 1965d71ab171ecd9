/**
 * `heimdall service`: the systemd unit passes `systemd-analyze verify`, the
 * launchd agent parses as a property list with the keys launchd needs, and
 * install → status → uninstall round-trips in a temporary home where no
 * service manager can be reached (the files are written, the message says
 * what to run, the exit codes are the documented ones).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, type CliResult, denoDir, MAIN, needTool, PERMS, withTempDir } from "./helpers.ts";
import {
  launchdPlist,
  type ServiceSpec,
  ServiceSpecError,
  systemdUnit,
} from "../src/service/mod.ts";
import { daemonArgv } from "../src/cli/service_cmd.ts";
import { exists } from "../src/files/mod.ts";
import { shellQuote } from "../src/present/shell.ts";

const HAS_ANALYZE = needTool("systemd-analyze", ["--version"], "apt-get install -y systemd");
const HAS_PYTHON = needTool("python3", ["--version"], "apt-get install -y python3");

/** Runs `systemd-analyze verify FILE`; returns its exit code and what it said about FILE. */
function verifyUnit(file: string): { code: number; complaints: string[] } {
  const out = new Deno.Command("systemd-analyze", {
    args: ["verify", file],
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  const said = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  // Keep what concerns our unit; a container's own unit files may draw warnings too.
  const complaints = said.split("\n").filter((l) => l.includes("heimdall"));
  return { code: out.code, complaints };
}

/** Parses a plist with Python's plistlib (a real property-list parser); returns it as JSON. */
function parsePlist(file: string): Record<string, unknown> {
  const out = new Deno.Command("python3", {
    args: [
      "-c",
      "import json, plistlib, sys; print(json.dumps(plistlib.load(open(sys.argv[1], 'rb'))))",
      file,
    ],
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

function spec(root: string, argv = daemonArgv()): ServiceSpec {
  return {
    argv,
    home: join(root, ".heimdall"),
    logFile: join(root, ".heimdall", "logs", "service.log"),
    env: { PATH: "/usr/local/bin:/usr/bin:/bin" },
  };
}

Deno.test({
  name: "systemdUnit() passes systemd-analyze verify, and a broken unit does not",
  ignore: !HAS_ANALYZE,
  fn: () =>
    withTempDir((root) => {
      const file = join(root, "heimdall.service");
      const text = systemdUnit(spec(root));
      assert.match(text, /^Restart=on-failure$/m);
      assert.match(text, /^StandardOutput=append:.*service\.log$/m);
      Deno.writeTextFileSync(file, text);
      assert.deepEqual(verifyUnit(file), { code: 0, complaints: [] });
      // The check can fail: systemd names a bad value and a missing program.
      Deno.writeTextFileSync(file, text.replace("Restart=on-failure", "Restart=sometimes"));
      assert.match(verifyUnit(file).complaints.join("\n"), /restart/i);
      Deno.writeTextFileSync(
        file,
        systemdUnit(spec(root, [join(root, "no-such-heimdall"), "daemon"])),
      );
      assert.notEqual(verifyUnit(file).code, 0);
    }),
});

Deno.test({
  name: "systemdUnit() quotes a program path with a space, % and $ so systemd finds it",
  ignore: !HAS_ANALYZE,
  fn: () =>
    withTempDir((root) => {
      const dir = join(root, "my tools 100% $HOME");
      Deno.mkdirSync(dir);
      const program = join(dir, "heimdall");
      Deno.symlinkSync(Deno.execPath(), program);
      const file = join(root, "heimdall.service");
      Deno.writeTextFileSync(file, systemdUnit(spec(root, [program, "daemon"])));
      // systemd checks that ExecStart's program exists: only the right quoting finds it.
      assert.deepEqual(verifyUnit(file), { code: 0, complaints: [] });
    }),
});

Deno.test({
  name:
    "systemdUnit() writes a home with non-ASCII letters, quotes and a semicolon so systemd loads it",
  ignore: !HAS_ANALYZE,
  fn: () =>
    withTempDir((root) => {
      for (const name of ["josé", `it's "mine";(x)`]) {
        const home = join(root, name);
        Deno.mkdirSync(home);
        const file = join(root, "heimdall.service");
        Deno.writeTextFileSync(
          file,
          systemdUnit({ ...spec(root), home, logFile: join(root, "service.log") }),
        );
        assert.deepEqual(verifyUnit(file), { code: 0, complaints: [] }, name);
      }
    }),
});

Deno.test("systemdUnit() refuses a log path with white space, naming it and the remedy", () => {
  const s = { ...spec("/home/a b"), logFile: "/home/a b/.heimdall/logs/service.log" };
  assert.throws(() => systemdUnit(s), (e: unknown) => {
    assert.ok(e instanceof ServiceSpecError);
    assert.match(e.message, /"\/home\/a b\/\.heimdall\/logs\/service\.log"/);
    assert.match(e.message, /set HEIMDALL_HOME to a folder without spaces/);
    return true;
  });
  assert.throws(() => launchdPlist({ ...s, argv: ["heimdall", "daemon"] }), /absolute path/);
});

Deno.test({
  name: "launchdPlist() parses as a property list with the keys launchd needs",
  ignore: !HAS_PYTHON,
  fn: () =>
    withTempDir((root) => {
      const file = join(root, "agent.plist");
      const odd = join(root, `R&D <tools> "x"`, "heimdall");
      const s = spec(root, [odd, "daemon"]);
      Deno.writeTextFileSync(file, launchdPlist(s));
      const p = parsePlist(file);
      assert.equal(p.Label, "dev.heimdall.daemon");
      assert.deepEqual(p.ProgramArguments, [odd, "daemon"]);
      assert.equal(p.RunAtLoad, true);
      assert.deepEqual(p.KeepAlive, { SuccessfulExit: false });
      assert.equal(p.StandardOutPath, s.logFile);
      assert.equal(p.StandardErrorPath, s.logFile);
      assert.deepEqual(p.EnvironmentVariables, {
        HEIMDALL_HOME: s.home,
        HEIMDALL_SUPERVISOR: "launchd",
        PATH: s.env.PATH,
      });
    }),
});

/** An environment where no user service manager can be reached: empty runtime folder, no bus. */
function isolatedEnv(root: string, extra: Record<string, string> = {}): Record<string, string> {
  const runtime = join(root, "run");
  Deno.mkdirSync(runtime, { recursive: true });
  return {
    HOME: join(root, "home"),
    XDG_CONFIG_HOME: "",
    XDG_RUNTIME_DIR: runtime,
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(runtime, "bus")}`,
    // Deno's module cache stays where it is: HOME moved.
    DENO_DIR: denoDir(),
    ...extra,
  };
}

/** isolatedEnv() with the stand-in service managers in `bin` found first on PATH. */
function managerEnv(root: string, bin: string): Record<string, string> {
  return isolatedEnv(root, { PATH: `${bin}:${Deno.env.get("PATH")}` });
}

/** `heimdall service ACTION --platform PLATFORM`, then `extra`, for `home` in `env`. */
function service(
  home: string,
  action: "install" | "status" | "uninstall",
  platform: string,
  env: Record<string, string>,
  ...extra: string[]
): Promise<CliResult> {
  return cli(home, ["service", action, "--platform", platform, ...extra], { env });
}

Deno.test("service install → status → uninstall round-trips when systemd's user manager is unreachable", () =>
  withTempDir(async (root) => {
    const home = join(root, "home", ".heimdall");
    const env = isolatedEnv(root);
    const unit = join(root, "home", ".config", "systemd", "user", "heimdall.service");

    const installed = await service(home, "install", "linux", env);
    assert.equal(installed.code, 3, installed.stderr);
    assert.equal(installed.stdout.trim(), `Wrote ${unit}`);
    assert.match(installed.stderr, /could not start it: `systemctl --user daemon-reload`/);
    assert.ok(
      installed.stderr.includes(
        "systemctl --user daemon-reload && systemctl --user enable --now heimdall.service",
      ),
      installed.stderr,
    );
    assert.ok(installed.stderr.includes("heimdall daemon"), installed.stderr);
    const text = Deno.readTextFileSync(unit);
    assert.ok(text.includes(`Environment=HEIMDALL_HOME=${home}`), text);
    // A daemon whose code an upgrade replaced exits for systemd to start the new build.
    assert.ok(text.includes("Environment=HEIMDALL_SUPERVISOR=systemd"), text);
    assert.ok(text.includes(`append:${join(home, "logs", "service.log")}`), text);
    assert.ok(exists(join(home, "logs")), "the log folder exists for the service");
    if (HAS_ANALYZE) assert.deepEqual(verifyUnit(unit), { code: 0, complaints: [] });

    Deno.writeTextFileSync(join(home, "logs", "daemon.log"), "one\ntwo\nready\n");
    const status = await service(home, "status", "linux", env);
    assert.equal(status.code, 3, status.stdout + status.stderr);
    assert.ok(status.stdout.includes(`Service: systemd user unit ${unit}`), status.stdout);
    assert.match(status.stdout, /^State: unknown: `systemctl --user is-active heimdall.service`/m);
    assert.ok(status.stdout.includes(join(home, "logs", "service.log")), status.stdout);
    assert.match(status.stdout, /Last lines of the daemon log:\n {2}one\n {2}two\n {2}ready/);

    const removed = await service(home, "uninstall", "linux", env);
    assert.equal(removed.code, 0, removed.stderr);
    assert.ok(removed.stdout.includes(`Removed ${unit}`), removed.stdout);
    assert.ok(removed.stdout.includes("systemctl --user disable --now heimdall.service"));
    assert.equal(exists(unit), false);

    const after = await service(home, "status", "linux", env);
    assert.equal(after.code, 1, after.stdout + after.stderr);
    assert.match(after.stdout, /^Service: not installed/m);
    const again = await service(home, "uninstall", "linux", env);
    assert.equal(again.code, 0);
    assert.ok(again.stdout.includes(`Nothing to remove: ${unit} does not exist`), again.stdout);
  }));

Deno.test("service install without systemctl or launchctl on PATH writes the file and says what to run", () =>
  withTempDir(async (root) => {
    const home = join(root, "home", ".heimdall");
    const bare = join(root, "empty-bin");
    Deno.mkdirSync(bare);
    const env = isolatedEnv(root, { PATH: bare, XDG_CONFIG_HOME: join(root, "xdg") });
    const unit = join(root, "xdg", "systemd", "user", "heimdall.service");
    const linux = await service(home, "install", "linux", env);
    assert.equal(linux.code, 3, linux.stderr);
    assert.ok(exists(unit), "the unit goes under XDG_CONFIG_HOME");
    assert.match(
      linux.stderr,
      /`systemctl --user daemon-reload` cannot run: systemctl is not on PATH/,
    );

    const plist = join(root, "home", "Library", "LaunchAgents", "dev.heimdall.daemon.plist");
    const mac = await service(home, "install", "macos", env);
    assert.equal(mac.code, 3, mac.stderr);
    assert.ok(mac.stderr.includes(`launchctl bootstrap gui/$(id -u) ${plist}`), mac.stderr);
    if (HAS_PYTHON) {
      const p = parsePlist(plist);
      assert.deepEqual(p.ProgramArguments, daemonArgv());
      assert.equal(p.StandardErrorPath, join(home, "logs", "service.log"));
    }
    const gone = await service(home, "uninstall", "macos", env);
    assert.equal(gone.code, 0, gone.stderr);
    assert.equal(exists(plist), false);
    assert.ok(gone.stdout.includes("launchctl bootout gui/$(id -u)/dev.heimdall.daemon"));
  }));

Deno.test("service with a wrong action or platform is a usage error naming the value", () =>
  withTempDir(async (root) => {
    const env = isolatedEnv(root);
    const r = await cli(join(root, "h"), ["service", "start"], { env });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not "start"/);
    const p = await cli(join(root, "h"), ["service", "status", "--platform", "windows"], { env });
    assert.equal(p.code, 2);
    assert.match(p.stderr, /--platform "windows" is not one of linux, macos/);
  }));

Deno.test("daemonArgv() runs a compiled binary as itself, a Homebrew one by its opt link, and under deno this checkout's main.ts", () => {
  assert.deepEqual(daemonArgv("/home/a/.local/bin/heimdall"), [
    "/home/a/.local/bin/heimdall",
    "daemon",
  ]);
  assert.deepEqual(daemonArgv("/opt/homebrew/Cellar/heimdall/0.1.0/bin/heimdall"), [
    "/opt/homebrew/opt/heimdall/bin/heimdall",
    "daemon",
  ]);
  assert.equal(
    daemonArgv("/home/linuxbrew/.linuxbrew/Cellar/deno/2.9.6/bin/deno")[0],
    "/home/linuxbrew/.linuxbrew/opt/deno/bin/deno",
    "a Homebrew deno by its opt link: brew upgrade deno deletes the Cellar folder",
  );
  const underDeno = daemonArgv("/usr/bin/deno");
  assert.equal(underDeno[0], "/usr/bin/deno");
  assert.equal(underDeno[1], "run");
  assert.ok(underDeno.includes("--allow-ffi"), "the permissions of the compiled binary");
  assert.deepEqual(underDeno.slice(-2), [
    new URL("../main.ts", import.meta.url).pathname,
    "daemon",
  ]);
});

Deno.test("service install --binary writes that program into the unit; a relative one is a usage error", () =>
  withTempDir(async (root) => {
    const home = join(root, "home", ".heimdall");
    const env = isolatedEnv(root);
    const unit = join(root, "home", ".config", "systemd", "user", "heimdall.service");
    const binary = join(root, "bin", "heimdall");
    Deno.mkdirSync(join(root, "bin"));
    Deno.writeTextFileSync(binary, "#!/bin/sh\n", { mode: 0o755 });
    const r = await cli(home, [
      "service",
      "install",
      "--platform",
      "linux",
      "--binary",
      binary,
    ], { env });
    assert.equal(r.code, 3, r.stderr);
    assert.ok(Deno.readTextFileSync(unit).includes(`\nExecStart=${binary} daemon\n`));
    const rel = await cli(home, ["service", "install", "--binary", "bin/heimdall"], { env });
    assert.equal(rel.code, 2);
    assert.match(rel.stderr, /--binary "bin\/heimdall" must be an absolute path/);
  }));

Deno.test("service install --binary refuses a missing, folder or non-executable program and keeps the unit it had", () =>
  withTempDir(async (root) => {
    const home = join(root, "home", ".heimdall");
    const env = isolatedEnv(root);
    const unit = join(root, "home", ".config", "systemd", "user", "heimdall.service");
    const good = await service(home, "install", "linux", env);
    assert.equal(good.code, 3, good.stderr);
    const before = Deno.readTextFileSync(unit);
    const plain = join(root, "heimdall.txt");
    Deno.writeTextFileSync(plain, "not a program", { mode: 0o644 });
    const cases: [string, RegExp][] = [
      [join(root, "nowhere", "heimdall"), /no such file; pass the absolute path of a heimdall/],
      [root, /is not a file; pass the absolute path/],
      [plain, /is not executable; run `chmod \+x /],
    ];
    for (const [binary, why] of cases) {
      const r = await service(home, "install", "linux", env, "--binary", binary);
      assert.equal(r.code, 2, r.stderr);
      assert.ok(r.stderr.includes(`--binary "${binary}"`), r.stderr);
      assert.match(r.stderr, why);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.equal(Deno.readTextFileSync(unit), before, "the installed unit is untouched");
    }
  }));

Deno.test("service install under deno run carries this shell's DENO_DIR into the unit and the agent, a --binary none", () =>
  withTempDir(async (root) => {
    const home = join(root, "home", ".heimdall");
    const bare = join(root, "empty-bin");
    Deno.mkdirSync(bare);
    const env = isolatedEnv(root, { PATH: bare });
    const unit = join(root, "home", ".config", "systemd", "user", "heimdall.service");
    const linux = await service(home, "install", "linux", env);
    assert.equal(linux.code, 3, linux.stderr);
    assert.ok(
      Deno.readTextFileSync(unit).includes(`\nEnvironment=DENO_DIR=${denoDir()}\n`),
      Deno.readTextFileSync(unit),
    );
    if (HAS_PYTHON) {
      const mac = await service(home, "install", "macos", env);
      assert.equal(mac.code, 3, mac.stderr);
      const p = parsePlist(
        join(root, "home", "Library", "LaunchAgents", "dev.heimdall.daemon.plist"),
      );
      assert.equal((p.EnvironmentVariables as Record<string, string>).DENO_DIR, denoDir());
    }
    const binary = join(root, "heimdall");
    Deno.writeTextFileSync(binary, "#!/bin/sh\n", { mode: 0o755 });
    const compiled = await cli(home, [
      "service",
      "install",
      "--platform",
      "linux",
      "--binary",
      binary,
    ], {
      env,
    });
    assert.equal(compiled.code, 3, compiled.stderr);
    assert.ok(!Deno.readTextFileSync(unit).includes("DENO_DIR"), "a binary needs no Deno cache");
  }));

Deno.test("service install's launchctl remedy for a user home with a space works pasted into a shell", () =>
  withTempDir(async (root) => {
    const user = join(root, "Jane Doe");
    const home = join(root, "heimdall-home");
    const bare = join(root, "empty-bin");
    Deno.mkdirSync(bare);
    const env = { ...isolatedEnv(root, { PATH: bare }), HOME: user };
    const mac = await service(home, "install", "macos", env);
    assert.equal(mac.code, 3, mac.stderr);
    const printed = mac.stderr.match(/^ {4}(launchctl bootstrap .*)$/m)?.[1];
    assert.ok(printed, mac.stderr);
    // The path was printed bare: the shell split it at "Jane Doe" and launchctl got two paths.
    const words = new Deno.Command("sh", {
      args: ["-c", `launchctl() { printf '%s\\n' "$@"; }; ${printed}`],
    }).outputSync();
    const plist = join(user, "Library", "LaunchAgents", "dev.heimdall.daemon.plist");
    assert.deepEqual(new TextDecoder().decode(words.stdout).trimEnd().split("\n"), [
      "bootstrap",
      `gui/${
        new TextDecoder().decode(new Deno.Command("id", { args: ["-u"] }).outputSync().stdout)
          .trim()
      }`,
      plist,
    ]);
    assert.ok(exists(plist));
  }));

/**
 * A stand-in for the user's systemd (none runs in a container): every command
 * succeeds; `is-active` answers the word in `state` ("active" when absent).
 */
function fakeSystemctl(bin: string, state: string): void {
  Deno.mkdirSync(bin, { recursive: true });
  Deno.writeTextFileSync(
    join(bin, "systemctl"),
    `#!/bin/sh
case "$*" in *is-active*)
  s=$(cat ${shellQuote(state)} 2>/dev/null || echo active)
  echo "$s"; [ "$s" = active ]; exit $? ;;
esac
exit 0
`,
    { mode: 0o755 },
  );
}

Deno.test("service status of a daemon that crashed at start shows why, from the service's output", () =>
  withTempDir(async (root) => {
    const home = join(root, "home", ".heimdall");
    const bin = join(root, "manager-bin");
    const state = join(root, "unit-state");
    fakeSystemctl(bin, state);
    const env = managerEnv(root, bin);
    const installed = await service(home, "install", "linux", env);
    assert.equal(installed.code, 0, installed.stderr);
    // Later the user's systemd answers for a unit whose daemon exited with a failure.
    Deno.writeTextFileSync(state, "failed\n");
    // The daemon the service starts meets a damaged journal and exits 3; its stderr is
    // appended to service.log (StandardError=append:), and daemon.log never gets a line.
    Deno.writeTextFileSync(join(home, "journal.db"), "not a database\n".repeat(400));
    const crashed = await cli(home, ["daemon"], { env });
    assert.equal(crashed.code, 3, crashed.stderr);
    Deno.writeTextFileSync(join(home, "logs", "service.log"), crashed.stdout + crashed.stderr, {
      append: true,
    });
    const status = await service(home, "status", "linux", env);
    assert.equal(status.code, 1, status.stdout + status.stderr);
    assert.match(status.stdout, /^State: failed \(systemctl --user\)$/m);
    const why = crashed.stderr.trim().split("\n").at(-1)!;
    assert.match(why, /damaged/);
    assert.ok(status.stdout.includes(`  ${why}`), status.stdout);
  }));

Deno.test("service install for another HEIMDALL_HOME says which home's service it replaces; the same home again says nothing of it", () =>
  withTempDir(async (root) => {
    const bare = join(root, "empty-bin");
    Deno.mkdirSync(bare);
    const env = isolatedEnv(root, { PATH: bare });
    const work = join(root, "work-heimdall");
    const play = join(root, "play%home");
    for (const platform of ["linux", "macos"]) {
      const first = await service(work, "install", platform, env);
      assert.equal(first.code, 3, first.stderr);
      const second = await service(play, "install", platform, env);
      assert.equal(second.code, 3, second.stderr);
      // One service per user: the daemon for `work` was gone without a word.
      assert.ok(
        second.stdout.includes(`replaces the one for HEIMDALL_HOME "${work}"`),
        `${platform}: ${second.stdout}`,
      );
      const again = await service(play, "install", platform, env);
      assert.ok(!again.stdout.includes("replaces"), `${platform}: ${again.stdout}`);
      await service(play, "uninstall", platform, env);
    }
  }));

/**
 * A stand-in for macOS's launchctl with launchd's documented race: `bootout`
 * returns at once but the label stays in the domain while the job drains (2 s
 * here; launchd waits up to 5 s after its SIGTERM), and `bootstrap` in that
 * window fails with "Bootstrap failed: 5: Input/output error".
 */
function drainingLaunchctl(bin: string, state: string): void {
  Deno.writeTextFileSync(
    join(bin, "launchctl"),
    `#!/bin/sh
state=${shellQuote(state)}
now=$(date +%s)
loaded() { [ -f "$state.loaded" ]; }
draining() { [ -f "$state.until" ] && [ "$now" -lt "$(cat "$state.until")" ]; }
case $1 in
bootout)
  if loaded; then rm -f "$state.loaded"; echo $((now + 2)) > "$state.until"; exit 0; fi
  echo "Boot-out failed: 3: No such process" >&2; exit 3 ;;
print)
  if loaded || draining; then echo "state = running"; exit 0; fi
  echo "Could not find service" >&2; exit 113 ;;
bootstrap)
  if loaded || draining; then echo "Bootstrap failed: 5: Input/output error" >&2; exit 5; fi
  touch "$state.loaded"; echo bootstrap >> "$state.log"; exit 0 ;;
esac
exit 0
`,
    { mode: 0o755 },
  );
}

Deno.test("service install again over a running launchd agent waits for launchd to let it go, then loads the new one", () =>
  withTempDir(async (root) => {
    const home = join(root, "home", ".heimdall");
    const bin = join(root, "manager-bin");
    Deno.mkdirSync(bin);
    const state = join(root, "launchd");
    drainingLaunchctl(bin, state);
    const env = managerEnv(root, bin);
    const first = await service(home, "install", "macos", env);
    assert.equal(first.code, 0, first.stderr);
    // An upgrade's reinstall: bootout, then bootstrap while launchd still drains the old job.
    const again = await service(home, "install", "macos", env);
    assert.equal(again.code, 0, again.stderr);
    assert.ok(exists(`${state}.loaded`), "the agent is loaded: the daemon runs");
    assert.equal(Deno.readTextFileSync(`${state}.log`), "bootstrap\nbootstrap\n");
  }));

Deno.test('service install of a daemon that fails at every start says so, with why, instead of "Started"', () =>
  withTempDir(async (root) => {
    const home = join(root, "home", ".heimdall");
    const bin = join(root, "manager-bin");
    const state = join(root, "unit-state");
    fakeSystemctl(bin, state);
    const env = managerEnv(root, bin);
    // What the daemon the unit starts says, appended to service.log, before systemd
    // restarts it 5 s later (the unit is "activating" until then).
    Deno.mkdirSync(home, { recursive: true });
    Deno.writeTextFileSync(join(home, "journal.db"), "not a database\n".repeat(400));
    const crashed = await cli(home, ["daemon"], { env });
    assert.equal(crashed.code, 3, crashed.stderr);
    Deno.mkdirSync(join(home, "logs"), { recursive: true });
    Deno.writeTextFileSync(join(home, "logs", "service.log"), crashed.stderr);
    Deno.writeTextFileSync(state, "activating\n");
    const installed = await service(home, "install", "linux", env);
    // It said "Started the Heimdall daemon", and the index silently stopped following the code.
    assert.equal(installed.code, 3, installed.stdout + installed.stderr);
    assert.ok(!installed.stdout.includes("Started"), installed.stdout);
    assert.match(installed.stderr, /activating/);
    const why = crashed.stderr.trim().split("\n").at(-1)!;
    assert.ok(installed.stderr.includes(why), installed.stderr);
  }));

Deno.test("service status and uninstall for a home the service does not serve name the home it serves", () =>
  withTempDir(async (root) => {
    const bin = join(root, "manager-bin");
    fakeSystemctl(bin, join(root, "unit-state")); // the unit runs: "active"
    const env = managerEnv(root, bin);
    const work = join(root, "work");
    const other = join(root, "other");
    assert.equal((await service(work, "install", "linux", env)).code, 0);
    const mine = await service(work, "status", "linux", env);
    assert.equal(mine.code, 0, mine.stdout + mine.stderr);
    // It said "State: active", exit 0, with this home's logs: as if this home were served.
    const r = await service(other, "status", "linux", env);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.ok(r.stdout.includes(`serves HEIMDALL_HOME "${work}", not this one`), r.stdout);
    // Uninstalled from the other home, it said "Stopped the Heimdall daemon service." only:
    // the home whose index stopped following the code went unnamed.
    const gone = await service(other, "uninstall", "linux", env);
    assert.equal(gone.code, 0, gone.stdout + gone.stderr);
    assert.ok(
      gone.stdout.includes(`It served HEIMDALL_HOME "${work}", not this one ("${other}")`),
      gone.stdout,
    );
  }));

Deno.test("service install that systemd refuses says what systemd said, not that no manager is reachable", () =>
  withTempDir(async (root) => {
    const home = join(root, "home", ".heimdall");
    const bin = join(root, "manager-bin");
    Deno.mkdirSync(bin);
    // A manager that answers, and cannot find the unit (it reads another XDG_CONFIG_HOME).
    Deno.writeTextFileSync(
      join(bin, "systemctl"),
      '#!/bin/sh\ncase "$*" in *enable*) echo "Failed to enable unit: Unit file heimdall.service does not exist." >&2; exit 1 ;; esac\nexit 0\n',
      { mode: 0o755 },
    );
    const env = managerEnv(root, bin);
    const r = await service(home, "install", "linux", env);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /Unit file heimdall\.service does not exist/);
    assert.ok(!r.stderr.includes("No systemd user manager is reachable"), r.stderr);
  }));

Deno.test("service uninstall of a unit that had failed leaves systemd no failed unit to list", () =>
  withTempDir(async (root) => {
    const home = join(root, "home", ".heimdall");
    const bin = join(root, "manager-bin");
    Deno.mkdirSync(bin);
    // A systemd that keeps a failed unit listed (`systemctl --user --failed`) after its
    // file is gone and it reloaded, until reset-failed, as systemd does.
    const units = join(root, "units");
    Deno.writeTextFileSync(
      join(bin, "systemctl"),
      `#!/bin/sh
f=${shellQuote(units)}
case "$*" in
*enable*) echo "heimdall.service failed" > "$f" ;;
*reset-failed*) : > "$f" ;;
*--failed*) cat "$f" 2>/dev/null ;;
esac
exit 0
`,
      { mode: 0o755 },
    );
    const env = managerEnv(root, bin);
    await service(home, "install", "linux", env);
    const gone = await service(home, "uninstall", "linux", env);
    assert.equal(gone.code, 0, gone.stderr);
    const listed = new Deno.Command(join(bin, "systemctl"), { args: ["--user", "--failed"] })
      .outputSync();
    assert.equal(new TextDecoder().decode(listed.stdout), "", "a failed heimdall.service is left");
  }));

Deno.test("service install run by a Deno that npx fetched says the unit runs a Deno npm may clean", () =>
  withTempDir(async (root) => {
    // Where `npx -y deno@… task heimdall service install` runs Deno from: npm's npx cache.
    const npx = join(root, ".npm", "_npx", "3f2a", "node_modules", "deno");
    Deno.mkdirSync(npx, { recursive: true });
    const deno = join(npx, "deno");
    try {
      Deno.linkSync(Deno.execPath(), deno);
    } catch {
      Deno.copyFileSync(Deno.execPath(), deno);
      Deno.chmodSync(deno, 0o755);
    }
    const bare = join(root, "empty-bin");
    Deno.mkdirSync(bare);
    const out = await new Deno.Command(deno, {
      args: ["run", ...PERMS, MAIN, "service", "install", "--platform", "linux"],
      env: {
        ...isolatedEnv(root, { PATH: bare }),
        HEIMDALL_HOME: join(root, "hh"),
        NO_COLOR: "1",
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 3, stderr);
    const unit = Deno.readTextFileSync(
      join(root, "home", ".config", "systemd", "user", "heimdall.service"),
    );
    assert.ok(unit.includes(`ExecStart=${deno} run`), unit);
    assert.match(stderr, /note: the command written runs .*\/_npx\/.*, a Deno that npx fetched/);
  }));
