/**
 * Extraction throughput per language on the golden inputs (each repeated to
 * ~100 KB so parsing dominates). For a real corpus, point
 * `HEIMDALL_BENCH_DIR` at a folder: every file with an L2+ language in it is
 * extracted once per iteration.
 *
 *     deno bench --allow-read --allow-env src/extract/extract_bench.ts
 */
import { join } from "../files/mod.ts";
import { createExtractor } from "./routing.ts";
import { detectLanguage } from "./language.ts";

const extractor = createExtractor();
const FIXTURES = join(import.meta.dirname!, "..", "..", "tests", "fixtures", "extract");

function inputs(): Map<string, { language: string; text: string }[]> {
  const out = new Map<string, { language: string; text: string }[]>();
  const dir = Deno.env.get("HEIMDALL_BENCH_DIR");
  if (dir) {
    const walk = (d: string) => {
      for (const e of Deno.readDirSync(d)) {
        const p = join(d, e.name);
        if (e.isDirectory) walk(p);
        const language = e.isFile ? detectLanguage(p) : undefined;
        if (!language || extractor.capability(language).depth < 2) continue;
        const list = out.get(language) ?? [];
        list.push({ language, text: Deno.readTextFileSync(p) });
        out.set(language, list);
      }
    };
    walk(dir);
    return out;
  }
  for (const lang of Deno.readDirSync(FIXTURES)) {
    // The first case of each language (python/definitions, markdown/guide…).
    const kase = [...Deno.readDirSync(join(FIXTURES, lang.name))].map((e) => e.name).sort()[0];
    if (!kase) continue;
    const dir = join(FIXTURES, lang.name, kase);
    const input = [...Deno.readDirSync(dir)].find((e) => e.name.startsWith("input."));
    if (!input) continue;
    const one = Deno.readTextFileSync(join(dir, input.name));
    out.set(lang.name, [{
      language: lang.name,
      text: one.repeat(Math.ceil(100_000 / one.length)),
    }]);
  }
  return out;
}

for (const [language, files] of inputs()) {
  const chars = files.reduce((n, f) => n + f.text.length, 0);
  Deno.bench(`extract ${language}: ${files.length} file(s), ${(chars / 1e3).toFixed(0)} K chars`, {
    group: "extract",
  }, async () => {
    for (const f of files) await extractor.extract({ path: "bench", ...f, depth: 3 });
  });
}
