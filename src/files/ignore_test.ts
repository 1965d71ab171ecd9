import assert from "node:assert/strict";
import { dirname } from "node:path";
import {
  classifyPath,
  DEFAULT_IGNORED_DIRS,
  IgnoreCache,
  IgnoreRules,
  IgnoreStack,
} from "./ignore.ts";

/** A stack of one root `.gitignore`, without defaults, so cases read like git's docs. */
function stackOf(text: string): IgnoreStack {
  return IgnoreStack.create("", { defaults: false }).with(
    IgnoreRules.parse(text, "", ".gitignore"),
  );
}

/** Creates `files` (root-relative) with the given contents under a fresh temp folder. */
function makeTree(files: Record<string, string>): string {
  const root = Deno.makeTempDirSync({ prefix: "heimdall_ignore_" });
  for (const [rel, text] of Object.entries(files)) {
    Deno.mkdirSync(dirname(`${root}/${rel}`), { recursive: true });
    Deno.writeTextFileSync(`${root}/${rel}`, text);
  }
  return root;
}

// [patterns, path, isDir, ignored] — decided with ancestors, as git does.
const CASES: [string, string, boolean, boolean][] = [
  ["*.txt", "a/b/c.txt", false, true],
  ["*.txt", "a/b/c.txt.bak", false, false],
  ["/*.c", "cat-file.c", false, true],
  ["/*.c", "mozilla-sha1/sha1.c", false, false],
  ["doc/frotz/", "doc/frotz", true, true],
  ["doc/frotz/", "a/doc/frotz", true, false],
  ["frotz/", "a/frotz", true, true],
  ["frotz/", "a/frotz", false, false],
  ["frotz/", "a/frotz/file", false, true],
  ["foo/*", "foo/test.json", false, true],
  ["foo/*", "foo/bar/hello.c", false, true],
  ["foo/*", "foo", true, false],
  ["**/foo", "foo", false, true],
  ["**/foo", "a/b/foo", true, true],
  ["**/foo/bar", "foo/bar", false, true],
  ["**/foo/bar", "x/foo/bar", false, true],
  ["**/foo/bar", "x/foo/baz/bar", false, false],
  ["abc/**", "abc/x/y", false, true],
  ["abc/**", "abc", true, false],
  ["a/**/b", "a/b", false, true],
  ["a/**/b", "a/x/y/b", false, true],
  ["a/**/b", "a/xb", false, false],
  ["a/**b", "a/xb", false, true],
  ["a/**b", "a/x/b", false, false],
  ["?.c", "a.c", false, true],
  ["?.c", "ab.c", false, false],
  ["a?b", "a/b", false, false],
  ["[a-c].txt", "b.txt", false, true],
  ["[a-c].txt", "d.txt", false, false],
  ["[!a-c].txt", "d.txt", false, true],
  ["[^a-c].txt", "a.txt", false, false],
  ["[]].txt", "].txt", false, true],
  ["[!]].txt", "].txt", false, false],
  ["[[:digit:]]x", "7x", false, true],
  ["[[:digit:]]x", "ax", false, false],
  ["[z-a]", "m", false, false],
  ["[abc", "[abc", false, false],
  ["foo\\", "foo\\", false, false],
  ["\\*lit", "*lit", false, true],
  ["\\*lit", "xlit", false, false],
  ["sp   ", "sp", false, true],
  ["sp\\ ", "sp ", false, true],
  ["sp\\ ", "sp", false, false],
  ["\\#x", "#x", false, true],
  ["#x", "#x", false, false],
  ["\\!x", "!x", false, true],
  ["!", "!", false, false],
  ["*", "deep/er/file", false, true],
  ["x.log\r\n", "x.log", false, true],
  ["*.log\n!keep.log", "keep.log", false, false],
  ["*.log\n!keep.log", "drop.log", false, true],
  ["logs/\n!logs/keep.txt", "logs/keep.txt", false, true],
  ["/*\n!/src/\n/src/*\n!/src/main/", "src/main/x.ts", false, false],
  ["/*\n!/src/\n/src/*\n!/src/main/", "src/other/x.ts", false, true],
  // Many `*` in one segment: a regular expression would backtrack for hours on these.
  [`${"*a".repeat(30)}*b`, "a".repeat(60), false, false],
  [`${"*a".repeat(30)}*b`, `${"a".repeat(60)}b`, false, true],
  [`x/${"*a".repeat(30)}*b/y`, `x/${"a".repeat(60)}/y`, false, false],
  [`${"*[ab]".repeat(30)}*c`, "ab".repeat(30), false, false],
  [`${"*[ab]".repeat(30)}*c`, `${"ab".repeat(30)}c`, false, true],
  ["***", "a/b", false, true],
  ["x/***", "x", true, false],
  ["x/***", "x/y/z", false, true],
  ["***/z", "a/b/z", false, true],
  ["a\\/b", "a/b", false, true],
  ["a*", "a/b", false, true],
  ["a*/b", "ab/b", false, true],
  ["a*/b", "a/c/b", false, false],
];

