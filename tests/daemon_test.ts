/** The daemon as a real subprocess: watcher, hints, crashes, races. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { homePaths } from "../src/config/mod.ts";
import { dumpIndex, Journal } from "../src/store/mod.ts";
import { WriterLock } from "../src/reconcile/mod.ts";
import {
  checkoutCopy,
  cli,
  MAIN,
  PERMS,
  removeTree,
  sh,
  startDaemon,
  tempDir,
  unprivileged,
  upgradeCheckout,
  waitFor,
  writeTree,
} from "./helpers.ts";

const sha1 = (bytes: Uint8Array) => createHash("sha1").update(bytes).digest("hex");

function readIndex(home: string): Journal {
  return Journal.open(homePaths(home).journal, { readOnly: true });
}

function rowOf(home: string, path: string): { hash: string | null; n: number } {
  const j = readIndex(home);
  try {
    const r = j.get<{ hash: string | null }>("SELECT hash FROM paths WHERE path = ?", path);
    const n = j.get<{ n: number }>(
      "SELECT count(*) AS n FROM nodes n JOIN paths p ON p.id = n.path_id WHERE p.path = ?",
      path,
    )!.n;
    return { hash: r?.hash ?? null, n };
  } finally {
    j.close();
  }
}

async function verifyClean(home: string): Promise<boolean> {
  return (await cli(home, ["verify", "--deep"])).code === 0;
}

/** A repository of `files` indexed into a fresh home, and a daemon serving that home. */
async function daemonOver(files: Record<string, string>) {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, files);
  await cli(home, ["index", repo]);
  return { base, home, repo, daemon: await startDaemon(home) };
}

Deno.test("40 concurrent writers to one file converge to one node set", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  const file = join(repo, "hot.ts");
  writeTree(repo, { "hot.ts": "start\n" });
  await cli(home, ["index", repo]);
  const daemon = await startDaemon(home);
  try {
    // 40 processes, each rewriting the file 25 times with its own content.
    const writers = Array.from({ length: 40 }, (_, w) =>
      new Deno.Command("bash", {
        args: [
          "-c",
          `for i in $(seq 1 25); do printf 'writer ${w} pass %s\\n%0${
            w + 1
          }d\\n' $i 0 > "${file}"; done`,
        ],
      }).output());
    for (const r of await Promise.all(writers)) assert.equal(r.code, 0);
    const final = Deno.readFileSync(file);
    await waitFor(
      () => rowOf(home, file).hash === sha1(final),
      15_000,
      "the journal to hold the final bytes",
    );
    assert.equal(rowOf(home, file).n, 1, "exactly one file node");
    await waitFor(() => verifyClean(home), 15_000, "verify --deep clean");
  } finally {
    assert.equal(await daemon.stop(), 0, "SIGTERM stops the daemon cleanly");
  }
  removeTree(base);
});

Deno.test("a git checkout between two commits is picked up with no hint at all", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, {
    "a.py": "def a():\n    return 1\n",
    "b.py": "def b(): pass\n",
    "pkg/c.py": "C = 1\n",
  });
  await sh(
    "git init -q && git -c user.email=t@t -c user.name=t add -A && git -c user.email=t@t -c user.name=t commit -qm one",
    repo,
  );
  await sh(
    "echo 'def a():\n    return 2\n' > a.py && git rm -q b.py && mkdir -p new/deep && echo 'D = 4' > new/deep/d.py && git add -A && git -c user.email=t@t -c user.name=t commit -qm two",
    repo,
  );
  await cli(home, ["index", repo]);
  const daemon = await startDaemon(home);
  try {
    await sh("git checkout -q HEAD~1", repo);
    await waitFor(() => verifyClean(home), 15_000, "the journal to follow the checkout");
    const j = readIndex(home);
    const rels = j.all<{ rel: string }>(
      "SELECT rel FROM paths WHERE rel NOT LIKE '.git/%' ORDER BY rel",
    )
      .map((r) => r.rel);
    j.close();
    assert.deepEqual(rels, ["a.py", "b.py", "pkg/c.py"]);
    await sh("git checkout -q -", repo);
    await waitFor(() => verifyClean(home), 15_000, "the journal to follow the second checkout");
    const j2 = readIndex(home);
    const rels2 = j2.all<{ rel: string }>("SELECT rel FROM paths ORDER BY rel").map((r) => r.rel);
    j2.close();
    assert.deepEqual(rels2, ["a.py", "new/deep/d.py", "pkg/c.py"]);
    assert.equal([...Deno.readDirSync(homePaths(home).hints)].length, 0, "no hint was involved");
  } finally {
    await daemon.stop();
  }
  removeTree(base);
});

