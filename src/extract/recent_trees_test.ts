import { deepStrictEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { TreeSitterExtractor } from "./tree_sitter.ts";
import { textEdit } from "./recent_trees.ts";
import { languageSpec } from "./languages.ts";

const FIXTURES = join(import.meta.dirname!, "..", "..", "tests", "fixtures", "extract");

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One random edit of a source text: a line deleted, duplicated or moved, or a name changed. */
function mutate(text: string, rnd: () => number): string {
  const lines = text.split("\n");
  const i = Math.floor(rnd() * lines.length);
  switch (Math.floor(rnd() * 4)) {
    case 0:
      lines.splice(i, 1);
      break;
    case 1:
      lines.splice(i, 0, lines[i] ?? "");
      break;
    case 2: {
      const [line] = lines.splice(i, 1);
      lines.splice(Math.floor(rnd() * lines.length), 0, line ?? "");
      break;
    }
    default:
      lines[i] = (lines[i] ?? "").replace(/[A-Za-z_]\w*/, (w) => `${w}${i}`);
  }
  return lines.join("\n");
}

Deno.test("an incremental re-parse extracts exactly what a fresh parse does", async () => {
  const incremental = new TreeSitterExtractor();
  const fresh = new TreeSitterExtractor({ keepTrees: 0 });
  const rnd = random(7);
  for (const lang of [...Deno.readDirSync(FIXTURES)].filter((e) => e.isDirectory)) {
    // Prose has no syntax tree to re-parse.
    if (!languageSpec(lang.name)) continue;
    const dir = join(FIXTURES, lang.name, "definitions");
    const input = [...Deno.readDirSync(dir)].find((e) => e.name.startsWith("input."))!;
    let text = Deno.readTextFileSync(join(dir, input.name));
    const path = `/edited/${input.name}`;
    for (let k = 0; k < 12; k++) {
      const args = { path, language: lang.name, text, depth: 3 as const };
      deepStrictEqual(
        await incremental.extract(args),
        await fresh.extract(args),
        `${lang.name} #${k}`,
      );
      text = mutate(text, rnd);
    }
  }
});

Deno.test("textEdit() spans only what changed, with rows and columns of both texts", () => {
  const before = "a\nbc\ndef\n";
  const after = "a\nbXYc\ndef\n";
  deepStrictEqual(textEdit(before, after), {
    startIndex: 3,
    oldEndIndex: 3,
    newEndIndex: 5,
    startPosition: { row: 1, column: 1 },
    oldEndPosition: { row: 1, column: 1 },
    newEndPosition: { row: 1, column: 3 },
  });
  const removed = textEdit("x\ny\nz\n", "x\nz\n")!;
  equal(removed.newEndIndex - removed.startIndex, 0);
  equal(removed.oldEndIndex - removed.startIndex, 2);
  equal(textEdit("same", "same"), undefined);
});
