import assert from "node:assert/strict";
import { join } from "./path.ts";
import { codeStamp, lastingBinaryPath } from "./program.ts";

Deno.test("codeStamp of a binary changes when an install moves a new one into place, even an older one", () => {
  const dir = Deno.makeTempDirSync({ prefix: "heimdall-program-" });
  try {
    const bin = join(dir, "heimdall");
    Deno.writeTextFileSync(bin, "v1");
    const before = codeStamp(bin);
    assert.equal(codeStamp(bin), before, "the same file, the same stamp");
    // As install.sh does: written beside, then renamed over; dated before the first.
    Deno.writeTextFileSync(join(dir, ".new"), "v0");
    Deno.utimeSync(join(dir, ".new"), new Date(0), new Date(0));
    Deno.renameSync(join(dir, ".new"), bin);
    assert.notEqual(codeStamp(bin), before);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("codeStamp of a Homebrew binary changes when the upgrade moves its opt link, before any cleanup", () => {
  const dir = Deno.makeTempDirSync({ prefix: "heimdall-program-" });
  try {
    const version = (v: string) => {
      Deno.mkdirSync(join(dir, "Cellar", "heimdall", v, "bin"), { recursive: true });
      Deno.writeTextFileSync(join(dir, "Cellar", "heimdall", v, "bin", "heimdall"), v);
      return join(dir, "Cellar", "heimdall", v);
    };
    const running = join(version("1.0"), "bin", "heimdall");
    Deno.mkdirSync(join(dir, "opt"));
    const opt = join(dir, "opt", "heimdall");
    Deno.symlinkSync(join(dir, "Cellar", "heimdall", "1.0"), opt);
    assert.equal(lastingBinaryPath(running), join(opt, "bin", "heimdall"));
    const before = codeStamp(running);
    // brew upgrade: the new version beside the old (a bottle keeps its build's
    // time, here older than the running one's), the opt link moved to it.
    const next = join(version("2.0"), "bin", "heimdall");
    Deno.utimeSync(next, new Date(0), new Date(0));
    Deno.removeSync(opt);
    Deno.symlinkSync(join(dir, "Cellar", "heimdall", "2.0"), opt);
    const upgraded = codeStamp(running);
    assert.notEqual(upgraded, before);
    // brew cleanup: the version this process runs is gone.
    Deno.removeSync(join(dir, "Cellar", "heimdall", "1.0"), { recursive: true });
    assert.notEqual(codeStamp(running), upgraded);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
