import assert from "node:assert/strict";
import { detectLanguage, looksLikeRoff } from "./language.ts";
import { assertNamedCases } from "../../tests/cases.ts";

const GIT_PAGE = "git-stash(1)\n============\n\nNAME\n----\ngit-stash - Stash changes\n";
const MAN_PAGE = '.\\" Copyright 2024\n.TH RETRY 1\n.SH NAME\nretry \\- run again\n';

Deno.test("detectLanguage() tells prose formats apart by name and head", () => {
  // Decided by the name alone, without a head: each language, then the names that mean it.
  const byName: [want: string | undefined, ...names: string[]][] = [
    ["markdown", "docs/guide.md"],
    ["rst", "docs/index.rst", "docs/index.rest"],
    ["asciidoc", "docs/guide.adoc", "docs/guide.asciidoc"],
    ["org", "notes/todo.org"],
    ["man", "man/retry.man"],
    ["text", "notes.txt", "NEWS", "ChangeLog", "install", "notes.text"],
    ["make", "Makefile"],
    ["html", "site/index.html"],
    [undefined, "doc/retry.1", "unknown.xyz"],
  ];
  for (const [want, ...names] of byName) {
    for (const name of names) assert.equal(detectLanguage(name, undefined), want, name);
  }
  // The head decides, or overrules the name.
  const byHead: [name: string, head: string, want: string | undefined][] = [
    ["notes.txt", "Just some notes.\n", "text"],
    ["Documentation/git-stash.txt", GIT_PAGE, "asciidoc"],
    ["doc/retry.1", MAN_PAGE, "man"],
    ["doc/openssl.1ssl", MAN_PAGE, "man"],
    ["lib/libfoo.so.1", "\x7fELF", undefined],
    ["data/run.3", "3 4 5\n", undefined],
    ["README", "Retry\n", "text"],
    ["INSTALL", "#!/bin/sh\necho\n", "bash"],
  ];
  for (const [name, head, want] of byHead) {
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