Deno.test("an edit is in the journal shortly after it lands, through the watcher", async () => {
  const { base, home, repo, daemon } = await daemonOver({ "a.ts": "one\n" });
  try {
    const file = join(repo, "a.ts");
    Deno.writeTextFileSync(file, "two\n");
    await waitFor(
      () => rowOf(home, file).hash === sha1(Deno.readFileSync(file)),
      10_000,
      "the edit",
    );
    const fresh = join(repo, "made", "later", "n.ts");
    Deno.mkdirSync(join(repo, "made", "later"), { recursive: true });
    Deno.writeTextFileSync(fresh, "new\n");
    await waitFor(() => rowOf(home, fresh).hash !== null, 10_000, "a file in a new folder");
    Deno.removeSync(file);
    await waitFor(() => rowOf(home, file).hash === null, 10_000, "the deletion");
  } finally {
    await daemon.stop();
  }
  removeTree(base);
});

Deno.test("a journal deleted under the daemon is made again and indexed: the daemon does not write on into the deleted file", async () => {
  const { base, home, repo, daemon } = await daemonOver({ "a.ts": "export function alpha() {}\n" });
  const journal = homePaths(home).journal;
  /** The file's rows in the journal at the path now, or 0 when there is none yet. */
  const nodesOf = (path: string) => {
    try {
      return rowOf(home, path).n;
    } catch {
      return 0;
    }
  };
  try {
    Deno.removeSync(journal);
    await waitFor(
      () => nodesOf(join(repo, "a.ts")) > 0,
      20_000,
      "a new journal holding the root's file",
    );
    // Edits after it go to the journal everyone else reads.
    const later = join(repo, "b.ts");
    Deno.writeTextFileSync(later, "export function beta() {}\n");
    // Its file's node and beta's: the write creates the file empty first, and a pass may
    // index that before the bytes land (verify below would then catch the daemon stopped
    // before its next pass, not a journal written astray).
    await waitFor(() => nodesOf(later) >= 2, 10_000, "a file made later, in the new journal");
    const log = Deno.readTextFileSync(join(home, "logs", "daemon.log"));
    assert.match(log, /was deleted or replaced while the daemon ran/);
  } finally {
    assert.equal(await daemon.stop(), 0, "the daemon stops cleanly after starting again");
  }
  const verify = await cli(home, ["verify", "--deep"]);
  assert.equal(verify.code, 0, `${verify.stdout}${verify.stderr}`);
  removeTree(base);
});

Deno.test("a home deleted under the daemon stops it, and it does not make the home again", async () => {
  const { base, home, daemon } = await daemonOver({ "a.ts": "export function alpha() {}\n" });
  try {
    Deno.removeSync(home, { recursive: true });
    const exited = await Promise.race([
      daemon.child.status.then((s) => s.code),
      new Promise<"running">((r) => setTimeout(() => r("running"), 15_000)),
    ]);
    assert.equal(exited, 0, "the daemon stopped on its own, cleanly");
    assert.throws(() => Deno.statSync(home), Deno.errors.NotFound, "no home made again");
  } finally {
    await daemon.stop();
  }
  removeTree(base);
});

