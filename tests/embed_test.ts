/**
 * The embedding model end to end: the tiny checked-in model through the real
 * runtime (tokenize → run → pool → normalise), both backends, int8 weights,
 * external weights, the no-model status, and `heimdall model pull | import |
 * use | list` against a real HTTP server on loopback.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  cosine,
  Embedder,
  embedderSource,
  importModel,
  modelStatus,
  NativeUnavailableError,
  readInstalled,
} from "../src/embed/mod.ts";
import { MAIN, tempDir, waitFor } from "./helpers.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const TINY = join(ROOT, "tests/fixtures/models/tiny");
const TINY_INT8 = join(ROOT, "tests/fixtures/models/tiny-int8");
const DENO = Deno.execPath();

const TEXTS = [
  "retry with exponential backoff",
  "exponential backoff delay for retry",
  "lock the journal writer",
  "the café über 中文",
];

const norm = (v: Float32Array) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));

async function openTiny(dir = TINY, options: Record<string, unknown> = {}): Promise<Embedder> {
  return await Embedder.open(dir, { libDir: tempDir(), backend: "wasm", ...options });
}

Deno.test("Embedder on the tiny model: unit vectors, identical text cosine 1, shared words closer", async () => {
  const e = await openTiny();
  try {
    assert.deepEqual([e.name, e.model, e.dims, e.backend], ["tiny", "tiny", 32, "wasm"]);
    assert.match(e.backendDetail, /onnxruntime-web 1\.30\.0 \(WebAssembly SIMD, \d threads?\)/);
    const [a, again, shared, disjoint] = await e.embed([
      "retry with exponential backoff",
      "retry with exponential backoff",
      "exponential backoff delay for retry",
      "lock the journal writer",
    ]);
    for (const v of [a!, shared!, disjoint!]) {
      assert.equal(v.length, 32);
      assert.ok(Math.abs(norm(v) - 1) < 1e-5, `norm ${norm(v)}`);
    }
    assert.ok(cosine(a!, again!) > 0.99999);
    const speed = await e.speed(2, 16);
    assert.ok(speed.chunksPerSecond > 0 && speed.tokens >= 16);
    assert.ok(
      cosine(a!, shared!) > cosine(a!, disjoint!) + 0.1,
      `shared ${cosine(a!, shared!)} vs disjoint ${cosine(a!, disjoint!)}`,
    );
  } finally {
    await e.close();
  }
});

Deno.test("Embedder.embed() keeps input order and gives the same vector alone or in any batch", async () => {
  const e = await openTiny(TINY, { maxBatch: 2 });
  try {
    const texts = [...TEXTS, "x", "a much longer text about the single writer lock ".repeat(5)];
    const together = await e.embed(texts);
    for (const [i, t] of texts.entries()) {
      const [alone] = await e.embed([t]);
      assert.ok(cosine(alone!, together[i]!) > 0.99999, t);
    }
    assert.deepEqual(await e.embed([]), []);
  } finally {
    await e.close();
  }
});

Deno.test("Embedder truncates to maxTokens and adds the query or passage prefix", async () => {
  const dir = tempDir();
  for (const f of ["model.onnx", "tokenizer.json"]) Deno.copyFileSync(join(TINY, f), join(dir, f));
  const manifest = JSON.parse(Deno.readTextFileSync(join(TINY, "manifest.json")));
  manifest.prefixes = { query: "query: ", passage: "passage: " };
  Deno.writeTextFileSync(join(dir, "manifest.json"), JSON.stringify(manifest));
  const e = await openTiny(dir, { maxTokens: 16 });
  const plain = await openTiny();
  try {
    const long = "retry with exponential backoff ".repeat(50);
    assert.equal(e.encode(long).length, 16);
    assert.equal(plain.encode(long).length, 128, "the manifest's maxTokens by default");
    assert.deepEqual(e.encode("lock the writer", "query"), plain.encode("query: lock the writer"));
    const [q] = await e.embed(["lock the writer"], "query");
    const [p] = await e.embed(["lock the writer"], "passage");
    const [literal] = await plain.embed(["query: lock the writer"]);
    assert.ok(cosine(q!, p!) < 0.9999, "query and passage prefixes differ");
    assert.ok(cosine(q!, literal!) > 0.99999, "the prefix is prepended to the text");
  } finally {
    await Promise.all([e.close(), plain.close()]);
  }
});

Deno.test("int8 weights and external weights run as they are and agree with float32", async () => {
  const ext = tempDir();
  const made = await new Deno.Command(DENO, {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      join(ROOT, "scripts/make_tiny_model.ts"),
      "--external",
      "--out",
      ext,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(made.code, 0, new TextDecoder().decode(made.stderr));
  assert.ok(
    Deno.statSync(join(ext, "model.onnx_data")).size > Deno.statSync(join(ext, "model.onnx")).size,
  );
  const f32 = await openTiny();
  const int8 = await openTiny(TINY_INT8);
  const external = await openTiny(ext);
  try {
    assert.equal(int8.manifest.quantization, "int8");
    const a = await f32.embed(TEXTS);
    const b = await int8.embed(TEXTS);
    const c = await external.embed(TEXTS);
    for (let i = 0; i < TEXTS.length; i++) {
      assert.ok(
        cosine(a[i]!, b[i]!) > 0.99,
        `int8 drifted on ${TEXTS[i]}: ${cosine(a[i]!, b[i]!)}`,
      );
      assert.ok(cosine(a[i]!, b[i]!) < 0.999999, "int8 is really a different graph");
      assert.ok(cosine(a[i]!, c[i]!) > 0.99999, "external weights are the same weights");
    }
  } finally {
    await Promise.all([f32.close(), int8.close(), external.close()]);
  }
});

Deno.test("without --allow-ffi, auto falls back to WASM and says why; native alone fails", async () => {
  const e = await Embedder.open(TINY, { libDir: tempDir() });
  try {
    assert.equal(e.backend, "wasm");
    assert.match(e.fallbackReason ?? "", /--allow-ffi/);
  } finally {
    await e.close();
  }
  await assert.rejects(
    () => Embedder.open(TINY, { libDir: tempDir(), backend: "native" }),
    NativeUnavailableError,
  );
});

Deno.test("a process with a very long command line embeds on WASM instead of aborting in the native library", async () => {
  const code = `
    import { Embedder, NativeUnavailableError } from ${
    JSON.stringify(new URL("../src/embed/mod.ts", import.meta.url).href)
  };
    const e = await Embedder.open(${JSON.stringify(TINY)}, { libDir: ${
    JSON.stringify(tempDir())
  } });
    const [v] = await e.embed([Deno.args[0]], "query");
    let native = "";
    try {
      await Embedder.open(${JSON.stringify(TINY)}, { libDir: ${
    JSON.stringify(tempDir())
  }, backend: "native" });
    } catch (err) {
      native = err instanceof NativeUnavailableError ? err.message : String(err);
    }
    console.log(JSON.stringify({ backend: e.backend, fallback: e.fallbackReason, dims: v.length, native }));
    await e.close();`;
  // A pasted log as the query: 30,000 bytes of arguments. `deno eval` may load native code.
  const query = "retry the journal writer ".repeat(1200);
  const out = await new Deno.Command(DENO, {
    args: ["eval", "--ext=ts", `--config=${join(ROOT, "deno.json")}`, code, "--", query],
    cwd: ROOT,
    env: { DENO_NO_UPDATE_CHECK: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const got = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.equal(got.backend, "wasm");
  assert.equal(got.dims, 32);
  assert.match(got.fallback, /command line holds 30001 bytes of arguments.*shorter query/);
  assert.match(got.native, /command line holds 30001 bytes/);
});

Deno.test("the native backend (npm package and extracted library) gives WASM's vectors", async () => {
  const wasm = await openTiny();
  const want = await wasm.embed(TEXTS);
  await wasm.close();
  for (const route of ["package", "extract"]) {
    const lib = tempDir();
    const code = `
      import { Embedder } from ${
      JSON.stringify(new URL("../src/embed/mod.ts", import.meta.url).href)
    };
      const e = await Embedder.open(${JSON.stringify(TINY)}, {
        libDir: ${JSON.stringify(lib)}, backend: "native", nativeLoad: ${JSON.stringify(route)},
      });
      const v = await e.embed(${JSON.stringify(TEXTS)});
      console.log(JSON.stringify({ backend: e.backend, detail: e.backendDetail, v: v.map((x) => [...x]) }));
      await e.close();`;
    // `deno eval` has every permission, --allow-ffi included; this test process has not.
    const out = await new Deno.Command(DENO, {
      args: ["eval", "--ext=ts", `--config=${join(ROOT, "deno.json")}`, code],
      cwd: ROOT,
      env: { DENO_NO_UPDATE_CHECK: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const got = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(got.backend, "native");
    assert.match(
      got.detail,
      route === "package" ? /npm package/ : new RegExp(`extracted to ${lib}`),
    );
    for (let i = 0; i < TEXTS.length; i++) {
      assert.ok(cosine(Float32Array.from(got.v[i]), want[i]!) > 0.9999, TEXTS[i]);
    }
    if (route === "extract") {
      const dir = join(lib, "onnxruntime-node-1.30.0", "linux-x64");
      if (Deno.build.os === "linux" && Deno.build.arch === "x86_64") {
        assert.ok(Deno.statSync(join(dir, "libonnxruntime.so.1")).size > 1_000_000);
      }
    }
  }
});

Deno.test("modelStatus() is off with the remedy, never an error, until a model is installed", async () => {
  const home = tempDir();
  const models = join(home, "models");
  assert.deepEqual(modelStatus(models, null), {
    on: false,
    reason: "no model; run heimdall model pull multilingual-e5-small-int8",
  });
  assert.deepEqual(modelStatus(models, "gte-small"), {
    on: false,
    reason: 'model "gte-small" is not installed; run heimdall model pull gte-small',
  });
  let active: string | null = null;
  const source = embedderSource({ models, lib: join(home, "lib") }, () => active, {
    backend: "wasm",
  });
  assert.deepEqual(await source(), {
    on: false,
    reason: "no model; run heimdall model pull multilingual-e5-small-int8",
  });
  // Install by hand: a folder with the files and the manifest.
  Deno.mkdirSync(join(models, "tiny"), { recursive: true });
  for (const f of ["model.onnx", "tokenizer.json", "manifest.json"]) {
    Deno.copyFileSync(join(TINY, f), join(models, "tiny", f));
  }
  active = "tiny";
  const s = modelStatus(models, "tiny");
  assert.ok(s.on && s.dims === 32 && s.dir === join(models, "tiny"));
  const state = await source();
  assert.ok(state.on);
  assert.equal(state.embedder.model, "tiny");
  assert.equal((await state.embedder.embed(["x"], "query"))[0]!.length, 32);
  assert.equal(await source(), await source(), "cached while the active model stays");
  Deno.removeSync(join(models, "tiny", "model.onnx"));
  assert.match(
    (modelStatus(models, "tiny") as { reason: string }).reason,
    /incomplete.*missing model\.onnx/,
  );
  active = null;
  assert.equal((await source()).on, false);
});

// --- heimdall model, through the CLI, against a server on loopback -------------------------

const PERMS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  "--allow-net=127.0.0.1,localhost",
];

async function heimdall(home: string, args: string[]) {
  const out = await new Deno.Command(DENO, {
    args: ["run", ...PERMS, MAIN, ...args],
    env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** A file server for the tiny model that can cut a download short or ignore Range. */
