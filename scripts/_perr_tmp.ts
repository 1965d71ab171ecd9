import { createExtractor, detectLanguage } from "../src/extract/mod.ts";
const ex = createExtractor();
for (const f of Deno.args) {
  const text = Deno.readTextFileSync(f);
  const r: any = await ex.extract({ path: f, language: detectLanguage(f) as string, text, depth: 3 as any });
  console.log(f.split("/").slice(-2).join("/"), "symbols", r.symbols?.length, "partial", r.symbols?.filter((s: any) => s.partial).length, "|", String(r.error ?? "").slice(0, 200));
}