Deno.test("a daemon started while a one-shot index writes waits for it, then starts; another daemon makes it exit 3", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "a.ts": "export function alpha() {}\n" });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const paths = homePaths(home);
  const log = join(home, "logs", "daemon.log");
  const spawn = () =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", ...PERMS, MAIN, "daemon"],
      env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
  // This process holds the lock as a one-shot `heimdall index` would.
  const lock = await WriterLock.acquire(paths, 300, "index");
  const daemon = spawn();
  try {
    const said = () => {
      try {
        return Deno.readTextFileSync(log).includes("waiting for the one-shot `heimdall index`");
      } catch {
        return false;
      }
    };
    await waitFor(
      said,
      30_000,
      "the daemon to say it waits",
    );
    // It exited 3 at once: a service manager counted a failed start, and gave up after five.
    const early = await Promise.race([
      daemon.status.then((s) => `exited ${s.code}`),
      new Promise<string>((r) => setTimeout(() => r("waiting"), 3000)),
    ]);
    assert.equal(early, "waiting");
    // Status said "daemon   not running (start it with `heimdall daemon`)" of the waiting daemon.
    const status = await cli(home, ["status"]);
    assert.match(
      status.stdout,
      new RegExp(`^daemon {3}waiting, pid ${daemon.pid}: it starts once the one-shot writer`, "m"),
    );
    assert.equal(
      JSON.parse((await cli(home, ["status", "--json"])).stdout).daemon_waiting,
      daemon.pid,
    );
    writeTree(repo, { "b.ts": "export function beta() {}\n" });
    lock.release();
    await waitFor(
      () => rowOf(home, join(repo, "b.ts")).n > 0,
      60_000,
      "b.ts indexed by the daemon once the index let go",
    );
    // A second daemon does not wait for the first: it says who holds the lock and exits 3.
    const second = await spawn().output();
    assert.equal(second.code, 3);
    assert.match(new TextDecoder().decode(second.stderr), /held by the daemon \(pid \d+\)/);
  } finally {
    lock.release();
    try {
      daemon.kill("SIGTERM");
    } catch { /* already gone */ }
    const out = await daemon.output();
    assert.match(
      new TextDecoder().decode(out.stderr),
      /waiting for the one-shot `heimdall index` \(pid \d+\) to finish/,
    );
  }
  removeTree(base);
});

Deno.test("a crash (kill -9) mid-batch leaves nothing that a restart does not repair", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  const files: Record<string, string> = {};
  for (let i = 0; i < 6000; i++) files[`d${i % 60}/f${i}.ts`] = `export const v${i} = ${i};\n`;
  writeTree(repo, files);
  await cli(home, ["roots", "add", repo]);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../main.ts", import.meta.url).pathname, "reconcile", "--all"],
    env: { HEIMDALL_HOME: home },
    stdout: "null",
    stderr: "null",
  }).spawn();
  // Kill once some, but not all, batches have committed.
  await waitFor(
    () => {
      try {
        const j = readIndex(home);
        const n = j.get<{ n: number }>("SELECT count(*) AS n FROM paths")!.n;
        j.close();
        return n > 0;
      } catch {
        return false;
      }
    },
    20_000,
    "the first committed batch",
  );
  child.kill("SIGKILL");
  await child.status;
  const partial = readIndex(home);
  const n = partial.get<{ n: number }>("SELECT count(*) AS n FROM paths")!.n;
  partial.close();
  assert.ok(n < 6000, `killed before the end (${n} committed)`);
  const repaired = await cli(home, ["reconcile", "--all"]);
  assert.equal(repaired.code, 0, repaired.stderr);
  assert.equal((await cli(home, ["verify", "--deep"])).code, 0);
  // The repaired journal equals one built in a single clean run.
  const cleanHome = join(base, "clean");
  await cli(cleanHome, ["index", repo]);
  const a = readIndex(home);
  const b = readIndex(cleanHome);
  assert.equal(dumpIndex(a), dumpIndex(b));
  a.close();
  b.close();
  removeTree(base);
});

