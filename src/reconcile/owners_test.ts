import assert from "node:assert/strict";
import { HOME_REASON, homeDirs, inHome, walkExclusions } from "./owners.ts";

Deno.test("walkExclusions() skips the home and nested roots, never the root itself", () => {
  const roots = ["/w/outer", "/w/outer/pkg/inner", "/w/other", "/w/outer2"];
  assert.deepEqual(
    [...walkExclusions("/w/outer", roots, ["/w/outer/.hh"])],
    [
      ["/w/outer/.hh", HOME_REASON],
      ["/w/outer/pkg/inner", `inside the nested root "/w/outer/pkg/inner", which owns it`],
    ],
  );
  assert.deepEqual([...walkExclusions("/w/outer/pkg/inner", roots, ["/w/outer/.hh"])], []);
  // "/w/outer2" shares a prefix with "/w/outer" but is not inside it.
  assert.deepEqual([...walkExclusions("/w/outer2", roots, [])], []);
  // A root inside the home is excluded whole.
  assert.deepEqual([...walkExclusions("/h/sub", [], ["/h"])], [["/h", HOME_REASON]]);
});

Deno.test("inHome() names the home for the home and what lies in it", () => {
  assert.equal(inHome("/h", ["/h"]), HOME_REASON);
  assert.equal(inHome("/h/logs/daemon.log", ["/x", "/h"]), HOME_REASON);
  assert.equal(inHome("/hh/a.ts", ["/h"]), undefined);
});

Deno.test("homeDirs() adds the real path of a home reached through a symlink", () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync());
  try {
    Deno.mkdirSync(`${base}/real`);
    Deno.symlinkSync(`${base}/real`, `${base}/link`);
    assert.deepEqual(homeDirs(`${base}/link`), [`${base}/link`, `${base}/real`]);
    assert.deepEqual(homeDirs(`${base}/real/`), [`${base}/real`]);
    assert.deepEqual(homeDirs(`${base}/missing`), [`${base}/missing`]);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});