function modelServer() {
  const files: Record<string, Uint8Array> = {};
  for (const f of ["model.onnx", "tokenizer.json"]) files[f] = Deno.readFileSync(join(TINY, f));
  const state = {
    cut: null as null | { file: string; after: number },
    ignoreRange: false,
    requests: [] as { file: string; range: string | null }[],
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const file = new URL(req.url).pathname.split("/").pop()!;
    const body = files[file];
    const range = req.headers.get("range");
    state.requests.push({ file, range });
    if (!body) return new Response("not found", { status: 404 });
    const m = range && !state.ignoreRange ? /^bytes=(\d+)-$/.exec(range) : null;
    const start = m ? Number(m[1]) : 0;
    if (start >= body.length && m) {
      return new Response(null, {
        status: 416,
        headers: { "content-range": `bytes */${body.length}` },
      });
    }
    const headers: Record<string, string> = { "content-length": String(body.length - start) };
    if (m) headers["content-range"] = `bytes ${start}-${body.length - 1}/${body.length}`;
    const cut = state.cut?.file === file ? state.cut : null;
    if (cut) state.cut = null;
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        if (cut) {
          c.enqueue(body.slice(start, cut.after));
          c.close(); // short of content-length: the client sees the body end early
        } else {
          c.enqueue(body.slice(start));
          c.close();
        }
      },
    });
    return new Response(stream, { status: m ? 206 : 200, headers });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  return { state, base, files, close: () => server.shutdown() };
}

