import assert from "node:assert/strict";
import { chunkMan, plainText, renderRoff } from "./prose_man.ts";
import { assertCases } from "../../tests/cases.ts";
import { goldenInput } from "../../tests/golden_input.ts";

const PAGE = goldenInput("man", "page");

Deno.test("chunkMan() chunks a man page by .SH and .SS, text without roff", () => {
  const { chunks, symbols } = chunkMan(PAGE);
  assert.deepEqual(symbols.map((s) => [s.qualname, s.parent ?? null, s.startLine, s.endLine]), [
    ["NAME", null, 3, 4],
    ["SYNOPSIS", null, 5, 7],
    ["DESCRIPTION", null, 8, 19],
    ["DESCRIPTION > Exit status", "DESCRIPTION", 17, 19],
    ["OPTIONS", null, 20, 23],
    ["SEE ALSO", null, 24, 26],
  ], "a .SH inside a macro definition is no section");
  assert.equal(symbols[5]!.signature, '.SH "SEE ALSO"');
  assert.deepEqual(chunks.map((c) => [c.heading, c.startLine, c.endLine, c.text]), [
    ["NAME", 3, 4, "NAME\nretry - run a command until it succeeds"],
    ["SYNOPSIS", 5, 7, "SYNOPSIS\nretry\n[options] command"],
    [
      "DESCRIPTION",
      8,
      16,
      "DESCRIPTION\nretry\nruns\ncommand\nagain after a failure, waiting\n" +
      "delay seconds — doubling it each time.",
    ],
    ["DESCRIPTION > Exit status", 17, 19, "Exit status\nThe exit status of the last attempt."],
    ["OPTIONS", 20, 23, "OPTIONS\n-n, --attempts=N\nGive up after N attempts."],
    ["SEE ALSO", 24, 26, "SEE ALSO\nsleep(1),\ntimeout(1)"],
  ], "the comment and .TH before NAME show nothing, so make no chunk");
});

Deno.test("chunkMan() reads mdoc sections and a bare .SH's title from the next line", () => {
  const mdoc =
    ".Dd May 1, 2024\n.Dt RETRY 1\n.Os\n.Sh NAME\n.Nm retry\n.Sh DESCRIPTION\n.Ss Flags\ntext";
  assert.deepEqual(chunkMan(mdoc).symbols.map((s) => s.qualname), [
    "NAME",
    "DESCRIPTION",
    "DESCRIPTION > Flags",
  ]);
  assert.deepEqual(chunkMan(".SH\nOPTIONS\n.TP\n.B \\-v\nverbose").symbols.map((s) => s.name), [
    "OPTIONS",
  ]);
});

Deno.test("plainText() resolves or drops roff escapes", () => {
  assertCases(plainText, [
    ["\\fBbold\\fR and \\fIitalic\\fP", "bold and italic"],
    ["\\f(CWcode\\f[]", "code"],
    ["\\-\\-verbose", "--verbose"],
    ["a\\(emb \\[bu] c", "a—b • c"],
    ["\\s-1SMALL\\s0 text", "SMALL text"],
    ["\\*(Tm and \\n[x] gone", " and  gone"],
    ["e\\&.g\\&. x\\ y\\e", "e.g. x y\\"],
    ["no escapes", "no escapes"],
  ]);
  assert.deepEqual(renderRoff(['.\\" c', ".PP", ".IP \\(bu 4", 'x \\" trailing']), [
    undefined,
    undefined,
    "•",
    "x ",
  ]);
});