/** Whether this machine lets an unprivileged user namespace set its own inotify limit. */
function canLimitWatches(): boolean {
  try {
    const out = new Deno.Command("unshare", {
      args: ["-Ur", "sh", "-c", "echo 4 > /proc/sys/user/max_inotify_watches"],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    return out.code === 0;
  } catch {
    return false;
  }
}

Deno.test({
  name: "past the OS watch limit the daemon says so and the audit still picks up every edit",
  ignore: !canLimitWatches(),
  fn: async () => {
    const base = tempDir();
    const home = join(base, "home");
    const repo = join(base, "repo");
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`d${i}/sub/f.ts`] = `export const v${i} = ${i};\n`;
    writeTree(repo, files);
    await cli(home, ["index", repo]);
    const config = JSON.parse(Deno.readTextFileSync(join(home, "config.json")));
    Deno.writeTextFileSync(
      join(home, "config.json"),
      JSON.stringify({ ...config, auditIntervalSeconds: 1 }),
    );
    // A user namespace of its own, with 4 inotify watches for 25 folders.
    const daemon = await startDaemon(home, 30_000, {
      prefix: [
        "unshare",
        "-Ur",
        "sh",
        "-c",
        'echo 4 > /proc/sys/user/max_inotify_watches && exec "$@"',
        "sh",
      ],
    });
    try {
      await waitFor(
        async () => (await cli(home, ["status"])).stdout.includes("OS file watch limit reached"),
        10_000,
        "status to report the watch limit",
      );
      const status = JSON.parse((await cli(home, ["status", "--json"])).stdout);
      assert.match(status.watch_limit, /raise fs\.inotify\.max_user_watches/);
      const file = join(repo, "d11", "sub", "f.ts");
      Deno.writeTextFileSync(file, "export const changed = true;\n");
      await waitFor(
        () => rowOf(home, file).hash === sha1(Deno.readFileSync(file)),
        10_000,
        "the audit to pick up an edit in an unwatched folder",
      );
    } finally {
      await daemon.stop();
    }
    const after = JSON.parse((await cli(home, ["status", "--json"])).stdout);
    assert.equal(after.watch_limit, null, "a stopped daemon's watch limit is not reported");
    removeTree(base);
  },
});

Deno.test("a file whose name is not UTF-8 leaves the watcher watching: a file made after it is indexed live", async () => {
  const { base, home, repo, daemon } = await daemonOver({ "a.ts": "export function a() {}\n" });
  try {
    // Deno cannot hand over an event naming it ("path contains invalid UTF-8
    // characters"); the watch must go on past it.
    await sh("printf 'export function bad() {}\\n' > $'bad\\xffname.ts'", repo);
    await new Promise((r) => setTimeout(r, 500));
    const b = join(repo, "b.ts");
    Deno.writeTextFileSync(b, "export function b() {}\n");
    // The timed audit is 300 s away: only the watcher brings b.ts in.
    await waitFor(() => rowOf(home, b).hash !== null, 10_000, "b.ts, made after the bad name");
    const c = join(repo, "c.ts");
    Deno.writeTextFileSync(c, "export function c() {}\n");
    await waitFor(() => rowOf(home, c).hash !== null, 10_000, "c.ts, made later still");
  } finally {
    assert.equal(await daemon.stop(), 0);
  }
  removeTree(base);
});

Deno.test("a root removed and made again (a fresh clone) is watched again: files made in it later are indexed live", async () => {
  const { base, home, repo, daemon } = await daemonOver({ "a.ts": "export function one() {}\n" });
  try {
    removeTree(repo);
    await waitFor(() => rowOf(home, join(repo, "a.ts")).hash === null, 10_000, "a.ts retracted");
    writeTree(repo, { "b.ts": "export function two() {}\n" });
    await waitFor(
      () => rowOf(home, join(repo, "b.ts")).hash !== null,
      10_000,
      "b.ts, in the root made again",
    );
    // Found by the audit that follows the new watch, or by the watch: the
    // next file must come through the watch, long before the timed audit.
    await new Promise((r) => setTimeout(r, 500));
    Deno.writeTextFileSync(join(repo, "c.ts"), "export function three() {}\n");
    await waitFor(() => rowOf(home, join(repo, "c.ts")).hash !== null, 10_000, "c.ts, made later");
    // Another folder moved in its place (its inode differs) is watched too.
    Deno.renameSync(repo, join(base, "old"));
    writeTree(repo, { "d.ts": "export function four() {}\n" });
    await waitFor(() => rowOf(home, join(repo, "d.ts")).hash !== null, 10_000, "d.ts");
    await new Promise((r) => setTimeout(r, 500));
    Deno.writeTextFileSync(join(repo, "e.ts"), "export function five() {}\n");
    await waitFor(() => rowOf(home, join(repo, "e.ts")).hash !== null, 10_000, "e.ts");
    await waitFor(() => verifyClean(home), 10_000, "verify --deep clean");
  } finally {
    assert.equal(await daemon.stop(), 0);
  }
  removeTree(base);
});

Deno.test("a root moved back over the link left in its place is watched again: files made in it later are indexed live", async () => {
  const { base, home, repo, daemon } = await daemonOver({ "a.ts": "export function one() {}\n" });
  const real = join(base, "moved");
  try {
    // Moved to another place, with a link left at its path (then a link to the same inode).
    Deno.renameSync(repo, real);
    Deno.symlinkSync(real, repo);
    await new Promise((r) => setTimeout(r, 2_500));
    Deno.writeTextFileSync(join(real, "b.ts"), "export function two() {}\n");
    await waitFor(
      () => rowOf(home, join(repo, "b.ts")).hash !== null,
      10_000,
      "b.ts, via the link",
    );
    // And moved back: the same folder, the same inode, at its path again.
    Deno.removeSync(repo);
    Deno.renameSync(real, repo);
    await new Promise((r) => setTimeout(r, 2_500));
    // The timed audit is 300 s away: only the watcher brings c.ts in.
    Deno.writeTextFileSync(join(repo, "c.ts"), "export function three() {}\n");
    await waitFor(() => rowOf(home, join(repo, "c.ts")).hash !== null, 10_000, "c.ts, made later");
  } finally {
    assert.equal(await daemon.stop(), 0);
  }
  removeTree(base);
});

const PREFIX = unprivileged();

Deno.test({
  name:
    "a folder the daemon may not list (a database volume, mode 700) leaves the rest of its root watched live, and is watched once it can be",
  ignore: PREFIX === undefined &&
    (console.error("ignored: running as root without `unshare -U`, chmod 000 stops no read"), true),
  fn: async () => {
    const base = tempDir();
    const home = join(base, "home");
    const repo = join(base, "repo");
    writeTree(repo, { "src/a.ts": "export function a() {}\n", "data/pg/x.ts": "" });
    Deno.chmodSync(join(repo, "data", "pg"), 0o000);
    await cli(home, ["index", repo]);
    const daemon = await startDaemon(home, 30_000, { prefix: PREFIX! });
    try {
      // The timed audit is 300 s away, and a failed watch is retried after a
      // back-off, each retry with an audit: only a watch that stays up is live.
      await new Promise((r) => setTimeout(r, 1_500));
      const status = JSON.parse((await cli(home, ["status", "--json"])).stdout);
      assert.equal(status.watch_limit, null, "the watch of the root did not fail");
      const b = join(repo, "src", "b.ts");
      Deno.writeTextFileSync(b, "export function b() {}\n");
      await waitFor(() => rowOf(home, b).hash !== null, 10_000, "src/b.ts, indexed live");
      // Listable again: the folder is watched from then on.
      Deno.chmodSync(join(repo, "data", "pg"), 0o755);
      await new Promise((r) => setTimeout(r, 1_500));
      const y = join(repo, "data", "pg", "y.ts");
      Deno.writeTextFileSync(y, "export function y() {}\n");
      await waitFor(() => rowOf(home, y).hash !== null, 10_000, "data/pg/y.ts, indexed live");
      assert.equal(
        JSON.parse((await cli(home, ["status", "--json"])).stdout).watch_limit,
        null,
      );
    } finally {
      assert.equal(await daemon.stop(), 0);
      Deno.chmodSync(join(repo, "data", "pg"), 0o755);
    }
    removeTree(base);
  },
});

Deno.test({
  name:
    "a link out of a root (to / or a folder holding one the daemon may not list) is not followed by the watch, which stays live",
  ignore: PREFIX === undefined &&
    (console.error("ignored: running as root without `unshare -U`, chmod 000 stops no read"), true),
  fn: async () => {
    const base = tempDir();
    const home = join(base, "home");
    const repo = join(base, "repo");
    writeTree(repo, { "src/a.ts": "export function a() {}\n" });
    writeTree(join(base, "outside"), { "locked/x.ts": "", "y.ts": "" });
    Deno.chmodSync(join(base, "outside", "locked"), 0o000);
    Deno.symlinkSync(join(base, "outside"), join(repo, "ext"));
    Deno.symlinkSync(join(base, "outside"), join(repo, "src", "ext"));
    // Within the root, but to a folder that holds a link out.
    Deno.mkdirSync(join(repo, "pkg"));
    Deno.symlinkSync(join(repo, "src"), join(repo, "pkg", "alias"));
    await cli(home, ["index", repo]);
    const daemon = await startDaemon(home, 30_000, { prefix: PREFIX! });
    try {
      await new Promise((r) => setTimeout(r, 1_500));
      const status = JSON.parse((await cli(home, ["status", "--json"])).stdout);
      assert.equal(status.watch_limit, null, "the watch of the root did not fail");
      // The timed audit is 300 s away: only a live watch brings these in.
      for (const rel of ["src/b.ts", "top.ts", "pkg/p.ts"]) {
        const file = join(repo, rel);
        Deno.writeTextFileSync(file, "export function b() {}\n");
        await waitFor(() => rowOf(home, file).hash !== null, 10_000, `${rel}, indexed live`);
      }
      Deno.mkdirSync(join(repo, "later"));
      await new Promise((r) => setTimeout(r, 500));
      const later = join(repo, "later", "c.ts");
      Deno.writeTextFileSync(later, "export function c() {}\n");
      await waitFor(() => rowOf(home, later).hash !== null, 10_000, "later/c.ts, indexed live");
    } finally {
      assert.equal(await daemon.stop(), 0);
      Deno.chmodSync(join(base, "outside", "locked"), 0o755);
    }
    removeTree(base);
  },
});

/** The root that owns `path` in the journal, or null when none does. */
function rootOf(home: string, path: string): string | null {
  const j = readIndex(home);
  try {
    return j.get<{ root: string }>(
      "SELECT r.path AS root FROM paths p JOIN roots r ON r.id = p.root_id WHERE p.path = ?",
      path,
    )?.root ?? null;
  } finally {
    j.close();
  }
}

Deno.test("a nested root added after another was removed resolves its imports: the daemon keeps no path of the removed root under its reused id", async () => {
  const { base, home, repo, daemon } = await daemonOver({
    "old/a.ts": "export function old() {}\n",
    "web/src/app/main.ts":
      'import { add } from "../util/math.ts";\nexport function total() {\n  return add(1, 2);\n}\n',
    "web/src/util/math.ts": "export function add(a: number, b: number) {\n  return a + b;\n}\n",
  });
  const old = join(repo, "old");
  const web = join(repo, "web");
  try {
    // A root added and removed again: its id is free for the next one.
    assert.equal((await cli(home, ["index", old])).code, 0);
    await waitFor(() => rootOf(home, join(old, "a.ts")) === old, 10_000, "old/ its own root");
    assert.equal((await cli(home, ["roots", "remove", old])).code, 0);
    await waitFor(() => rootOf(home, join(old, "a.ts")) === repo, 10_000, "old/ handed back");
    assert.equal((await cli(home, ["index", web])).code, 0);
    const main = join(web, "src", "app", "main.ts");
    await waitFor(() => rootOf(home, main) === web, 10_000, "web/ its own root");
    // The daemon settles the hand-over in a moment; a fresh index resolves it at once.
    await new Promise((r) => setTimeout(r, 2_000));
    const callers = await cli(home, ["callers", "src/util/math.ts:add"], { cwd: web });
    assert.match(callers.stdout, /total/, callers.stdout);
    const verify = await cli(home, ["verify", "--deep"]);
    assert.equal(verify.code, 0, verify.stdout);
  } finally {
    assert.equal(await daemon.stop(), 0);
  }
  removeTree(base);
});

Deno.test("a changed .gitignore or .ignore re-classifies the files of the folder it governs, and so does the home's ignore file", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, {
    "a.ts": "export function keep() {}\n",
    "gen/g.ts": "export function generated() {}\n",
    "sub/deep/d.ts": "export function deep() {}\n",
  });
  await cli(home, ["index", repo]);
  const daemon = await startDaemon(home);
  const g = join(repo, "gen", "g.ts");
  const d = join(repo, "sub", "deep", "d.ts");
  try {
    // None of the files changed, only the rules over them.
    Deno.writeTextFileSync(join(repo, ".gitignore"), "gen/\n");
    await waitFor(() => rowOf(home, g).hash === null, 10_000, "gen/g.ts dropped once ignored");
    Deno.removeSync(join(repo, ".gitignore"));
    await waitFor(() => rowOf(home, g).hash !== null, 10_000, "gen/g.ts back once not ignored");
    Deno.writeTextFileSync(join(repo, "sub", ".ignore"), "deep\n");
    await waitFor(() => rowOf(home, d).hash === null, 10_000, "sub/deep/d.ts dropped");
    Deno.writeTextFileSync(join(repo, "sub", ".ignore"), "# nothing\n");
    await waitFor(() => rowOf(home, d).hash !== null, 10_000, "sub/deep/d.ts back");
    Deno.writeTextFileSync(join(home, "ignore"), "*.ts\n");
    await waitFor(() => rowOf(home, join(repo, "a.ts")).hash === null, 10_000, "a.ts dropped");
    Deno.removeSync(join(home, "ignore"));
    await waitFor(() => rowOf(home, join(repo, "a.ts")).hash !== null, 10_000, "a.ts back");
    await waitFor(() => verifyClean(home), 10_000, "verify --deep clean");
  } finally {
    assert.equal(await daemon.stop(), 0);
  }
  removeTree(base);
});

