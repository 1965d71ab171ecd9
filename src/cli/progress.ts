import type { Progress } from "../reconcile/mod.ts";

/**
 * A one-line progress display on a terminal's stderr (nothing when stderr is
 * not a terminal). Redraws at most every 100 ms.
 */
export function progressBar(label: string): { update(p: Progress): void; done(): void } {
  if (!Deno.stderr.isTerminal()) return { update() {}, done() {} };
  const enc = new TextEncoder();
  const start = performance.now();
  let last = 0;
  return {
    update(p) {
      const now = performance.now();
      if (now - last < 100) return;
      last = now;
      const rate = p.done / Math.max(0.001, (now - start) / 1000);
      const total = p.walkDone ? p.found : `${p.found}+`;
      const width = 24;
      const frac = p.walkDone && p.found > 0 ? Math.min(1, p.done / p.found) : 0;
      const bar = p.walkDone
        ? "█".repeat(Math.round(frac * width)).padEnd(width, "░")
        : "░".repeat(width);
      Deno.stderr.writeSync(
        enc.encode(`\r\x1b[2K${label} ${bar} ${p.done}/${total} files  ${Math.round(rate)}/s`),
      );
    },
    done() {
      Deno.stderr.writeSync(enc.encode("\r\x1b[2K"));
    },
  };
}
