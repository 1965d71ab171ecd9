import assert from "node:assert/strict";
import { PROSE_LANGUAGES } from "./language.ts";
import { chunkProse, ProseExtractor } from "./prose.ts";
import { createExtractor } from "./routing.ts";

const SAMPLES: Record<string, string> = {
  markdown: "# Guide\n\n## Install\n\nRun it.\n",
  rst: "Guide\n=====\n\nInstall\n-------\n\nRun it.\n",
  asciidoc: "= Guide\n\n== Install\n\nRun it.\n",
  org: "* Guide\n** Install\nRun it.\n",
  man: ".TH GUIDE 1\n.SH Guide\n.SS Install\nRun it.\n",
  text: "GUIDE\n=====\n\nInstall\n-------\n\nRun it.\n",
};

Deno.test("chunkProse() reads every prose language into the same heading paths", () => {
  assert.deepEqual(Object.keys(SAMPLES).sort(), [...PROSE_LANGUAGES].sort());
  for (const [language, text] of Object.entries(SAMPLES)) {
    const got = chunkProse(language, text);
    assert.ok(got, language);
    const paths = got.symbols.map((s) => s.qualname.replace(/^GUIDE/, "Guide"));
    assert.deepEqual(paths, ["Guide", "Guide > Install"], language);
    assert.ok(got.symbols.every((s) => s.kind === "heading"), language);
    assert.equal(
      got.chunks[got.chunks.length - 1]!.heading.replace(/^GUIDE/, "Guide"),
      "Guide > Install",
    );
  }
  assert.equal(chunkProse("python", "# not prose"), undefined);
  assert.equal(chunkProse("toString", "x"), undefined);
});

Deno.test("ProseExtractor and the router read prose at L2 and nothing else", async () => {
  const prose = new ProseExtractor();
  const router = createExtractor();
  for (const language of PROSE_LANGUAGES) {
    assert.deepEqual(prose.capability(language), { depth: 2 }, language);
    assert.deepEqual(router.capability(language), { depth: 2 }, language);
    const x = await router.extract({ path: "x", language, text: SAMPLES[language]!, depth: 3 });
    assert.equal(x.depth, 2, language);
    assert.equal(x.symbols.length, 2, language);
  }
  assert.equal(prose.capability("html").depth, 1);
  assert.equal(prose.capability(undefined).depth, 1);
  const l1 = await prose.extract({ language: "rst", text: SAMPLES.rst!, depth: 1 });
  assert.deepEqual(l1, { depth: 1, symbols: [], refs: [], chunks: [] });
});

Deno.test("chunkProse() cuts a paragraph written on one long line into chunks of that line, all of it kept", () => {
  const words = Array.from({ length: 12_000 }, (_, i) => `w${i}`).join(" ");
  for (
    const [language, text] of [
      ["markdown", `# Notes\n\n${words}\n\nend\n`],
      ["text", `Notes\n=====\n\n${words}\n\nend\n`],
      ["rst", `Notes\n=====\n\n${words}\n\nend\n`],
    ] as const
  ) {
    const { chunks } = chunkProse(language, text)!;
    const line = text.split("\n").indexOf(words) + 1;
    const long = chunks.filter((c) => c.startLine === line);
    assert.ok(long.length > 10, language);
    for (const c of long) {
      assert.equal(c.endLine, line, language);
      assert.equal(c.heading, "Notes", language);
      // Never past what a section chunk's row indexes (`SECTION_MAX_CHARS`, chunk_rows.ts).
      assert.ok(c.text.length <= 9000, `${language}: ${c.text.length}`);
    }
    assert.equal(long.map((c) => c.text).join(" "), words, `${language}: every word, none cut`);
  }
});
