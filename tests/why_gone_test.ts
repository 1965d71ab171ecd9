/** `why OLDPATH` after the file moved and then went: found however the old path is typed. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, withTempDir, writeTree } from "./helpers.ts";

Deno.test("why finds the memories of a file that moved and then went, by its old path typed from anywhere", () =>
  withTempDir("heimdall-why-gone-", async (base) => {
    const repo = join(base, "repo");
    writeTree(repo, { "lib/string.js": "export function tpl(s) {\n  return s;\n}\n" });
    const home = join(base, "home");
    assert.equal((await cli(home, ["index", repo])).code, 0);
    const rel = "repo/lib/string.js";
    const wrote = await cli(
      home,
      ["remember", "--kind", "convention", "--about", rel, "string templates never cache"],
      { cwd: base },
    );
    assert.equal(wrote.code, 0, wrote.stderr);
    Deno.renameSync(join(repo, "lib/string.js"), join(repo, "lib/string2.js"));
    assert.equal((await cli(home, ["reconcile", "--all"])).code, 0);
    Deno.removeSync(join(repo, "lib/string2.js"));
    assert.equal((await cli(home, ["reconcile", "--all"])).code, 0);
    for (
      const [cwd, typed] of [
        [base, rel],
        [join(repo, "lib"), "string.js"],
        [repo, join(Deno.realPathSync(repo), "lib/string.js")],
      ] as const
    ) {
      const r = await cli(home, ["why", typed], { cwd });
      assert.equal(r.code, 0, `${typed} from ${cwd}: ${r.stderr}`);
      assert.match(r.stdout, /string templates never cache|convention/, r.stdout);
    }
  }));

Deno.test("why finds a memory recorded on path:name by the symbol's old name after a rename", () =>
  withTempDir("heimdall-why-renamed-", async (base) => {
    const repo = join(base, "repo");
    writeTree(repo, {
      "src/conf.ts":
        "export function parseConfig(text: string): number {\n  return text.length;\n}\n" +
        "export class Store {\n  open(path: string): boolean {\n    return path.length > 0;\n  }\n}\n",
    });
    const home = join(base, "home");
    assert.equal((await cli(home, ["index", repo])).code, 0);
    for (
      const [about, text] of [["src/conf.ts:parseConfig", "parsed by hand"], [
        "src/conf.ts:Store.open",
        "opens lazily",
      ]] as const
    ) {
      const r = await cli(home, ["remember", "--kind", "decision", "--about", about, text], {
        cwd: repo,
      });
      assert.equal(r.code, 0, r.stderr);
    }
    const file = join(repo, "src/conf.ts");
    Deno.writeTextFileSync(
      file,
      Deno.readTextFileSync(file).replace("parseConfig", "parseSettings").replace(
        "open(",
        "openPath(",
      ),
    );
    assert.equal((await cli(home, ["reconcile", "--all"])).code, 0);
    for (
      const [typed, text] of [
        ["parseConfig", "parsed by hand"],
        ["src/conf.ts:parseConfig", "parsed by hand"],
        ["Store.open", "opens lazily"],
        ["src/conf.ts:Store.open", "opens lazily"],
      ] as const
    ) {
      const r = await cli(home, ["why", typed, "--json"], { cwd: repo });
      assert.equal(r.code, 0, `${typed}: ${r.stderr}`);
      const w = JSON.parse(r.stdout);
      assert.deepEqual(w.current.map((m: { text: string }) => m.text), [text], typed);
      assert.equal(w.current[0].anchors[0].state, "moved", typed);
    }
  }));

Deno.test("why of a path typed from another folder never calls code that is there gone", () =>
  withTempDir("heimdall-why-elsewhere-", async (base) => {
    const repo = join(base, "repo");
    writeTree(repo, { "lib/string.js": "export function tpl(s) {\n  return s;\n}\n" });
    const home = join(base, "home");
    assert.equal((await cli(home, ["index", repo])).code, 0);
    const wrote = await cli(home, ["remember", "--kind", "note", "--about", "lib", "pure"], {
      cwd: repo,
    });
    assert.equal(wrote.code, 0, wrote.stderr);
    // From the folder above the repository, "lib" names nothing on disk.
    const r = await cli(home, ["why", "lib"], { cwd: base });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /no longer in the index/);
    assert.match(
      r.stdout,
      /^lib — nothing by that name here \(.*\); memories typed "lib" are anchored to repo\/lib:$/m,
    );
    assert.match(r.stdout, /pure/);
  }));
