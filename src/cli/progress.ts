import type { Progress } from "../reconcile/mod.ts";

/**
 * A one-line progress display on a terminal's stderr (nothing when stderr is
 * not a terminal): done/total `unit`, the rate, and once the total is known
 * an ETA at that rate. Redraws at most every 100 ms.
 */
export function progressBar(
  label: string,
  unit = "files",
): { update(p: Progress): void; done(): void } {
  return statusLine<Progress>((p, rate) => {
    const total = p.walkDone ? p.found : `${p.found}+`;
    const width = 24;
    const frac = p.walkDone && p.found > 0 ? Math.min(1, p.done / p.found) : 0;
    const bar = p.walkDone
      ? "█".repeat(Math.round(frac * width)).padEnd(width, "░")
      : "░".repeat(width);
    return `${label} ${bar} ${p.done}/${total} ${unit}  ${Math.round(rate)}/s${
      p.walkDone && rate > 0 && p.found > p.done ? `  ETA ${eta((p.found - p.done) / rate)}` : ""
    }`;
  });
}

/**
 * A line on a terminal's stderr that `update` redraws (at most every 100 ms)
 * as `render(p, rate)`, where `rate` is `p.done` per second since the start;
 * `done` clears it. Nothing at all when stderr is not a terminal.
 */
export function statusLine<P extends { done: number }>(
  render: (p: P, rate: number) => string,
): { update(p: P): void; done(): void } {
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
      Deno.stderr.writeSync(enc.encode(`\r\x1b[2K${render(p, rate)}`));
    },
    done() {
      Deno.stderr.writeSync(enc.encode("\r\x1b[2K"));
    },
  };
}

/** Seconds left as `42s`, `3m05s` or `2h07m`. */
function eta(s: number): string {
  const t = Math.ceil(s);
  if (t < 60) return `${t}s`;
  if (t < 3600) return `${Math.floor(t / 60)}m${String(t % 60).padStart(2, "0")}s`;
  return `${Math.floor(t / 3600)}h${String(Math.floor((t % 3600) / 60)).padStart(2, "0")}m`;
}
