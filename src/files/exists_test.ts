import assert from "node:assert/strict";
import { exists } from "./exists.ts";

Deno.test("exists: files, folders and links to them are there; a link to nothing and a missing path are not", () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(`${dir}/file`, "x");
    Deno.mkdirSync(`${dir}/folder`);
    Deno.symlinkSync(`${dir}/file`, `${dir}/to-file`);
    Deno.symlinkSync(`${dir}/gone`, `${dir}/to-nothing`);
    assert.equal(exists(`${dir}/file`), true);
    assert.equal(exists(`${dir}/folder`), true);
    assert.equal(exists(`${dir}/to-file`), true);
    assert.equal(exists(`${dir}/to-nothing`), false);
    assert.equal(exists(`${dir}/gone`), false);
    assert.equal(exists(`${dir}/file/under-a-file`), false);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
