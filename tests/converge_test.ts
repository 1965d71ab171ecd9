/**
 * Every path converges or says why not: the home is never indexed, nested
 * roots have one owner per path, unreadable files and names that are not
 * UTF-8 are reported as skipped with their reason (never as drift), and a
 * newline in a file name never breaks one-line output. Real folders, real
 * subprocesses of the CLI and the daemon.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { homePaths } from "../src/config/mod.ts";
import { Journal } from "../src/store/mod.ts";
import {
  cli,
  MAIN,
  nextSecond,
  processThreads,
  removeTree,
  startDaemon,
  tempDir,
  unprivileged,
  waitFor,
  writeTree,
} from "./helpers.ts";

function readIndex(home: string): Journal {
  return Journal.open(homePaths(home).journal, { readOnly: true });
}

/** Every indexed path with its root's path, sorted. */
function owners(home: string): string[] {
  const j = readIndex(home);
  try {
    return j.all<{ root: string; path: string }>(
      "SELECT r.path AS root, p.path FROM paths p JOIN roots r ON r.id = p.root_id ORDER BY p.path",
    ).map((r) => `${r.path} <- ${r.root}`);
  } finally {
    j.close();
  }
}

Deno.test("a home inside a root is never indexed and its own log does not wake the daemon", async () => {
  const base = tempDir();
  const proj = join(base, "proj");
  writeTree(proj, { "src/a.ts": "export function alpha() { return 1; }\n" });
  // The home lies inside the root and is reached through a symlink: both names are excluded.
  const real = join(proj, "hm");
  // Private, as Heimdall keeps its home (it refuses a config others can read).
  Deno.mkdirSync(real, { mode: 0o700 });
  const home = join(base, "homelink");
  Deno.symlinkSync(real, home);
  Deno.writeTextFileSync(
    join(real, "config.json"),
    JSON.stringify({ roots: [{ path: proj, depth: "max" }], auditIntervalSeconds: 3600 }),
    { mode: 0o600 },
  );
  Deno.writeTextFileSync(join(real, "notes.ts"), "export function homeSecretZebra() {}\n");
  try {
    const rec = await cli(home, ["reconcile", "--all"]);
    assert.equal(rec.code, 0, rec.stderr);
    assert.deepEqual(owners(home), [`${proj}/src/a.ts <- ${proj}`]);
    const daemon = await startDaemon(home);
    try {
      const log = join(real, "logs", "daemon.log");
      // Touching the home (its log, its journal) while the daemon idles must not start passes.
      const before = Deno.readTextFileSync(log).split("\n").length;
      for (let i = 0; i < 10; i++) {
        Deno.writeTextFileSync(
          join(real, "notes.ts"),
          `export function homeSecretZebra${i}() {}\n`,
        );
        await new Promise((r) => setTimeout(r, 200));
      }
      // An edit in the root still gets through, so the watcher is alive.
      Deno.writeTextFileSync(join(proj, "src", "b.ts"), "export function beta() {}\n");
      // A bound on "it arrives", not a speed: under a loaded parallel run a pass can wait its turn.
      await waitFor(() => owners(home).length === 2, 60_000, "b.ts indexed by the daemon").catch(
        (e) => {
          throw new Error(
            `${e.message}; the daemon's log:\n${Deno.readTextFileSync(log)}\nits threads:\n${
              processThreads(daemon.pid)
            }`,
          );
        },
      );
      const lines = Deno.readTextFileSync(log).split("\n").length - before;
      // The b.ts pass logs a line or two; a loop on its own log would log dozens a second.
      assert.ok(lines <= 4, `daemon logged ${lines} lines in ~2 s:\n${Deno.readTextFileSync(log)}`);
    } finally {
      await daemon.stop();
    }
    assert.deepEqual(owners(home), [`${proj}/src/a.ts <- ${proj}`, `${proj}/src/b.ts <- ${proj}`]);
    const found = await cli(home, ["search", "homeSecretZebra"]);
    assert.equal(found.code, 1, found.stdout);
    const verify = await cli(home, ["verify"]);
    assert.equal(verify.code, 0, verify.stdout);
    // A root inside the home is refused with the reason and the remedy.
    const add = await cli(home, ["roots", "add", real]);
    assert.equal(add.code, 2);
    assert.match(add.stderr, /inside Heimdall's own home .*never indexed; pass the project folder/);
    const index = await cli(home, ["index", join(real, "logs")]);
    assert.equal(index.code, 2);
    assert.match(index.stderr, /Cannot index .*logs": it lies inside Heimdall's own home/);
  } finally {
    removeTree(base);
  }
});

/** Adds roots in `order`, reconciles, and checks one owner per path and a clean verify. */
async function nestedRoots(order: "outer first" | "inner first"): Promise<void> {
  const base = tempDir();
  const home = join(base, "home");
  const outer = join(base, "outer");
  const inner = join(outer, "pkg", "inner");
  writeTree(outer, {
    "main.ts": "export function outerMain() { return 1; }\n",
    "pkg/inner/lib.ts": "export function innerLib() { return 2; }\n",
    "pkg/inner/deep/x.ts": "export function innerDeep() { return 3; }\n",
  });
  const reconcile = async () => {
    const r = await cli(home, ["reconcile", "--all"]);
    assert.equal(r.code, 0, r.stderr);
  };
  const verify = async () => {
    const v = await cli(home, ["verify"]);
    assert.equal(v.code, 0, `verify after reconcile (${order}):\n${v.stdout}`);
  };
  try {
    for (const r of order === "outer first" ? [outer, inner] : [inner, outer]) {
      assert.equal((await cli(home, ["roots", "add", r])).code, 0);
      await reconcile();
      await verify();
    }
    const both = [
      `${inner}/deep/x.ts <- ${inner}`,
      `${inner}/lib.ts <- ${inner}`,
      `${outer}/main.ts <- ${outer}`,
    ];
    assert.deepEqual(owners(home), both.sort());
    // Reconciling again changes nothing: the ownership is settled.
    const again = await cli(home, ["reconcile", "--all", "--json"]);
    assert.equal(JSON.parse(again.stdout).changed, 0);
    // Removing the inner root hands its files back to the outer one.
    assert.equal((await cli(home, ["roots", "remove", inner])).code, 0);
    await reconcile();
    await verify();
    assert.deepEqual(
      owners(home),
      [
        `${inner}/deep/x.ts <- ${outer}`,
        `${inner}/lib.ts <- ${outer}`,
        `${outer}/main.ts <- ${outer}`,
      ].sort(),
    );
    const hit = await cli(home, ["search", "innerDeep"]);
    assert.equal(hit.code, 0, hit.stdout);
  } finally {
    removeTree(base);
  }
}

Deno.test("nested roots converge when the outer root is added first", async () => {
  await nestedRoots("outer first");
});

Deno.test("nested roots converge when the inner root is added first", async () => {
  await nestedRoots("inner first");
});

Deno.test("a plain reconcile applies roots add and remove, as the roots' help says", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const outer = join(base, "outer");
  const inner = join(outer, "inner");
  writeTree(outer, {
    "a.ts": "export function outerA() {}\n",
    "inner/b.ts": "export function innerB() {}\n",
  });
  // Each step: change the roots, then `heimdall reconcile` with no path and no --all.
  const step = async (args: string[], want: string[]) => {
    const roots = await cli(home, ["roots", ...args]);
    assert.equal(roots.code, 0, roots.stderr);
    const rec = await cli(home, ["reconcile"]);
    assert.equal(rec.code, 0, rec.stderr);
    assert.deepEqual(owners(home), want.sort(), args.join(" "));
    const v = await cli(home, ["verify"]);
    assert.equal(v.code, 0, `verify after roots ${args.join(" ")}:\n${v.stdout}`);
  };
  try {
    await step(["add", outer], [`${outer}/a.ts <- ${outer}`, `${inner}/b.ts <- ${outer}`]);
    await step(["add", inner], [`${outer}/a.ts <- ${outer}`, `${inner}/b.ts <- ${inner}`]);
    // The inner root's files go back to the outer root, not out of the index.
    await step(["remove", inner], [`${outer}/a.ts <- ${outer}`, `${inner}/b.ts <- ${outer}`]);
    const callers = await cli(home, ["callers", "innerB"]);
    assert.match(callers.stdout, /function innerB — /, callers.stderr);
    await step(["remove", outer], []);
  } finally {
    removeTree(base);
  }
});

Deno.test("a file replaced by a folder of its name converges, by path and by audit", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const proj = join(base, "proj");
  const x = join(proj, "a", "x.ts");
  writeTree(proj, { "a/x.ts": "export function alpha() {}\n" });
  try {
    for (const args of [["reconcile", x], ["reconcile", "--all"]]) {
      removeTree(home);
      const first = await cli(home, ["index", "--no-embed", proj]);
      assert.equal(first.code, 0, first.stderr);
      removeTree(x);
      writeTree(x, { "z.ts": "export function zeta() {}\n" });
      // It walked the folder again without end: the writer spun at 100% CPU, deaf to SIGTERM.
      const rec = await cli(home, args, { signal: AbortSignal.timeout(60_000) });
      assert.equal(rec.code, 0, `${args.join(" ")}: ${rec.stderr}`);
      assert.deepEqual(owners(home), [`${x}/z.ts <- ${proj}`], args.join(" "));
      removeTree(x);
      writeTree(proj, { "a/x.ts": "export function alpha() {}\n" });
    }
  } finally {
    removeTree(base);
  }
});

