/**
 * Search names the answer, not its file: the function inside the file, its
 * neighbours listed, copies folded, release notes below the guide. Through
 * the real CLI on a real temp tree.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { SearchResult } from "../src/search/mod.ts";
import { cli, removeTree, SLUGIFY, tempDir, writeTree } from "./helpers.ts";

const SESSION = `
/** Opens a database connection pool with the given settings. */
export function openPool(settings: PoolSettings): Pool {
  return new Pool(settings.host, settings.port);
}

/** Closes every connection of the pool and waits for them. */
export async function closePool(pool: Pool): Promise<void> {
  await pool.drain();
}

export function swapIn(page: Page, frames: FrameTable): number {
  const slot = frames.evictLeastRecentlyUsed();
  frames.load(slot, page.backingStore.read(page.offset));
  return slot;
}
`;

const GUIDE = `# Operations

## Rotating the signing key

Generate a fresh signing key, publish its public half, then retire the old
key after every token it signed has expired.
`;

const CHANGELOG = `# Changelog

## 2.1.0

Rotating the signing key: generate a fresh signing key, publish its public half, then retire
the old key after every token it signed has expired.
`;

async function indexed(files: Record<string, string>) {
  const base = tempDir("heimdall-answer-");
  const repo = join(base, "repo");
  writeTree(repo, files);
  const past = new Date(Date.now() - 3_600_000);
  for (const rel of Object.keys(files)) Deno.utimeSync(join(repo, rel), past, past);
  const home = join(base, "home");
  const idx = await cli(home, ["index", repo]);
  assert.equal(idx.code, 0, idx.stderr);
  return {
    repo: Deno.realPathSync(repo),
    home,
    async search(...args: string[]): Promise<SearchResult> {
      const r = await cli(home, ["search", "--json", ...args]);
      assert.ok(r.code === 0 || r.code === 1, r.stderr);
      return JSON.parse(r.stdout) as SearchResult;
    },
    [Symbol.dispose]() {
      removeTree(base);
    },
  };
}

Deno.test("an undocumented function is named by its own name and body, not its documented neighbour", async () => {
  using t = await indexed({ "src/memory/pages.ts": SESSION });
  const r = await t.search("load a page into a frame evicting the least recently used");
  const hit = r.hits[0]!;
  assert.equal(hit.path, join(t.repo, "src/memory/pages.ts"));
  assert.equal(hit.symbol, "swapIn");
  assert.equal(hit.symbols[0]!.name, "swapIn");
  assert.equal(hit.symbols[0]!.line, hit.line);
  assert.ok(hit.symbols.length <= 5);
  assert.ok(hit.symbols.every((s, i) => i === 0 || s.score <= hit.symbols[i - 1]!.score));
});

Deno.test("a hit lists the other symbols of its file that answer, best first; the human output shows them", async () => {
  using t = await indexed({ "src/db/pool.ts": SESSION });
  const r = await t.search("connection pool");
  const hit = r.hits[0]!;
  const names = hit.symbols.map((s) => s.name);
  assert.ok(names.includes("openPool") && names.includes("closePool"), names.join(", "));
  assert.equal(names[0], hit.symbol);
  const human = await cli(t.home, ["search", "connection pool"]);
  assert.match(human.stdout, /also: (openPool|closePool):\d+/);
});

const PAIRS = `package demo;

