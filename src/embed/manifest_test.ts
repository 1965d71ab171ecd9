import assert from "node:assert/strict";
import { ManifestError, parseManifest } from "./manifest.ts";
import { BUILTIN_MODELS, builtinManifest, REFERENCE_MODEL } from "./registry.ts";

const good = {
  name: "m",
  dims: 8,
  pooling: "mean",
  files: [
    { name: "model.onnx", role: "model", sha256: null, url: null },
    { name: "tokenizer.json", role: "tokenizer" },
  ],
};

Deno.test("parseManifest() fills defaults: normalise, 512 tokens, no prefixes, no quantization", () => {
  const m = parseManifest(good, "test");
  assert.equal(m.normalize, true);
  assert.equal(m.maxTokens, 512);
  assert.deepEqual(m.prefixes, { query: "", passage: "" });
  assert.equal(m.quantization, "none");
  assert.deepEqual(m.files[1], {
    name: "tokenizer.json",
    role: "tokenizer",
    sha256: null,
    bytes: null,
    url: null,
  });
});

Deno.test("parseManifest() names the key, the value and what it expects", () => {
  const bad: [unknown, RegExp][] = [
    [{ ...good, name: "../x" }, /name "\.\.\/x"/],
    [{ ...good, pooling: "max" }, /pooling "max".*"cls" or "mean"/],
    [{ ...good, dims: 0 }, /dims 0.*whole number/],
    [{ ...good, files: [good.files[0]] }, /exactly one file with role "tokenizer"/],
    [{ ...good, files: [{ ...good.files[0], sha256: "abc" }, good.files[1]] }, /sha256 "abc"/],
    [
      { ...good, files: [{ ...good.files[0], name: "../../etc/passwd" }, good.files[1]] },
      /plain file name/,
    ],
    [{ ...good, files: [{ ...good.files[0], url: "ftp://x" }, good.files[1]] }, /http\(s\) URL/],
  ];
  for (const [raw, re] of bad) {
    assert.throws(
      () => parseManifest(raw, "test"),
      (e: unknown) => e instanceof ManifestError && re.test(e.message),
      String(re),
    );
  }
});

Deno.test("the built-in manifests describe bge-m3 and the small models with download URLs", () => {
  const m3 = builtinManifest(REFERENCE_MODEL)!;
  assert.deepEqual([m3.dims, m3.pooling, m3.normalize, m3.maxTokens], [1024, "cls", true, 512]);
  assert.deepEqual(m3.files.map((f) => f.role), ["model", "weights", "tokenizer"]);
  assert.ok(
    m3.files.every((f) => f.sha256 !== null && f.url?.startsWith("https://huggingface.co/")),
  );
  assert.deepEqual(BUILTIN_MODELS.map((m) => m.name), [
    "bge-m3",
    "bge-m3-int8",
    "bge-small-en-v1.5",
    "multilingual-e5-small",
    "multilingual-e5-small-int8",
    "gte-small",
  ]);
  assert.equal(builtinManifest("multilingual-e5-small")!.prefixes.query, "query: ");
  assert.equal(builtinManifest("bge-m3-int8")!.quantization, "int8");
  assert.ok(BUILTIN_MODELS.every((m) => m.files.every((f) => f.url !== null)));
});
