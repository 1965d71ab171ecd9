import assert from "node:assert/strict";
import { chunkRst } from "./prose_rst.ts";
import { assertNamedCases } from "../../tests/cases.ts";
import { goldenInput } from "../../tests/golden_input.ts";

const GUIDE = goldenInput("rst", "guide");

Deno.test("chunkRst() titles sections by their text, never by their rules, and nests them by style", () => {
  const { chunks, symbols } = chunkRst(GUIDE);
  assert.deepEqual(
    symbols.map((s) => [s.qualname, s.parent ?? null, s.startLine, s.endLine, s.signature]),
    [
      ["Retry scheduler", null, 1, 34, "Retry scheduler"],
      ["Retry scheduler > Installation", "Retry scheduler", 9, 29, "Installation"],
      [
        "Retry scheduler > Installation > Configuration",
        "Retry scheduler > Installation",
        18,
        29,
        "Configuration",
      ],
      ["Retry scheduler > Usage", "Retry scheduler", 31, 34, "Usage"],
    ],
    "an overlined title, two underline styles; a transition (line 29) is no title",
  );
  assert.deepEqual(chunks.map((c) => [c.heading, c.startLine, c.endLine]), [
    ["Retry scheduler", 1, 7],
    ["Retry scheduler > Installation", 9, 16],
    ["Retry scheduler > Installation > Configuration", 18, 29],
    ["Retry scheduler > Usage", 31, 34],
  ]);
  assert.match(chunks[1]!.text, /Not a title\n {4}=+$/, "a literal block's fake title stays text");
  assert.ok(symbols.every((s) => !/^[=-]+$/.test(s.name)));
  assert.ok(symbols.every((s) => s.kind === "heading"));
});

Deno.test("chunkRst() reads each case as docutils would", () => {
  assertNamedCases((text) => chunkRst(text).symbols.map((s) => s.qualname), [
    ["a document without titles is one untitled chunk", "Just a paragraph.\nAnd more.", []],
    ["only rules make no title", "=====\n\n=====\n\n-----\n", []],
    ["a comment's body is no title", "..\n   Hidden\n   ======\n\nShown\n-----\n", ["Shown"]],
    ["an indented line is no underlined title", "  Quote\n  -----\n", []],
    ["a title needs a blank line before it", "para\nText\n----\n", []],
    ["a subtitle may follow a title", "=====\nTitle\n=====\nSub\n---\n\nx\n", [
      "Title",
      "Title > Sub",
    ]],
    ["CRLF line ends", "Intro\r\n=====\r\n\r\ntext\r\n", ["Intro"]],
  ]);
  assert.deepEqual(chunkRst("Just a paragraph.\nAnd more.").chunks, [
    { heading: "", startLine: 1, endLine: 2, text: "Just a paragraph.\nAnd more." },
  ]);
});

Deno.test("chunkRst() cuts a long section at blank lines, each part under the section's heading", () => {
  const para = "word ".repeat(150).trim();
  const text = ["Big", "===", "", ...Array.from({ length: 12 }, () => [para, ""]).flat()].join(
    "\n",
  );
  const { chunks } = chunkRst(text);
  assert.ok(chunks.length >= 3);
  assert.ok(chunks.every((c) => c.heading === "Big" && c.text.length <= 4000 + para.length));
  assert.equal(chunks[0]!.startLine, 1);
  assert.equal(chunks[chunks.length - 1]!.endLine, 3 + 12 * 2 - 1);
  for (let i = 1; i < chunks.length; i++) {
    assert.ok(chunks[i]!.startLine > chunks[i - 1]!.endLine, "parts do not overlap");
  }
});

Deno.test("chunkRst() titles a section as a reader sees it: roles, links and literals unwrapped", () => {
  const text = ":mod:`email` --- Package Architecture\n" + "=".repeat(38) + "\n\n" +
    "See :ref:`the guide <guide>` and `Python <https://python.org>`_\n" + "-".repeat(62) +
    "\n\n``literal``, **bold**, *em*, |sub| and 2 * 3\n" + "-".repeat(44) + "\n";
  assert.deepEqual(chunkRst(text).symbols.map((s) => s.qualname), [
    "email --- Package Architecture",
    "email --- Package Architecture > See the guide and Python",
    "email --- Package Architecture > literal, bold, em, sub and 2 * 3",
  ]);
});

Deno.test("chunkRst() titles a section without backslash escapes or Sphinx's ~ and . role prefixes", () => {
  const text = [
    "1.11 I get an 'open\\_basedir restriction' error",
    "==============================================",
    "",
    ":class:`.datetime` Objects",
    "--------------------------",
    "",
    ":class:`~email.message.EmailMessage` and ``a\\_b``, :keyword:`!with`\\ -statement",
    "-".repeat(72),
    "",
    "text",
  ].join("\n");
  assert.deepEqual(chunkRst(text).symbols.map((s) => s.name), [
    "1.11 I get an 'open_basedir restriction' error",
    "datetime Objects",
    "EmailMessage and a\\_b, with-statement",
  ]);
});