Deno.test("a repository made or removed inside a root (git init, rm -r .git) re-classifies its files: the rules around it apply only outside it", async () => {
  const { base, home, repo, daemon } = await daemonOver({
    ".gitignore": "*.gen.ts\n",
    "a.ts": "export function keep() {}\n",
    "lib/table.gen.ts": "export function table() {}\n",
  });
  const table = join(repo, "lib", "table.gen.ts");
  try {
    assert.equal(rowOf(home, table).hash, null, "ignored by the top's *.gen.ts");
    // lib becomes a repository of its own: git reads only its own ignore files there.
    await sh("git init -q lib", repo);
    await waitFor(
      () => rowOf(home, table).hash !== null,
      10_000,
      "table.gen.ts, in lib's own repository",
    );
    // The timed audit is 300 s away: only the watcher sees the .git go.
    Deno.removeSync(join(repo, "lib", ".git"), { recursive: true });
    await waitFor(() => rowOf(home, table).hash === null, 10_000, "table.gen.ts, ignored again");
    await waitFor(() => verifyClean(home), 10_000, "verify --deep clean");
  } finally {
    assert.equal(await daemon.stop(), 0);
  }
  removeTree(base);
});

Deno.test("SIGTERM in the middle of a first index stops it at a safe point, and a restart converges to a clean index", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  const files: Record<string, string> = {};
  // Each file imports the next: the first index resolves them all at its end.
  for (let i = 0; i < 6000; i++) {
    const next = (i + 1) % 6000;
    files[`d${i % 60}/f${i}.ts`] = `import { v${next} } from "../d${next % 60}/f${next}.ts";\n` +
      `export const v${i} = () => v${next};\n`;
  }
  writeTree(repo, files);
  await cli(home, ["roots", "add", repo]);
  const count = () => {
    try {
      const j = readIndex(home);
      try {
        return j.get<{ n: number }>("SELECT count(*) AS n FROM paths")!.n;
      } finally {
        j.close();
      }
    } catch {
      return 0; // not created yet
    }
  };
  const spawn = () =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../main.ts", import.meta.url).pathname, "daemon"],
      env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1" },
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
  const child = spawn();
  try {
    await waitFor(() => count() > 0, 60_000, "the first committed batch");
  } finally {
    child.kill("SIGTERM");
  }
  assert.equal((await child.status).code, 0, "a clean exit");
  // Stopped where it was, not after the whole root: the rest is the next run's.
  const n = count();
  assert.ok(n < 6000, `stopped part-way (${n} of 6000 committed)`);
  assert.match(
    Deno.readTextFileSync(join(home, "logs", "daemon.log")),
    new RegExp(`daemon pid ${child.pid} stopped`),
  );
  const daemon = await startDaemon(home, 120_000);
  await daemon.stop();
  const cleanHome = join(base, "clean");
  await cli(cleanHome, ["index", repo]);
  const a = readIndex(home);
  const b = readIndex(cleanHome);
  try {
    assert.equal(dumpIndex(a), dumpIndex(b));
  } finally {
    a.close();
    b.close();
  }
  removeTree(base);
});

