import { deepStrictEqual, equal } from "node:assert/strict";
import { chunkMarkdown } from "./markdown.ts";

const DOC = `Intro line.

# Guide

Welcome.

## Install

\`\`\`sh
# not a heading
npm install
\`\`\`

Usage
-----

Run it.

# API #

~~~
## also not a heading
~~~
`;

Deno.test("chunkMarkdown() splits by ATX and setext headings with heading paths", () => {
  const { chunks } = chunkMarkdown(DOC);
  deepStrictEqual(
    chunks.map((c) => [c.heading, c.startLine, c.endLine]),
    [
      ["", 1, 1],
      ["Guide", 3, 5],
      ["Guide > Install", 7, 12],
      ["Guide > Usage", 14, 17],
      ["API", 19, 23],
    ],
  );
  equal(chunks[2]!.text, "## Install\n\n```sh\n# not a heading\nnpm install\n```");
});

Deno.test("chunkMarkdown() makes heading symbols that span their subsections", () => {
  const { symbols } = chunkMarkdown(DOC);
  deepStrictEqual(
    symbols.map((s) => [s.kind, s.qualname, s.parent ?? null, s.startLine, s.endLine, s.signature]),
    [
      ["heading", "Guide", null, 3, 17, "# Guide"],
      ["heading", "Guide > Install", "Guide", 7, 12, "## Install"],
      ["heading", "Guide > Usage", "Guide", 14, 17, "Usage"],
      ["heading", "API", null, 19, 23, "# API #"],
    ],
  );
});

Deno.test("chunkMarkdown() skips front matter and treats `---` after a blank line as a rule", () => {
  const { chunks, symbols } = chunkMarkdown("---\ntitle: x\n---\n# Title\n\ntext\n\n---\n\nmore\n");
  deepStrictEqual(symbols.map((s) => s.name), ["Title"]);
  deepStrictEqual(chunks.map((c) => [c.heading, c.startLine, c.endLine]), [
    ["", 1, 3],
    ["Title", 4, 10],
  ]);
});

Deno.test("chunkMarkdown() skips Hugo's TOML front matter: a commented-out key is no heading", () => {
  const { symbols } = chunkMarkdown('+++\ntitle = "x"\n# weight = 10\n+++\n\n## Real\n\ntext\n');
  deepStrictEqual(symbols.map((s) => [s.qualname, s.startLine]), [["Real", 6]]);
});

Deno.test("chunkMarkdown() titles a heading as a reader sees it: no badge, link or tag markup", () => {
  const text = "# events [![Build Status](https://ci.example/e.svg)](https://ci.example/e)\n\n" +
    '## Using [`emit`](#emit) <a name="emit"></a>\n\nx\n\n# ![Logo](logo.png)\n\n' +
    "See [the docs](http://x) first\n---\n\n### Literal `[x](y)` and `a <b>`\n";
  deepStrictEqual(chunkMarkdown(text).symbols.map((s) => s.qualname), [
    "events",
    "events > Using emit",
    "Logo",
    "Logo > See the docs first",
    "Logo > See the docs first > Literal [x](y) and a <b>",
  ]);
});

Deno.test("chunkMarkdown() never titles a section with a rule line", () => {
  // An issue template's two rules: the second is not the first one underlined.
  const text = "## Short title\n\n" + "-".repeat(40) + "\n" + "-".repeat(40) +
    "\n\n## Background\n\n* * *\n===\n\ntext\n";
  deepStrictEqual(chunkMarkdown(text).symbols.map((s) => s.name), ["Short title", "Background"]);
});

Deno.test("chunkMarkdown() cuts a long section at blank lines, keeping its heading", () => {
  const para = "word ".repeat(400).trim();
  const text = `# Big\n\n${Array.from({ length: 10 }, () => para).join("\n\n")}\n`;
  const { chunks } = chunkMarkdown(text);
  equal(chunks.length > 1, true);
  for (const c of chunks) equal(c.heading, "Big");
  equal(chunks[0]!.startLine, 1);
  equal(chunks[chunks.length - 1]!.endLine, 21);
});