public final class Pairs {
  public static Pair of(int left) { return new Pair(left, left); }
  public static Pair of(int left, int right) { return new Pair(left, right); }
  public static Pair of(int left, int right, int extra) { return new Pair(left, right + extra); }
  public static Pair swapped(Pair pair) { return new Pair(pair.right, pair.left); }
}
`;

Deno.test("the human output's also line names other symbols, never again one it showed (overloads are in the JSON)", async () => {
  using t = await indexed({ "src/demo/Pairs.java": PAIRS });
  const r = await t.search("pair of left right swapped");
  const hit = r.hits[0]!;
  const names = hit.symbols.map((s) => s.name);
  // The case this is about: the hit's symbols repeat a name (the overloads of `of`).
  assert.ok(new Set(names).size < names.length, names.join(", "));
  const human = await cli(t.home, ["search", "pair of left right swapped"]);
  const also = human.stdout.split("\n").find((l) => l.trim().startsWith("also: "));
  assert.ok(also, human.stdout);
  const shown = also.trim().slice("also: ".length).split(", ").map((p) => p.replace(/:\d+$/, ""));
  assert.equal(new Set(shown).size, shown.length, also);
  assert.ok(!shown.includes(hit.symbol!), `${also} repeats ${hit.symbol}`);
  assert.match(human.stdout, /\(\+\d+ more in the file\)/);
});

Deno.test("a unit holding an excluded word never names its file nor is listed, when another unit brought the file in", async () => {
  using t = await indexed({ "src/db/pool.ts": SESSION });
  // closePool answers best but holds `pool.drain()`; openPool answers the rest of the question.
  const asked = await t.search("closes connection pool");
  assert.equal(asked.hits[0]!.symbol, "closePool");
  const r = await t.search("closes connection pool -drain");
  const hit = r.hits[0]!;
  assert.equal(hit.path, join(t.repo, "src/db/pool.ts"));
  assert.equal(hit.symbol, "openPool");
  assert.deepEqual(hit.symbols.map((s) => s.name), ["openPool"]);
});

Deno.test("identical copies of a file fold into one hit that names the others", async () => {
  using t = await indexed({
    "pkg/esm/pool.mjs": SESSION.replaceAll(": PoolSettings", "").replaceAll(": Pool", ""),
    "pkg/cjs/pool.cjs": SESSION.replaceAll(": PoolSettings", "").replaceAll(": Pool", ""),
    "vendor-copy/pool.mjs": SESSION.replaceAll(": PoolSettings", "").replaceAll(": Pool", ""),
  });
  const r = await t.search("open database connection pool");
  assert.equal(r.hits.length, 1, r.hits.map((h) => h.path).join(", "));
  assert.equal(r.hits[0]!.copies.length, 2);
  const all = new Set([r.hits[0]!.path, ...r.hits[0]!.copies]);
  assert.equal(all.size, 3);
  // Asked from inside one copy's folder, that copy is the one shown.
  const near = await cli(t.home, ["search", "--json", "open database connection pool"], {
    cwd: join(t.repo, "vendor-copy"),
  });
  const hit = (JSON.parse(near.stdout) as SearchResult).hits[0]!;
  assert.equal(hit.path, join(t.repo, "vendor-copy/pool.mjs"));
  assert.equal(hit.copies.length, 2);
});

Deno.test("a copy deleted since it was indexed is neither the one shown nor listed; the hit is not listed as its own copy", async () => {
  const plain = SESSION.replaceAll(": PoolSettings", "").replaceAll(": Pool", "");
  using t = await indexed({ "a/pool.mjs": plain, "b/pool.mjs": plain, "c/pool.mjs": plain });
  const query = "open database connection pool";
  const before = (await t.search(query)).hits[0]!;
  Deno.removeSync(before.path!);
  const r = await t.search(query);
  assert.equal(r.hits.length, 1, r.hits.map((h) => h.path).join(", "));
  const hit = r.hits[0]!;
  assert.notEqual(hit.path, before.path);
  assert.equal(hit.verdict, "STRONG", hit.reason ?? "");
  assert.equal(hit.moved_from, null);
  const others = [
    join(t.repo, "a/pool.mjs"),
    join(t.repo, "b/pool.mjs"),
    join(t.repo, "c/pool.mjs"),
  ]
    .filter((p) => p !== before.path && p !== hit.path);
  assert.deepEqual(hit.copies, others);
});

Deno.test("a copy edited since it was indexed is not listed as the same: it is a hit of its own", async () => {
  const plain = SESSION.replaceAll(": PoolSettings", "").replaceAll(": Pool", "");
  using t = await indexed({ "a/pool.mjs": plain, "b/pool.mjs": plain, "c/pool.mjs": plain });
  const query = "open database connection pool";
  // b loses openPool; c is only touched (its bytes as indexed).
  const b = join(t.repo, "b/pool.mjs");
  Deno.writeTextFileSync(b, plain.slice(plain.indexOf("/** Closes")));
  const c = join(t.repo, "c/pool.mjs");
  const now = new Date();
  Deno.utimeSync(c, now, now);
  const r = await t.search(query);
  const shown = r.hits.find((h) => h.path === join(t.repo, "a/pool.mjs") || h.path === c)!;
  assert.ok(shown, r.hits.map((h) => h.path).join(", "));
  assert.equal(shown.verdict, "STRONG", shown.reason ?? "");
  assert.ok(!shown.copies.includes(b), `"same as" ${shown.copies.join(", ")}`);
  assert.equal(shown.copies.length, 1, "the touched copy still is one");
  const edited = r.hits.find((h) => h.path === b);
  if (edited) assert.match(edited.reason ?? "", /changed since indexed/);
});

Deno.test("a function copied into other modules folds into one hit that lists where else its lines are", async () => {
  // Each module is otherwise its own: no file is a copy of another.
  const own = (name: string) =>
    [
      `export function ${name}Render(items: string[]): string {`,
      `  const head = "<h1>${name}</h1>";`,
      '  const rows = items.map((i) => `<li>${i}</li>`).join("");',
      "  return head + rows;",
      "}",
      "",
      SLUGIFY,
      "",
    ].join("\n");
  using t = await indexed({
    "web/src/blog.ts": own("blog"),
    "api/src/posts.ts": own("posts"),
    "cli/src/export.ts": own("exporter"),
    // Copied one-liners are not folded: short lines repeat by chance.
    "a/tiny.ts": own("a") + "export function slugger(s: string) { return s.toLowerCase(); }\n",
    "b/tiny.ts": own("b") + "export function slugger(s: string) { return s.toLowerCase(); }\n",
  });
  const r = await t.search("slugify a title into a lowercase slug");
  const slugs = r.hits.filter((h) => h.symbol === "slugify");
  assert.equal(slugs.length, 1, r.hits.map((h) => `${h.symbol} ${h.path}`).join("; "));
  const hit = slugs[0]!;
  assert.deepEqual(hit.copies, [], "no file is a copy of another");
  assert.deepEqual(
    [hit.path, ...hit.same_code.map((p) => p.path)].sort(),
    ["a/tiny.ts", "api/src/posts.ts", "b/tiny.ts", "cli/src/export.ts", "web/src/blog.ts"]
      .map((f) => join(t.repo, f)),
  );
  assert.ok(
    hit.same_code.every((p) => p.symbol === "slugify" && p.line === 7 && p.end_line === 11),
  );
  const tiny = (await t.search("slugger lowercase")).hits.filter((h) => h.symbol === "slugger");
  assert.equal(tiny.length, 2, "a one-liner's copies are hits of their own");
  // A copy deleted since it was indexed is not listed; the human output names the rest.
  Deno.removeSync(join(t.repo, hit.same_code[0]!.path.slice(t.repo.length + 1)));
  const after = (await t.search("slugify a title into a lowercase slug")).hits
    .find((h) => h.symbol === "slugify")!;
  assert.equal(after.same_code.length, 3);
  const human = await cli(t.home, ["search", "slugify a title into a lowercase slug"]);
  assert.match(human.stdout, /same code: \S+:7/);
  // The hit's own file deleted: no copy goes with it; each left is a hit or listed in one.
  const left = [after.path!, ...after.same_code.map((p) => p.path)];
  Deno.removeSync(left.shift()!);
  const gone = (await t.search("slugify a title into a lowercase slug")).hits
    .filter((h) => h.symbol === "slugify");
  assert.deepEqual(
    [...new Set(gone.flatMap((h) => [h.path!, ...h.same_code.map((p) => p.path)]))].sort(),
    left.sort(),
  );
});

Deno.test("release notes rank below the guide that says the same", async () => {
  using t = await indexed({ "docs/operations.md": GUIDE, "CHANGELOG.md": CHANGELOG });
  const r = await t.search("rotate the signing key and retire the old key");
  assert.equal(r.hits[0]!.path, join(t.repo, "docs/operations.md"));
  assert.equal(r.hits[0]!.symbol, "Operations > Rotating the signing key");
  assert.ok(r.hits.some((h) => h.path === join(t.repo, "CHANGELOG.md")));
});

Deno.test("a symbol's doc comment counts for its coverage: 'parse cookie header' is STRONG", async () => {
  using t = await indexed({
    "cookies.py":
      `def parse(raw):\n    """Parse a cookie header."""\n    return dict(p.split("=", 1) for p in raw.split("; "))\n`,
    "cookies.ts":
      `/** Parse a cookie header. */\nexport function parse(raw: string) {\n  return raw.split("; ");\n}\n`,
  });
  const r = await t.search("parse cookie header");
  assert.equal(r.hits.length, 2);
  for (const h of r.hits) {
    assert.equal(h.symbol, "parse");
    assert.equal(h.verdict, "STRONG", `${h.path}: ${h.reason}`);
  }
});

Deno.test("a query that is a name finds its definition first, above files that only mention the word", async () => {
  // Forty transitions say "screen" twice in their names and again in their paths, docs and
  // bodies: BM25 ranks every one of them above the one file that defines `Screen`, whose long
  // body never says it again.
  const files: Record<string, string> = {
    "src/Screen.tsx": `export function Screen(props: Props) {\n${
      Array.from({ length: 60 }, (_, i) => `  const part${i} = layout(props.children, ${i});`)
        .join("\n")
    }\n  return compose(props);\n}\n`,
    "docs/screens.md": "# Screens\n\nA screen is shown above the previous screen.\n",
  };
  for (let i = 0; i < 40; i++) {
    files[`src/screens/screen_stack_${i}.tsx`] =
      `/** Shows the screen stack: each screen above the previous screen. */\nexport function ScreenToScreen${i}(screen: Screen) {\n  return screen.push(screen.top(), screen);\n}\n`;
  }
  using t = await indexed(files);
  for (const typed of ["Screen", "screen"]) {
    const r = await t.search(typed);
    const paths = r.hits.map((h) => h.path).join(", ");
    assert.equal(r.hits[0]?.path, join(t.repo, "src/Screen.tsx"), `${typed}: ${paths}`);
    assert.equal(r.hits[0]!.symbol, "Screen");
  }
});

Deno.test("an identifier typed whole names that symbol, not a shorter namesake of one of its words", async () => {
  // `empty`'s long doc comment says "empty" again and again; the user typed `is_empty`.
  const iter = `impl<T> IntoIter<T> {
    /// Creates an empty iterator: an empty array, empty buffer, empty range.
    /// An empty one yields nothing; empty is empty.
    pub const fn empty() -> Self {
        Self::new_unchecked(empty_buffer(), 0..0)
    }

    fn is_empty(&self) -> bool {
        self.alive.len() == 0
    }
}
`;
  using t = await indexed({ "src/iter.rs": iter });
  const r = await t.search("is_empty");
  assert.equal(r.hits[0]?.symbol, "IntoIter.is_empty", r.hits.map((h) => h.symbol).join(", "));
});

Deno.test("a query that is a file's name or the end of its path finds that file first", async () => {
  // Ninety files say its words in their paths, names and bodies more often than it does:
  // more chunks than the lexical leg returns, so it is the name alone that finds the file.
  const files: Record<string, string> = {
    "lib/Collections/PoolDictionary.cs":
      "namespace Lib.Collections {\n  public sealed class Registry {\n    public int Count;\n  }\n}\n",
  };
  for (let i = 0; i < 90; i++) {
    files[`src/pool/dictionary/pool_dictionary_${i}.cs`] =
      `// Pool dictionary ${i}: a pool of dictionaries, each dictionary pooled.\npublic class PoolDictionaryPool${i} {\n  public Dictionary pool(Dictionary dictionary) { return dictionary.Pool(pool); }\n}\n`;
  }
  using t = await indexed(files);
  for (
    const typed of [
      "PoolDictionary.cs",
      "Collections/PoolDictionary.cs",
      "./lib/Collections/PoolDictionary.cs",
    ]
  ) {
    const r = await t.search(typed);
    const paths = r.hits.map((h) => h.path).join(", ");
    assert.equal(
      r.hits[0]?.path,
      join(t.repo, "lib/Collections/PoolDictionary.cs"),
      `${typed}: ${paths}`,
    );
  }
});

