/**
 * `heimdall status` and the memory commands on a home in a state the user
 * did not mean: HEIMDALL_HOME naming a file, a journal from a newer build,
 * an empty journal. Each says what is wrong and what to do, in one line,
 * exits 3 (a home with nothing in it yet exits 0), and loses nothing stored.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { homePaths } from "../src/config/mod.ts";
import { WriterLock } from "../src/reconcile/mod.ts";
import { garblePages } from "./corruption_fixture.ts";
import { cli, denoDir, MAIN, PERMS, tempDir, unprivileged, writeTree } from "./helpers.ts";

Deno.test("status and remember name HEIMDALL_HOME set to a file, exit 3, and leave the file as it was", async () => {
  const file = join(tempDir(), "not-a-folder");
  Deno.writeTextFileSync(file, "mine\n");
  const status = await cli(file, ["status"]);
  assert.equal(status.code, 3, status.stdout + status.stderr);
  assert.match(status.stdout, /is a file, not a folder.*set HEIMDALL_HOME to a folder/);
  assert.doesNotMatch(status.stdout, /nothing is indexed yet/);
  const remember = await cli(file, ["remember", "--kind", "note", "--about", file, "x"]);
  assert.equal(remember.code, 3, remember.stderr);
  assert.match(remember.stderr, /is a file, not a folder/);
  // A reader that loads the config first says the same, not a bare "Not a directory".
  for (const args of [["search", "anything"], ["why", "anything"], ["roots", "list"]]) {
    const r = await cli(file, args);
    assert.equal(r.code, 3, `${args[0]}: ${r.stderr}`);
    assert.match(r.stderr, /"[^"]*not-a-folder" is a file, not a folder/, args[0]);
  }
  assert.equal(Deno.readTextFileSync(file), "mine\n");
});

Deno.test("status exits 3 on a journal newer than this build and keeps its memories; 0 on a home with no journal yet", async () => {
  const home = tempDir();
  const repo = tempDir();
  const remember = await cli(home, ["remember", "--kind", "decision", "--about", repo, "keep it"]);
  assert.equal(remember.code, 0, remember.stderr);
  const db = new DatabaseSync(join(home, "journal.db"));
  db.exec("PRAGMA user_version = 999");
  db.close();
  const status = await cli(home, ["status", "--json"]);
  assert.equal(status.code, 3, status.stdout + status.stderr);
  assert.match(JSON.parse(status.stdout).message, /newer than this build.*upgrade heimdall/);
  const check = new DatabaseSync(join(home, "journal.db"), { readOnly: true });
  assert.deepEqual({ ...check.prepare("SELECT text FROM memories").get() }, { text: "keep it" });
  check.close();
  assert.equal((await cli(tempDir(), ["status"])).code, 0);
});

Deno.test("doctor on a journal newer than this build or damaged reports it with its own remedy, never `reconcile --all`", async () => {
  const indexed = async () => {
    const home = tempDir();
    const repo = tempDir();
    writeTree(repo, { "a.py": "def alpha():\n    pass\n" });
    assert.equal((await cli(home, ["index", repo])).code, 0);
    return { home, journal: join(home, "journal.db") };
  };
  const doctor = async (home: string) => {
    const r = await cli(home, ["doctor", "--json"]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const checks: { name: string; status: string; detail: string; fix: string | null }[] =
      JSON.parse(r.stdout).checks;
    assert.ok(checks.some((c) => c.name === "wiring"), "every other check still runs");
    return checks.find((c) => c.name === "index")!;
  };
  const a = await indexed();
  const db = new DatabaseSync(a.journal);
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const pages = db.prepare("SELECT pageno FROM dbstat WHERE name = 'paths' AND pagetype = 'leaf'")
    .all().map((p) => Number(p.pageno));
  db.close();
  // Damage doctor meets in a count: it stopped with exit 3 and no report.
  garblePages(a.journal, pages);
  const damaged = await doctor(a.home);
  assert.equal(damaged.status, "fail");
  assert.match(damaged.detail, /is damaged/);
  assert.match(damaged.fix ?? "", /heimdall rebuild/);
  // A newer journal: the fix was `heimdall reconcile --all`, which fails the same way.
  const b = await indexed();
  const newer = new DatabaseSync(b.journal);
  newer.exec("PRAGMA user_version = 999");
  newer.close();
  const refused = await doctor(b.home);
  assert.equal(refused.status, "fail");
  assert.match(refused.detail, /newer than this build/);
  assert.equal(refused.fix, "upgrade heimdall");
});

Deno.test("status on an empty (0-byte) journal says it is empty and where a backup would be, not that it needs migrating", async () => {
  const home = tempDir();
  Deno.writeFileSync(join(home, "journal.db"), new Uint8Array(0));
  const status = await cli(home, ["status"]);
  assert.equal(status.code, 3, status.stdout + status.stderr);
  assert.match(status.stdout, /is empty \(0 bytes\).*journal\.db\.\*\.backup/);
  assert.doesNotMatch(status.stdout, /needs migrating/);
});

Deno.test("status names a one-shot writer (a rebuild) holding the lock as such, never as a running daemon", async () => {
  const home = tempDir();
  const repo = tempDir();
  assert.equal((await cli(home, ["remember", "--kind", "note", "--about", repo, "x"])).code, 0);
  const lock = await WriterLock.acquire(homePaths(home), 300, "rebuild");
  try {
    const json = await cli(home, ["status", "--json"]);
    assert.equal(json.code, 0, json.stderr);
    const st = JSON.parse(json.stdout);
    assert.equal(st.daemon, null);
    assert.deepEqual(st.writer, { pid: Deno.pid, role: "rebuild" });
    const text = (await cli(home, ["status"])).stdout;
    assert.match(text, /^daemon {3}not running/m);
    assert.match(text, /^writer {3}`heimdall rebuild` \(pid \d+\) is writing now/m);
  } finally {
    lock.release();
  }
});

Deno.test("a writer meeting an empty journal with a backup beside it names the backup and starts nothing; with none it starts afresh", async () => {
  const home = tempDir();
  const repo = tempDir();
  Deno.writeTextFileSync(join(repo, "a.ts"), "export const a = 1;\n");
  const journal = join(home, "journal.db");
  const backup = join(home, "journal.db.20261201T101500Z.backup");
  Deno.writeTextFileSync(journal, "");
  Deno.writeTextFileSync(join(home, "journal.db.20261130T090000Z.backup"), "older");
  Deno.writeTextFileSync(backup, "newest");
  for (const args of [["index", repo], ["remember", "--kind", "note", "--about", repo, "x"]]) {
    const r = await cli(home, args);
    assert.equal(r.code, 3, `${args[0]}: ${r.stderr}`);
    assert.match(r.stderr, /is empty \(0 bytes\), and a backup of it is beside it/);
    assert.ok(r.stderr.includes(`cp "${backup}" "${journal}"`), r.stderr);
  }
  assert.equal(Deno.statSync(journal).size, 0, "left as it was");
  assert.equal(Deno.readTextFileSync(backup), "newest");
  // Backups moved aside: a fresh journal, as asked.
  Deno.removeSync(backup);
  Deno.removeSync(join(home, "journal.db.20261130T090000Z.backup"));
  assert.equal((await cli(home, ["index", repo])).code, 0);
});

Deno.test("status and doctor name a root whose folder is gone, and the remedy they print, pasted, drops it", async () => {
  const home = tempDir();
  const base = tempDir();
  const proj = join(base, "my proj");
  writeTree(proj, { "a.ts": "export const a = 1;\n" });
  assert.equal((await cli(home, ["index", "--no-embed", proj])).code, 0);
  Deno.renameSync(proj, join(base, "moved"));
  // Status said "1 file, audited 1s ago" and doctor "ok": nothing told the user the folder had gone.
  const st = JSON.parse((await cli(home, ["status", "--json"])).stdout);
  assert.deepEqual(st.roots.map((r: { gone: boolean }) => r.gone), [true]);
  const status = (await cli(home, ["status"])).stdout;
  assert.match(status, /^root .*my proj.* gone from disk: put the folder back/m);
  const doctor = await cli(home, ["doctor"]);
  assert.match(doctor.stdout, /^warn {2}roots: 1 root gone from disk \(.*my proj\)/m);
  const fix = doctor.stdout.match(/^ +fix: (heimdall roots remove .*)$/m)?.[1];
  assert.equal(fix, status.match(/(heimdall roots remove .*)$/m)?.[1]);
  const pasted = await new Deno.Command("sh", {
    args: ["-c", `heimdall() { "$DENO" run ${PERMS.join(" ")} "$MAIN" "$@"; }; ${fix}`],
    env: { HEIMDALL_HOME: home, DENO: Deno.execPath(), MAIN, DENO_NO_UPDATE_CHECK: "1" },
  }).output();
  assert.equal(pasted.code, 0, new TextDecoder().decode(pasted.stderr));
  assert.equal((await cli(home, ["reconcile"])).code, 0);
  const after = JSON.parse((await cli(home, ["status", "--json"])).stdout);
  assert.deepEqual(after.roots, []);
  assert.doesNotMatch((await cli(home, ["doctor"])).stdout, /roots:/);
});

Deno.test("doctor names a one-shot writer (an index) holding the lock as such, never as a running daemon", async () => {
  const home = tempDir();
  const repo = tempDir();
  writeTree(repo, { "a.ts": "export const a = 1;\n" });
  assert.equal((await cli(home, ["index", "--no-embed", repo])).code, 0);
  const lock = await WriterLock.acquire(homePaths(home), 300, "index");
  try {
    // It said "ok  daemon: running, pid N" for the index, while status said "not running".
    const doctor = await cli(home, ["doctor", "--json"]);
    const daemon = JSON.parse(doctor.stdout).checks.find((c: { name: string }) =>
      c.name === "daemon"
    );
    assert.equal(daemon.status, "fail", doctor.stdout);
    assert.match(
      daemon.detail,
      new RegExp(`^not running \\(a one-shot \`heimdall index\`, pid ${Deno.pid}, writes now`),
    );
    assert.match(daemon.fix, /^heimdall daemon/);
  } finally {
    lock.release();
  }
});

Deno.test("doctor's fix for a root added but not indexed, pasted in any folder, indexes that root and adds none", async () => {
  const home = tempDir();
  const elsewhere = tempDir();
  writeTree(elsewhere, { "junk.txt": "not a project\n" });
  const doctorIndex = async () =>
    JSON.parse((await cli(home, ["doctor", "--json"])).stdout).checks.find((
      c: { name: string },
    ) => c.name === "index");
  const repos: string[] = [];
  // With no journal yet, then with one that lacks the root just added.
  for (const state of ["no journal", "a journal"]) {
    const repo = tempDir();
    writeTree(repo, { "a.ts": "export const a = 1;\n" });
    repos.push(Deno.realPathSync(repo));
    assert.equal((await cli(home, ["roots", "add", repo])).code, 0);
    const index = await doctorIndex();
    assert.equal(index.status, "fail", state);
    // It printed `heimdall index` (or `heimdall index DIR…`): run as told, that adds the folder
    // it is run in (a home folder, say) as a root.
    const pasted = await new Deno.Command("sh", {
      args: ["-c", `heimdall() { "$DENO" run ${PERMS.join(" ")} "$MAIN" "$@"; }; ${index.fix}`],
      cwd: elsewhere,
      env: { HEIMDALL_HOME: home, DENO: Deno.execPath(), MAIN, DENO_NO_UPDATE_CHECK: "1" },
    }).output();
    assert.equal(pasted.code, 0, `${state}: ${new TextDecoder().decode(pasted.stderr)}`);
    const roots = JSON.parse((await cli(home, ["roots", "--json"])).stdout) as { path: string }[];
    assert.deepEqual(roots.map((r) => r.path), repos, state);
    const after = await doctorIndex();
    assert.equal(after.status, "ok", `${state}: ${after.detail}`);
  }
});

Deno.test("a root with a file put in its folder's place is gone to status, doctor and verify, not a permission to fix", async () => {
  const home = tempDir();
  const base = tempDir();
  const proj = join(base, "proj");
  writeTree(proj, { "a.ts": "export const a = 1;\n" });
  assert.equal((await cli(home, ["index", "--no-embed", proj])).code, 0);
  Deno.removeSync(proj, { recursive: true });
  Deno.writeTextFileSync(proj, "a file now\n");
  assert.equal((await cli(home, ["reconcile", "--all"])).code, 0);
  // Verify said "unreadable: Not a directory …; fix its permissions"; status "0 files" and nothing else.
  const verify = await cli(home, ["verify"]);
  assert.match(verify.stdout, /proj\/ — the root is gone from disk; `heimdall roots remove` it/);
  assert.doesNotMatch(verify.stdout, /permissions/);
  assert.match((await cli(home, ["status"])).stdout, /^root .*proj .* gone from disk/m);
  assert.match((await cli(home, ["doctor"])).stdout, /^warn {2}roots: 1 root gone from disk/m);
});

Deno.test("HEIMDALL_HOME=~/.heimdall left unexpanded (a harness's JSON env) is the user's ~/.heimdall from any folder", async () => {
  const user = tempDir();
  const projA = tempDir();
  const projB = tempDir();
  const env = { HEIMDALL_HOME: "~/.heimdall", HOME: user, DENO_DIR: denoDir() };
  // The home was "<cwd>/~/.heimdall": each project folder got a home and a journal of its own,
  // and a memory recorded from one was not found from another.
  const remember = await cli("~/.heimdall", [
    "remember",
    "--kind",
    "note",
    "--about",
    projA,
    "zebra note",
  ], {
    cwd: projA,
    env,
  });
  assert.equal(remember.code, 0, remember.stderr);
  const status = await cli("~/.heimdall", ["status", "--json"], { cwd: projB, env });
  assert.equal(JSON.parse(status.stdout).home, join(user, ".heimdall"));
  const history = await cli("~/.heimdall", ["history", projA], { cwd: projB, env });
  assert.match(history.stdout, /zebra note/);
  // The hook's fast path reads HEIMDALL_HOME on its own; it writes its log and server files there.
  const hook = await cli("~/.heimdall", ["hook", "--harness", "claude-code"], {
    cwd: projA,
    env: { ...env, HEIMDALL_HOOK_SERVER: "0" },
    stdin: JSON.stringify({ hook_event_name: "SessionStart", cwd: projA, session_id: "s1" }),
  });
  assert.equal(hook.code, 0, hook.stderr);
  for (const dir of [projA, projB]) assert.deepEqual([...Deno.readDirSync(dir)], [], dir);
});

/** Runs as a user chmod stops (see {@link unprivileged}). */
const PREFIX = unprivileged();

