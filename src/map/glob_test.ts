import assert from "node:assert/strict";
import { compareSpecificity, compileGlob, globCovers, GlobError } from "./glob.ts";

Deno.test("globCovers() matches files and everything inside a matched folder; ] and } alone are literal", () => {
  const cases: [string, string, boolean][] = [
    ["src/store/**", "src/store/journal.ts", true],
    ["src/store/**", "src/store", true],
    ["src/store/**", "src/storex/a.ts", false],
    ["src/store", "src/store/deep/a.ts", true],
    ["src/*.ts", "src/a.ts", true],
    ["src/*.ts", "src/sub/a.ts", false],
    ["src/*", "src/sub/a.ts", true],
    ["**/*_test.ts", "a_test.ts", true],
    ["**/*_test.ts", "src/x/a_test.ts", true],
    ["src/**/mod.ts", "src/mod.ts", true],
    ["src/**/mod.ts", "src/a/b/mod.ts", true],
    ["src/{cli,mcp}/**", "src/mcp/server.ts", true],
    ["src/{cli,mcp}/**", "src/memory/a.ts", false],
    ["src/[a-c]*.ts", "src/b.ts", true],
    ["src/[!a-c]*.ts", "src/b.ts", false],
    ["src/?.ts", "src/ab.ts", false],
    ["./docs/", "docs/x.md", true],
    ["a.b/c+d", "a.b/c+d", true],
    ["a.b/c+d", "aXb/c+d", false],
    ["**/**", "a/b", true],
    ["src/**/**", "src", true],
    ["src/x}y", "src/x}y", true],
    ["src/a]b.ts", "src/a]b.ts", true],
    ["src/{a,b}}", "src/a}", true],
    ["src/[!]a]x", "src/bx", true],
    ["src/[!]a]x", "src/]x", false],
    ["src/[]a]x", "src/]x", true],
    ["é/?.ts", "é/ü.ts", true],
    ["src/{a,b}{c,d}/**", "src/bd/x", true],
    ["src/*{.ts,.js}", "src/x.js", true],
    ["a/**/b/**/c", "a/x/b/y/z/c/d", true],
    ["a/**/b/**/c", "a/x/c", false],
    ["a/*", "a", false],
  ];
  for (const [glob, path, expected] of cases) {
    assert.equal(globCovers(compileGlob(glob), path), expected, `${glob} ~ ${path}`);
  }
});

Deno.test("compareSpecificity() prefers literal segments, then literal characters, then fewer **", () => {
  const order = [
    "src/store/journal.ts",
    "src/store/*.ts",
    "src/store/**",
    "src/store",
    "src/**/test_*.py",
    "src/**",
    "**/*.ts",
    "**",
  ];
  const sorted = [...order].reverse().map(compileGlob).sort(compareSpecificity).map((g) =>
    g.source
  );
  // src/store/** and src/store tie on segments and characters; fewer ** wins.
  assert.deepEqual(sorted, [
    "src/store/journal.ts",
    "src/store/*.ts",
    "src/store",
    "src/store/**",
    "src/**/test_*.py",
    "src/**",
    "**/*.ts",
    "**",
  ]);
  assert.equal(compareSpecificity(compileGlob("a/*"), compileGlob("b/*")), 0);
});

Deno.test("compileGlob() refuses absolute paths, .., a leading !, unclosed brackets and a backwards class range", () => {
  for (
    const bad of ["/etc/**", "src/../x", "src/[ab", "src/{a,b", "", "src/[z-a].ts", "!src/gen/**"]
  ) {
    assert.throws(() => compileGlob(bad), GlobError, bad);
  }
});

Deno.test("globCovers() answers a glob of many * at once, where a regular expression backtracks for ever", () => {
  // `*a*a…*b` against a long run of `a` and no `b`: a backtracking matcher tries every split.
  const many = compileGlob(`**/${"*a".repeat(25)}*b`);
  assert.equal(globCovers(many, `x/${"a".repeat(60)}`), false);
  assert.equal(globCovers(many, `x/${"a".repeat(60)}b`), true);
  const stars = compileGlob(`${"**/".repeat(12)}*/x/**/y`);
  assert.equal(globCovers(stars, `${"a/".repeat(300)}z`), false);
  assert.equal(globCovers(stars, `${"a/".repeat(300)}x/y`), true);
  // More segments than the state bits: the same answers.
  const long = compileGlob(`${"*/".repeat(20)}**/${"s/".repeat(15)}**/z`);
  assert.equal(globCovers(long, `${"a/".repeat(20)}${"s/".repeat(15)}z/w`), true);
  assert.equal(globCovers(long, `${"a/".repeat(25)}${"s/".repeat(15)}q/z`), true);
  assert.equal(globCovers(long, `${"a/".repeat(20)}${"s/".repeat(14)}z`), false);
});

Deno.test("compileGlob() refuses a segment with more than 1,024 {a,b} spellings", () => {
  assert.throws(() => compileGlob("src/" + "{a,b}".repeat(11)), /more than 1024 spellings/);
  assert.equal(compileGlob("src/" + "{a,b}".repeat(10)).source, "src/" + "{a,b}".repeat(10));
});