Deno.test("a name typed alone finds the definition spelled so before another casing of it", async () => {
  // Lower-case `parse` is said all over its file; `Parse`, as typed, is a small class.
  using t = await indexed({
    "lib/parse.js":
      "// parse: parse the text, parse it again, parse once more.\nfunction parse(text) {\n  const parsed = parse2(text); // parse\n  return parsed; // parse parse\n}\n",
    "src/Tool/Parse.java": "package tool;\n\nclass Parse {\n  int depth;\n}\n",
  });
  const r = await t.search("Parse");
  assert.equal(
    r.hits[0]?.path,
    join(t.repo, "src/Tool/Parse.java"),
    JSON.stringify(r.hits.map((h) => h.symbol)),
  );
  assert.equal(r.hits[0]?.symbol, "Parse");
  assert.equal(r.hits[1]?.path, join(t.repo, "lib/parse.js"));
});

Deno.test("a code file is named by its function, not by a window of the doc comment above a trait", async () => {
  // rustc's collect.rs with Extend::extend's own doc comment removed: the trait's long doc
  // comment (above an attribute, so a window of the file's other lines) says the question.
  const text = Deno.readTextFileSync(
    new URL("./fixtures/code_windows/collect.rs", import.meta.url),
  );
  using t = await indexed({ "library/core/src/iter/traits/collect.rs": text });
  const r = await t.search("Extends a collection with the contents of an iterator");
  const hit = r.hits[0]!;
  assert.doesNotMatch(hit.symbol ?? "", / § /, JSON.stringify(hit.symbols.map((s) => s.name)));
  assert.match(hit.symbol ?? "", /(^|\.)extend$/);
});

