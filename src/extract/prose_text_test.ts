import assert from "node:assert/strict";
import { chunkText } from "./prose_text.ts";
import { assertNamedCases } from "../../tests/cases.ts";

const LOREM =
  "The scheduler keeps a queue of jobs and runs each one when its time comes. A job that " +
  "fails is put back with a delay that doubles after every failure, up to a ceiling. ";

/** A README in the old style: ALL-CAPS headings, long paragraphs. */
function readme(): string {
  return [
    "Retry Scheduler 2.0", // 1
    "", // 2
    LOREM, // 3
    "", // 4
    "INSTALLATION", // 5
    "", // 6
    ...Array.from({ length: 12 }, (_, i) => [`${i + 1}) ${LOREM.repeat(2)}`, ""]).flat(), // 7-30
    "CONFIGURATION", // 31
    "", // 32
    "Set max_attempts in retry.conf.", // 33
    "", // 34
    "3.2 Backoff and jitter", // 35
    "", // 36
    "Jitter spreads retries out.", // 37
  ].join("\n");
}

Deno.test("chunkText() chunks a README under its ALL-CAPS and numbered headings, long ones in parts", () => {
  const { chunks, symbols } = chunkText(readme());
  assert.deepEqual(symbols.map((s) => [s.qualname, s.startLine, s.endLine]), [
    ["INSTALLATION", 5, 29],
    ["CONFIGURATION", 31, 37],
    ["CONFIGURATION > 3.2 Backoff and jitter", 35, 37],
  ]);
  assert.deepEqual(chunks[0], {
    heading: "Retry Scheduler 2.0",
    startLine: 1,
    endLine: 3,
    text: `Retry Scheduler 2.0\n\n${LOREM}`,
  }, "text before the first heading is titled by its first line");
  const install = chunks.filter((c) => c.heading === "INSTALLATION");
  assert.ok(install.length >= 2, "a long section is cut at paragraph breaks");
  assert.ok(install.every((c) => c.text.length <= 3000));
  assert.deepEqual(install.map((c) => c.startLine).slice(0, 1), [5]);
  assert.equal(install[install.length - 1]!.endLine, 29);
  assert.deepEqual(chunks.slice(-2).map((c) => [c.heading, c.startLine, c.endLine]), [
    ["CONFIGURATION", 31, 33],
    ["CONFIGURATION > 3.2 Backoff and jitter", 35, 37],
  ]);
});

Deno.test("chunkText() never takes a rule for a title", () => {
  const rules = "=====\n=====\n\n-----\n*****\n=====\n";
  const { chunks, symbols } = chunkText(rules);
  assert.deepEqual(symbols, []);
  assert.deepEqual(chunks.map((c) => c.heading), [""], "no words, no title");
  assertNamedCases((text) => chunkText(text).symbols.map((s) => s.qualname), [
    ["an underlined title", "Usage\n=====\n\ntext\n", ["Usage"]],
    ["an over- and underlined title", "=======\n Usage\n=======\n\ntext\n", ["Usage"]],
    ["underline styles nest in order", "A\n===\n\nB\n---\n\nC\n===\n", ["A", "A > B", "C"]],
    ["a rule between paragraphs", "one\n\n-----\n\ntwo\n", []],
    [
      "a sentence is no heading",
      "\nTHIS IS SHOUTED TEXT THAT GOES ON AND ON, FAR PAST A HEADING.\n\n",
      [],
    ],
    ["caps inside a paragraph", "text\nNOTE\n\n", []],
    ["a numbered list item with a sentence", "1. Download the archive, then unpack it.\n\n", []],
    ["a top numbered heading", "2 Usage\n\ntext\n", ["2 Usage"]],
    ["a long line underlined", `${"x".repeat(90)}\n-----\n`, []],
  ]);
});

Deno.test("chunkText() titles headingless chunks by their first line, clipped", () => {
  const long = `${"word ".repeat(40).trim()}\n\nmore`;
  const [c] = chunkText(long).chunks;
  assert.equal(c!.heading.length, 80);
  assert.ok(c!.heading.endsWith("…"));
  assert.equal(chunkText("-----\n\n$ a > b\nrest").chunks[0]!.heading, "$ a b");
  assert.deepEqual(chunkText("").chunks, []);
});

Deno.test("chunkText() takes no title from a command or code framed or underlined by a rule", () => {
  const text = [
    "Quasar notes", // 1
    "============", // 2
    "", // 3
    "Fetch the sources:", // 4
    "", // 5
    "-------------------------------------------------", // 6
    "$ git archive --format=tar --prefix=project/ HEAD | gzip >latest.tar.gz", // 7
    "-------------------------------------------------", // 8
    "", // 9
    "The raw output reads:", // 10
    "", // 11
    "------------------------------------------------", // 12
    ":100644 100644 5be4a4a 0000000 M file.c", // 13
    "------------------------------------------------", // 14
    "", // 15
    "    Signed-off-by: Ada <ada@example.org>", // 16
    "------------------------------------------------", // 17
    "", // 18
    "====================", // 19
    "  Framed title", // 20
    "====================", // 21
    "", // 22
    "Tune the pulsar beam.", // 23
  ].join("\n");
  assert.deepEqual(chunkText(text).symbols.map((s) => [s.qualname, s.startLine]), [
    ["Quasar notes", 1],
    ["Quasar notes > Framed title", 19],
  ]);
});
