import { deepStrictEqual } from "node:assert/strict";
import nodePath from "node:path";
import { basename, dirname, isAbsolute, join, posix, relative, resolve, sep } from "./path.ts";

const SAMPLES = [
  "",
  ".",
  "..",
  "/",
  "//",
  "///a",
  "a",
  "a/",
  "a//b",
  "./a",
  "../a",
  "../../a/b/",
  "a/./b/../c",
  "a/../..",
  "/a/../..",
  "/a/b/c",
  "/a/b/c/",
  "/a//b///c//",
  "/a/./b/./",
  "a/b/../../..",
  ".hidden",
  "/x/.hidden",
  "dir/file.ts",
  "dir/file.test.ts",
  "/dir/file.ts/",
  "..a/b..",
  "a/.../b",
  "ünï/cödé.rs",
];

Deno.test("path functions give Node's POSIX results on this system", () => {
  if (Deno.build.os === "windows") return;
  const node = nodePath.posix;
  for (const a of SAMPLES) {
    deepStrictEqual(dirname(a), node.dirname(a), `dirname(${JSON.stringify(a)})`);
    deepStrictEqual(basename(a), node.basename(a), `basename(${JSON.stringify(a)})`);
    for (const ext of [".ts", "ts", "b", "a", "/", ".test.ts", a]) {
      deepStrictEqual(basename(a, ext), node.basename(a, ext), `basename(${a}, ${ext})`);
    }
    deepStrictEqual(isAbsolute(a), node.isAbsolute(a), `isAbsolute(${JSON.stringify(a)})`);
    deepStrictEqual(posix.normalize(a), node.normalize(a), `normalize(${JSON.stringify(a)})`);
    deepStrictEqual(posix.dirname(a), node.dirname(a));
    deepStrictEqual(resolve(a), node.resolve(a), `resolve(${JSON.stringify(a)})`);
    for (const b of SAMPLES) {
      const pair = `(${JSON.stringify(a)}, ${JSON.stringify(b)})`;
      deepStrictEqual(join(a, b), node.join(a, b), `join${pair}`);
      deepStrictEqual(posix.join(a, b), node.join(a, b), `posix.join${pair}`);
      deepStrictEqual(resolve(a, b), node.resolve(a, b), `resolve${pair}`);
      deepStrictEqual(relative(a, b), node.relative(a, b), `relative${pair}`);
    }
  }
  deepStrictEqual(join(), node.join());
  deepStrictEqual(resolve(), node.resolve());
  deepStrictEqual(join("/a", "", "b", "../c"), node.join("/a", "", "b", "../c"));
  deepStrictEqual(resolve("x", "/y", "z", "..", "w"), node.resolve("x", "/y", "z", "..", "w"));
  deepStrictEqual(sep, "/");
});