function remoteManifest(
  base: string,
  name: string,
  tweak: (m: Record<string, unknown>) => void = () => {},
): string {
  const m = JSON.parse(Deno.readTextFileSync(join(TINY, "manifest.json")));
  m.name = name;
  for (const f of m.files) f.url = `${base}/${name}/${f.name}`;
  tweak(m);
  const path = join(tempDir(), "manifest.json");
  Deno.writeTextFileSync(path, JSON.stringify(m));
  return path;
}

Deno.test("model pull resumes an interrupted download with Range and checks sha256", async () => {
  const srv = modelServer();
  try {
    const home = tempDir();
    const manifest = remoteManifest(srv.base, "tiny-remote");
    srv.state.cut = { file: "model.onnx", after: 40_000 };
    const first = await heimdall(home, ["model", "pull", "--manifest", manifest]);
    assert.equal(first.code, 3, first.stderr);
    assert.match(
      first.stderr,
      /(stopped|ended) at \d+ of 125469 bytes.*run the same command again to resume/,
    );
    const part = join(home, "models", "tiny-remote", "model.onnx.part");
    const kept = Deno.statSync(part).size;
    assert.ok(kept > 0 && kept <= 40_000, `kept ${kept}`);
    assert.equal((await heimdall(home, ["model", "use", "tiny-remote"])).code, 3);

    srv.state.requests = [];
    const second = await heimdall(home, ["model", "pull", "--manifest", manifest]);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(srv.state.requests, [
      { file: "model.onnx", range: `bytes=${kept}-` },
      { file: "tokenizer.json", range: null },
    ]);
    assert.match(second.stdout, /resumed\s+model\.onnx .*\(matches the manifest\)/);
    assert.match(second.stdout, /active model: tiny-remote/);
    assert.deepEqual(
      Deno.readFileSync(join(home, "models", "tiny-remote", "model.onnx")),
      srv.files["model.onnx"],
    );
    assert.throws(() => Deno.statSync(part), Deno.errors.NotFound);

    // A second pull of a complete model downloads nothing.
    srv.state.requests = [];
    const again = await heimdall(home, ["model", "pull", "--manifest", manifest]);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(srv.state.requests, []);
    assert.match(again.stdout, /kept\s+model\.onnx/);
  } finally {
    await srv.close();
  }
});