Deno.test("chunkMarkdown() takes an `===` under a table for a row, not the table for a title", () => {
  const text = "# Doc\n\n| a | b |\n|---|:-:|\n| 1 | 2 |\n=====\n\nafter the table\n\n" +
    "a | b\n--- | ---\nx | y\n---\n\nSome paragraph\nsecond line\n---\n\ntext\n";
  const { chunks, symbols } = chunkMarkdown(text);
  deepStrictEqual(symbols.map((s) => s.qualname), ["Doc", "Doc > Some paragraph second line"]);
  deepStrictEqual(chunks.map((c) => [c.heading, c.startLine, c.endLine]), [
    ["Doc", 1, 13],
    ["Doc > Some paragraph second line", 15, 19],
  ]);
});

Deno.test("chunkMarkdown() never makes a heading without a word: `#`, `### ###`", () => {
  const text =
    "# Title #\n\n## Install ##\n\ninstall text\n\n### ###\n\nunder the empty one\n\n#\n\nlast\n";
  const { chunks, symbols } = chunkMarkdown(text);
  deepStrictEqual(symbols.map((s) => s.qualname), ["Title", "Title > Install"]);
  deepStrictEqual(chunks.map((c) => [c.heading, c.startLine, c.endLine]), [
    ["Title", 1, 1],
    ["Title > Install", 3, 13],
  ]);
});

Deno.test("chunkMarkdown() takes no heading from an HTML comment", () => {
  const text = "# Project\n\nIntro.\n\n<!--\n## Checklist (delete this)\n-->\n\n" +
    "<!-- ## one line --> \n\n## Usage\n\nRun it.\n";
  deepStrictEqual(chunkMarkdown(text).symbols.map((s) => s.qualname), [
    "Project",
    "Project > Usage",
  ]);
});

Deno.test("chunkMarkdown() underlines no line that continues a list item or a quote", () => {
  for (
    const text of [
      "# Doc\n\n- item one\ncontinued lazily\n---\n\ntext\n",
      "# Doc\n\n> quoted\nlazy line\n---\n\ntext\n",
      "# Doc\n\n1. first\n2. second\nlazy\n===\n",
    ]
  ) deepStrictEqual(chunkMarkdown(text).symbols.map((s) => s.qualname), ["Doc"], text);
  // After a heading, or an indented code block, a paragraph is underlined again.
  deepStrictEqual(
    chunkMarkdown("# Doc\n\n- item\n## Next\ntext\n---\n\n    code\nmore\n---\n").symbols.map((s) =>
      s.qualname
    ),
    ["Doc", "Doc > Next", "Doc > text", "Doc > more"],
  );
});

Deno.test("chunkMarkdown() takes no heading from raw HTML: a <pre> block's output, a <div>'s lines", () => {
  const text = [
    "# Quickstart",
    "",
    "Run the tests:",
    "",
    "<pre>",
    "<strong>$ bazel test //:hello_test</strong>",
    "# a comment in the shell session",
    "[----------] Global test environment tear-down",
    "[  PASSED  ] 1 test.",
    "================================================================================",
    "</pre>",
    "",
    '<div align="center">',
    "Shown as written",
    "---",
    "</div>",
    "",
    '<img src="logo.png">',
    "Not a title",
    "===",
    "",
    "<PRE>one line</PRE>",
    "Underlined after a one-line block",
    "---",
    "",
    "<details>",
    "<summary>More</summary>",
    "",
    "## Inside the details",
    "",
    "</details>",
    "",
    "## Next steps",
    "",
    "Read the primer.",
  ].join("\n");
  deepStrictEqual(chunkMarkdown(text).symbols.map((s) => `${s.startLine}:${s.qualname}`), [
    "1:Quickstart",
    "23:Quickstart > Underlined after a one-line block",
    "29:Quickstart > Inside the details",
    "33:Quickstart > Next steps",
  ]);
});

Deno.test("chunkMarkdown() titles a heading without emphasis marks, escapes or an {#id} block", () => {
  const text = [
    "# TEST_F {#TEST_F}",
    "## The **fast** path, *very* fast, _really_ ~~old~~ new",
    "## \\*-unknown-openbsd",
    "## Using `__init__` and `a\\*b` in snake_case_name, 2*3*4",
    "## generate(what, *args) and script/*",
  ].join("\n\n");
  deepStrictEqual(chunkMarkdown(text).symbols.map((s) => s.name), [
    "TEST_F",
    "The fast path, very fast, really old new",
    "*-unknown-openbsd",
    "Using __init__ and a\\*b in snake_case_name, 2*3*4",
    "generate(what, *args) and script/*",
  ]);
});