Deno.test({
  name:
    "a reader of a journal whose folder it cannot write names the folder and both remedies; with -wal and -shm made beside it, it reads",
  ignore: PREFIX === undefined &&
    (console.error("ignored: running as root without `unshare -U`, chmod 555 stops no write"),
      true),
  fn: async () => {
    const base = tempDir();
    const home = join(base, "home");
    const repo = join(base, "repo");
    writeTree(repo, { "a.ts": "export function quizzicalWombat() {}\n" });
    assert.equal((await cli(home, ["index", repo])).code, 0);
    const journal = homePaths(home).journal;
    const asReader = async (args: string[]) => {
      const [cmd, ...pre] = [...PREFIX!, Deno.execPath()];
      const out = await new Deno.Command(cmd!, {
        args: [...pre, "run", ...PERMS, MAIN, ...args],
        env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1", DENO_DIR: denoDir() },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      return { code: out.code, text };
    };
    try {
      // A clean close left no -wal or -shm: a reader would have to make them.
      assert.ok(!exists(`${journal}-shm`) && !exists(`${journal}-wal`));
      Deno.chmodSync(home, 0o555);
      for (const args of [["search", "quizzical wombat"], ["status"]]) {
        const r = await asReader(args);
        assert.equal(r.code, 3, r.text);
        assert.match(r.text, /its folder "[^"]*home" is read-only/, args[0]);
        assert.match(r.text, /chmod u\+w .*touch "[^"]*journal\.db-wal" "[^"]*journal\.db-shm"/);
      }
      // The remedy for a journal kept read-only, done while the folder could be written.
      Deno.chmodSync(home, 0o755);
      Deno.writeFileSync(`${journal}-wal`, new Uint8Array());
      Deno.writeFileSync(`${journal}-shm`, new Uint8Array());
      Deno.chmodSync(home, 0o555);
      const found = await asReader(["search", "quizzical wombat"]);
      assert.equal(found.code, 0, found.text);
      assert.match(found.text, /quizzicalWombat/);
    } finally {
      Deno.chmodSync(home, 0o755);
    }
  },
});

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("doctor --project naming no folder is a usage error naming it, not a report on a folder nobody wired", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const missing = join(base, "my proj", "typo");
  const r = await cli(home, ["doctor", "--project", missing]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.ok(r.stderr.includes(`No project folder "${missing}"`), r.stderr);
  const empty = await cli(home, ["doctor", "--project", ""]);
  assert.equal(empty.code, 2, empty.stderr);
  assert.match(empty.stderr, /Empty --project "": it names no folder/);
});

Deno.test("status on a home with no journal and a config.json that does not parse names the file, exit 2, and leaves it as it was", async () => {
  const home = join(tempDir(), "home");
  Deno.mkdirSync(home, { recursive: true });
  const config = join(home, "config.json");
  const text = '{"roots": [{"path": "/src/app", "depth": "max"}\n';
  Deno.writeTextFileSync(config, text);
  for (const args of [["status"], ["status", "--json"]]) {
    const r = await cli(home, args);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.ok(r.stderr.includes(`Invalid JSON`) && r.stderr.includes(`"${config}"`), r.stderr);
    assert.doesNotMatch(r.stdout, /run `heimdall index DIR`/);
  }
  assert.equal(Deno.readTextFileSync(config), text);
  const fresh = await cli(join(tempDir(), "home"), ["status"]);
  assert.equal(fresh.code, 0, fresh.stderr);
});

Deno.test("a folder where the journal should be is named, with the remedy, exit 3, by readers and writers alike, and left as it was", async () => {
  const home = tempDir();
  const repo = tempDir();
  writeTree(repo, { "a.py": "def alpha():\n    pass\n" });
  Deno.mkdirSync(join(home, "journal.db"));
  Deno.writeTextFileSync(join(home, "journal.db", "mine.txt"), "mine\n");
  for (const args of [["status"], ["search", "alpha"], ["index", repo], ["why", "alpha"]]) {
    const r = await cli(home, args);
    assert.equal(r.code, 3, `${args[0]}: ${r.stdout}${r.stderr}`);
    assert.match(
      r.stdout + r.stderr,
      /Journal "[^"]*journal\.db" is a folder, not a file: move it aside .*or set HEIMDALL_HOME/,
      args[0],
    );
  }
  assert.equal(Deno.readTextFileSync(join(home, "journal.db", "mine.txt")), "mine\n");
});

Deno.test("a folder where config.json should be (a container's bind mount of a missing file) is named, with the remedy, exit 3, and left as it was", async () => {
  const home = tempDir();
  const repo = tempDir();
  writeTree(repo, { "a.py": "def alpha():\n    pass\n" });
  Deno.mkdirSync(join(home, "config.json"));
  Deno.writeTextFileSync(join(home, "config.json", "mine.txt"), "mine\n");
  // Each said "Is a directory (os error 21): readfile '…'; check that path and the disk".
  for (const args of [["status"], ["search", "alpha"], ["roots", "add", repo], ["index", repo]]) {
    const r = await cli(home, args);
    assert.equal(r.code, 3, `${args[0]}: ${r.stdout}${r.stderr}`);
    assert.match(
      r.stderr,
      /^heimdall \w+: Config "[^"]*config\.json" is a folder, not a file: move it aside \(`mv .*or set HEIMDALL_HOME to another folder\n$/,
      args[0],
    );
  }
  assert.equal(Deno.readTextFileSync(join(home, "config.json", "mine.txt")), "mine\n");
});

Deno.test("HEIMDALL_HOME that is a link to a folder not there names the link and its target, exit 3, and makes nothing", async () => {
  const base = tempDir();
  const home = join(base, "home");
  Deno.symlinkSync(join(base, "unmounted", "heimdall"), home);
  // Was "File exists (os error 17): mkdir '…/home'": it does not, as ls shows.
  for (const args of [["insert", "--title", "t", "--body", "b"], ["index", base]]) {
    const r = await cli(home, args);
    assert.equal(r.code, 3, `${args[0]}: ${r.stdout}${r.stderr}`);
    assert.match(
      r.stderr,
      /"[^"]*\/home" is a link to "[^"]*\/unmounted\/heimdall", which is not there .*create that folder, or set HEIMDALL_HOME to a folder/,
      args[0],
    );
  }
  assert.throws(() => Deno.statSync(join(base, "unmounted")), Deno.errors.NotFound);
});
