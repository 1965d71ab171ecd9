import { deepStrictEqual, equal, match } from "node:assert/strict";
import { join } from "node:path";
import { TreeSitterExtractor } from "./tree_sitter.ts";
import { defaultGrammarPaths, GrammarStore } from "./grammars.ts";
import { createExtractor } from "./routing.ts";
import { LANGUAGES } from "./languages.ts";

const PY = "import os\n\ndef f(x):\n    return os.path.join(x)\n";

Deno.test("createExtractor() reports L3 for grammar languages, L2 for markdown, L1 otherwise", () => {
  const ex = createExtractor();
  for (const language of Object.keys(LANGUAGES)) equal(ex.capability(language).depth, 3, language);
  equal(ex.capability("markdown").depth, 2);
  deepStrictEqual(ex.capability("json"), {
    depth: 1,
    reason: "no L2 extractor for json in this build",
  });
  equal(ex.capability(undefined).depth, 1);
});

Deno.test("every language's grammar and query load", async () => {
  const ex = new TreeSitterExtractor();
  for (const language of Object.keys(LANGUAGES)) {
    const x = await ex.extract({ path: "t", language, text: "", depth: 3 });
    equal(x.error, undefined, `${language}: ${x.error}`);
    equal(x.depth, 3);
  }
});

Deno.test("extract() at depth 2 returns symbols without references, at depth 1 nothing", async () => {
  const ex = new TreeSitterExtractor();
  const l2 = await ex.extract({ path: "a.py", language: "python", text: PY, depth: 2 });
  equal(l2.depth, 2);
  deepStrictEqual(l2.symbols.map((s) => s.qualname), ["f"]);
  deepStrictEqual(l2.refs, []);
  const l1 = await ex.extract({ path: "a.py", language: "python", text: PY, depth: 1 });
  deepStrictEqual(l1, { depth: 1, symbols: [], refs: [], chunks: [] });
});

Deno.test("extract() degrades to L1 when a file is over the size budget", async () => {
  const ex = new TreeSitterExtractor({ budget: { maxChars: 10 } });
  const x = await ex.extract({ path: "a.py", language: "python", text: PY, depth: 3 });
  equal(x.depth, 1);
  match(x.error ?? "", /^parse budget exceeded: 48 chars > 10 limit$/);
});

Deno.test("extract() leaves a minified file at L1 and parses the same code laid out", async () => {
  const fns = Array.from({ length: 200 }, (_, i) => `function f${i}(a){return a+${i}}`);
  const ex = new TreeSitterExtractor();
  const js = (path: string, text: string) =>
    ex.extract({ path, language: "javascript", text, depth: 3 });
  const minified = await js("a.min.js", fns.join(";") + "\n");
  equal(minified.depth, 1);
  deepStrictEqual(minified.symbols, []);
  match(minified.error ?? "", /^minified or generated: lines average \d+ chars > 300 limit$/);
  const laidOut = await js("a.js", fns.join("\n") + "\n");
  equal(laidOut.depth, 3);
  equal(laidOut.symbols.length, 200);
  // A short file is parsed whatever its line length: it costs nothing.
  const short = await js("b.js", fns.slice(0, 20).join(";"));
  equal(short.depth, 3);
  equal(short.symbols.length, 20);
});

Deno.test("extract() degrades to L1 when parsing runs out of time, then parses the next file", async () => {
  const big = "def f(x):\n    return [x + i for i in range(10)]\n".repeat(20_000);
  const slow = new TreeSitterExtractor({ budget: { maxMillis: 0, maxChars: 10_000_000 } });
  const x = await slow.extract({ path: "big.py", language: "python", text: big, depth: 3 });
  equal(x.depth, 1);
  match(x.error ?? "", /^parse budget exceeded: (parse|query) took longer than 0 ms$/);
  // The cancelled parse must not leak into the next one (parsers are shared per language).
  const ok = await new TreeSitterExtractor().extract({
    path: "a.py",
    language: "python",
    text: PY,
    depth: 3,
  });
  deepStrictEqual(ok.symbols.map((s) => s.qualname), ["f"]);
});

Deno.test("a grammar whose bytes do not match the manifest degrades its language to L1", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const paths = defaultGrammarPaths();
    await Deno.mkdir(join(tmp, "python"));
    await Deno.copyFile(new URL("manifest.json", paths.grammars), join(tmp, "manifest.json"));
    await Deno.writeFile(
      join(tmp, "python", "tree-sitter-python.wasm"),
      new Uint8Array([0, 97, 115, 109]),
    );
    const store = new GrammarStore({ ...paths, grammars: new URL(`file://${tmp}/`) });
    const ex = new TreeSitterExtractor({ store });
    equal(ex.capability("python").depth, 3);
    const x = await ex.extract({ path: "a.py", language: "python", text: PY, depth: 3 });
    equal(x.depth, 1);
    match(x.error ?? "", /^grammar failed to load: .*sha256/);
    equal(ex.capability("python").depth, 1);
    match(ex.capability("python").reason ?? "", /sha256/);
    equal(ex.capability("go").depth, 1, "go is not in the temp folder");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("markdown goes to the chunker at depth 2", async () => {
  const x = await createExtractor().extract({
    path: "README.md",
    language: "markdown",
    text: "# A\n\ntext\n",
    depth: 3,
  });
  equal(x.depth, 2);
  deepStrictEqual(x.chunks, [{ heading: "A", startLine: 1, endLine: 3, text: "# A\n\ntext" }]);
  deepStrictEqual(x.symbols.map((s) => s.qualname), ["A"]);
});
