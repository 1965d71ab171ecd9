/**
 * Golden cases: every `tests/fixtures/extract/<language>/<case>/input.<ext>`
 * is extracted at depth 3 and compared with `expected.json` beside it.
 * `UPDATE_GOLDEN=1 deno test --allow-all src/extract/extract_golden_test.ts`
 * rewrites the expected files; read the diff before committing it.
 */
import { deepStrictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createExtractor } from "./routing.ts";
import type { Extraction } from "./types.ts";

const FIXTURES = join(import.meta.dirname!, "..", "..", "tests", "fixtures", "extract");
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";
const extractor = createExtractor();

/**
 * The golden view of an extraction: stable key order, empty parts left out;
 * `structHash` is left out too (opaque, covered by struct_hash_test.ts).
 */
function golden(x: Extraction): Record<string, unknown> {
  const out: Record<string, unknown> = { depth: x.depth };
  if (x.error !== undefined) out.error = x.error;
  out.symbols = x.symbols.map((s) => ({
    kind: s.kind,
    name: s.name,
    qualname: s.qualname,
    ...(s.parent !== undefined ? { parent: s.parent } : {}),
    startLine: s.startLine,
    endLine: s.endLine,
    ...(s.signature !== undefined ? { signature: s.signature } : {}),
    ...(s.doc !== undefined ? { doc: s.doc } : {}),
    ...(s.partial ? { partial: true } : {}),
  }));
  out.refs = x.refs.map((r) => ({
    kind: r.kind,
    from: r.from,
    name: r.name,
    ...(r.module !== undefined ? { module: r.module } : {}),
    ...(r.receiver !== undefined ? { receiver: r.receiver } : {}),
    ...(r.receiverType !== undefined ? { receiverType: r.receiverType } : {}),
    line: r.line,
  }));
  if (x.chunks.length > 0) out.chunks = x.chunks;
  return out;
}

/** JSON with one symbol, ref or chunk per line, so a reviewer can read the file. */
function render(value: Record<string, unknown>): string {
  const fields = Object.entries(value).map(([k, v]) => {
    if (!Array.isArray(v)) return `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`;
    if (v.length === 0) return `  ${JSON.stringify(k)}: []`;
    return `  ${JSON.stringify(k)}: [\n${
      v.map((x) => `    ${JSON.stringify(x)}`).join(",\n")
    }\n  ]`;
  });
  return `{\n${fields.join(",\n")}\n}\n`;
}

for (const lang of [...Deno.readDirSync(FIXTURES)].filter((e) => e.isDirectory)) {
  const langDir = join(FIXTURES, lang.name);
  for (const kase of [...Deno.readDirSync(langDir)].filter((e) => e.isDirectory)) {
    const dir = join(langDir, kase.name);
    const input = [...Deno.readDirSync(dir)].find((e) => e.name.startsWith("input."));
    if (!input) continue;
    Deno.test(`extract() matches the golden case ${lang.name}/${kase.name}`, async () => {
      const text = await Deno.readTextFile(join(dir, input.name));
      const got = golden(
        await extractor.extract({ path: input.name, language: lang.name, text, depth: 3 }),
      );
      const expectedPath = join(dir, "expected.json");
      if (UPDATE) {
        await Deno.writeTextFile(expectedPath, render(got));
        return;
      }
      deepStrictEqual(got, JSON.parse(await Deno.readTextFile(expectedPath)));
    });
  }
}
