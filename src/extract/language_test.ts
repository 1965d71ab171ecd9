import assert from "node:assert/strict";
import { detectLanguage, looksLikeRoff } from "./language.ts";
import { assertNamedCases } from "../../tests/cases.ts";

const GIT_PAGE = "git-stash(1)\n============\n\nNAME\n----\ngit-stash - Stash changes\n";
const MAN_PAGE = '.\\" Copyright 2024\n.TH RETRY 1\n.SH NAME\nretry \\- run again\n';

Deno.test("detectLanguage() tells prose formats apart by name and head", () => {
  const cases: [string, string | undefined, string | undefined][] = [
    ["docs/guide.md", undefined, "markdown"],
    ["docs/index.rst", undefined, "rst"],
    ["docs/index.rest", undefined, "rst"],
    ["docs/guide.adoc", undefined, "asciidoc"],
    ["docs/guide.asciidoc", undefined, "asciidoc"],
    ["notes/todo.org", undefined, "org"],
    ["man/retry.man", undefined, "man"],
    ["notes.txt", "Just some notes.\n", "text"],
    ["notes.txt", undefined, "text"],
    ["Documentation/git-stash.txt", GIT_PAGE, "asciidoc"],
    ["doc/retry.1", MAN_PAGE, "man"],
    ["doc/openssl.1ssl", MAN_PAGE, "man"],
    ["doc/retry.1", undefined, undefined],
    ["lib/libfoo.so.1", "\x7fELF", undefined],
    ["data/run.3", "3 4 5\n", undefined],
    ["README", "Retry\n", "text"],
    ["NEWS", undefined, "text"],
    ["ChangeLog", undefined, "text"],
    ["install", undefined, "text"],
    ["INSTALL", "#!/bin/sh\necho\n", "bash"],
    ["Makefile", undefined, "make"],
    ["notes.text", undefined, "text"],
    ["site/index.html", undefined, "html"],
    ["unknown.xyz", undefined, undefined],
  ];
  for (const [name, head, want] of cases) {
    assert.equal(detectLanguage(name, head), want, `${name} ${JSON.stringify(head)}`);
  }
});

Deno.test("looksLikeRoff() wants roff at the start and a page request or mostly requests", () => {
  assertNamedCases(looksLikeRoff, [
    ["a man page", MAN_PAGE, true],
    ["an mdoc page", ".Dd May 1, 2024\n.Dt RETRY 1\n", true],
    ["a .so redirect", ".so man1/retry.1\n", true],
    ["a generated preamble", '.\\" generated\n.de Sp\n.if t .sp\n..\n.de Vb\n.ft CW\n..\n', true],
    ["text", "Retry runs commands.\n.SH late\n", false],
    ["one dot line among text", ".hidden file\nlisting\nmore\nmore\n", false],
    ["empty", "", false],
  ]);
});