Deno.test("a sentence pasted from rendered docs finds the paragraph that says it, markup inside and all", async () => {
  // Thirty API pages put "source", "package" and "details" in their headings and say them again;
  // the one paragraph that says the sentence holds a link in the middle of it.
  const files: Record<string, string> = {
    "README.md": "# kit\n\n## Installation\n\nUse npm.\n\n" +
      "See the [package source](https://example.com/kit/tree/v1.2.3-npm) for more details.\n\n" +
      "## License\n\nMIT.\n",
  };
  for (let i = 0; i < 30; i++) {
    files[`docs/api/widget_${i}.md`] =
      `# Widget ${i} API\n\n## Source code\n\nThe source of widget ${i}: package details, source details.\n\n` +
      `## Package details\n\nSee the source for details of the package.\n`;
  }
  using t = await indexed(files);
  const r = await t.search("See the package source for more details.");
  const first = r.hits[0];
  assert.equal(first?.path, join(t.repo, "README.md"), r.hits.map((h) => h.path).join(", "));
  assert.equal(first!.symbol, "kit > Installation");
  assert.ok(first!.legs.includes("phrase"), first!.legs.join(","));
});

Deno.test("a token that is in no file finds nothing, not every chunk holding one of its characters", async () => {
  using t = await indexed({
    "src/memory/pages.ts": SESSION,
    "docs/guide.md": GUIDE,
    "k/9/d.ts": "export const k = 9;\nexport function d2(m: number) {\n  return m * 7;\n}\n",
  });
  const r = await t.search("k9d2m7q");
  assert.deepEqual(r.hits.map((h) => `${h.path}:${h.symbol}`), []);
  // The same characters spaced apart still ask for each one.
  assert.ok((await t.search("k 9 d")).hits.length > 0);
});

