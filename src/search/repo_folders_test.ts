import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../../tests/helpers.ts";
import { holdsGit } from "./repo_folders.ts";

Deno.test("holdsGit() sees a .git made or removed in a folder it already answered for", () => {
  const dir = join(tempDir(), "repo");
  Deno.mkdirSync(dir);
  const past = new Date(Date.now() - 60_000);
  Deno.utimeSync(dir, past, past);
  assert.equal(holdsGit(dir), false);
  assert.equal(holdsGit(dir), false, "remembered");
  Deno.mkdirSync(join(dir, ".git"));
  assert.equal(holdsGit(dir), true, "the folder's mtime moved: looked at again");
  Deno.utimeSync(dir, past, past);
  assert.equal(holdsGit(dir), true);
  Deno.removeSync(join(dir, ".git"));
  assert.equal(holdsGit(dir), false);
  // A worktree's `.git` is a file.
  Deno.writeTextFileSync(join(dir, ".git"), "gitdir: /elsewhere\n");
  assert.equal(holdsGit(dir), true);
  assert.equal(holdsGit(join(dir, "missing")), false);
});

Deno.test("holdsGit() looks again at a folder changed within the last moments", () => {
  const dir = join(tempDir(), "fresh");
  Deno.mkdirSync(dir);
  // Made just now: a .git made in the same millisecond would leave the mtime unmoved.
  assert.equal(holdsGit(dir), false);
  const mtime = Deno.statSync(dir).mtime!;
  Deno.mkdirSync(join(dir, ".git"));
  Deno.utimeSync(dir, mtime, mtime);
  assert.equal(holdsGit(dir), true);
});