Deno.test("model pull starts over when the server ignores Range", async () => {
  const srv = modelServer();
  try {
    const home = tempDir();
    const manifest = remoteManifest(srv.base, "tiny-norange");
    srv.state.cut = { file: "tokenizer.json", after: 1000 };
    assert.equal((await heimdall(home, ["model", "pull", "--manifest", manifest])).code, 3);
    srv.state.ignoreRange = true;
    const r = await heimdall(home, ["model", "pull", "--manifest", manifest]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /downloaded\s+tokenizer\.json .*\(matches the manifest\)/);
    assert.deepEqual(
      Deno.readFileSync(join(home, "models", "tiny-norange", "tokenizer.json")),
      srv.files["tokenizer.json"],
    );
  } finally {
    await srv.close();
  }
});

Deno.test("model pull refuses bytes whose sha256 is not the pinned one and keeps nothing", async () => {
  const srv = modelServer();
  try {
    const home = tempDir();
    const manifest = remoteManifest(srv.base, "tiny-bad", (m) => {
      const files = m.files as { name: string; sha256: string }[];
      files[1]!.sha256 = files[0]!.sha256; // the tokenizer "should" hash like the model
    });
    const r = await heimdall(home, ["model", "pull", "--manifest", manifest]);
    assert.equal(r.code, 3, r.stderr);
    assert.match(
      r.stderr,
      /tokenizer\.json" has sha256 [0-9a-f]{64}, expected [0-9a-f]{64}; the download was removed/,
    );
    const dir = join(home, "models", "tiny-bad");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["model.onnx"]);
    const list = JSON.parse((await heimdall(home, ["model", "list", "--json"])).stdout);
    assert.equal(list.active, null);
    assert.equal(
      list.models.find((m: { name: string }) => m.name === "tiny-bad").state,
      "incomplete",
    );
  } finally {
    await srv.close();
  }
});

