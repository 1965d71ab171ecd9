/** `config.json` through the real CLI: strict keys, and an environment variable for one run. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, tempDir, writeTree } from "./helpers.ts";

Deno.test("a misspelt key in config.json exits 2 naming it and the nearest known key, and changes nothing", async () => {
  const home = tempDir();
  const file = join(home, "config.json");
  const text = JSON.stringify({ roots: [], auditIntervalSecond: 60 }) + "\n";
  Deno.writeTextFileSync(file, text, { mode: 0o600 });
  const r = await cli(home, ["roots"]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /"auditIntervalSecond".*did you mean "auditIntervalSeconds"/);
  assert.doesNotMatch(r.stderr, /^\s+at /m, "no stack trace");
  assert.equal(Deno.readTextFileSync(file), text);
});

Deno.test("HEIMDALL_MAX_FILE_BYTES beats the file for one run and is never written back", async () => {
  const home = tempDir();
  const root = tempDir();
  writeTree(root, { "big.py": `def big():\n    return "${"x".repeat(400)}"\n` });
  const once = await cli(home, ["index", root, "--no-embed"], {
    env: { HEIMDALL_MAX_FILE_BYTES: "100" },
  });
  assert.equal(once.code, 0, once.stderr);
  assert.match(once.stdout, /, 1 kept by path only: `heimdall verify` says why\)$/m);
  const config = JSON.parse(Deno.readTextFileSync(join(home, "config.json")));
  assert.equal(config.maxFileBytes, 1_048_576, "the override stayed in the environment");
  const depth = await cli(home, ["depth", join(root, "big.py"), "--json"]);
  assert.match(depth.stdout, /too large/);
  // Without the variable, the next pass indexes it whole.
  assert.equal((await cli(home, ["reconcile", "--all", "--deep"])).code, 0);
  const after = await cli(home, ["symbols", join(root, "big.py"), "--json"]);
  assert.match(after.stdout, /"big"/);
  const bad = await cli(home, ["search", "big"], { env: { HEIMDALL_BATCH_SIZE: "lots" } });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /batchSize "lots" in "\$HEIMDALL_BATCH_SIZE"/);
  // ".5" was refused as "expected a confidence from 0 to 1".
  for (const half of [".5", "0.5", "1."]) {
    const r = await cli(home, ["roots"], { env: { HEIMDALL_PERSONAL_AUTO_ACCEPT: half } });
    assert.equal(r.code, 0, `${half}: ${r.stderr}`);
  }
  const over = await cli(home, ["roots"], { env: { HEIMDALL_PERSONAL_AUTO_ACCEPT: "1.5" } });
  assert.equal(over.code, 2);
  assert.match(over.stderr, /personalAutoAccept 1\.5 .*from 0 to 1/);
});

Deno.test("depth of a folder counts the files below it; a folder nothing is indexed under is refused", async () => {
  const home = tempDir();
  const root = tempDir();
  writeTree(root, {
    "app/a.py": "def a():\n    return 1\n",
    "app/b.py": "def b():\n    return 2\n",
    "lib/c.ts": "export function c() { return 3; }\n",
  });
  assert.equal((await cli(home, ["index", root, "--no-embed"])).code, 0);
  const rows = (dir: string) => cli(home, ["depth", dir, "--json"]);
  const app = await rows(join(root, "app"));
  assert.equal(app.code, 0, app.stderr);
  assert.deepEqual(
    (JSON.parse(app.stdout) as { language: string; n: number }[]).map((r) => [r.language, r.n]),
    [["python", 2]],
  );
  const all = JSON.parse((await rows(root)).stdout) as { n: number }[];
  assert.equal(all.reduce((sum, r) => sum + r.n, 0), 3);
  const none = await cli(home, ["depth", join(root, "nothing")]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /"[^"]*nothing" is not on disk, so nothing is indexed for it/);
});

Deno.test("depth on a file with no row says why: ignored (by which rule), a secret, or not reconciled yet", async () => {
  const home = tempDir();
  const root = tempDir();
  writeTree(root, {
    "a.ts": "export const a = 1;\n",
    ".gitignore": "gen/\n",
    "gen/g.ts": "export const g = 1;\n",
    ".env": "TOKEN=1\n",
  });
  assert.equal((await cli(home, ["index", root, "--no-embed"])).code, 0);
  writeTree(root, { "late.ts": "export const late = 1;\n" });
  const depth = async (rel: string) => {
    const r = await cli(home, ["depth", join(root, rel)]);
    assert.equal(r.code, 2, rel);
    return r.stderr;
  };
  // Each was "(ignored, secret, or not reconciled yet); `heimdall reconcile …` converges it",
  // and that reconcile changed nothing for the first two.
  const ignored = await depth("gen/g.ts");
  assert.match(
    ignored,
    /is not indexed: it is ignored \(\.gitignore:1 gen\/\); to index it, change that rule/,
  );
  assert.equal((await cli(home, ["reconcile", join(root, "gen/g.ts")])).code, 0);
  assert.equal(await depth("gen/g.ts"), ignored, "reconcile cannot index an ignored file");
  assert.match(await depth(".env"), /is never indexed: its name marks a secret \(.*\.env\)/);
  const late = await depth("late.ts");
  assert.match(
    late,
    /"[^"]*late\.ts" is not in the journal yet; `heimdall reconcile .*late\.ts` converges it/,
  );
  assert.equal((await cli(home, ["reconcile", join(root, "late.ts")])).code, 0);
  assert.equal((await cli(home, ["depth", join(root, "late.ts")])).code, 0, "the remedy works");
});

Deno.test({
  name: "a config file others can read or write is refused with the chmod that fixes it",
  ignore: Deno.build.os === "windows",
  async fn() {
    const home = tempDir(); // 0700: a private home
    const file = join(home, "config.json");
    Deno.writeTextFileSync(file, JSON.stringify({ roots: [] }) + "\n");
    Deno.chmodSync(file, 0o644);
    const r = await cli(home, ["roots"]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /is open to other users; run `chmod 600 .*config\.json`/);
    assert.equal(Deno.statSync(file).mode! & 0o777, 0o644, "refused, not silently changed");
    Deno.chmodSync(file, 0o600);
    assert.equal((await cli(home, ["roots"])).code, 0);
    // Others may list the folder (a HEIMDALL_HOME that is the person's own folder), never write in it.
    Deno.writeTextFileSync(join(home, "notes.txt"), "mine\n");
    Deno.chmodSync(home, 0o755);
    assert.equal((await cli(home, ["roots"])).code, 0);
    Deno.chmodSync(home, 0o775);
    const writable = await cli(home, ["roots"]);
    assert.equal(writable.code, 2, writable.stdout + writable.stderr);
    assert.match(
      writable.stderr,
      /other users can write in the config folder .*; run `chmod go-w /,
    );
  },
});

Deno.test("a misspelt key in a root, or a config file that says null, exits 2 naming it, and the root's files stay indexed", async () => {
  const home = tempDir();
  const root = tempDir();
  writeTree(root, { "a.ts": "export function alpha() { return 1; }\n" });
  assert.equal((await cli(home, ["index", root, "--no-embed"])).code, 0);
  const file = join(home, "config.json");
  const good = Deno.readTextFileSync(file);
  // "dpeth" left the root at max, silently: the depth the person set was never used.
  const misspelt = JSON.stringify({ roots: [{ path: root, dpeth: "L1" }] }) + "\n";
  Deno.writeTextFileSync(file, misspelt, { mode: 0o600 });
  const r = await cli(home, ["reconcile", "--all"]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /roots\[0\] key "dpeth".*did you mean "depth"\?/);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.equal(Deno.readTextFileSync(file), misspelt, "the file is left as it was");
  // `null` was read as the defaults: no roots, and the writer dropped every file.
  Deno.writeTextFileSync(file, "null\n");
  const nul = await cli(home, ["reconcile", "--all"]);
  assert.equal(nul.code, 2, nul.stdout + nul.stderr);
  assert.match(
    nul.stderr,
    /Invalid config null in ".*config\.json": the file must hold one JSON object/,
  );
  assert.equal(Deno.readTextFileSync(file), "null\n");
  Deno.writeTextFileSync(file, good);
  const symbols = await cli(home, ["symbols", join(root, "a.ts")]);
  assert.equal(symbols.code, 0, symbols.stderr);
  assert.match(symbols.stdout, /alpha/, "nothing was dropped meanwhile");
});

Deno.test("a root written by hand with a trailing slash is the same root as without: one copy of each file, and roots remove takes it out", async () => {
  const home = tempDir();
  const root = tempDir();
  writeTree(root, { "a.ts": "export function alpha() { return 1; }\n" });
  const file = join(home, "config.json");
  Deno.writeTextFileSync(file, JSON.stringify({ roots: [{ path: `${root}/` }] }) + "\n", {
    mode: 0o600,
  });
  assert.equal((await cli(home, ["reconcile", "--all"])).code, 0);
  const status = JSON.parse((await cli(home, ["status", "--json"])).stdout) as {
    roots: { path: string; files: number }[];
  };
  assert.deepEqual(status.roots.map((r) => [r.path, r.files]), [[root, 1]]);
  // Both spellings at once made two roots of one folder, each file indexed twice.
  Deno.writeTextFileSync(file, JSON.stringify({ roots: [`${root}/`, root] }) + "\n");
  const twice = await cli(home, ["roots"]);
  assert.equal(twice.code, 2, twice.stdout + twice.stderr);
  assert.match(
    twice.stderr,
    /roots\[1\] ".*" in .*: names the same folder as roots\[0\]; remove one/,
  );
  Deno.writeTextFileSync(file, JSON.stringify({ roots: [{ path: `${root}//` }] }) + "\n");
  const removed = await cli(home, ["roots", "remove", root]);
  assert.equal(removed.code, 0, removed.stderr);
  assert.deepEqual(JSON.parse(Deno.readTextFileSync(file)).roots, []);
});