Deno.test("a root removed in the middle of its first index leaves the index at the next safe point, not after the whole root", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  const kept = join(base, "kept");
  const files: Record<string, string> = {};
  for (let i = 0; i < 6000; i++) files[`d${i % 60}/f${i}.py`] = `def f${i}():\n    return ${i}\n`;
  writeTree(repo, files);
  writeTree(kept, { "k.py": "def kept():\n    return 1\n" });
  await cli(home, ["roots", "add", kept]);
  await cli(home, ["roots", "add", repo]);
  const count = (root: string) => {
    try {
      const j = readIndex(home);
      try {
        return j.get<{ n: number }>(
          "SELECT count(*) AS n FROM paths WHERE path LIKE ? || '/%'",
          root,
        )!.n;
      } finally {
        j.close();
      }
    } catch {
      return 0; // not created yet
    }
  };
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...PERMS, MAIN, "daemon"],
    env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const log = () => Deno.readTextFileSync(join(home, "logs", "daemon.log"));
  try {
    await waitFor(() => count(repo) > 0, 60_000, "the first committed batch");
    assert.equal((await cli(home, ["roots", "remove", repo])).code, 0);
    await waitFor(() => log().includes("roots changed: +0 -1"), 60_000, "the removal applied");
    // Applied where the pass was, not once all 6000 files were read.
    assert.doesNotMatch(log(), /audit: 600\d seen/);
    await waitFor(() => count(repo) === 0, 30_000, "the removed root's files gone");
    assert.equal(count(kept), 1, "the other root stays");
  } finally {
    child.kill("SIGTERM");
  }
  assert.equal((await child.status).code, 0, "a clean exit");
  removeTree(base);
});