Deno.test("IgnoreStack decides each gitignore pattern case as git documents it", () => {
  for (const [patterns, path, isDir, ignored] of CASES) {
    assert.deepEqual(
      stackOf(patterns).isIgnored(path, isDir),
      ignored,
      `${JSON.stringify(patterns)} ${path}`,
    );
  }
});

Deno.test("IgnoreStack re-includes a file with ! unless its folder is excluded", () => {
  const stack = stackOf("*.log\n!keep.log\ncache/\n!cache/keep.log\n");
  assert.deepEqual(stack.explain("a/keep.log", false), {
    ignored: false,
    reason: ".gitignore:2 !keep.log",
    rule: stack.match("a/keep.log", false),
  });
  assert.deepEqual(stack.explain("cache/keep.log", false).reason, ".gitignore:3 cache/");
  assert.deepEqual(stack.isIgnored("cache/keep.log", false), true);
});

Deno.test("a deeper .gitignore overrides a shallower one and applies only below its folder", () => {
  const stack = stackOf("*.log\n")
    .with(IgnoreRules.parse("!*.log\n/local\n", "sub", "sub/.gitignore"));
  assert.deepEqual(stack.isIgnored("x.log", false), true);
  assert.deepEqual(stack.explain("sub/x.log", false).reason, "sub/.gitignore:1 !*.log");
  assert.deepEqual(stack.isIgnored("sub/x.log", false), false);
  assert.deepEqual(stack.explain("sub/local", false).reason, "sub/.gitignore:2 /local");
  assert.deepEqual(stack.isIgnored("local", false), false);
  assert.deepEqual(stack.isIgnored("sub/deeper/local", false), false);
});

Deno.test("IgnoreStack skips default folders, names them as the reason, and lets ! re-include one", () => {
  const base = IgnoreStack.create();
  for (const name of DEFAULT_IGNORED_DIRS) {
    assert.deepEqual(base.isIgnored(`a/${name}`, true), true);
  }
  assert.deepEqual(
    base.explain("web/node_modules/x/index.js", false).reason,
    "default: node_modules",
  );
  assert.deepEqual(base.isIgnored("src/build.ts", false), false);
  assert.deepEqual(base.isIgnored("vendor", false), false);
  const reincluded = base.with(IgnoreRules.parse("!vendor/\n", "", ".gitignore"));
  assert.deepEqual(reincluded.isIgnored("vendor/lib.go", false), false);
});

Deno.test("the global ignore applies everywhere and a .gitignore overrides it", () => {
  const stack = IgnoreStack.create("*.bak\nscratch/\n", { globalSource: "global" })
    .with(IgnoreRules.parse("!keep.bak\n", "", ".gitignore"));
  assert.deepEqual(stack.explain("a/b/old.bak", false).reason, "global:1 *.bak");
  assert.deepEqual(stack.isIgnored("a/keep.bak", false), false);
  assert.deepEqual(stack.isIgnored("scratch/notes.md", false), true);
});

