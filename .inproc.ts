import { Journal } from "./src/store/journal.ts";
import { search } from "./src/search/search.ts";
const cases = JSON.parse(Deno.readTextFileSync("/tmp/hsb600/cases.json")) as { query: string }[];
const j = Journal.open("/tmp/hsb600/home/journal.db", { readOnly: true, mapped: true } as never);
const ms: number[] = [];
for (const [i, c] of cases.slice(0, 200).entries()) {
  const t = performance.now();
  await search(j, { query: c.query, limit: 10, semantic: null } as never);
  if (i >= 20) ms.push(performance.now() - t);
}
ms.sort((a, b) => a - b);
console.log("/work/main".padEnd(16), "p50", ms[ms.length >> 1]!.toFixed(1), "p95", ms[Math.floor(ms.length * 0.95)]!.toFixed(1));