Deno.test({
  name:
    "a daemon whose code an upgrade replaces starts the new build in its place and exits 75; as a service it only exits 75",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const base = tempDir();
    const home = join(base, "home");
    const repo = join(base, "repo");
    const code = checkoutCopy(join(base, "heimdall"));
    writeTree(repo, { "a.ts": "export function alpha() {}\n" });
    assert.equal((await cli(home, ["index", repo])).code, 0);
    const log = () => {
      try {
        return Deno.readTextFileSync(join(home, "logs", "daemon.log"));
      } catch {
        return "";
      }
    };
    const readyAfter = (pid: number) =>
      log().split(`daemon pid ${pid} watching`)[1]?.includes("ready");
    const start = (env: Record<string, string>) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", ...PERMS, join(code, "main.ts"), "daemon"],
        env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1", ...env },
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
    let successor: number | undefined;
    try {
      const first = start({});
      await waitFor(() => readyAfter(first.pid) === true, 60_000, "the first daemon ready");
      upgradeCheckout(code, join("src", "reconcile", "daemon.ts"));
      assert.equal((await first.status).code, 75, log());
      const started = /started the new build in its place: daemon pid (\d+)/.exec(log());
      assert.ok(started, log());
      successor = Number(started[1]);
      assert.notEqual(successor, first.pid);
      await waitFor(() => readyAfter(successor!) === true, 60_000, "the new build's daemon ready");
      // The new build holds the writer lock and serves the home: an edit reaches the journal.
      writeTree(repo, { "b.ts": "export function beta() {}\n" });
      await waitFor(() => rowOf(home, join(repo, "b.ts")).n > 0, 30_000, "b.ts indexed live");
      Deno.kill(successor, "SIGTERM");
      await waitFor(() => log().includes(`daemon pid ${successor} stopped`), 30_000, "stopped");

      // Under a service manager: it exits for the manager to start the new build, and starts none.
      const served = start({ HEIMDALL_SUPERVISOR: "systemd" });
      await waitFor(() => readyAfter(served.pid) === true, 60_000, "the service's daemon ready");
      const before = log().match(/started the new build in its place/g)?.length;
      upgradeCheckout(code, join("src", "reconcile", "daemon.ts"));
      assert.equal((await served.status).code, 75, log());
      assert.match(log(), /exiting for systemd to start the new build/);
      assert.equal(log().match(/started the new build in its place/g)?.length, before);
    } finally {
      if (successor !== undefined) {
        try {
          Deno.kill(successor, "SIGTERM");
        } catch { /* stopped */ }
      }
    }
    removeTree(base);
  },
});
