import assert from "node:assert/strict";
import { ConfigError, defaultConfig, parseConfig, parseDepth } from "./mod.ts";

Deno.test("parseConfig() fills defaults and keeps valid values", () => {
  assert.deepEqual(parseConfig(undefined), defaultConfig());
  const c = parseConfig({ roots: ["/a", { path: "/b", depth: "L1" }], maxFileBytes: 10 });
  assert.deepEqual(c.roots, [{ path: "/a", depth: "max" }, { path: "/b", depth: 1 }]);
  assert.deepEqual(c.maxFileBytes, 10);
});

Deno.test("parseConfig() names the key, the value and the fix for bad input", () => {
  const bad: [unknown, RegExp][] = [
    [[], /one JSON object/],
    [{ roots: "x" }, /roots "x"/],
    [{ roots: [{ path: "rel" }] }, /roots\[0\]\.path "rel".*absolute/],
    [{ roots: [{ path: "/a", depth: "deep" }] }, /depth "deep".*max, L0/],
    [{ maxFileBytes: -1 }, /maxFileBytes -1.*whole number/],
  ];
  for (const [raw, re] of bad) {
    assert.throws(
      () => parseConfig(raw, "/h/config.json"),
      (e: unknown) => e instanceof ConfigError && re.test(e.message),
    );
  }
});

Deno.test("parseDepth() accepts max, digits and L-names only", () => {
  assert.deepEqual(parseDepth("max"), "max");
  assert.deepEqual(parseDepth("L2"), 2);
  assert.deepEqual(parseDepth("3"), 3);
  assert.deepEqual(parseDepth("L4"), undefined);
  assert.deepEqual(parseDepth(""), undefined);
});
