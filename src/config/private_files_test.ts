import assert from "node:assert/strict";
import { ensurePrivateDir, tightenPrivate } from "./private_files.ts";

const mode = (p: string) => Deno.statSync(p).mode! & 0o7777;

Deno.test({
  name:
    "private folders never close a shared one: an existing folder and a sticky one keep their mode",
  ignore: Deno.build.os === "windows",
  fn() {
    const base = Deno.makeTempDirSync();
    try {
      const shared = `${base}/project`;
      Deno.mkdirSync(shared);
      Deno.chmodSync(shared, 0o755);
      ensurePrivateDir(shared);
      assert.equal(mode(shared), 0o755, "a folder that exists is not Heimdall's to change");
      ensurePrivateDir(`${shared}/.heimdall/logs`);
      assert.equal(mode(`${shared}/.heimdall/logs`), 0o700, "a folder it creates is private");
      const sticky = `${base}/tmp`;
      Deno.mkdirSync(sticky);
      Deno.chmodSync(sticky, 0o1777);
      assert.equal(tightenPrivate(sticky), false);
      assert.equal(mode(sticky), 0o1777, "like /tmp: shared by design");
      const loose = `${base}/journal.db`;
      Deno.writeTextFileSync(loose, "", { mode: 0o644 });
      Deno.chmodSync(loose, 0o644);
      assert.equal(tightenPrivate(loose), true);
      assert.equal(mode(loose), 0o600);
    } finally {
      Deno.removeSync(base, { recursive: true });
    }
  },
});
