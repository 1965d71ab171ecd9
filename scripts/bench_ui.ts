/**
 * Figures for the dashboard (a bench, not a test): first meaningful paint
 * (navigation to the code map's first level drawn) and the p95 of a map
 * interaction (a click on a folder, file or function until the next level is
 * painted), in Debian's Chromium, over an existing index opened read-only.
 * Targets: ≤ 1 s and ≤ 100 ms.
 *
 *   HEIMDALL_HOME=/tmp/heimdall-search-bench/home deno run --allow-all scripts/bench_ui.ts [--clicks 60]
 *
 * A journal at an older schema cannot be opened read-only; it is copied
 * (once, to $TMPDIR/heimdall-ui-bench-home) and the copy migrated, so the
 * home given is never written.
 *
 * The server runs in this process (`startUi`, the journal opened read-only,
 * nothing written to the home); playwright-core needs --allow-all (it reads
 * /proc paths Deno grants only with every permission).
 */
import { parseArgs } from "node:util";
import { chromium, type Page } from "playwright-core";
import { join } from "node:path";
import { homePaths, loadConfig, resolveHome } from "../src/config/mod.ts";
import { Journal, JournalError } from "../src/store/mod.ts";
import { startUi } from "../src/ui/mod.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { clicks: { type: "string", default: "60" }, paints: { type: "string", default: "5" } },
});
const CLICKS = Number(values.clicks);
const PAINTS = Number(values.paints);

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
}

/** The home to serve: the given one, or a migrated copy when its schema is older. */
function servable(given: string): string {
  const paths = homePaths(given);
  try {
    Journal.open(paths.journal, { readOnly: true }).close();
    return given;
  } catch (e) {
    if (!(e instanceof JournalError) || !/needs migrating/.test(e.message)) throw e;
  }
  const copy = join(Deno.env.get("TMPDIR") ?? "/tmp", "heimdall-ui-bench-home");
  const target = homePaths(copy);
  const size = Deno.statSync(paths.journal).size;
  let fresh = false;
  try {
    fresh = Deno.readTextFileSync(join(copy, "copied-from")) === `${paths.journal} ${size}`;
  } catch { /* no copy yet */ }
  if (!fresh) {
    console.error(
      `copying ${paths.journal} (${(size / 2 ** 20).toFixed(0)} MiB) to ${copy} to migrate it`,
    );
    Deno.mkdirSync(copy, { recursive: true });
    Deno.copyFileSync(paths.journal, target.journal);
    Journal.open(target.journal).close();
    Deno.writeTextFileSync(join(copy, "copied-from"), `${paths.journal} ${size}`);
  }
  return copy;
}

const home = homePaths(servable(resolveHome()));
const server = startUi({
  home,
  config: () => loadConfig(home.config),
  port: 0,
  author: "bench",
});
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox"],
});

/** Navigation start → the code map's repositories drawn, in ms (the page's own clock). */
async function firstPaint(page: Page): Promise<number> {
  await page.goto(server.url.replace("/?", "/?") + "#map");
  await page.waitForSelector("g.node circle");
  return await page.evaluate(() => performance.now());
}

/** Clicks nodes down the tree and back up; returns the page's click → painted timings. */
type Timing = { action: string; ms: number; fetched_ms: number; server_ms: number };

async function wander(page: Page, clicks: number): Promise<Timing[]> {
  let done = 0;
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  while (done < clicks) {
    const before = await page.evaluate(() =>
      (globalThis as unknown as { __heimdallTimings: unknown[] }).__heimdallTimings.length
    );
    const nodes = await page.$$("g.node:not(.selected) circle");
    const crumbs = await page.$$("button.crumb");
    const deep = crumbs.length >= 6 || nodes.length === 0;
    if (deep) {
      // Back up to a random ancestor (a breadcrumb) and go down elsewhere.
      await crumbs[1 + rand(Math.max(1, crumbs.length - 2))]!.click();
    } else {
      await nodes[rand(Math.min(nodes.length, 40))]!.click({ force: true });
    }
    await page.waitForFunction(
      (n) =>
        (globalThis as unknown as { __heimdallTimings: unknown[] }).__heimdallTimings.length > n,
      before,
      { timeout: 5_000 },
    ).catch(() => {});
    done++;
  }
  return await page.evaluate(() =>
    (globalThis as unknown as { __heimdallTimings: Timing[] }).__heimdallTimings
  );
}

try {
  const paints: number[] = [];
  for (let i = 0; i < PAINTS; i++) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    paints.push(await firstPaint(page));
    await page.close();
  }
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.addInitScript(() => {
    (globalThis as unknown as { __heimdallLayoutMs: number[] }).__heimdallLayoutMs = [];
  });
  await firstPaint(page);
  const timings = await wander(page, CLICKS);
  const ms = timings.filter((t) => t.action !== "open roots").map((t) => t.ms);
  const byAction: Record<string, number[]> = {};
  for (const t of timings) (byAction[t.action] ??= []).push(t.ms);
  console.log(JSON.stringify(
    {
      home: home.home,
      first_paint_ms: {
        cold: Math.round(paints[0]!),
        warm_median: Math.round(pct(paints.slice(1), 50)),
        all: paints.map(Math.round),
      },
      interaction_ms: {
        n: ms.length,
        p50: Math.round(pct(ms, 50)),
        p95: Math.round(pct(ms, 95)),
        max: Math.round(Math.max(...ms)),
      },
      layout_ms: await page.evaluate(() =>
        (globalThis as unknown as { __heimdallLayoutMs: number[] }).__heimdallLayoutMs.map(
          Math.round,
        )
      ),
      fetched_p95_ms: Math.round(pct(timings.map((t) => t.fetched_ms), 95)),
      server_p95_ms: Math.round(pct(timings.map((t) => t.server_ms), 95)),
      slowest: [...timings].sort((a, b) => b.ms - a.ms).slice(0, 4),
      by_action: Object.fromEntries(
        Object.entries(byAction).map(([k, v]) => [k, {
          n: v.length,
          p50: Math.round(pct(v, 50)),
          p95: Math.round(pct(v, 95)),
        }]),
      ),
    },
    null,
    2,
  ));
} finally {
  await browser.close();
  await server.close();
}