Deno.test("the daemon hands a nested root's files over when it is added, and back when it is removed", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const outer = join(base, "outer");
  const inner = join(outer, "inner");
  writeTree(outer, {
    "a.ts": "export function outerA() {}\n",
    "inner/b.ts": "export function innerB() {}\n",
  });
  try {
    assert.equal((await cli(home, ["roots", "add", outer])).code, 0);
    const daemon = await startDaemon(home);
    try {
      const ownerOf = (rel: string) =>
        owners(home).find((o) => o.startsWith(`${outer}/${rel} <- `))?.split(" <- ")[1];
      await waitFor(() => ownerOf("inner/b.ts") === outer, 15_000, "b.ts indexed under outer");
      const added = await cli(home, ["roots", "add", inner]);
      assert.equal(added.code, 0, added.stderr);
      assert.match(added.stderr, /lies inside the root .*its files now belong to/);
      await waitFor(() => ownerOf("inner/b.ts") === inner, 15_000, "b.ts handed to inner");
      assert.equal((await cli(home, ["roots", "remove", inner])).code, 0);
      await waitFor(() => ownerOf("inner/b.ts") === outer, 15_000, "b.ts handed back to outer");
      assert.equal(owners(home).length, 2);
    } finally {
      await daemon.stop();
    }
    const v = await cli(home, ["verify"]);
    assert.equal(v.code, 0, v.stdout);
  } finally {
    removeTree(base);
  }
});

