import assert from "node:assert/strict";
import { chunkOrg } from "./prose_org.ts";
import { assertNamedCases } from "../../tests/cases.ts";
import { goldenInput } from "../../tests/golden_input.ts";

const NOTES = goldenInput("org", "notes");

Deno.test("chunkOrg() chunks by headline, titles without keywords, priorities or tags", () => {
  const { chunks, symbols } = chunkOrg(NOTES);
  assert.deepEqual(symbols.map((s) => [s.qualname, s.parent ?? null, s.startLine, s.endLine]), [
    ["Release 2.0", null, 4, 11],
    ["Release 2.0 > Write the changelog", "Release 2.0", 6, 10],
    ["Release 2.0 > Tag the commit", "Release 2.0", 11, 11],
    ["Release 1.0", null, 12, 14],
  ]);
  assert.equal(symbols[1]!.signature, "** TODO [#A] Write the changelog");
  assert.deepEqual(chunks.map((c) => [c.heading, c.startLine, c.endLine]), [
    ["", 1, 2],
    ["Release 2.0", 4, 5],
    ["Release 2.0 > Write the changelog", 6, 10],
    ["Release 2.0 > Tag the commit", 11, 11],
    ["Release 1.0", 12, 14],
  ]);
});

Deno.test("chunkOrg() needs a space after the stars and a word in the title", () => {
  assertNamedCases((text) => chunkOrg(text).symbols.map((s) => s.qualname), [
    ["stars alone", "*\n**\n", []],
    ["tags alone", "* :tag:\n", [":tag:"]],
    ["a keyword alone stays", "* TODO\n", ["TODO"]],
    ["an indented star is a list item", "  * item\n", []],
  ]);
});

Deno.test("chunkOrg() titles a headline by its link's description and its code's text", () => {
  const text = "* TODO Read the [[https://orgmode.org/manual][Org manual]] first :docs:\n" +
    "** The =org-capture= and ~C-c c~ keys, [[file:notes.org]]\n";
  assert.deepEqual(chunkOrg(text).symbols.map((s) => s.qualname), [
    "Read the Org manual first",
    "Read the Org manual first > The org-capture and C-c c keys, file:notes.org",
  ]);
});
