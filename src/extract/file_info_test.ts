import assert from "node:assert/strict";
import { describeFile, summarize } from "./file_info.ts";

Deno.test("summarize() never holds a carriage return: a lone CR ends a line as LF and CRLF do", () => {
  assert.equal(summarize("Gamma Title\r\rParagraph one.\r"), "Gamma Title");
  assert.equal(summarize("\r\nFirst line\r\nsecond\r\n"), "First line");
  assert.equal(summarize("x\rReal one"), "Real one");
});

Deno.test("summarize() skips roff markup and strips a heading's marks", () => {
  const page = '.\\" Automatically generated\n.TH TOOL 1 "2024"\n.SH NAME\ntool \\- does things\n';
  assert.equal(
    describeFile("tool.1", new TextEncoder().encode(page)).summary,
    "tool \\- does things",
  );
  assert.equal(summarize("# Title #\n"), "Title");
  assert.equal(summarize("## C# notes ##\n"), "C# notes");
  assert.equal(summarize("#+TITLE: Notes\n"), "Notes");
  assert.equal(summarize("= Doc Title\n:toc:\n"), "Doc Title");
  // Not a heading: the `#` stays.
  assert.equal(summarize("Ticket number #\n"), "Ticket number #");
  assert.equal(summarize(".DS_Store\n"), ".DS_Store");
});
