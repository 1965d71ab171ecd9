/**
 * Bad input: every bad value is refused with its own exit code and a message
 * that names it and the accepted range, never a stack trace; an internal bug
 * exits 70 and shows its stack only when asked; a second writer hears who
 * holds the lock.
 */
import assert from "node:assert/strict";
import { homePaths } from "../src/config/mod.ts";
import { describeError } from "../src/cli/errors.ts";
import { UsageError } from "../src/errors/mod.ts";
import { WriterLock } from "../src/reconcile/mod.ts";
import { BAD_INPUTS, homeWithJournal, tryBadInput } from "./bad_input_cases.ts";
import { cli, tempDir, writeTree } from "./helpers.ts";

Deno.test("each bad value is refused with its exit code, naming the value and the range, in one line", async () => {
  const home = await homeWithJournal();
  const failures: string[] = [];
  // Four at a time: each is a real subprocess.
  for (let i = 0; i < BAD_INPUTS.length; i += 4) {
    const batch = await Promise.all(BAD_INPUTS.slice(i, i + 4).map((c) => tryBadInput(home, c)));
    failures.push(...batch.filter((f): f is string => f !== undefined));
  }
  assert.deepEqual(failures, []);
});

Deno.test("describeError() sends a bug to exit 70 with a report hint; the stack only when debugging", () => {
  const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
  const plain = describeError(bug);
  assert.equal(plain.code, 70);
  assert.equal(plain.bug, true);
  assert.match(plain.message, /^internal error: Cannot read .*rerun with --debug/);
  assert.equal(plain.message.split("\n").length, 1);
  const debug = describeError(bug, { debug: true });
  assert.match(debug.message, /\n\s+at /);
  // Not bugs: usage, the environment.
  assert.equal(describeError(new UsageError("bad")).code, 2);
  const enospc = Object.assign(new Error("No space left on device (os error 28): write"), {
    code: "ENOSPC",
  });
  assert.equal(describeError(enospc).code, 3);
  const busy = Object.assign(new Error("database is locked"), { errcode: 5 });
  assert.equal(describeError(busy).code, 3);
  assert.match(describeError(busy).message, /busy.*retry/);
  const corrupt = Object.assign(new Error("database disk image is malformed"), { errcode: 267 });
  const c = describeError(corrupt, { journal: "/h/journal.db" });
  assert.equal(c.code, 3);
  assert.match(c.message, /"\/h\/journal.db" is damaged.*heimdall rebuild/);
});

Deno.test("--debug is taken anywhere before --, and HEIMDALL_DEBUG=1 works too", async () => {
  const home = await homeWithJournal();
  for (const args of [["--debug", "status"], ["status", "--debug"]]) {
    const r = await cli(home, args);
    assert.equal(r.code, 0, `${args}: ${r.stderr}`);
  }
  const r = await cli(home, ["status"], { env: { HEIMDALL_DEBUG: "1" } });
  assert.equal(r.code, 0, r.stderr);
});

Deno.test("a second one-shot index while one runs names it, not 'the daemon'; a daemon gets the roots", async () => {
  const home = tempDir();
  const repo = tempDir();
  writeTree(repo, { "a.ts": "export const a = 1;\n" });
  const paths = homePaths(home);
  // This process holds the lock as a one-shot `heimdall index` would.
  let lock = await WriterLock.acquire(paths, 300, "index");
  try {
    const r = await cli(home, ["index", repo]);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, new RegExp(`one-shot \`heimdall index\` \\(pid ${Deno.pid}\\)`));
    assert.match(r.stderr, /wait for it to finish/);
    assert.doesNotMatch(r.stderr, /daemon/i);
    const roots = await cli(home, ["roots"]);
    assert.ok(!roots.stdout.includes(repo), `a refused index adds no root: ${roots.stdout}`);
  } finally {
    lock.release();
  }
  lock = await WriterLock.acquire(paths, 300, "daemon");
  try {
    const r = await cli(home, ["index", repo]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`daemon \\(pid ${Deno.pid}\\) is running`));
    const roots = await cli(home, ["roots"]);
    assert.ok(
      roots.stdout.includes(Deno.realPathSync(repo)),
      `the daemon gets it: ${roots.stdout}`,
    );
  } finally {
    lock.release();
  }
});

Deno.test("indexing a root nested in an indexed root leaves the journal equal to the disk", async () => {
  const home = tempDir();
  const outer = tempDir();
  writeTree(outer, {
    "top.ts": "export function top() {}\n",
    "inner/f1.ts": "export function f1() {}\n",
    "inner/f2.ts": "export function f2() {}\n",
  });
  assert.equal((await cli(home, ["index", outer])).code, 0);
  const r = await cli(home, ["index", `${outer}/inner`]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^indexed 2 files, 2 symbols/, "the summary counts the root indexed");
  const v = await cli(home, ["verify"]);
  assert.equal(v.code, 0, v.stdout + v.stderr);
  assert.match(v.stdout, /clean/);
});

Deno.test("an empty path (an unset shell variable) is refused, never taken for the current folder, and nothing stored changes", async () => {
  const home = tempDir();
  const repo = tempDir();
  writeTree(repo, { "a.ts": "export function a() {}\n" });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const stored = async () =>
    (await cli(home, ["roots", "list", "--json"])).stdout + (await cli(home, ["export"])).stdout;
  const before = await stored();
  const cases: [string[], RegExp][] = [
    [["roots", "remove", ""], /Empty DIR ""/],
    [["roots", "add", ""], /Empty DIR ""/],
    [["index", ""], /Empty DIR ""/],
    [["remember", "--kind", "note", "--about", "", "x"], /Empty --about ""/],
    [["attempt", "--failed", "--about", " ", "x"], /Empty --about " "/],
    [["insert", "--title", "t", "--body", "b", "--path", ""], /Empty --path ""/],
    [["reflect", ""], /Empty PROJECT ""/],
    [["why", ""], /Empty target ""/],
    [["depth", ""], /Empty PATH ""/],
    [["constraints", ""], /Empty PATH ""/],
    [["search", "a", "--repo", ""], /Empty --repo ""/],
    [["search", "a", "--path", ""], /Empty --path ""/],
    // These took "" for the current folder: "is a folder", or a reconcile of it.
    [["symbols", ""], /Empty PATH ""/],
    [["reconcile", ""], /Empty PATH ""/],
    [["import", ""], /Empty FILE ""/],
    [["who-knows", ""], /Empty target ""/],
    [["claim", " "], /Empty target " "/],
    [["conflicts", ""], /Empty target ""/],
    [["release", ""], /Empty target ""/],
    // It matched nobody: "no memory", exit 1, as if there were none.
    [["history", "--author", " "], /Empty --author " "/],
  ];
  for (const [args, says] of cases) {
    const r = await cli(home, args, { cwd: repo, env: { HEIMDALL_HOOK_SERVER: "0" } });
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, says, args.join(" "));
    assert.match(r.stderr, /unset shell variable\?\); (write|name|leave) /, args.join(" "));
  }
  assert.equal(await stored(), before, "no root, memory or note changed");
});