Deno.test("classifyPath() loads every ancestor's .gitignore and .ignore, .ignore winning", () => {
  const root = makeTree({
    ".gitignore": "*.tmp\n",
    "a/.gitignore": "!x.tmp\nsecret-dir/\n",
    "a/.ignore": "x.tmp\n",
    "a/b/y.tmp": "",
    "a/x.tmp": "",
    "a/secret-dir/z.ts": "",
    "a/b/ok.ts": "",
  });
  try {
    const cache = new IgnoreCache();
    assert.deepEqual(classifyPath(root, "a/b/y.tmp", false, "", cache), {
      ignored: true,
      reason: ".gitignore:1 *.tmp",
    });
    assert.deepEqual(classifyPath(root, "a/x.tmp", false, "", cache).reason, "a/.ignore:1 x.tmp");
    assert.deepEqual(classifyPath(root, "a/secret-dir/z.ts", false, "", cache), {
      ignored: true,
      reason: "a/.gitignore:2 secret-dir/",
    });
    assert.deepEqual(classifyPath(root, "a/b/ok.ts", false, "", cache), { ignored: false });
    assert.deepEqual(
      classifyPath(root, "node_modules/p/i.js", false, "", cache).reason,
      "default: node_modules",
    );
    assert.deepEqual(classifyPath(root, "n.txt", false, "n.txt\n", cache).ignored, true);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("IgnoreCache parses an ignore file once and notices when it is edited", () => {
  const root = makeTree({ ".gitignore": "*.a\n", "sub/.gitignore": "*.b\n", "sub/f.b": "" });
  try {
    const past = new Date(Date.now() - 60_000);
    for (const p of [root, `${root}/sub`, `${root}/.gitignore`, `${root}/sub/.gitignore`]) {
      Deno.utimeSync(p, past, past);
    }
    const cache = new IgnoreCache();
    assert.deepEqual(classifyPath(root, "sub/f.b", false, "", cache).ignored, true);
    assert.deepEqual(cache.parses, 2);
    for (let i = 0; i < 5; i++) classifyPath(root, "sub/f.b", false, "", cache);
    assert.deepEqual(cache.parses, 2);
    Deno.writeTextFileSync(`${root}/sub/.gitignore`, "*.c\n");
    const later = new Date(Date.now() - 30_000);
    Deno.utimeSync(`${root}/sub/.gitignore`, later, later);
    assert.deepEqual(classifyPath(root, "sub/f.b", false, "", cache).ignored, false);
    assert.deepEqual(cache.parses, 3);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

// Every path below is checked against git itself; the patterns are the tricky ones.
const GIT_TREE: Record<string, string> = {
  ".gitignore": [
    "# comment",
    "*.log",
    "!keep.log",
    "/anchored.txt",
    "docs/*.md",
    "!docs/README.md",
    "build/",
    "logs/",
    "!logs/keep.txt",
    "foo/**/bar",
    "**/deep",
    "a/**",
    "!a/b/",
    "x?y",
    "[abc]z.txt",
    "[!a-c]w.txt",
    "\\#hash",
    "\\!bang",
    "trail\\ ",
    "sp   ",
    "*.tmp/",
    "**/gen/**",
    "name[0-9][[:alpha:]].c",
    "qq\\*",
    "mid/dle/",
    // A regular expression backtracks exponentially on this line (git only on other names).
    `${"*a".repeat(24)}*z`,
    "/",
    "",
  ].join("\n"),
  "sub/.gitignore": "!*.log\n/local\nnested/\n!/build/\n",
  "sub/deeper/.gitignore": "*.log\n!gen/\n",
};
const GIT_FILES = [
  "keep.log",
  "x.log",
  "src/y.log",
  "anchored.txt",
  "src/anchored.txt",
  "docs/a.md",
  "docs/README.md",
  "docs/sub/b.md",
  "build/out.js",
  "src/build/out.js",
  "logs/keep.txt",
  "logs/x.txt",
  "foo/bar",
  "foo/a/b/bar",
  "foo/c/bar/baz",
  "deep",
  "q/r/deep/z",
  "a/x",
  "a/b/c",
  "a/b/d/e",
  "xay",
  "x/y",
  "az.txt",
  "dz.txt",
  "aw.txt",
  "dw.txt",
  "#hash",
  "!bang",
  "trail ",
  "trail",
  "sp",
  "dir.tmp/f",
  "file.tmp",
  "g/gen/h/i.ts",
  "gen/j.ts",
  "name1b.c",
  "name12.c",
  "qq*",
  "qqx",
  "mid/dle/f",
  "x/mid/dle/f",
  "a".repeat(60),
  `${"a".repeat(24)}z`,
  "sub/l.log",
  "sub/local",
  "sub/x/local",
  "sub/nested/f",
  "sub/build/f",
  "sub/deeper/m.log",
  "sub/deeper/gen/k.ts",
  "plain.ts",
]; // deno-fmt-ignore

async function git(cwd: string, args: string[], stdin?: string): Promise<string> {
  const home = Deno.makeTempDirSync({ prefix: "heimdall_githome_" });
  const cmd = new Deno.Command("git", {
    args,
    cwd,
    env: { HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: "1" },
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = cmd.spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  Deno.removeSync(home, { recursive: true });
  return new TextDecoder().decode(out.stdout);
}

Deno.test("classifyPath() agrees with git check-ignore and git ls-files on a real repository", async () => {
  const root = makeTree({ ...GIT_TREE, ...Object.fromEntries(GIT_FILES.map((f) => [f, ""])) });
  try {
    await git(root, ["init", "-q", "."]);
    const dirs = new Set<string>();
    for (const f of GIT_FILES) {
      for (let k = f.indexOf("/"); k > 0; k = f.indexOf("/", k + 1)) dirs.add(f.slice(0, k));
    }
    const paths = [...GIT_FILES, ...dirs];
    const out = await git(
      root,
      ["check-ignore", "--no-index", "-v", "-n", "-z", "--stdin"],
      paths.join("\0") + "\0",
    );
    const fields = out.split("\0");
    const cache = new IgnoreCache();
    const gitReasons: Record<string, string | undefined> = {};
    const ourReasons: Record<string, string | undefined> = {};
    for (let i = 0; i + 3 < fields.length; i += 4) {
      const [source, line, pattern, path] = fields.slice(i, i + 4) as string[] as [
        string,
        string,
        string,
        string,
      ];
      gitReasons[path] = source === "" ? undefined : `${source}:${line} ${pattern}`;
      ourReasons[path] =
        classifyPath(root, path, dirs.has(path), "", cache, { defaults: false }).reason;
    }
    assert.equal(Object.keys(gitReasons).length, paths.length);
    assert.deepEqual(ourReasons, gitReasons);
    const listed = await git(root, [
      "ls-files",
      "-z",
      "--others",
      "--ignored",
      "--exclude-standard",
    ]);
    const gitIgnored = listed.split("\0").filter((p) => p !== "").sort();
    const ourIgnored = GIT_FILES
      .filter((f) => classifyPath(root, f, false, "", cache, { defaults: false }).ignored)
      .sort();
    assert.ok(gitIgnored.length > 20, `git listed only ${gitIgnored.length} ignored files`);
    assert.deepEqual(ourIgnored, gitIgnored);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
