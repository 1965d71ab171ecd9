import assert from "node:assert/strict";
import { L1Extractor } from "../extract/mod.ts";
import { preparePath } from "./prepare.ts";

Deno.test("preparePath() marks a file racy when its ctime is recent though its mtime is old (cp -p, an archive)", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "heimdall_prepare_" });
  try {
    const path = `${dir}/version.py`;
    Deno.writeTextFileSync(path, 'VERSION = "1.0.0"\n');
    // An archive's fixed mtime; setting it moves the ctime to now.
    const fixed = new Date("1985-10-26T08:15:00Z");
    Deno.utimeSync(path, fixed, fixed);
    const prepared = await preparePath({
      path,
      rel: "version.py",
      rootId: 1,
      requested: 1,
      indexed: undefined,
      excluded: undefined,
      secret: false,
      maxFileBytes: 1 << 20,
      deep: false,
      extractor: new L1Extractor(),
    });
    assert.equal(prepared.do, "replace");
    assert.ok(prepared.do === "replace");
    assert.equal(prepared.rows.path.mtime_ms, fixed.getTime());
    // Another rewrite within this second, size and mtime kept, would change no stat: read again.
    assert.equal(prepared.rows.path.racy, 1);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
