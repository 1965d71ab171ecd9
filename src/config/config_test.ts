import assert from "node:assert/strict";
import { ConfigError, defaultConfig, parseConfig, parseDepth } from "./mod.ts";
import { withEnvOverrides } from "./config.ts";

Deno.test("parseConfig() fills defaults and keeps valid values", () => {
  assert.deepEqual(parseConfig(undefined), defaultConfig());
  const c = parseConfig({ roots: ["/a", { path: "/b", depth: "L1" }], maxFileBytes: 10 });
  assert.deepEqual(c.roots, [{ path: "/a", depth: "max" }, { path: "/b", depth: 1 }]);
  assert.deepEqual(c.maxFileBytes, 10);
});

Deno.test("parseConfig() names the key, the value and the fix for bad input", () => {
  const bad: [unknown, RegExp][] = [
    [[], /one JSON object/],
    [null, /config null.*one JSON object/],
    [{ roots: [{ path: "/a", Depth: "L1" }] }, /roots\[0\] key "Depth".*did you mean "depth"/],
    [{ roots: "x" }, /roots "x"/],
    [{ roots: [{ path: "rel" }] }, /roots\[0\]\.path "rel".*absolute/],
    [{ roots: ["rel"] }, /roots\[0\] "rel".*absolute/],
    // Written by hand, it made every writer walk every disk: `roots add /` refuses it.
    [{ roots: [{ path: "/" }] }, /roots\[0\]\.path "\/".*filesystem's root.*project folder/],
    [{ roots: ["/a", "//"] }, /roots\[1\] "\/\/".*filesystem's root/],
    [{ roots: [{ path: "/./" }] }, /roots\[0\]\.path "\/\.\/".*filesystem's root/],
    [{ roots: [{ path: "/a", depth: "deep" }] }, /depth "deep".*max, L0/],
    [{ maxFileBytes: -1 }, /maxFileBytes -1.*whole number/],
    [{ vocabularyWeight: -0.1 }, /vocabularyWeight -0\.1.*from 0 to 10/],
    [{ vocabularyWeight: "high" }, /vocabularyWeight "high".*from 0 to 10/],
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

Deno.test("parseConfig() refuses a key it does not know, naming the nearest known one", () => {
  assert.throws(
    () => parseConfig({ maxFileByte: 10 }, "/h/config.json"),
    (e: unknown) =>
      e instanceof ConfigError &&
      /Invalid key "maxFileByte" in "\/h\/config.json": unknown key; did you mean "maxFileBytes"\?/
        .test(e.message),
  );
  assert.throws(() => parseConfig({ teamurl: null }), /did you mean "teamUrl"/);
});

Deno.test("withEnvOverrides() lets a HEIMDALL_* variable beat the file, validated like it", () => {
  const file = parseConfig({ maxFileBytes: 10, model: "file-model" });
  const env = (vars: Record<string, string>) => ({ get: (k: string) => vars[k] });
  const c = withEnvOverrides(file, env({ HEIMDALL_MAX_FILE_BYTES: "2048", HEIMDALL_MODEL: "" }));
  assert.equal(c.maxFileBytes, 2048);
  assert.equal(c.model, "file-model", "an empty variable is unset");
  assert.equal(file.maxFileBytes, 10, "the file's config is not changed");
  assert.equal(
    withEnvOverrides(file, env({ HEIMDALL_VOCABULARY_WEIGHT: "0.05" })).vocabularyWeight,
    0.05,
  );
  assert.throws(
    () => withEnvOverrides(file, env({ HEIMDALL_BATCH_SIZE: "lots" })),
    /Invalid batchSize "lots" in "\$HEIMDALL_BATCH_SIZE": expected a whole number/,
  );
});