Deno.test("the phrase leg ranks prose only: a task that runs the very search is no answer to it", async () => {
  using t = await indexed({
    "tasks.json":
      '{ "demo": "heimdall search \'exclusive journal lock taken by another worker\'" }\n',
    "src/lock.ts": "/** Taken before any write; a second process waits for it. */\n" +
      "export class WriterLock {\n  held(process: number): boolean {\n    return this.owner === process;\n  }\n}\n",
    "docs/locking.md":
      "# Locking\n\nAn exclusive journal lock is taken by one worker; another worker waits.\n",
  });
  const r = await t.search("exclusive journal lock taken by another worker");
  const legs = Object.fromEntries(
    r.hits.map((h) => [(h.path ?? "").slice(t.repo.length + 1), h.legs]),
  );
  assert.ok(legs["docs/locking.md"]?.includes("phrase"), JSON.stringify(legs));
  assert.ok(!legs["tasks.json"]?.includes("phrase"), JSON.stringify(legs));
});

Deno.test("a whole file or a window of text is shown at the line that matched, not its first", async () => {
  const settings = Array.from({ length: 150 }, (_, i) => `cache_slot_${i} = ${i * 7}`);
  settings[117] = "session_timeout_minutes = 45  # sign users out after inactivity";
  using t = await indexed({
    ".github/workflows/ci.yml": "name: ci\non: [push]\njobs:\n  test:\n    steps:\n" +
      "      - run: deno task test\n      - name: upload coverage to codecov\n",
    "etc/settings.conf": settings.join("\n") + "\n",
    "ci/travis-test.sh": "#!/bin/sh\n# Exit on any error.\nset -e\nmake check\n",
  });
  const yml = (await t.search("upload coverage to codecov")).hits[0]!;
  assert.equal(yml.path, join(t.repo, ".github/workflows/ci.yml"));
  assert.deepEqual([yml.kind, yml.line, yml.match_line, yml.summary], [
    "file",
    1,
    7,
    "- name: upload coverage to codecov",
  ]);
  // A window of a long file's own text (no symbol of its own) points inside itself.
  const conf = (await t.search("sign users out after inactivity")).hits[0]!;
  assert.equal(conf.path, join(t.repo, "etc/settings.conf"));
  assert.ok(conf.line! < 118 && 118 <= conf.end_line!, `${conf.line}-${conf.end_line}`);
  assert.equal(conf.match_line, 118);
  assert.equal(conf.summary, "session_timeout_minutes = 45  # sign users out after inactivity");
  // The CLI shows it there.
  const human = await cli(t.home, ["search", "sign users out after inactivity"]);
  assert.match(human.stdout, /etc\/settings\.conf:118 /);
  // A file found by its path alone, no line of it holding a word asked: its first line.
  const travis = (await t.search("travis")).hits[0]!;
  assert.deepEqual([travis.match_line, travis.summary], [null, "Exit on any error."]);
  // A symbol's hit is at its own lines.
  const fn = (await t.search("upload")).hits.find((h) => h.kind !== "file");
  assert.equal(fn?.match_line ?? null, null);
});

