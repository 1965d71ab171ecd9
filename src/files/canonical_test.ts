import assert from "node:assert/strict";
import { canonicalPath } from "./canonical.ts";

Deno.test("canonicalPath() resolves linked folders, keeps a file link's name and a missing tail", () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync());
  try {
    Deno.mkdirSync(`${dir}/real/src`, { recursive: true });
    Deno.writeTextFileSync(`${dir}/real/src/a.ts`, "x");
    Deno.symlinkSync(`${dir}/real`, `${dir}/to-root`);
    Deno.symlinkSync(`${dir}/real/src/a.ts`, `${dir}/real/src/to-a.ts`);
    Deno.symlinkSync(`${dir}/nowhere`, `${dir}/real/dangling`);
    Deno.symlinkSync("../..", `${dir}/real/src/up`);
    const cases: [string, string][] = [
      [`${dir}/real/src/a.ts`, `${dir}/real/src/a.ts`],
      [`${dir}/to-root`, `${dir}/real`],
      [`${dir}/to-root/src/a.ts`, `${dir}/real/src/a.ts`],
      [`${dir}/to-root/src/to-a.ts`, `${dir}/real/src/to-a.ts`],
      [`${dir}/to-root/dangling`, `${dir}/real/dangling`],
      [`${dir}/to-root/src/gone/deeper.ts`, `${dir}/real/src/gone/deeper.ts`],
      [`${dir}/to-root/src/up/real/src/a.ts`, `${dir}/real/src/a.ts`],
      [`${dir}/missing/x.ts`, `${dir}/missing/x.ts`],
      ["/", "/"],
    ];
    assert.deepEqual(cases.map(([p]) => [p, canonicalPath(p)]), cases);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