/** Runs as a user chmod stops (see {@link unprivileged}). */
const PREFIX = unprivileged();

/** Runs the CLI under {@link PREFIX}. */
async function cliAs(home: string, args: string[]) {
  const [cmd, ...pre] = [...PREFIX!, Deno.execPath()];
  const out = await new Deno.Command(cmd!, {
    args: [...pre, "run", "-A", MAIN, ...args],
    env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test({
  name:
    "an unreadable file gets a terminal state with its reason, and reconcile does not wait on it",
  ignore: PREFIX === undefined &&
    (console.error("ignored: running as root without `unshare -U`, chmod 000 stops no read"), true),
  fn: async () => {
    const base = tempDir();
    const home = join(base, "home");
    const repo = join(base, "repo");
    writeTree(repo, {
      "ok.ts": "export function readable() {}\n",
      "locked.ts": "export function lockedAway() {}\n",
      "sub/c.ts": "export function inSub() {}\n",
    });
    // The unprivileged user (nobody, under unshare) must reach everything but locked.ts.
    for (const d of [base, repo, join(repo, "sub")]) Deno.chmodSync(d, 0o777);
    Deno.chmodSync(join(repo, "sub", "c.ts"), 0o644);
    // The home is left for the unprivileged user to create, private and its own.
    Deno.chmodSync(join(repo, "ok.ts"), 0o644);
    Deno.chmodSync(join(repo, "locked.ts"), 0o000);
    try {
      assert.equal((await cliAs(home, ["roots", "add", repo])).code, 0);
      const t0 = performance.now();
      const rec = await cliAs(home, ["reconcile", "--all"]);
      const ms = performance.now() - t0;
      assert.equal(rec.code, 0, rec.stderr);
      assert.match(rec.stdout, /1 unreadable/);
      // Generous: it was 13–30 s when one unreadable file was retried until the deadline.
      assert.ok(ms < 8_000, `reconcile --all took ${Math.round(ms)} ms`);
      const verify = await cliAs(home, ["verify"]);
      assert.equal(verify.code, 0, verify.stdout);
      assert.match(
        verify.stdout,
        /skipped +\S+\/locked\.ts — unreadable: Permission denied.*after 3 attempts.*fix its permissions/,
      );
      const status = await cliAs(home, ["status"]);
      assert.match(status.stdout, /skipped +\S+\/locked\.ts — unreadable: Permission denied/);
      // Nothing stays queued, and a second pass writes nothing (still unreadable, already said).
      const again = JSON.parse((await cliAs(home, ["reconcile", "--all", "--json"])).stdout);
      assert.equal(again.queued, 0);
      assert.equal(again.changed + again.errors, 0);
      // Permissions fixed (mtime unchanged): the next audit reads it.
      Deno.chmodSync(join(repo, "locked.ts"), 0o644);
      assert.equal((await cliAs(home, ["reconcile", "--all"])).code, 0);
      const after = await cliAs(home, ["verify"]);
      assert.equal(after.code, 0, after.stdout);
      assert.doesNotMatch(after.stdout, /skipped/);
      assert.equal((await cliAs(home, ["search", "lockedAway"])).code, 0);
      // Unreadable again after it was indexed: same size and mtime, but the chmod moved its
      // ctime, so the stat screen sees it, and a reconcile records why instead of retrying
      // without end.
      await nextSecond();
      Deno.chmodSync(join(repo, "locked.ts"), 0o000);
      const drift = await cliAs(home, ["verify"]);
      assert.equal(drift.code, 1, drift.stdout);
      assert.match(drift.stdout, /stat .*locked\.ts — same size and mtime, but changed since/);
      assert.match((await cliAs(home, ["reconcile", "--all"])).stdout, /1 unreadable/);
      const recorded = await cliAs(home, ["verify", "--deep"]);
      assert.equal(recorded.code, 0, recorded.stdout);
      assert.match(recorded.stdout, /skipped +\S+\/locked\.ts — unreadable/);
      // A folder that cannot be listed: its files leave the index, and verify says why.
      Deno.chmodSync(join(repo, "sub"), 0o000);
      const gone = await cliAs(home, ["reconcile", "--all"]);
      assert.match(gone.stdout, /1 removed.*1 unreadable/);
      const folder = await cliAs(home, ["verify"]);
      assert.equal(folder.code, 0, folder.stdout);
      assert.match(
        folder.stdout,
        /skipped +\S+\/sub — unreadable: Permission denied.*fix its permissions/,
      );
    } finally {
      Deno.chmodSync(join(repo, "sub"), 0o755);
      removeTree(base);
    }
  },
});

Deno.test("names that are not UTF-8 are reported as skipped; a newline in a name stays escaped on one line", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "ok.py": "def plain_fn():\n    pass\n" });
  // Deno cannot make these names: the shell writes the raw bytes.
  const made = new Deno.Command("sh", {
    args: [
      "-c",
      `cd '${repo}' && printf 'def bad_bytes_fn():\\n    pass\\n' > "$(printf 'a\\377b.py')" &&
       mkdir "$(printf 'dir\\376')" && echo 'x = 1' > "$(printf 'dir\\376')/in.py" &&
       printf 'def newline_fn():\\n    pass\\n' > "$(printf 'two\\nlines.py')"`,
    ],
  }).outputSync();
  assert.ok(made.success, new TextDecoder().decode(made.stderr));
  try {
    assert.equal((await cli(home, ["roots", "add", repo])).code, 0);
    const rec = await cli(home, ["reconcile", "--all"]);
    assert.equal(rec.code, 0, rec.stderr);
    assert.match(rec.stdout, /2 unreadable/);
    const verify = await cli(home, ["verify"]);
    assert.equal(verify.code, 0, verify.stdout);
    const skipped = verify.stdout.split("\n").filter((l) => l.startsWith("skipped"));
    assert.equal(skipped.length, 2, verify.stdout);
    for (const l of skipped) assert.match(l, /file name is not valid UTF-8.*rename it/);
    // The newline file is indexed, and printed as one line with the newline escaped.
    const hit = await cli(home, ["search", "newline_fn"], { cwd: repo });
    assert.equal(hit.code, 0, hit.stdout);
    const first = hit.stdout.split("\n")[0]!;
    assert.match(first, /newline_fn — two\\nlines\.py:1/);
    const deep = await cli(home, ["verify", "--deep"]);
    assert.equal(deep.code, 0, deep.stdout);
  } finally {
    removeTree(base);
  }
});

