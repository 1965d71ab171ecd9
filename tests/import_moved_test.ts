/** An export read on another machine: the story of a symbol that moved travels with it. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, copyDir, removeTree, tempDir, writeTree } from "./helpers.ts";

interface Event {
  at: number;
  event: string;
  memory_id: string;
  detail: string;
}

Deno.test("import onto another machine keeps when a renamed symbol moved, and where from, on the root here", async () => {
  const base = tempDir("heimdall-import-moved-");
  try {
    const repo = join(base, "a", "shop");
    writeTree(repo, {
      "src/conf.ts":
        "export function parseConfig(text: string): number {\n  return text.length;\n}\n",
    });
    const homeA = join(base, "home-a");
    assert.equal((await cli(homeA, ["index", repo])).code, 0);
    let r = await cli(homeA, [
      "remember",
      "--kind",
      "decision",
      "--about",
      "src/conf.ts:parseConfig",
      "parsed by hand",
    ], { cwd: repo });
    assert.equal(r.code, 0, r.stderr);
    const file = join(repo, "src/conf.ts");
    Deno.writeTextFileSync(
      file,
      Deno.readTextFileSync(file).replace("parseConfig", "parseSettings"),
    );
    assert.equal((await cli(homeA, ["reconcile", "--all"])).code, 0);
    r = await cli(homeA, ["history", "parseSettings", "--json"], { cwd: repo });
    assert.equal(r.code, 0, r.stderr);
    const movedA = (JSON.parse(r.stdout).events as Event[]).find((e) => e.event === "moved")!;
    const exported = join(base, "memory.jsonl");
    assert.equal((await cli(homeA, ["export", "--out", exported])).code, 0);

    // The other machine: the same repository in another folder, another home.
    const there = join(base, "b", "shop");
    copyDir(repo, there);
    const homeB = join(base, "home-b");
    assert.equal((await cli(homeB, ["index", there])).code, 0);
    r = await cli(homeB, ["import", exported]);
    assert.equal(r.code, 0, r.stderr);
    r = await cli(homeB, ["history", "parseSettings", "--json"], { cwd: there });
    assert.equal(r.code, 0, r.stderr);
    const movedB = (JSON.parse(r.stdout).events as Event[]).find((e) => e.event === "moved")!;
    assert.deepEqual(
      [movedB.at, movedB.detail],
      [
        movedA.at,
        `${Deno.realPathSync(there)}/src/conf.ts:parseConfig → ${
          Deno.realPathSync(there)
        }/src/conf.ts:parseSettings`,
      ],
    );
    r = await cli(homeB, ["why", "src/conf.ts:parseConfig", "--json"], { cwd: there });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).current.map((m: { text: string }) => m.text), [
      "parsed by hand",
    ]);
  } finally {
    removeTree(base);
  }
});

Deno.test("an export imported before its repository is indexed here attaches once it is", async () => {
  const base = tempDir("heimdall-import-first-");
  try {
    const repo = join(base, "a", "shop");
    writeTree(repo, {
      "src/conf.ts":
        "export function parseConfig(text: string): number {\n  return text.length;\n}\n",
      "docs/notes.md": "# Notes\n",
    });
    const homeA = join(base, "home-a");
    assert.equal((await cli(homeA, ["index", repo])).code, 0);
    for (const about of ["src/conf.ts:parseConfig", "docs/notes.md", "docs"]) {
      const r = await cli(homeA, ["remember", "--kind", "note", "--about", about, `on ${about}`], {
        cwd: repo,
      });
      assert.equal(r.code, 0, r.stderr);
    }
    const exported = join(base, "memory.jsonl");
    assert.equal((await cli(homeA, ["export", "--out", exported])).code, 0);

    // A new machine: memories first, then the repository (in another folder) is indexed.
    const there = join(base, "b", "shop");
    copyDir(repo, there);
    const homeB = join(base, "home-b");
    let r = await cli(homeB, ["import", exported]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await cli(homeB, ["index", there])).code, 0);
    for (const about of ["src/conf.ts:parseConfig", "docs/notes.md", "docs"]) {
      r = await cli(homeB, ["why", about, "--json"], { cwd: there });
      assert.equal(r.code, 0, `${about}: ${r.stdout}${r.stderr}`);
      const w = JSON.parse(r.stdout);
      assert.deepEqual(
        w.current.map((m: { text: string }) => m.text).filter((t: string) => t === `on ${about}`),
        [`on ${about}`],
        about,
      );
    }
  } finally {
    removeTree(base);
  }
});