Deno.test("a pasted stack trace finds the function of its innermost frame that the index holds", async () => {
  using t = await indexed({
    "app/cli.py": "from app.conf import load\n\n\ndef main():\n    print(load('x'))\n",
    "app/conf.py": "import json\n\n\ndef load(raw):\n    text = raw.strip()\n" +
      "    return json.loads(text)\n\n\ndef dump(data):\n    return json.dumps(data)\n",
    // A page that says the trace's words, most of them, and names no frame.
    "docs/errors.md": "# Errors\n\n## JSON decode errors\n\nA traceback whose most recent call " +
      "last ends in a JSONDecodeError expecting value at line 1 column 1 (char 0) means " +
      "the file read was empty: the decoder's raw_decode and scan_once found no value.\n",
    "web/app.js": "function boot(config) {\n  const port = config.port;\n" +
      "  return listen(port, () => {\n    throw new Error('closed');\n  });\n}\n",
  });
  const python = `Traceback (most recent call last):
  File "/srv/app/cli.py", line 5, in main
    print(load('x'))
  File "/srv/app/conf.py", line 6, in load
    return json.loads(text)
  File "/usr/lib/python3.11/json/decoder.py", line 355, in raw_decode
    raise JSONDecodeError("Expecting value", s, err.value) from None
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)`;
  const r = await t.search(python);
  assert.deepEqual(
    r.hits.slice(0, 2).map((h) => `${(h.path ?? "").slice(t.repo.length + 1)} ${h.symbol}`),
    ["app/conf.py load", "app/cli.py main"],
  );
  assert.ok(r.hits[0]!.legs.includes("names"), r.hits[0]!.legs.join(","));
  // Named by the trace: STRONG, though it holds few of a traceback's words.
  assert.equal(r.hits[0]!.verdict, "STRONG", r.hits[0]!.reason ?? "");
  assert.ok(r.hits[0]!.coverage < 0.75, String(r.hits[0]!.coverage));
  // An anonymous frame is the definition that holds its line.
  const js = await t.search(
    "Error: closed\n    at /srv/web/app.js:4:11\n    at listen (node:net:1:1)",
  );
  assert.equal(`${js.hits[0]?.path} ${js.hits[0]?.symbol}`, `${join(t.repo, "web/app.js")} boot`);
});