Deno.test("model import installs from a folder, the first model becomes active, use switches", async () => {
  const home = tempDir();
  const imported = await heimdall(home, ["model", "import", "tiny", "--from", TINY]);
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stdout, /active model: tiny/);

  // A built-in name, from a Hugging Face style folder (onnx/model.onnx): digests recorded.
  const hf = tempDir();
  Deno.mkdirSync(join(hf, "onnx"));
  Deno.copyFileSync(join(TINY, "model.onnx"), join(hf, "onnx", "model.onnx"));
  Deno.copyFileSync(join(TINY, "tokenizer.json"), join(hf, "tokenizer.json"));
  const pinned = await heimdall(home, ["model", "import", "gte-small", "--from", hf]);
  assert.equal(pinned.code, 3, "gte-small pins its model's sha256; the tiny model is not it");
  assert.match(
    pinned.stderr,
    /has sha256 [0-9a-f]{64}, expected 398a2999.*not the file model "gte-small" expects/,
  );
  // bge-small-en-v1.5 pins no digest, but its manifest says 384 dims: the tiny graph gives 32.
  const wide = await heimdall(home, ["model", "import", "bge-small-en-v1.5", "--from", hf]);
  assert.equal(wide.code, 2, wide.stderr);
  assert.match(wide.stderr, /returned 32-wide vectors, its manifest says dims 384/);
  // With its own manifest (no digests pinned), the same folder installs.
  Deno.writeTextFileSync(join(hf, "manifest.json"), unpinnedManifest(TINY));
  const second = await heimdall(home, ["model", "import", "second", "--from", hf]);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /active model stays tiny/);
  assert.match(second.stdout, /\(no digest pinned: recorded\)/);

  const use = await heimdall(home, ["model", "use", "second"]);
  assert.equal(use.code, 0, use.stderr);
  const list = JSON.parse((await heimdall(home, ["model", "list", "--json"])).stdout);
  assert.equal(list.active, "second");
  assert.deepEqual(
    list.models.filter((m: { state: string }) => m.state !== "available").map((
      m: { name: string; state: string },
    ) => [m.name, m.state]),
    [["second", "active"], ["tiny", "installed"]],
  );
  assert.match((await heimdall(home, ["model", "list"])).stdout, /^\* second +active/m);
  assert.equal(JSON.parse(Deno.readTextFileSync(join(home, "config.json"))).model, "second");
  Deno.removeSync(join(hf, "manifest.json"));

  const errors: [string[], number, RegExp][] = [
    [["model", "use", "nope"], 2, /Unknown model "nope"/],
    [["model", "use", "bge-m3"], 3, /not installed.*heimdall model pull bge-m3/],
    [["model", "pull", "nope"], 2, /Unknown model "nope": built-in models are bge-m3/],
    [
      ["model", "import", "mine", "--from", hf],
      2,
      /no manifest\.json and "mine" is not a built-in/,
    ],
    [
      ["model", "import", "bge-small-en-v1.5", "--from", join(hf, "onnx")],
      2,
      /has no tokenizer\.json/,
    ],
    [["model", "import", "tiny", "--from", join(hf, "nowhere")], 2, /Cannot import from/],
    [["model", "frobnicate"], 2, /Unknown model command "frobnicate"/],
  ];
  for (const [args, code, re] of errors) {
    const r = await heimdall(home, args);
    assert.equal(r.code, code, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, re, args.join(" "));
  }

  const broken = tempDir();
  Deno.writeTextFileSync(join(broken, "model.onnx"), "not the model");
  const lacking = await heimdall(home, ["model", "import", "bge-small-en-v1.5", "--from", broken]);
  assert.equal(lacking.code, 2, lacking.stderr);
  assert.match(lacking.stderr, /has no tokenizer\.json/);
  assert.doesNotMatch(lacking.stderr, /\(nor tokenizer\.json\)/, "one name said once");

  // A failed import over an installed model leaves it as it was.
  Deno.copyFileSync(join(TINY, "tokenizer.json"), join(broken, "tokenizer.json"));
  Deno.writeTextFileSync(join(broken, "manifest.json"), unpinnedManifest(TINY));
  const over = await heimdall(home, ["model", "import", "second", "--from", broken]);
  assert.equal(over.code, 2, over.stderr);
  assert.match(over.stderr, /Cannot install "second" from .*nothing was installed/);
  const installed = join(home, "models", "second");
  assert.deepEqual(
    Deno.readFileSync(join(installed, "model.onnx")),
    Deno.readFileSync(join(TINY, "model.onnx")),
  );
  assert.deepEqual([...Deno.readDirSync(installed)].map((e) => e.name).sort(), [
    "manifest.json",
    "model.onnx",
    "tokenizer.json",
  ]);
  const after = JSON.parse((await heimdall(home, ["model", "list", "--json"])).stdout);
  assert.equal(after.models.find((m: { name: string }) => m.name === "second").state, "active");
});

/** `dir`'s manifest.json with no digest or size pinned: any files pass the checksum step. */
function unpinnedManifest(dir: string): string {
  const m = JSON.parse(Deno.readTextFileSync(join(dir, "manifest.json")));
  for (const f of m.files) {
    f.sha256 = null;
    f.bytes = null;
  }
  return JSON.stringify(m);
}

