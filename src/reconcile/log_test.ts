import assert from "node:assert/strict";
import { join } from "../files/mod.ts";
import { fileLogger } from "./log.ts";

Deno.test("fileLogger() moves a log of 8 MiB aside to FILE.1, so a daemon's logs stay bounded", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const file = join(dir, "daemon.log");
    const old = "x".repeat(99) + "\n";
    Deno.writeTextFileSync(file, old.repeat(8 * 1024 * 1024 / 100 + 1), { mode: 0o600 });
    const log = fileLogger(file, false);
    // The log only grew: a daemon running for months filled the disk with it.
    log.info("drained 1: 1 changed");
    log.info("drained 2: 2 changed");
    assert.match(Deno.readTextFileSync(file), /^\S+ info drained 1: 1 changed\n\S+ info drained 2/);
    assert.ok(Deno.readTextFileSync(`${file}.1`).startsWith(old));
    assert.equal(Deno.statSync(file).mode! & 0o777, 0o600);
    // The next move replaces FILE.1: two files at most.
    const small = fileLogger(file, false, 100);
    small.info(`a line that fills it ${"y".repeat(100)}`);
    assert.match(Deno.readTextFileSync(`${file}.1`), /^\S+ info drained 1/);
    small.info("the next one moves it aside");
    assert.match(Deno.readTextFileSync(`${file}.1`), /^\S+ info a line that fills it/);
    assert.match(Deno.readTextFileSync(file), /^\S+ info the next one moves it aside\n$/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