Deno.test("an error message pasted alone names the function that raises it, not the one whose docs say its words", async () => {
  using t = await indexed({
    "lib/buffered.py": `class BufferedBase:
    def detach(self):
        """Separate the underlying raw stream from the buffer and return it.

        The buffer is unusable once detached.
        """
        raise UnsupportedOperation("detach")


class BufferedMixin(BufferedBase):
    def release(self):
        if self.raw is None:
            raise ValueError("raw stream already detached")
        self.flush()
`,
  });
  const r = await t.search("raw stream already detached");
  assert.equal(
    `${r.hits[0]?.path} ${r.hits[0]?.symbol}`,
    `${join(t.repo, "lib/buffered.py")} BufferedMixin.release`,
  );
});

Deno.test("a file and line, as a compiler or a link gives them, names the definition holding that line", async () => {
  // Line 14 is inside swapIn, which holds none of the path's words; openPool and closePool do.
  using t = await indexed({ "src/db/pool.ts": SESSION, "src/db/other.ts": SESSION });
  assert.equal(
    SESSION.split("\n")[14 - 1]!.trim(),
    "frames.load(slot, page.backingStore.read(page.offset));",
  );
  const where = (r: SearchResult) =>
    `${r.hits[0]?.path} ${r.hits[0]?.symbol} ${r.hits[0]?.verdict}`;
  const want = `${join(t.repo, "src/db/pool.ts")} swapIn STRONG`;
  for (const q of ["pool.ts:14", "src/db/pool.ts:14:5", "pool.ts(14,5)", "pool.ts#L14"]) {
    assert.equal(where(await t.search(q)), want, q);
  }
  assert.equal(where(await t.search("why does it crash at src/db/pool.ts:14")), want);
  // Without a line, the file comes first, named by what its words match.
  const file = await t.search("src/db/pool.ts");
  assert.equal(file.hits[0]?.path, join(t.repo, "src/db/pool.ts"));
});

