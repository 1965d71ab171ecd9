/**
 * Drives every dashboard view in Debian's Chromium through playwright-core
 * and asserts what a person would see; run by `tests/ui_test.ts` as
 * `deno run --allow-all tests/ui_browser.ts URL FIXTURE_JSON` (playwright
 * reads /proc paths Deno grants only with every permission). Screenshots of
 * each view go to $TMPDIR/heimdall-ui-screens. Exits non-zero on the first
 * failed assertion.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { cli } from "./helpers.ts";
import type { UiFixture } from "./ui_fixture.ts";

const CHROMIUM = "/usr/bin/chromium";
/** Where the screenshots of each view go. */
export const SCREENS = join(Deno.env.get("TMPDIR") ?? "/tmp", "heimdall-ui-screens");

const assertEquals = (a: unknown, b: unknown, m?: string) => assert.deepEqual(a, b, m);
const assertMatch = (s: string, re: RegExp) => assert.match(s, re);
const assertStringIncludes = (s: string, part: string, m?: string) =>
  assert.ok(
    s.includes(part),
    m ?? `expected ${JSON.stringify(s)} to include ${JSON.stringify(part)}`,
  );

/** Opens `url` (with its token) and checks every view against the fixture `f`. */
export async function checkViews(url: string, f: UiFixture): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  Deno.mkdirSync(SCREENS, { recursive: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const shot = (name: string) =>
      page.screenshot({ path: join(SCREENS, `${name}.png`), fullPage: true });
    await page.goto(url);
    assertEquals(new URL(page.url()).search, "", "the token left the address bar");

    // Search: the CLI's ranked, verified results.
    await page.fill("input[name=q]", "split a body into fields");
    await page.click("form.searchbar button[type=submit]");
    await page.waitForSelector("li.hit");
    const first = page.locator("li.hit").first();
    assertEquals(await first.locator(".symbol").textContent(), "parseInput");
    assertEquals(await first.locator(".verdict").textContent(), "STRONG");
    assertMatch(
      (await first.locator("a.where").getAttribute("href"))!,
      /^vscode:\/\/file\/.*parse\.ts:2$/,
    );
    await first.locator("button.link").click();
    await page.waitForSelector(".fileview");
    assertStringIncludes((await page.textContent(".fileview"))!, "export function parseInput");
    await shot("search");

    // Code map: repository → folder → file; the claimed function outlined, the ×2 badge.
    await page.click("a[data-tab=map]");
    await page.click("g.node[data-label=shop] circle");
    await page.click("g.node[data-label=src] circle");
    await page.waitForSelector("g.node[data-label='parse.ts']");
    assertEquals(
      await page.getAttribute("g.node[data-label='parse.ts']", "data-claimed-by"),
      "bob",
      "a file holding a claimed function is outlined",
    );
    await shot("map-folder");
    await page.click("g.node[data-label='parse.ts'] circle");
    const fn = page.locator("g.node[data-label=parseInput]");
    await fn.waitFor();
    assertEquals(await fn.getAttribute("data-claimed-by"), "bob");
    assertEquals(await fn.locator("circle").getAttribute("stroke-width"), "4");
    assertEquals(await fn.locator(".badge.failure text").textContent(), "×2");
    // The neighbourhood of a function: what calls it, two hops up.
    await fn.locator("circle").click();
    await page.waitForSelector("g.node[data-label^=handleRequest]");
    assert(
      Number(await page.getAttribute("g.node[data-label^=validate]", "data-betweenness")) > 0,
    );
    await page.check("text=betweenness overlay");
    await shot("map-symbol");

    // Team: both people's claims outlined, the conflict path in red, the shared caller.
    await page.click("a[data-tab=team]");
    await page.waitForSelector("line.edge.conflict");
    const red = await page.$$eval(
      "line.edge.conflict",
      (ls) =>
        ls.map((
          l,
        ) => [
          l.getAttribute("data-source"),
          l.getAttribute("data-target"),
          // deno-lint-ignore no-explicit-any
          (globalThis as any).getComputedStyle(l).stroke,
        ]),
    );
    assertEquals(red.length, 2, "handleRequest → validate → parseInput");
    for (const [, , stroke] of red) assertEquals(stroke, "rgb(214, 39, 40)");
    const label = async (id: string | null) =>
      await page.getAttribute(`g.node[data-id="${id}"]`, "data-label");
    const chain = [await label(red[0]![0]!), await label(red[0]![1]!), await label(red[1]![1]!)];
    assertEquals(chain, ["handleRequest", "validate", "parseInput"]);
    assertEquals(
      await page.getAttribute("g.node[data-label=handleRequest]", "data-claimed-by"),
      "alice",
    );
    assertEquals(
      await page.getAttribute("g.node[data-label=parseInput]", "data-claimed-by"),
      "bob",
    );
    const aliceColour = await page.getAttribute(
      "g.node[data-label=handleRequest] circle",
      "stroke",
    );
    const bobColour = await page.getAttribute("g.node[data-label=parseInput] circle", "stroke");
    assert(aliceColour !== bobColour, "each person has their own colour");
    assertStringIncludes((await page.textContent(".conflict-item"))!, "2 calls apart");
    assertEquals(
      await page.getAttribute("g.node[data-label=main]", "data-shared-caller"),
      "true",
    );
    assertStringIncludes(
      (await page.textContent(".column[data-state=handed_off]"))!,
      "parsing is yours",
    );
    await shot("team");

    // Memory: the ×2 badge, the standing decision, and as of earlier the older one.
    await page.click("a[data-tab=memory]");
    await page.waitForSelector(".attempt");
    assertEquals(await page.textContent(".attempt .badge"), "×2");
    const standing = () => page.textContent("ul.standing").then((t) => t ?? "");
    assertStringIncludes(await standing(), "with a schema library");
    assert(!(await standing()).includes("hand-written checks"));
    const slider = page.locator("input[name=asof]");
    for (let i = 0; i < 10 && !(await standing()).includes("hand-written checks"); i++) {
      await slider.focus();
      await page.keyboard.press("ArrowLeft");
    }
    assertStringIncludes(
      await standing(),
      "hand-written checks",
      "as of before the supersession",
    );
    assert(!(await standing()).includes("with a schema library"));
    await shot("memory-as-of");

    // Add a decision from the browser; `heimdall why` reads it back with its author.
    await page.fill("textarea[name=text]", "Empty bodies are rejected before parsing");
    await page.fill("input[name=about]", "src/parse.ts:parseInput");
    await page.click("form.addmemory button[type=submit]");
    await page.waitForSelector("form.addmemory .msg");
    assertStringIncludes((await page.textContent("form.addmemory .msg"))!, "remembered");
    await page.waitForSelector("ol.timeline >> text=Empty bodies are rejected");
    await shot("memory");
    const why = await cli(f.home, ["why", "src/parse.ts:parseInput"], { cwd: f.repo });
    assertEquals(why.code, 0, why.stderr);
    assertStringIncludes(why.stdout, "Empty bodies are rejected before parsing");
    assertStringIncludes(why.stdout, "carol");

    // Map & health, usage.
    await page.click("a[data-tab=health]");
    const api = page.locator("tr.component[data-component=api]");
    await api.waitFor();
    assertStringIncludes((await api.textContent())!, "Every request body is validated before use");
    assertStringIncludes((await api.textContent())!, "must");
    assertStringIncludes(
      (await page.textContent("tr.component[data-component=ui]"))!,
      "api",
      "depends on",
    );
    assertEquals(await page.textContent("dd[data-fact=daemon]"), "not running");
    // The same counts, in the same words, as `heimdall status`.
    const status = await cli(f.home, ["status"]);
    assertEquals(status.code, 0, status.stderr);
    for (const fact of ["files", "graph"]) {
      const line = status.stdout.split("\n").find((l) => l.startsWith(`${fact} `));
      assert(line, `heimdall status has a ${fact} line: ${status.stdout}`);
      assertEquals(
        await page.textContent(`dd[data-fact=${fact}]`),
        line.slice(fact.length).trim(),
        `the health view's ${fact} is heimdall status's`,
      );
    }
    await shot("health");
    await page.click("a[data-tab=usage]");
    await page.waitForSelector(".view.usage p");
    await shot("usage");
    assertEquals(errors, [], "no script errors on the page");
  } finally {
    await browser.close();
  }
}

