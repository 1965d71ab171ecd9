import { createExtractor, detectLanguage } from "../src/extract/mod.ts";
const ex = createExtractor();
let tot = 0, part = 0;
for (const f of Deno.args) {
  const text = Deno.readTextFileSync(f);
  const r: any = await ex.extract({ path: f, language: detectLanguage(f) as string, text, depth: 3 as any });
  tot += r.symbols.length; part += r.symbols.filter((s: any) => s.partial).length;
}
console.log("symbols", tot, "partial", part);
