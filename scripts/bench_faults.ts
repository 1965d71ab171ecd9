/**
 * The fault-injection suite: every `scripts/faults/*` module run for real
 * (temp homes, real subprocesses, real signals, damaged journals), printed as
 * one table: what was tried, what happened, the bar, met or not.
 *
 *     deno run -A scripts/bench_faults.ts [--only secrets,hooks] [--markdown]
 *
 * Kills survived, bad inputs tried, secrets planted and found (must be 0),
 * the longest write-lock hold during a cold index, and hook latency with a
 * stopped server and a held lock come from these modules. Exit 1 when a row
 * misses its bar, so a regression is loud; this is a benchmark, never a test.
 */
import { parseArgs } from "node:util";
import type { FaultRow } from "./faults/row.ts";

/** The modules of the suite, in the order of the issue's sections. */
const MODULES = [
  "secrets",
  "private_files",
  "hooks",
  "writer",
  "converge",
  "corruption",
  "bad_input",
] as const;

const { values } = parseArgs({
  args: Deno.args,
  options: { only: { type: "string" }, markdown: { type: "boolean" } },
});
const chosen = values.only === undefined
  ? [...MODULES]
  : values.only.split(",").map((s) => s.trim()).filter((s) => s !== "");
for (const name of chosen) {
  if (!(MODULES as readonly string[]).includes(name)) {
    console.error(`bench_faults: unknown module "${name}"; expected one of ${MODULES.join(", ")}`);
    Deno.exit(2);
  }
}

const rows: (FaultRow & { area: string })[] = [];
const started = performance.now();
for (const name of chosen) {
  const t0 = performance.now();
  console.error(`[bench_faults] ${name} …`);
  const mod = await import(`./faults/${name}.ts`) as { run(): Promise<FaultRow[]> };
  try {
    for (const r of await mod.run()) rows.push({ area: name, ...r });
  } catch (e) {
    rows.push({
      area: name,
      figure: "the module ran to its end",
      value: `failed: ${(e as Error).message.split("\n")[0]}`,
      target: "ran",
      met: false,
    });
  }
  console.error(`[bench_faults] ${name} done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

const header = ["area", "figure", "value", "target", "met"];
const table = rows.map((r) => [r.area, r.figure, r.value, r.target, r.met ? "yes" : "NO"]);
if (values.markdown) {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`;
  console.log(line(header));
  console.log(line(header.map(() => "---")));
  for (const r of table) console.log(line(r));
} else {
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  console.log(fmt(header));
  console.log(widths.map((w) => "─".repeat(w)).join("  "));
  for (const r of table) console.log(fmt(r));
}
const missed = rows.filter((r) => !r.met).length;
console.log(
  `\n${rows.length} figures, ${missed} missed; ${
    ((performance.now() - started) / 1000).toFixed(0)
  } s`,
);
Deno.exit(missed > 0 ? 1 : 0);
