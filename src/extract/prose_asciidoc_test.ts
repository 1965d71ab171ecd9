import assert from "node:assert/strict";
import { chunkAsciidoc, looksLikeAsciidoc } from "./prose_asciidoc.ts";
import { assertNamedCases } from "../../tests/cases.ts";
import { goldenInput } from "../../tests/golden_input.ts";

/** Shaped like git's Documentation/git-*.txt manual pages. */
const GIT_PAGE = goldenInput("asciidoc", "manual_page");

Deno.test("chunkAsciidoc() chunks a git manual page by its underlined sections", () => {
  const { chunks, symbols } = chunkAsciidoc(GIT_PAGE);
  // Each section: its heading path, its first and last line, and the last line of its own chunk.
  const sections: [string, number, number, number][] = [
    ["git-stash(1)", 1, 47, 2],
    ["git-stash(1) > NAME", 4, 6, 6],
    ["git-stash(1) > SYNOPSIS", 8, 12, 12],
    ["git-stash(1) > DESCRIPTION", 14, 19, 19],
    ["git-stash(1) > EXAMPLES", 21, 38, 33],
    ["git-stash(1) > EXAMPLES > Interrupted workflow", 35, 38, 38],
    ["git-stash(1) > SEE ALSO", 40, 43, 43],
    ["git-stash(1) > GIT", 45, 47, 47],
  ];
  assert.deepEqual(
    symbols.map((s) => [s.qualname, s.startLine, s.endLine]),
    sections.map(([path, start, end]) => [path, start, end]),
    "`Stash it` inside the listing block is no title",
  );
  assert.equal(symbols[4]!.parent, "git-stash(1)");
  assert.deepEqual(
    chunks.map((c) => [c.heading, c.startLine, c.endLine]),
    sections.map(([path, start, , chunkEnd]) => [path, start, chunkEnd]),
  );
  assert.match(chunks[4]!.text, /Stash it\n-+\n\$ git stash push/);
});

Deno.test("chunkAsciidoc() reads one-line titles and skips verbatim blocks", () => {
  assertNamedCases((text) => chunkAsciidoc(text).symbols.map((s) => s.qualname), [
    [
      "one-line titles nest by their marks, closing marks dropped",
      "= Guide\n:toc:\n\n== Install ==\n\ntext\n\n=== From source\n\ntext\n\n== Use\n",
      ["Guide", "Guide > Install", "Guide > Install > From source", "Guide > Use"],
    ],
    ["markdown-style marks", "# Guide\n\n## Part\n", ["Guide", "Guide > Part"]],
    ["a literal block hides a title", "....\n== Not\n....\n\n== Yes\n", ["Yes"]],
    ["a comment block hides a title", "////\n== Not\n////\n\n== Yes\n", ["Yes"]],
    ["an underline of another length is no title", "Title\n----------\n", []],
    ["a rule under a rule is no title", "=====\n=====\n\n-----\n-----\n", []],
    ["an anchor may sit above a title", "[[install]]\n== Install\n", ["Install"]],
    ["a title follows a blank line", "text\n== Not\n", []],
  ]);
});

Deno.test("looksLikeAsciidoc() tells git manual pages and AsciiDoc headers from plain text", () => {
  assertNamedCases(looksLikeAsciidoc, [
    ["a git manual page", GIT_PAGE.slice(0, 256), true],
    ["a NAME section further in", "// generated\n\nNAME\n----\ngit-x - y\n", true],
    ["a one-line title with attributes", "= User Guide\n:author: Ann\n", true],
    ["plain text", "This program schedules retries.\n\nIt is small.\n", false],
    ["a title underlined too long", "Notes\n=================\n", false],
    ["a dashed underline is not enough", "Notes\n-----\n\ntext\n", false],
    ["nothing", "", false],
  ]);
});

Deno.test("looksLikeAsciidoc() tells git's user manual, technical docs and howtos from plain text", () => {
  assertNamedCases(looksLikeAsciidoc, [
    ["a title, then a section", "= Git User Manual\n\n[preface]\n== Introduction\n\ntext\n", true],
    ["a title, a paragraph, a section", "= Trace2 API\n\nThe API.\n\n== Targets\n", true],
    [
      "a howto mail",
      "From: Ann <a@x.org>\nSubject: Reverting\nContent-type: text/asciidoc\n\nHow to revert\n",
      true,
    ],
    ["an `=` title alone", "= Notes\n\nSome text = more text.\n", false],
    ["a section before any title", "Intro.\n\n== Setup\n", false],
  ]);
});

Deno.test("chunkAsciidoc() titles a section as a reader sees it: links and references by their text", () => {
  const text = "= Guide\n\n== Using link:https://x.org/docs[the manual] and `run`\n\ntext\n\n" +
    "== https://example.com[Example] and <<setup,Setup>> and *this*\n\nx\n";
  assert.deepEqual(chunkAsciidoc(text).symbols.map((s) => s.qualname), [
    "Guide",
    "Guide > Using the manual and run",
    "Guide > Example and Setup and this",
  ]);
});
