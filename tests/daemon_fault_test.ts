/** The daemon's error boundary, with a real second process holding the journal's write lock. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { homePaths } from "../src/config/mod.ts";
import { Journal } from "../src/store/mod.ts";
import { cli, removeTree, startDaemon, tempDir, waitFor, writeTree } from "./helpers.ts";

/** A deno subprocess that holds `BEGIN IMMEDIATE` on the journal for `ms`, then commits. */
function holdWriteLock(journal: string, ms: number): { held: Promise<void>; done: Promise<void> } {
  const code = `
    import { DatabaseSync } from "node:sqlite";
    const db = new DatabaseSync(${JSON.stringify(journal)});
    db.exec("BEGIN IMMEDIATE");
    console.log("held");
    await new Promise((r) => setTimeout(r, ${ms}));
    db.exec("COMMIT");
    db.close();`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    env: { DENO_NO_UPDATE_CHECK: "1" },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const held = (async () => {
    let seen = "";
    while (!seen.includes("held")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the lock holder exited before taking the lock");
      seen += value;
    }
  })();
  const done = (async () => {
    await held;
    while (!(await reader.read()).done) { /* drain to the end */ }
    const status = await child.status;
    assert.equal(status.code, 0, "the lock holder failed");
  })();
  return { held, done };
}

function indexedHash(home: string, path: string): string | null {
  const j = Journal.open(homePaths(home).journal, { readOnly: true });
  try {
    return j.get<{ hash: string | null }>("SELECT hash FROM paths WHERE path = ?", path)?.hash ??
      null;
  } finally {
    j.close();
  }
}

Deno.test("the daemon outlives a write lock held past the busy timeout, says so in status, and indexes the next edit", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  writeTree(repo, { "a.ts": "export const a = 1;\n", "b.ts": "export const b = 1;\n" });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const daemon = await startDaemon(home);
  let exited: number | undefined;
  daemon.child.status.then((s) => (exited = s.code));
  try {
    // Longer than the 5 s busy timeout: the daemon's next write must fail.
    const hashA = indexedHash(home, join(repo, "a.ts"));
    const holder = holdWriteLock(homePaths(home).journal, 8_000);
    await holder.held;
    Deno.writeTextFileSync(join(repo, "a.ts"), "export const a = 2;\n");
    await waitFor(
      async () => JSON.parse((await cli(home, ["status", "--json"])).stdout).last_error !== null,
      20_000,
      "status to show the failed pass",
    );
    await holder.done;
    assert.equal(exited, undefined, "the daemon exited on a busy journal");
    const status = JSON.parse((await cli(home, ["status", "--json"])).stdout);
    assert.equal(status.last_error.kind, "busy");
    assert.match(status.last_error.message, /database is locked/);
    assert.equal(status.daemon, daemon.pid);
    // The edit made during the hold is indexed once the lock is free...
    await waitFor(
      () => indexedHash(home, join(repo, "a.ts")) !== hashA,
      30_000,
      "the edit made during the hold to be indexed",
    );
    assert.equal((await cli(home, ["verify"])).code, 0);
    // ...and so is one made after it.
    const before = indexedHash(home, join(repo, "b.ts"));
    Deno.writeTextFileSync(join(repo, "b.ts"), "export const b = 2;\nexport const c = 3;\n");
    await waitFor(
      () => indexedHash(home, join(repo, "b.ts")) !== before,
      20_000,
      "an edit made after the lock was released",
    );
    const text = (await cli(home, ["status"])).stdout;
    assert.match(text, /error +busy: database is locked, .* recovered/);
    assert.equal(exited, undefined, "the daemon is still running");
  } finally {
    assert.equal(await daemon.stop(), 0);
  }
  removeTree(base);
});

