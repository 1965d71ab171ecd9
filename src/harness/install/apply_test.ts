import assert from "node:assert/strict";
import { join } from "../../files/mod.ts";
import { applyChange, ConfigWriteError, writeTarget } from "./apply.ts";
import type { FileChange } from "./plan.ts";

function change(path: string, before: string | null, after: string | null): FileChange {
  return { path, before, after, what: "hooks", record: null };
}

function withDir(fn: (dir: string) => void): void {
  const dir = Deno.makeTempDirSync({ prefix: "heimdall-apply-" });
  try {
    fn(Deno.realPathSync(dir));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("applyChange() writes a symlinked config's target and keeps the link (dotfiles under stow)", () => {
  withDir((dir) => {
    // ~/.claude is a link into the dotfiles; settings.json in it a relative link to a shared file.
    Deno.mkdirSync(join(dir, "dotfiles/claude"), { recursive: true });
    Deno.mkdirSync(join(dir, "dotfiles/shared"));
    Deno.mkdirSync(join(dir, "home"));
    Deno.writeTextFileSync(join(dir, "dotfiles/shared/settings.json"), "{}\n");
    Deno.chmodSync(join(dir, "dotfiles/shared/settings.json"), 0o640);
    Deno.symlinkSync("../shared/settings.json", join(dir, "dotfiles/claude/settings.json"));
    Deno.symlinkSync(join(dir, "dotfiles/claude"), join(dir, "home/.claude"));
    const path = join(dir, "home/.claude/settings.json");
    const target = join(dir, "dotfiles/shared/settings.json");
    assert.equal(writeTarget(path), target);

    const done = applyChange(change(path, "{}\n", '{"hooks": {}}\n'), "T");
    assert.deepEqual(done, { backup: `${path}.heimdall-backup-T`, target });
    assert.ok(Deno.lstatSync(join(dir, "dotfiles/claude/settings.json")).isSymlink, "still a link");
    assert.equal(Deno.readTextFileSync(target), '{"hooks": {}}\n');
    assert.equal(Deno.statSync(target).mode! & 0o777, 0o640, "its permissions kept");
    assert.equal(Deno.readTextFileSync(done.backup!), "{}\n");
    assert.deepEqual(
      [...Deno.readDirSync(join(dir, "dotfiles/shared"))].map((e) => e.name),
      ["settings.json"],
      "no temporary file left beside the target",
    );

    // A removal removes the file the link leads to; the link, the person's, stays.
    applyChange(change(path, '{"hooks": {}}\n', null), "U");
    assert.ok(Deno.lstatSync(join(dir, "dotfiles/claude/settings.json")).isSymlink);
    assert.throws(() => Deno.statSync(target), Deno.errors.NotFound);
  });
});

Deno.test("applyChange() creates the missing target of a dangling link", () => {
  withDir((dir) => {
    Deno.symlinkSync("store/hooks.json", join(dir, "hooks.json"));
    const done = applyChange(change(join(dir, "hooks.json"), null, "{}\n"));
    assert.equal(done.target, join(dir, "store/hooks.json"));
    assert.equal(done.backup, null);
    assert.ok(Deno.lstatSync(join(dir, "hooks.json")).isSymlink);
    assert.equal(Deno.readTextFileSync(join(dir, "hooks.json")), "{}\n");
  });
});

Deno.test("applyChange() that cannot write leaves no temporary file and no backup, and says why", () => {
  withDir((dir) => {
    // A folder where the file should be: the rename over it fails, whoever runs the test.
    Deno.mkdirSync(join(dir, "mcp.json/inside"), { recursive: true });
    assert.throws(
      () => applyChange(change(join(dir, "mcp.json"), null, "{}\n")),
      (e) =>
        e instanceof ConfigWriteError && e.file === join(dir, "mcp.json") &&
        /^Cannot write ".*mcp\.json": .*; make it writable/.test(e.message),
    );
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["mcp.json"]);

    // An existing file whose temporary copy cannot be written (a folder holds its name):
    // the file is as it was and the backup taken first is gone again.
    const file = join(dir, "settings.json");
    Deno.writeTextFileSync(file, "{}\n");
    Deno.mkdirSync(join(dir, `settings.json.heimdall-${Deno.pid}.tmp/x`), { recursive: true });
    assert.throws(() => applyChange(change(file, "{}\n", "[]\n"), "T"), ConfigWriteError);
    assert.equal(Deno.readTextFileSync(file), "{}\n");
    assert.deepEqual(
      [...Deno.readDirSync(dir)].map((e) => e.name).sort(),
      ["mcp.json", "settings.json", `settings.json.heimdall-${Deno.pid}.tmp`],
    );
  });
});

Deno.test("writeTarget() refuses a loop of links", () => {
  withDir((dir) => {
    Deno.symlinkSync("b", join(dir, "a"));
    Deno.symlinkSync("a", join(dir, "b"));
    assert.throws(() => writeTarget(join(dir, "a")), ConfigWriteError);
  });
});