/** Plays `heimdall ui --demo` at `url` to its end and checks the scenario's conflict is drawn. */
export async function checkDemo(url: string): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(url);
    const next = page.locator("button.demo-next");
    await next.waitFor();
    const steps = await page.locator(".demo-steps li").count();
    assertEquals(steps, 9);
    for (let i = 0; i < steps; i++) {
      await next.click();
      await page.waitForSelector(`.demo-steps li.done >> nth=${i}`);
    }
    assertEquals(await next.textContent(), "Scenario done");
    await page.click("a[data-tab=team]");
    await page.waitForSelector("line.edge.conflict");
    assertEquals(await page.locator("line.edge.conflict").count(), 2);
    await page.screenshot({ path: join(SCREENS, "demo-team.png"), fullPage: true });
    await page.click("a[data-tab=memory]");
    await page.waitForSelector(".attempt .badge");
    assertStringIncludes((await page.textContent(".attempts"))!, "resolved");
    await page.screenshot({ path: join(SCREENS, "demo-memory.png"), fullPage: true });
  } finally {
    await browser.close();
  }
}

/**
 * Opens two dashboards (`a`, `b`: printed URLs with their tokens, on two
 * ports) in one browser, then a page of another server on 127.0.0.1: each
 * dashboard keeps its own cookie, and the other server's page, which the
 * browser counts as the same site whatever its port, gets nothing from
 * either but a top-level visit.
 */