Deno.test("model import refuses a model that does not run, and keeps the installed one", async () => {
  const home = tempDir();
  const ok = await heimdall(home, ["model", "import", "tiny", "--from", TINY]);
  assert.equal(ok.code, 0, ok.stderr);
  const installed = () =>
    Object.fromEntries(
      [...Deno.readDirSync(join(home, "models", "tiny"))].map((
        e,
      ) => [e.name, Deno.readFileSync(join(home, "models", "tiny", e.name))]),
    );
  const before = installed();
  const bad = (tweak: (dir: string, manifest: Record<string, unknown>) => void): string => {
    const dir = tempDir();
    for (const f of ["model.onnx", "tokenizer.json"]) {
      Deno.copyFileSync(join(TINY, f), join(dir, f));
    }
    const m = JSON.parse(unpinnedManifest(TINY));
    tweak(dir, m);
    Deno.writeTextFileSync(join(dir, "manifest.json"), JSON.stringify(m));
    return dir;
  };
  const cases: [string, string, RegExp][] = [
    [
      "a truncated graph",
      bad((dir) =>
        Deno.writeFileSync(
          join(dir, "model.onnx"),
          Deno.readFileSync(join(TINY, "model.onnx")).subarray(0, 5000),
        )
      ),
      /protobuf parsing failed.*check that the files are whole and belong together/i,
    ],
    [
      "another model's tokenizer (ids past the graph's vocabulary)",
      bad((dir) =>
        Deno.copyFileSync(
          join(ROOT, "tests/fixtures/tokenizer/spm/tokenizer.json"),
          join(dir, "tokenizer.json"),
        )
      ),
      /does not run on its tokenizer's ids \(1502 unigram pieces.*another model's/,
    ],
    [
      "dims that are not the graph's",
      bad((_, m) => (m.dims = 64)),
      /returned 32-wide vectors, its manifest says dims 64; fix the manifest/,
    ],
  ];
  // Over the installed model, or as a new one.
  for (const [i, [what, from, re]] of cases.entries()) {
    const name = i === 1 ? "other" : "tiny";
    const r = await heimdall(home, ["model", "import", name, "--from", from]);
    assert.equal(r.code, 2, `${what}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`Cannot install "${name}" from "${from}": `), what);
    assert.match(r.stderr, re, what);
    assert.match(r.stderr, /nothing was installed$/m, what);
  }
  assert.deepEqual(installed(), before, "the installed model is as it was");
  assert.deepEqual(
    [...Deno.readDirSync(join(home, "models"))].map((e) => e.name).filter((n) =>
      !n.endsWith(".lock")
    ),
    ["tiny"],
    "no staging folder left behind",
  );
  const list = JSON.parse((await heimdall(home, ["model", "list", "--json"])).stdout);
  assert.equal(list.active, "tiny");
});

Deno.test("model import over the active model: its earlier vectors are left aside by search, then made again", async () => {
  const home = tempDir();
  const repo = tempDir();
  Deno.writeTextFileSync(
    join(repo, "retry.ts"),
    "/** Retries a call with exponential backoff. */\nexport function retryWithBackoff() {\n  return 1;\n}\n",
  );
  assert.equal((await heimdall(home, ["model", "import", "m", "--from", TINY])).code, 0);
  const first = await heimdall(home, ["index", repo]);
  assert.match(first.stdout, /embedded \d+ chunks? with m/, first.stderr);
  // The same name, other files (int8 weights): vectors of the float32 files are not its own.
  const again = await heimdall(home, ["model", "import", "m", "--from", TINY_INT8]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /active model: m, installed again/);
  const search = await heimdall(home, ["search", "exponential backoff"]);
  assert.equal(search.code, 0, search.stderr);
  assert.match(search.stdout, /semantic leg off: the vectors of m were made by an earlier install/);
  // Status and doctor give search's reason, not "on" with the earlier install's vectors counted.
  const status = await heimdall(home, ["status"]);
  assert.match(status.stdout, /\nsemantic off: the vectors of m were made by an earlier install/);
  const checks = JSON.parse((await heimdall(home, ["doctor", "--json"])).stdout).checks;
  const leg = checks.find((c: { name: string }) => c.name === "semantic leg");
  assert.equal(leg.status, "warn");
  assert.match(leg.detail, /^off: the vectors of m were made by an earlier install/);
  assert.equal(leg.fix, "heimdall daemon   (re-embeds with the active model)");
  const second = await heimdall(home, ["index", repo]);
  assert.match(second.stdout, /embedded \d+ chunks? with m/, "made again with the new files");
  const after = await heimdall(home, ["search", "exponential backoff"]);
  assert.match(after.stdout, /lexical\+semantic/);
  const third = await heimdall(home, ["index", repo]);
  assert.doesNotMatch(third.stdout, /embedded/, "and only once");
});

Deno.test("embedderSource() opens the model again when it is installed again under its name", async () => {
  const home = tempDir();
  const models = join(home, "models");
  const libDir = join(home, "lib");
  await importModel("m", TINY, models, undefined, { libDir });
  const source = embedderSource({ models, lib: libDir }, () => "m", { backend: "wasm" });
  const a = await source();
  assert.ok(a.on);
  const [va] = await a.embedder.embed(["retry with backoff"]);
  assert.equal(await source(), await source(), "cached while the install stays");
  await importModel("m", TINY_INT8, models, undefined, { libDir });
  const b = await source();
  assert.ok(b.on);
  assert.notEqual(b.embedder.fingerprint, a.embedder.fingerprint);
  assert.equal(b.embedder.manifest.quantization, "int8");
  const [vb] = await b.embedder.embed(["retry with backoff"]);
  assert.notDeepEqual(vb, va);
  await b.embedder.close();
});

Deno.test({
  name:
    "two installs of one model take turns: an install waits for the model's lock, then lands whole",
  // The kernel's list of file locks, with their waiters, is Linux's /proc/locks.
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const home = tempDir();
    const models = join(home, "models");
    const libDir = join(home, "lib");
    await importModel("m", TINY, models, undefined, { libDir });
    // Another install of "m" in the middle of replacing its files.
    const lockPath = join(models, ".m.lock");
    const held = await Deno.open(lockPath, { create: true, write: true });
    await held.lock(true);
    const ino = Deno.statSync(lockPath).ino!;
    const second = importModel("m", TINY_INT8, models, undefined, { libDir });
    try {
      await waitFor(
        () =>
          // Through cat: Deno gives /proc files only to a fully privileged process.
          new TextDecoder().decode(
            new Deno.Command("cat", { args: ["/proc/locks"] }).outputSync().stdout,
          ).split("\n").some((l) => l.includes("-> FLOCK") && l.includes(`:${ino} `)),
        60_000,
        "the second install to wait for the model's lock",
      );
      const meanwhile = readInstalled(models, "m")!;
      assert.ok(meanwhile.complete);
      assert.equal(meanwhile.manifest!.quantization, "none", "untouched while the other installs");
    } finally {
      held.close();
    }
    await second;
    const after = readInstalled(models, "m")!;
    assert.ok(after.complete, `complete: ${after.missing}`);
    assert.equal(after.manifest!.quantization, "int8");
  },
});

Deno.test("an import removes what a killed import of the same model left behind, and nothing else", async () => {
  const home = tempDir();
  const models = join(home, "models");
  // What `kill -9` during `heimdall model import tiny` leaves: a staging folder with copied files.
  for (const left of [".tiny.import-k1ll3d", ".other.import-running"]) {
    Deno.mkdirSync(join(models, left), { recursive: true });
    Deno.copyFileSync(join(TINY, "model.onnx"), join(models, left, "model.onnx"));
  }
  await importModel("tiny", TINY, models, undefined, { libDir: join(home, "lib") });
  assert.deepEqual(
    [...Deno.readDirSync(models)].filter((e) => e.isDirectory).map((e) => e.name).sort(),
    [".other.import-running", "tiny"],
  );
  assert.ok(readInstalled(models, "tiny")!.complete);
});

Deno.test("doctor's fix for a model that does not load is to install it again, not to start the daemon", async () => {
  const home = tempDir();
  const repo = tempDir();
  Deno.writeTextFileSync(join(repo, "a.ts"), "export function retry() {}\n");
  assert.equal((await heimdall(home, ["model", "import", "m", "--from", TINY])).code, 0);
  // Damaged after its install: the bytes of its graph zeroed in the middle.
  const onnx = [...Deno.readDirSync(join(home, "models", "m"))].find((e) =>
    e.name.endsWith(".onnx")
  )!;
  const file = join(home, "models", "m", onnx.name);
  const bytes = Deno.readFileSync(file);
  bytes.fill(0, 100, 5000);
  Deno.writeFileSync(file, bytes);
  const index = await heimdall(home, ["index", repo]);
  assert.equal(index.code, 0, "the index itself is done");
  assert.match(
    index.stderr,
    /embedding skipped: model "m" failed to load: .*heimdall model import m --from DIR/,
  );
  const doctor = await heimdall(home, ["doctor", "--json"]);
  const store = JSON.parse(doctor.stdout).checks.find((c: { name: string }) =>
    c.name === "vector store"
  );
  assert.equal(store.status, "fail", doctor.stdout);
  assert.match(store.detail, /cannot embed/);
  // "m" is no built-in: pull has no manifest for it and refuses the name.
  assert.equal(store.fix, "heimdall model import m --from DIR");
});

Deno.test("a removed model that is no built-in is installed again with import, not pull (which refuses its name)", async () => {
  const home = tempDir();
  const repo = tempDir();
  Deno.writeTextFileSync(join(repo, "a.ts"), "export function retry() {}\n");
  assert.equal((await heimdall(home, ["model", "import", "mine", "--from", TINY])).code, 0);
  assert.equal((await heimdall(home, ["index", repo])).code, 0);
  Deno.removeSync(join(home, "models", "mine"), { recursive: true });
  const pull = await heimdall(home, ["model", "pull", "mine"]);
  assert.equal(pull.code, 2, "pull has no manifest for a name that is not built in");
  const status = await heimdall(home, ["status"]);
  assert.match(
    status.stdout,
    /semantic off: model "mine" is not installed; run heimdall model import mine --from DIR\n/,
  );
  const doctor = JSON.parse((await heimdall(home, ["doctor", "--json"])).stdout);
  const leg = doctor.checks.find((c: { name: string }) => c.name === "semantic leg");
  assert.equal(leg.fix, "heimdall model import mine --from DIR");
  const list = await heimdall(home, ["model", "list"]);
  assert.match(list.stdout, /active model "mine" is not installed: heimdall model import mine/);
  // Half there: the same remedy.
  assert.equal((await heimdall(home, ["model", "import", "mine", "--from", TINY])).code, 0);
  Deno.removeSync(join(home, "models", "mine", "tokenizer.json"));
  assert.match(
    (modelStatus(join(home, "models"), "mine") as { reason: string }).reason,
    /incomplete \(missing tokenizer\.json\); run heimdall model import mine --from DIR$/,
  );
  // A built-in keeps pull: its manifest says where the files are.
  assert.match(
    (modelStatus(join(home, "models"), "gte-small") as { reason: string }).reason,
    /run heimdall model pull gte-small$/,
  );
});

Deno.test("doctor counts the vectors of the model search uses: after a switch, none yet, not the old model's", async () => {
  const home = tempDir();
  const repo = tempDir();
  Deno.writeTextFileSync(join(repo, "a.ts"), "export function retry() {}\n");
  assert.equal((await heimdall(home, ["model", "import", "tiny", "--from", TINY])).code, 0);
  assert.equal((await heimdall(home, ["index", repo])).code, 0);
  const store = async () =>
    JSON.parse((await heimdall(home, ["doctor", "--json"])).stdout).checks.find((
      c: { name: string },
    ) => c.name === "vector store").detail as string;
  const chunks = /for (\d+) chunks/.exec(await store())![1];
  assert.match(
    await store(),
    new RegExp(`^${chunks} vectors of tiny for ${chunks} chunks, 0 still`),
  );
  assert.equal(
    (await heimdall(home, ["model", "import", "tiny-int8", "--from", TINY_INT8])).code,
    0,
  );
  assert.equal((await heimdall(home, ["model", "use", "tiny-int8"])).code, 0);
  // What search says now: no vectors of tiny-int8 yet.
  const search = await heimdall(home, ["search", "retry"]);
  assert.match(search.stdout, /semantic leg off: no vectors of tiny-int8 yet/);
  assert.equal(
    await store(),
    `0 vectors of tiny-int8 for ${chunks} chunks, ${chunks} still to embed; ${chunks} of another model, which search leaves aside`,
  );
});

Deno.test("model import of a cut-short tokenizer names the user's file, not its removed staging copy", async () => {
  const home = tempDir();
  const from = tempDir();
  Deno.copyFileSync(join(TINY, "model.onnx"), join(from, "model.onnx"));
  const tokenizer = Deno.readFileSync(join(TINY, "tokenizer.json"));
  Deno.writeFileSync(join(from, "tokenizer.json"), tokenizer.slice(0, 2000));
  Deno.writeTextFileSync(join(from, "manifest.json"), unpinnedManifest(TINY));
  const r = await heimdall(home, ["model", "import", "cut", "--from", from]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, new RegExp(`"${join(from, "tokenizer.json")}" is not JSON`));
  assert.doesNotMatch(r.stderr, /\.import-/);
  const folders = [...Deno.readDirSync(join(home, "models"))].filter((e) => e.isDirectory);
  assert.deepEqual(folders.map((e) => e.name), [], "nothing installed, no staging left");
});

Deno.test("a model whose manifest.json is not JSON is named by that file in list and use", async () => {
  const home = tempDir();
  const dir = join(home, "models", "broken");
  Deno.mkdirSync(dir, { recursive: true });
  Deno.writeTextFileSync(join(dir, "manifest.json"), "{not json");
  const list = await heimdall(home, ["model", "list"]);
  assert.match(list.stdout, /broken +incomplete .*"[^"]*broken\/manifest\.json" is not JSON/);
  const use = await heimdall(home, ["model", "use", "broken"]);
  assert.equal(use.code, 3);
  assert.match(use.stderr, /incomplete \("[^"]*broken\/manifest\.json" is not JSON: /);
});