Deno.test("a reconcile after roots remove counts the dropped root's files as removed", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const keep = join(base, "keep");
  const drop = join(base, "drop");
  writeTree(keep, { "a.ts": "export function keepA() {}\n" });
  writeTree(drop, {
    "b.ts": "export function dropB() {}\n",
    "c.ts": "export function dropC() {}\n",
  });
  try {
    assert.equal((await cli(home, ["index", "--no-embed", keep, drop])).code, 0);
    assert.equal((await cli(home, ["roots", "remove", drop])).code, 0);
    // It said "reconciled 1 path: … 0 removed" while two files left the index.
    const rec = await cli(home, ["reconcile", "--json"]);
    assert.equal(rec.code, 0, rec.stderr);
    assert.equal(JSON.parse(rec.stdout).retracted, 2);
    assert.deepEqual(owners(home), [`${keep}/a.ts <- ${keep}`]);
  } finally {
    removeTree(base);
  }
});

Deno.test("index typed in a root's subfolder says that folder became a root of its own, and how to hand its files back", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const outer = join(base, "my repo");
  const inner = join(outer, "src");
  writeTree(outer, {
    "a.ts": "export function outerA() {}\n",
    "src/b.ts": "export function innerB() {}\n",
  });
  try {
    assert.equal((await cli(home, ["index", outer])).code, 0);
    // Was silent: the summary counted 1 file, and status then listed two roots.
    const sub = await cli(home, ["index"], { cwd: inner });
    assert.equal(sub.code, 0, sub.stderr);
    assert.match(
      sub.stderr,
      /^note: "[^"]*\/my repo\/src" lies inside the root "[^"]*\/my repo"; its files now belong to "[^"]*\/src" \(`heimdall roots remove '[^']*\/my repo\/src'` hands them back\)\n$/,
    );
    const again = await cli(home, ["index"], { cwd: inner });
    assert.equal(again.stderr, "", "a root already there is no news");
    const removed = await cli(home, ["roots", "remove", inner]);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal((await cli(home, ["reconcile", "--all"])).code, 0);
    const roots = JSON.parse((await cli(home, ["status", "--json"])).stdout).roots as {
      path: string;
      files: number;
    }[];
    assert.deepEqual(roots.map((r) => [r.path, r.files]), [[outer, 2]]);
  } finally {
    removeTree(base);
  }
});