export async function checkNeighbours(a: string, b: string): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  const portA = new URL(a).port;
  const originA = `http://127.0.0.1:${portA}`;
  // A local app on a port of its own, whose page calls the dashboard with the browser's cookie.
  const hostile = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) =>
      new URL(req.url).pathname === "/link"
        // A page of another site (a web terminal, a chat) with the URL `heimdall ui` printed.
        ? new Response(`<!doctype html><a id="go" href="${a}">the dashboard</a>`, {
          headers: { "content-type": "text/html" },
        })
        : new Response(
          `<!doctype html><title>other app</title><script>
        fetch("${originA}/api/search?q=stolen", { mode: "no-cors", credentials: "include" });
        fetch("${originA}/api/remember", { method: "POST", mode: "no-cors", credentials: "include",
          headers: { "content-type": "text/plain" }, body: "{}" });
        fetch("${originA}/api/memory", { mode: "no-cors", credentials: "include" });
      </script><a id="go" href="${originA}/">dashboard</a>`,
          { headers: { "content-type": "text/html" } },
        ),
  );
  try {
    const context = await browser.newContext();
    const pageA = await context.newPage();
    const pageB = await context.newPage();
    await pageA.goto(a);
    await pageB.goto(b);
    const names = (await context.cookies()).map((c) => c.name).sort();
    assertEquals(names, [`heimdall_ui_${portA}`, `heimdall_ui_${new URL(b).port}`].sort());
    // Each dashboard still answers its own page after the other set its cookie.
    for (const page of [pageA, pageB]) {
      assertEquals(await page.evaluate(() => fetch("/api/badges").then((r) => r.status)), 200);
    }

    const page = await context.newPage();
    const answered = new Map<string, number>();
    page.on("response", (r) => {
      if (r.url().startsWith(originA)) answered.set(new URL(r.url()).pathname, r.status());
    });
    await page.goto(`http://127.0.0.1:${hostile.addr.port}/`);
    for (let i = 0; i < 100 && answered.size < 3; i++) await page.waitForTimeout(50);
    assertEquals(Object.fromEntries(answered), {
      "/api/search": 403,
      "/api/remember": 403,
      "/api/memory": 403,
    });
    // A link to the dashboard still opens it.
    await page.click("#go");
    await page.waitForSelector("input[name=q]");
    assertEquals(new URL(page.url()).origin, originA);

    // The printed URL followed from another site's page, in a browser that has no cookie yet:
    // it answered "Missing or wrong token" (the cookie set on the redirect stayed behind).
    const fresh = await (await browser.newContext()).newPage();
    await fresh.goto(`http://localhost:${hostile.addr.port}/link`);
    await fresh.click("#go");
    await fresh.waitForSelector("input[name=q]", { timeout: 10_000 });
    assertEquals(new URL(fresh.url()).search, "", "the token left the address bar");
  } finally {
    await browser.close();
    await hostile.shutdown();
  }
}

/**
 * Opens the dashboard at `url`, whose root `gone` was deleted from disk
 * after it was indexed: the code map and the health view both say so, the
 * health view with the way out `heimdall status` gives.
 */
export async function checkGoneRoot(url: string, gone: string): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(url);
    await page.click("a[data-tab=map]");
    const name = gone.split("/").pop()!;
    await page.waitForSelector(`g.node[data-label='${name} (gone from disk)']`);
    await page.click("a[data-tab=health]");
    const roots = page.locator("dd[data-fact=roots]");
    await roots.waitFor();
    assertStringIncludes(
      (await roots.textContent())!,
      `${gone}: 1 file; gone from disk: put the folder back (it is indexed again), or drop the root (its memories stay): heimdall roots remove ${gone}`,
    );
  } finally {
    await browser.close();
  }
}

if (import.meta.main && Deno.args[0] === "gone-root") {
  await checkGoneRoot(Deno.args[1]!, Deno.args[2]!);
  console.log("gone root checked");
} else if (import.meta.main) {
  const [url, fixture, demo, second] = Deno.args;
  await checkViews(url!, JSON.parse(fixture!) as UiFixture);
  if (demo) await checkDemo(demo);
  if (second) await checkNeighbours(url!, second);
  console.log(`all views checked; screenshots in ${SCREENS}`);
}