Deno.test("the daemon stops on a journal damaged under it, with one line naming the remedy, and status says so", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  const files: Record<string, string> = {};
  for (let i = 0; i < 1500; i++) {
    files[`d${i % 30}/f${i}.ts`] =
      `export function f${i}(x: number): number {\n  return x + ${i};\n}\n`;
  }
  writeTree(repo, files);
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const journal = homePaths(home).journal;
  const daemon = await startDaemon(home);
  try {
    // Garbage over the second half of the file (the header and the first
    // pages stay): the daemon's next commits read pages it never cached.
    const size = Deno.statSync(journal).size;
    const f = Deno.openSync(journal, { write: true });
    const junk = new Uint8Array(size - Math.floor(size / 2)).fill(0xa5);
    f.seekSync(Math.floor(size / 2), Deno.SeekMode.Start);
    f.writeSync(junk);
    f.close();
    for (let i = 0; i < 1500; i += 7) {
      Deno.writeTextFileSync(
        join(repo, `d${i % 30}/f${i}.ts`),
        `export const changed${i} = ${i};\n`,
      );
    }
    const status = await Promise.race([
      daemon.child.status,
      new Promise<null>((r) => setTimeout(() => r(null), 30_000)),
    ]);
    assert.ok(status !== null, "the daemon kept running on a damaged journal");
    assert.equal(status.code, 3);
    const log = Deno.readTextFileSync(join(home, "logs", "daemon.log"));
    assert.match(log, /is damaged \(.*\); run `heimdall rebuild`/);
    const text = await cli(home, ["status"]);
    assert.notEqual(text.code, 0, "status exits non-zero on a damaged journal");
  } finally {
    await daemon.kill();
  }
  removeTree(base);
});

/** Mounts a tmpfs of `size` at `dir`; false where this process may not mount (not root, no CAP_SYS_ADMIN). */
function mountTmpfs(dir: string, size: string): boolean {
  Deno.mkdirSync(dir, { recursive: true });
  return new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir],
    stdout: "null",
    stderr: "null",
  }).outputSync().success;
}

/** Writes zeros to `file` until the disk says it is full. */
function fillDisk(file: string): void {
  const f = Deno.openSync(file, { write: true, create: true });
  const block = new Uint8Array(64 * 1024);
  try {
    for (;;) f.writeSync(block);
  } catch (e) {
    if (!(e instanceof Error && /no space left|ENOSPC|os error 28/i.test(e.message))) throw e;
  } finally {
    f.close();
  }
}

const canMount = (() => {
  const dir = Deno.makeTempDirSync();
  const ok = mountTmpfs(dir, "1m");
  if (ok) new Deno.Command("umount", { args: [dir] }).outputSync();
  Deno.removeSync(dir);
  return ok;
})();

Deno.test({
  name:
    "a disk that fills up under the daemon is named in status while passes fail, and the edit lands once there is room",
  ignore: !canMount && (console.error("ignored: this process may not mount a tmpfs"), true),
  fn: async () => {
    const base = tempDir();
    const mnt = join(base, "mnt");
    assert.ok(mountTmpfs(mnt, "2m"));
    const home = join(mnt, "home");
    const repo = join(base, "repo");
    writeTree(repo, { "a.ts": "export const a = 1;\n" });
    let daemon: Awaited<ReturnType<typeof startDaemon>> | undefined;
    try {
      assert.equal((await cli(home, ["index", "--no-embed", repo])).code, 0);
      daemon = await startDaemon(home);
      fillDisk(join(mnt, "filler"));
      // Enough rows that the journal must grow: its WAL has no room for them.
      const lines = Array.from(
        { length: 3000 },
        (_, i) => `export function f${i}() { return ${i}; }`,
      );
      writeTree(repo, { "b.ts": lines.join("\n") + "\n" });
      // Status said nothing (no log line, no error) and doctor "ok": the record could not be written either.
      await waitFor(
        async () =>
          JSON.parse((await cli(home, ["status", "--json"])).stdout).last_error?.kind === "full",
        30_000,
        "status to name the full disk",
      );
      assert.match((await cli(home, ["status"])).stdout, /^error +full: .*full.*still failing/m);
      // Doctor said "ok  daemon: running" while no edit reached the index.
      const doctor = (await cli(home, ["doctor"])).stdout;
      assert.match(doctor, /^FAIL {2}daemon: running, pid \d+, but its passes fail .*full/m);
      assert.ok(
        doctor.includes(`fix: free space on the disk that holds it: df -h ${home};`),
        doctor,
      );
      Deno.removeSync(join(mnt, "filler"));
      await waitFor(
        async () => (await cli(home, ["search", "f2999"])).stdout.includes("b.ts"),
        60_000,
        "b.ts indexed once there is room",
      );
      assert.match((await cli(home, ["status"])).stdout, /^error +full: .* recovered/m);
      assert.match((await cli(home, ["doctor"])).stdout, /^ok {4}daemon: running, pid \d+$/m);
    } finally {
      if (daemon) assert.equal(await daemon.stop(), 0);
      new Deno.Command("umount", { args: [mnt] }).outputSync();
    }
    removeTree(base);
  },
});