Deno.test("a question spelled the British way finds code spelled the American way", async () => {
  using t = await indexed({
    "src/config.ts": `export function serializeSettings(settings: Settings): string {
  return JSON.stringify(settings, null, 2);
}

export function loadSettings(path: string): Settings {
  return JSON.parse(Deno.readTextFileSync(path));
}

export function normalizeColor(color: string): string {
  return color.trim().toLowerCase();
}
`,
    "docs/style.md": "# Style\n\nThe serialise helpers write settings with two spaces.\n",
  });
  const r = await t.search("serialise the settings");
  assert.equal(
    `${r.hits[0]?.path} ${r.hits[0]?.symbol}`,
    `${join(t.repo, "src/config.ts")} serializeSettings`,
  );
  const c = await t.search("normalise a colour");
  assert.equal(c.hits[0]?.symbol, "normalizeColor");
  assert.equal(c.hits[0]?.verdict, "STRONG", c.hits[0]?.reason ?? "");
});

Deno.test("a tree written in British English is searched in its own spelling", async () => {
  using t = await indexed({
    "src/theme.ts": `export function blendColours(a: Colour, b: Colour): Colour {
  return mixColour(a, b, 0.5);
}

export function parseColour(text: string): Colour {
  return { hex: text };
}
`,
  });
  const r = await t.search("blend the colours");
  assert.equal(r.hits[0]?.symbol, "blendColours");
  assert.equal(r.hits[0]?.verdict, "STRONG", r.hits[0]?.reason ?? "");
});

const WAKER = `
/// A \`RawWaker\` allows the implementor of a task executor to create a
/// \`Waker\` which provides customized wakeup behavior. It consists of a data
/// pointer and a virtual function pointer table (vtable) that customizes the
/// behavior of the \`RawWaker\`.
#[derive(PartialEq, Debug)]
pub struct RawWaker {
    data: *const (),
    vtable: &'static RawWakerVTable,
}

impl RawWaker {
    #[inline]
    #[must_use]
    pub const fn new(data: *const (), vtable: &'static RawWakerVTable) -> RawWaker {
        RawWaker { data, vtable }
    }
}

impl Clone for RawWaker {
    fn clone(&self) -> Self {
        unsafe { (self.vtable.clone)(self.data) }
    }
}

impl Drop for RawWaker {
    fn drop(&mut self) {
        unsafe { (self.vtable.drop)(self.data) }
    }
}
`;

Deno.test("a question naming a type is answered by its function, not by the type's declaration; the type's name alone asks for the type", async () => {
  // Thirty files that say "creates", "new", "data", "pointer" and "vtable" too: in a real
  // tree those words are common, and the type's rare name decides among its own units.
  const filler = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [
    `src/task/filler${i}.rs`,
    `/// Creates new data from the provided pointer.
pub fn new_data${i}(data: *const (), provided: usize) -> Data {
    create(data, provided)
}

/// Reads the vtable entry for the data pointer.
pub fn vtable_entry${i}(vtable: &Table, data: *const ()) -> Entry {
    vtable.entry(data)
}
`,
  ]));
  using t = await indexed({ "src/task/wake.rs": WAKER, ...filler });
  const r = await t.search("Creates a new RawWaker from the provided data pointer and vtable");
  const hit = r.hits[0]!;
  assert.equal(hit.path, join(t.repo, "src/task/wake.rs"));
  assert.equal(hit.symbol, "RawWaker.new");
  assert.ok(hit.symbols.some((s) => s.kind === "struct" && s.name === "RawWaker"));
  const named = await t.search("RawWaker");
  assert.equal(named.hits[0]!.symbol, "RawWaker");
  assert.equal(named.hits[0]!.kind, "struct");
});
