/**
 * Where a hit points once its file changed or moved since it was indexed:
 * the definition nearest where it was (not a prototype, not a namesake in
 * another class), through export macros, said plainly when it is gone, and
 * at its own lines with no "changed" when the file moved unchanged.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { INJECT_CONFIDENCE, type SearchHit, type SearchResult } from "../src/search/mod.ts";
import { cli, removeTree, tempDir, withTempDir, writeTree } from "./helpers.ts";

const CALC = `#include <stdio.h>

static int compute_total (int a, int b);

int helper (void) {
  return 1;
}

/* Add two quantities and return the grand total. */
static int compute_total (int a, int b) {
  int grand = a + b;
  return grand;
}
`;

const SHAPES = `import math


class Circle:
    """A circle."""

    def __init__(self, r):
        self.r = r

    def area(self):
        """Compute the circle area from its radius."""
        return math.pi * self.r * self.r


class Square:
    """A square."""

    def __init__(self, s):
        self.s = s

    def area(self):
        """Compute the square area using the side length squared."""
        return self.s * self.s
`;

const API = `#define LUALIB_API extern

/* Create a fresh zorbulator state. */
LUALIB_API int make_zorbulator (void) {
  return 7;
}
`;

async function indexed() {
  const base = tempDir("heimdall-relocate-");
  const repo = join(base, "repo");
  writeTree(repo, {
    "pkg/calc.c": CALC,
    "pkg/shapes.py": SHAPES,
    "pkg/api.c": API,
    "docs/manual.rst":
      "=========\nTop Title\n=========\n\nIntro paragraph mentioning plonkerator.\n",
  });
  // An hour back, so no file is "racy" and re-read by the next pass.
  const past = new Date(Date.now() - 3_600_000);
  for (const f of ["pkg/calc.c", "pkg/shapes.py", "pkg/api.c", "docs/manual.rst"]) {
    Deno.utimeSync(join(repo, f), past, past);
  }
  const home = join(base, "home");
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const root = Deno.realPathSync(repo);
  return {
    root,
    home,
    /** Writes `path` an hour back (no racy re-read) and indexes the root again. */
    async indexedAs(path: string, text: string): Promise<void> {
      Deno.writeTextFileSync(path, text);
      Deno.utimeSync(path, past, past);
      assert.equal((await cli(home, ["index", root])).code, 0);
    },
    async first(query: string, ...args: string[]): Promise<SearchHit> {
      const r = await cli(home, ["search", "--json", "--limit", "1", query, ...args]);
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as SearchResult).hits[0]!;
    },
    [Symbol.dispose]: () => removeTree(base),
  };
}

const at = (h: SearchHit) => `${h.symbol}:${h.line}-${h.end_line}`;
const listed = (h: SearchHit) => h.symbols.map((s) => `${s.name}:${s.line}`);

Deno.test("in an edited file a symbol is found at its definition nearest where it was, not at a prototype or a namesake", async () => {
  using t = await indexed();
  const calc = join(t.root, "pkg/calc.c");
  Deno.writeTextFileSync(calc, CALC + "/* end */\n");
  const total = await t.first("grand total quantities");
  assert.equal(at(total), "compute_total:10-13", "the definition, not the prototype on line 3");
  assert.match(total.reason ?? "", /^changed since indexed/);

  const shapes = join(t.root, "pkg/shapes.py");
  Deno.writeTextFileSync(shapes, "# a\n# b\n" + SHAPES);
  const square = await t.first("square area side length");
  assert.equal(at(square), "Square.area:23-25", "two lines down, not Circle.area's");
  assert.ok(listed(square).includes("Circle.area:12"), listed(square).join(" "));
});

Deno.test("lines inserted above two classes move both same-named methods; a deleted one is listed nowhere", async () => {
  using t = await indexed();
  const shapes = join(t.root, "pkg/shapes.py");
  Deno.writeTextFileSync(
    shapes,
    SHAPES.replace("import math\n", "import math\n" + "# pad\n".repeat(12)),
  );
  const square = await t.first("square area side length");
  assert.equal(at(square), "Square.area:33-35");
  assert.ok(listed(square).includes("Circle.area:22"), listed(square).join(" "));
  const circle = await t.first("circle area radius");
  assert.equal(at(circle), "Circle.area:22-24");
  assert.ok(listed(circle).includes("Square.area:33"), listed(circle).join(" "));
  // Square.area deleted: it is not Circle.area's method, nor at its lines.
  const text = Deno.readTextFileSync(shapes);
  Deno.writeTextFileSync(shapes, text.slice(0, text.lastIndexOf("    def area(self):")));
  const after = await t.first("circle area radius");
  assert.equal(at(after), "Circle.area:22-24");
  assert.ok(!listed(after).some((s) => s.startsWith("Square.area")), listed(after).join(" "));
});

Deno.test("a definition behind an export macro is followed when lines are inserted above it", async () => {
  using t = await indexed();
  const api = join(t.root, "pkg/api.c");
  Deno.writeTextFileSync(api, "/* a */\n/* b */\n/* c */\n" + API);
  assert.equal(at(await t.first("zorbulator")), "make_zorbulator:7-9");
});

Deno.test("a symbol deleted from its changed file is said to be gone, at no line past the file's end", async () => {
  using t = await indexed();
  const calc = join(t.root, "pkg/calc.c");
  Deno.writeTextFileSync(calc, "#include <stdio.h>\n\nint helper (void) {\n  return 1;\n}\n");
  const hit = await t.first("compute_total grand");
  assert.equal(hit.path, calc);
  assert.equal(hit.verdict, "WEAK");
  assert.match(hit.reason ?? "", /compute_total not found in it now/);
  assert.ok(hit.line !== null && hit.end_line !== null && hit.end_line <= 5, at(hit));
  assert.ok(!listed(hit).some((s) => Number(s.split(":")[1]) > 5), listed(hit).join(" "));
});

Deno.test("a function deleted from a file that keeps others is neither scored at the lines it left nor a confident hit", async () => {
  using t = await indexed();
  const shipping = join(t.root, "pkg/shipping.py");
  const formatMoney = [
    "def format_money(cents):",
    '    """Format an amount of money as a string."""',
    '    return "%.2f" % (cents / 100)',
    "",
  ].join("\n");
  await t.indexedAs(
    shipping,
    [
      "def compute_shipping_cost(weight_kg, zone):",
      '    """Compute the shipping cost of a parcel from its weight and destination zone."""',
      '    return weight_kg * (4 if zone == "EU" else 9)',
      "",
      "",
      formatMoney,
    ].join("\n"),
  );
  assert.equal(at(await t.first("compute shipping cost")), "compute_shipping_cost:1-3");
  // Deleted: format_money now holds its lines.
  Deno.writeTextFileSync(shipping, formatMoney);
  const r = await cli(t.home, ["search", "--json", "compute shipping cost"]);
  assert.equal(r.code, 0, r.stderr);
  const hits = (JSON.parse(r.stdout) as SearchResult).hits;
  const hit = hits.find((h) => h.path === shipping);
  assert.ok(hit, JSON.stringify(hits));
  assert.match(hit.reason ?? "", /compute_shipping_cost not found in it now/);
  // Its name was scored at format_money's lines and counted as its text: 0.94, a hit the
  // prompt hook injects as the answer.
  assert.ok(hit.confidence < INJECT_CONFIDENCE, `confidence ${hit.confidence}`);
  assert.equal(hit.coverage, 0, "no word of the query is on its lines now");
  assert.match(hit.reason ?? "", /missing: compute, shipping, cost/);
  // What stands at its lines now is shown, not the signature the file no longer holds.
  assert.equal(hit.summary, "def format_money(cents):");
});

Deno.test("a function renamed in place shows its new first line, not the name it lost", async () => {
  using t = await indexed();
  const pricing = join(t.root, "pkg/pricing.py");
  const body = [
    '    """Apply a percentage discount code to an order total."""',
    '    return total * 0.9 if code == "TEN" else total',
    "",
  ];
  await t.indexedAs(pricing, ["def apply_discount(total, code):", ...body].join("\n"));
  assert.equal(
    (await t.first("discount code order total")).summary,
    "def apply_discount(total, code):",
  );
  Deno.writeTextFileSync(pricing, ["def apply_coupon(total, code):", ...body].join("\n"));
  const hit = await t.first("discount code order total");
  assert.equal(hit.path, pricing);
  assert.match(hit.reason ?? "", /apply_discount not found in it now/);
  // It showed `def apply_discount(total, code):`, a line the file no longer holds.
  assert.equal(hit.summary, "def apply_coupon(total, code):");
});

Deno.test("a deleted empty file is not REBUILT at another empty file of its folder", async () => {
  using t = await indexed();
  const plugin = join(t.root, "pkg/frobnicator_plugin.py");
  const init = join(t.root, "pkg/__init__.py");
  const past = new Date(Date.now() - 3_600_000);
  for (const f of [plugin, init]) {
    Deno.writeTextFileSync(f, "");
    Deno.utimeSync(f, past, past);
  }
  assert.equal((await cli(t.home, ["index", t.root])).code, 0);
  const search = async () => {
    const r = await cli(t.home, ["search", "--json", "frobnicator plugin"]);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    return JSON.parse(r.stdout) as SearchResult;
  };
  assert.ok((await search()).hits.some((h) => h.path === plugin), "found by its name");
  Deno.removeSync(plugin);
  const after = await search();
  // It was "moved from …/frobnicator_plugin.py (same content)" to __init__.py.
  assert.ok(!after.hits.some((h) => h.path === init), JSON.stringify(after.hits));
  assert.deepEqual(after.pruned.map((p) => p.path), [plugin]);
});

Deno.test("two functions of one length swapped since indexing are each named where it is now", async () => {
  using t = await indexed();
  const swap = join(t.root, "pkg/swap.py");
  const encrypt = [
    "def encrypt_payload(data, key):",
    '    """Encrypt the payload with the session key using AES GCM."""',
    "    return bytes(x ^ key for x in data)",
    "",
  ].join("\n");
  const render = [
    "def render_calendar(month, year):",
    '    """Render a calendar grid for the month with week numbers."""',
    "    return [[month, year]] * 6 + [[]]",
    "",
  ].join("\n");
  assert.equal(encrypt.length, render.length);
  Deno.writeTextFileSync(swap, `${encrypt}\n\n${render}`);
  const past = new Date(Date.now() - 3_600_000);
  Deno.utimeSync(swap, past, past);
  assert.equal((await cli(t.home, ["index", t.root])).code, 0);
  assert.equal(at(await t.first("encrypt payload session key")), "encrypt_payload:1-3");
  // The same size: the second stage scored each at its indexed lines, the other's now.
  Deno.writeTextFileSync(swap, `${render}\n\n${encrypt}`);
  const hit = await t.first("encrypt payload session key");
  assert.equal(hit.path, swap);
  assert.equal(at(hit), "encrypt_payload:6-8");
  assert.equal(hit.coverage, 1, hit.reason ?? "");
});

Deno.test("a section whose heading was reworded since indexing is read where it was, not said to be gone", async () => {
  using t = await indexed();
  const guide = join(t.root, "docs/guide.md");
  Deno.writeTextFileSync(
    guide,
    "# Guide\n\nInstall it.\n\n## Troubleshooting lock errors\n\nIf the writer lock is held by another process, stop the daemon.\n",
  );
  const past = new Date(Date.now() - 3_600_000);
  Deno.utimeSync(guide, past, past);
  assert.equal((await cli(t.home, ["index", t.root])).code, 0);
  const query = "writer lock held by another process daemon";
  assert.equal(at(await t.first(query)), "Guide > Troubleshooting lock errors:5-7");
  Deno.writeTextFileSync(
    guide,
    Deno.readTextFileSync(guide).replace(
      "## Troubleshooting lock",
      "## Troubleshooting writer lock",
    ),
  );
  const hit = await t.first(query);
  assert.equal(hit.path, guide);
  // It was "not found in it now; covers 0% of the query": its text is where it was.
  assert.doesNotMatch(hit.reason ?? "", /not found in it now/);
  assert.equal(hit.coverage, 1, hit.reason ?? "");
  assert.equal(`${hit.line}-${hit.end_line}`, "5-7");
  assert.equal(hit.summary, "If the writer lock is held by another process, stop the daemon.");
});

Deno.test("a function given a parameter since it was indexed is found at its line, not said to be gone", async () => {
  using t = await indexed();
  const api = join(t.root, "pkg/api.c");
  Deno.writeTextFileSync(api, "/* a */\n" + API.replace("(void)", "(int seed)"));
  const hit = await t.first("fresh zorbulator state");
  assert.equal(hit.path, api);
  assert.doesNotMatch(hit.reason ?? "", /not found in it now/);
  assert.equal(at(hit), "make_zorbulator:5-7");
  assert.match(hit.reason ?? "", /^changed since indexed/);
  assert.equal(hit.summary, "LUALIB_API int make_zorbulator (int seed) {", "as it reads now");
});

Deno.test("a function made async since it was indexed is found at its line, not said to be gone", async () => {
  using t = await indexed();
  const fetcher = join(t.root, "pkg/fetcher.ts");
  const source = [
    'import { log } from "./log.ts";',
    "",
    "/** Download the remote manifest and parse its entries. */",
    "export function downloadManifest(url: string): string[] {",
    "  log(url);",
    "  return [];",
    "}",
    "",
  ].join("\n");
  Deno.writeTextFileSync(fetcher, source);
  const past = new Date(Date.now() - 3_600_000);
  Deno.utimeSync(fetcher, past, past);
  assert.equal((await cli(t.home, ["index", t.root])).code, 0);
  // A word put between the signature's start and the name: neither the signature nor
  // `export function downloadManifest` is on a line now.
  Deno.writeTextFileSync(fetcher, source.replace("export function", "export async function"));
  const hit = await t.first("download remote manifest");
  assert.equal(hit.path, fetcher);
  assert.doesNotMatch(hit.reason ?? "", /not found in it now/);
  assert.equal(at(hit), "downloadManifest:4-7");
  assert.equal(hit.coverage, 1, hit.reason ?? "");
});

Deno.test("a symbol of an edited file is covered by the doc comment above it as it reads now", async () => {
  using t = await indexed();
  const api = join(t.root, "pkg/api.c");
  Deno.writeTextFileSync(api, "/* a */\n" + API);
  const hit = await t.first("fresh zorbulator state");
  assert.equal(at(hit), "make_zorbulator:5-7");
  assert.equal(hit.coverage, 1, hit.reason ?? "");
  assert.equal(hit.reason?.match(/^changed since indexed \S+ ago$/)?.length, 1, hit.reason ?? "");
  // The comment edited: its words are what it says now.
  Deno.writeTextFileSync(api, "/* a */\n" + API.replace("fresh", "stale"));
  assert.match((await t.first("fresh zorbulator state")).reason ?? "", /missing: fresh/);
});

Deno.test("a method whose body shrank since it was indexed ends before the class below it", async () => {
  using t = await indexed();
  const shapes = join(t.root, "pkg/shapes.py");
  Deno.writeTextFileSync(
    shapes,
    SHAPES.replace(
      '        """Compute the circle area from its radius."""\n        return math.pi * self.r * self.r\n\n\n',
      "        pass\n",
    ),
  );
  assert.equal(Deno.readTextFileSync(shapes).split("\n")[11], "class Square:");
  for (const query of ["circle area", "square area side length"]) {
    const hit = await t.first(query);
    assert.equal(hit.path, shapes);
    const got = Object.fromEntries(hit.symbols.map((s) => [s.name, `${s.line}-${s.end_line}`]));
    for (const [name, lines] of [["Circle", "4-11"], ["Circle.area", "10-11"]] as const) {
      if (got[name] !== undefined) assert.equal(got[name], lines, `${query}: ${name}`);
    }
    assert.ok(got["Circle.area"] !== undefined || got["Circle"] !== undefined, JSON.stringify(got));
  }
});

Deno.test("a symbol of a file grown past the read limit is unchecked, not said to be gone from it", async () => {
  using t = await indexed();
  const calc = join(t.root, "pkg/calc.c");
  // A generated table appended: 5 MB, more than a search reads back.
  Deno.writeTextFileSync(calc, CALC + "/* pad */\n".repeat(520_000));
  const hit = await t.first("grand total quantities");
  assert.equal(hit.path, calc);
  assert.equal(hit.verdict, "WEAK");
  assert.doesNotMatch(hit.reason ?? "", /not found in it now/);
  assert.match(hit.reason ?? "", /its text is unchecked \(\d+ bytes, over the 4 MB read limit\)/);
  assert.equal(at(hit), "compute_total:10-13", "where it was indexed, not cut to line 1");
});

Deno.test("a symbol cut off the end of its file is listed at the lines its hit names, none past the end", async () => {
  using t = await indexed();
  const api = join(t.root, "pkg/api.c");
  Deno.writeTextFileSync(api, "#define LUALIB_API extern\n\n");
  const hit = await t.first("zorbulator");
  assert.equal(hit.path, api);
  assert.match(hit.reason ?? "", /make_zorbulator not found in it now/);
  assert.ok(hit.end_line !== null && hit.end_line <= 2, at(hit));
  const own = hit.symbols[0]!;
  assert.deepEqual([own.name, own.line, own.end_line], [hit.symbol, hit.line, hit.end_line]);
});

Deno.test("a symbol whose body was cut off the end of its file ends at the file's end", async () => {
  using t = await indexed();
  const shapes = join(t.root, "pkg/shapes.py");
  // Square's header stays, on the last line; its methods are gone.
  Deno.writeTextFileSync(shapes, SHAPES.split("\n").slice(0, 15).join("\n") + "\n");
  const hit = await t.first("square");
  assert.equal(at(hit), "Square:15-15");
  assert.ok(hit.symbols.every((s) => s.end_line <= 15), JSON.stringify(hit.symbols));
});

Deno.test("a file moved unchanged comes back REBUILT at its own lines, not 'changed', its symbols listed as before", async () => {
  using t = await indexed();
  const before = listed(await t.first("square area side length"));
  Deno.mkdirSync(join(t.root, "other"));
  Deno.renameSync(join(t.root, "pkg/shapes.py"), join(t.root, "other/shapes.py"));
  Deno.renameSync(join(t.root, "pkg/calc.c"), join(t.root, "other/calc.c"));
  const square = await t.first("square area side length");
  assert.equal(square.verdict, "REBUILT");
  assert.equal(square.path, join(t.root, "other/shapes.py"));
  assert.equal(at(square), "Square.area:21-23");
  assert.match(square.reason ?? "", /^moved from .*pkg\/shapes\.py \(same content\)$/);
  assert.equal(square.coverage, 1, "its name and doc comment count, as in place");
  assert.equal(before[0], "Square.area:21");
  assert.deepEqual(listed(square), before, "scored where its bytes are now, as in place");
  const total = await t.first("grand total quantities");
  assert.equal(at(total), "compute_total:10-13");
});

Deno.test("a file renamed or moved comes back REBUILT where it is, in its place, not at a bundle holding the same function", async () => {
  const base = tempDir("heimdall-relocate-");
  try {
    const repo = join(base, "repo");
    const padEnd = `/** Pads the string on its right side up to the given length. */
function padEnd(string, length, chars) {
  const size = string.length;
  return size < length ? string + chars.repeat(length - size) : string;
}

module.exports = padEnd;
`;
    writeTree(repo, {
      "lib/padEnd.js": padEnd,
      // A bundle of several functions, one of them the same padEnd.
      "lib/bundle.js": `function trim(s) {\n  return s.trim();\n}\n\n${padEnd}`,
    });
    const past = new Date(Date.now() - 3_600_000);
    for (const f of ["lib/padEnd.js", "lib/bundle.js"]) Deno.utimeSync(join(repo, f), past, past);
    const home = join(base, "home");
    assert.equal((await cli(home, ["index", repo])).code, 0);
    const root = Deno.realPathSync(repo);
    const hits = async () => {
      const r = await cli(home, ["search", "--json", "pads string right side length"]);
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as SearchResult).hits;
    };
    const before = (await hits()).find((h) => h.path === join(root, "lib/padEnd.js"))!;
    Deno.renameSync(join(root, "lib/padEnd.js"), join(root, "lib/padRight.js"));
    const after = await hits();
    const moved = after.find((h) => h.verdict === "REBUILT");
    assert.ok(moved, after.map((h) => `${h.verdict} ${h.path}`).join("; "));
    assert.equal(moved.path, join(root, "lib/padRight.js"));
    assert.match(moved.reason ?? "", /^moved from .*lib\/padEnd\.js \(same content\)$/);
    // The bundle's copy of the function is no place the file went: it is listed as the same code.
    assert.deepEqual(moved.same_code.map((p) => `${p.path}:${p.symbol}`), [
      `${join(root, "lib/bundle.js")}:padEnd`,
    ]);
    // Scored where its bytes are now: the same place, symbols and confidence as before the rename.
    assert.equal(moved.rank, before.rank);
    assert.deepEqual(moved.symbols, before.symbols);
    assert.equal(moved.confidence, before.confidence);
    // Moved to another folder, with no daemon to index it there: the same again.
    Deno.mkdirSync(join(root, "src/text"), { recursive: true });
    Deno.renameSync(join(root, "lib/padRight.js"), join(root, "src/text/padRight.js"));
    const far = (await hits()).find((h) => h.verdict === "REBUILT")!;
    assert.equal(far.path, join(root, "src/text/padRight.js"));
    assert.equal(far.rank, before.rank);
    assert.deepEqual(far.symbols, before.symbols);
    assert.equal(far.confidence, before.confidence);
  } finally {
    removeTree(base);
  }
});

Deno.test("a file moved out of the --path or --repo searched is pruned, not shown REBUILT outside it", async () => {
  using t = await indexed();
  Deno.mkdirSync(join(t.root, "other"));
  Deno.renameSync(join(t.root, "pkg/shapes.py"), join(t.root, "other/shapes.py"));
  for (const scope of [["--path", join(t.root, "pkg")], ["--repo", join(t.root, "pkg")]]) {
    const r = await cli(t.home, ["search", "--json", "square area side length", ...scope]);
    // Nothing else in pkg/ is about a square's area: nothing found.
    assert.equal(r.code, 1, r.stderr);
    const result = JSON.parse(r.stdout) as SearchResult;
    const outside = result.hits.filter((h) => !h.path?.startsWith(join(t.root, "pkg") + "/"));
    assert.deepEqual(outside.map((h) => h.path), [], `${scope[0]} shows only what lies in it`);
    assert.ok(
      result.pruned.some((p) =>
        p.path === join(t.root, "pkg/shapes.py") &&
        /moved to .*other\/shapes\.py, outside/.test(p.reason)
      ),
      JSON.stringify(result.pruned),
    );
  }
  // Unscoped, or scoped to both places, it is the REBUILT hit where it is now.
  for (const scope of [[], ["--path", t.root]]) {
    const moved = await t.first("square area side length", ...scope);
    assert.equal(moved.verdict, "REBUILT");
    assert.equal(moved.path, join(t.root, "other/shapes.py"));
  }
});

Deno.test("an overlined rst title is not its section's summary; a typed Class.method names the method", async () => {
  using t = await indexed();
  assert.equal((await t.first("plonkerator")).summary, "Intro paragraph mentioning plonkerator.");
  assert.equal(at(await t.first("Square.area")), "Square.area:21-23");
});

Deno.test("--path to a folder outside every root is a usage error that says so", async () => {
  using t = await indexed();
  const outside = tempDir("heimdall-outside-");
  const r = await cli(t.home, ["search", "compute", "--path", outside]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /is not under any root.*heimdall index/);
  const ok = await cli(t.home, ["search", "compute", "-helper", "--path", "pkg"], { cwd: t.root });
  assert.equal(ok.code, 0, ok.stderr);
});

Deno.test("a method of a file moved and edited is found again at its own lines, not at its namesake's", async () => {
  using t = await indexed();
  Deno.mkdirSync(join(t.root, "lib"));
  const moved = join(t.root, "lib/shapes.py");
  // Eight lines above both classes: Circle.area (now 18) is nearer Square.area's old line 21.
  Deno.writeTextFileSync(moved, "# moved\n".repeat(8) + SHAPES);
  Deno.removeSync(join(t.root, "pkg/shapes.py"));
  const square = await t.first("square area side length");
  assert.equal(square.path, moved);
  assert.equal(square.verdict, "REBUILT");
  assert.equal(at(square), "Square.area:29-31", "Square's own method, not Circle's at 18");
});

Deno.test("a file gone from one root is not REBUILT at a copy of it or of its symbol in another root", () =>
  withTempDir("heimdall-relocate-roots-", async (base) => {
    const app = join(base, "app");
    const extra = join(base, "app-extra");
    // app-extra holds the same Square.area in another file, and an exact copy of calc.c.
    writeTree(app, { "shapes.py": SHAPES, "calc.c": CALC });
    writeTree(extra, {
      "helpers.py": SHAPES.replace("import math\n", "import math\nimport os\n"),
      "calc_copy.c": CALC,
    });
    const home = join(base, "home");
    assert.equal((await cli(home, ["index", app, extra])).code, 0);
    const root = Deno.realPathSync(app);
    Deno.removeSync(join(app, "shapes.py"));
    Deno.removeSync(join(app, "calc.c"));
    for (const query of ["square area side length", "grand total quantities"]) {
      const r = await cli(home, ["search", "--json", query, "--repo", "app"]);
      const out = JSON.parse(r.stdout) as SearchResult;
      assert.deepEqual(
        out.hits.map((h) => `${h.verdict} ${h.path} from ${h.moved_from}`),
        [],
        `${query}: nothing of app is left, nothing moved into app-extra`,
      );
      assert.equal(out.pruned.length, 1, query);
      assert.equal(out.pruned[0]!.path.startsWith(root + "/"), true, query);
    }
  }));

Deno.test("a file touched with its bytes unchanged is not 'changed since indexed', whatever its rank", () =>
  withTempDir("heimdall-relocate-touched-", async (base) => {
    const repo = join(base, "repo");
    const files: Record<string, string> = {};
    for (let i = 1; i <= 6; i++) {
      files[`pkg/ledger${i}.py`] = `def grand_total_${i}(quantities):\n` +
        `    """Add the quantities up into the grand total."""\n    return sum(quantities)\n`;
    }
    writeTree(repo, files);
    const past = new Date(Date.now() - 3_600_000);
    for (const f of Object.keys(files)) Deno.utimeSync(join(repo, f), past, past);
    const home = join(base, "home");
    assert.equal((await cli(home, ["index", repo])).code, 0);
    // `git checkout other && git checkout -`, or `touch`: a new mtime, the same bytes.
    const now = new Date();
    for (const f of Object.keys(files)) Deno.utimeSync(join(repo, f), now, now);
    const r = await cli(home, ["search", "--json", "--limit", "6", "grand total quantities"]);
    assert.equal(r.code, 0, r.stderr);
    const hits = (JSON.parse(r.stdout) as SearchResult).hits;
    assert.equal(hits.length, 6);
    assert.deepEqual(
      hits.filter((h) => h.verdict !== "STRONG").map((h) => `${h.rank} ${h.verdict} ${h.reason}`),
      [],
    );
  }));

Deno.test("a window of text in a file cut short since it was indexed ends at the file's end", () =>
  withTempDir("heimdall-relocate-window-", async (base) => {
    const repo = join(base, "repo");
    const lines = Array.from({ length: 200 }, (_, i) => `filler line number ${i}`);
    lines[150] = "the quantum flux capacitor calibration procedure";
    writeTree(repo, { "manual.txt": lines.join("\n") + "\n" });
    const past = new Date(Date.now() - 3_600_000);
    Deno.utimeSync(join(repo, "manual.txt"), past, past);
    const home = join(base, "home");
    assert.equal((await cli(home, ["index", repo])).code, 0);
    Deno.writeTextFileSync(join(repo, "manual.txt"), lines.slice(0, 20).join("\n") + "\n");
    const r = await cli(home, ["search", "--json", "quantum flux capacitor calibration"]);
    assert.equal(r.code, 0, r.stderr);
    const [hit] = (JSON.parse(r.stdout) as SearchResult).hits;
    assert.match(hit?.reason ?? "", /^changed since indexed/);
    assert.ok(hit!.end_line !== null && hit!.end_line <= 20, at(hit!));
    assert.ok(hit!.symbols.every((s) => s.end_line <= 20), JSON.stringify(hit!.symbols));
  }));

Deno.test("a file that holds a secret since it was indexed is pruned, its text never shown", async () => {
  using t = await indexed();
  const manual = join(t.root, "docs/manual.rst");
  // A token pasted above the paragraph the query finds: the next pass drops the whole file.
  const token = "ghp_" + "aB3dE5gH7jK9mN1pQ3rS5tU7vW9xY1zA2bC4";
  Deno.writeTextFileSync(
    manual,
    `=========\nTop Title\n=========\n\ntoken ${token} plonkerator\n`,
  );
  const r = await cli(t.home, ["search", "--json", "plonkerator"]);
  assert.doesNotMatch(r.stdout, new RegExp(token));
  const out = JSON.parse(r.stdout) as SearchResult;
  assert.deepEqual(out.hits.map((h) => h.path), []);
  assert.match(out.pruned[0]?.reason ?? "", /holds a secret now \(content: github_token\)/);
  const text = await cli(t.home, ["search", "plonkerator"]);
  assert.doesNotMatch(text.stdout + text.stderr, new RegExp(token));
});

Deno.test("a file replaced by a symlink is not shown with its target's text: the index drops it", async () => {
  using t = await indexed();
  const outside = tempDir("heimdall-relocate-outside-");
  try {
    // The same bytes outside the root, linked where the file was; the file itself moved and edited.
    Deno.writeTextFileSync(join(outside, "shapes.py"), SHAPES);
    Deno.removeSync(join(t.root, "pkg/shapes.py"));
    Deno.symlinkSync(join(outside, "shapes.py"), join(t.root, "pkg/shapes.py"));
    Deno.mkdirSync(join(t.root, "lib"));
    Deno.writeTextFileSync(join(t.root, "lib/shapes.py"), "# moved\n".repeat(8) + SHAPES);
    const square = await t.first("square area side length");
    assert.equal(square.path, join(t.root, "lib/shapes.py"));
    assert.equal(square.verdict, "REBUILT");
    assert.equal(at(square), "Square.area:29-31");
    // Listed at lines true of lib/shapes.py, or not at all.
    const lines = Deno.readTextFileSync(join(t.root, "lib/shapes.py")).split("\n");
    for (const s of square.symbols) {
      const name = s.name.split(".").pop()!;
      assert.ok(lines[s.line - 1]?.includes(name), `${s.name}:${s.line} is ${lines[s.line - 1]}`);
    }
  } finally {
    removeTree(outside);
  }
});

Deno.test("a deleted file is not REBUILT at another file of its name that holds one like signature", async () => {
  using t = await indexed();
  // Another shapes.py, unrelated but for a method of the same signature.
  Deno.mkdirSync(join(t.root, "other"));
  Deno.writeTextFileSync(
    join(t.root, "other/shapes.py"),
    "class Hexagon:\n    def area(self):\n        return 6\n",
  );
  Deno.removeSync(join(t.root, "pkg/shapes.py"));
  const r = await cli(t.home, ["search", "--json", "circle area radius"]);
  const out = JSON.parse(r.stdout) as SearchResult;
  assert.deepEqual(
    out.hits.filter((h) => h.moved_from !== null).map((h) => `${h.path}: ${h.reason}`),
    [],
  );
  assert.ok(out.pruned.some((p) => p.path === join(t.root, "pkg/shapes.py")));
});

Deno.test("a file renamed in its folder and edited, not indexed since, is REBUILT at its new name", async () => {
  using t = await indexed();
  const shapes = join(t.root, "pkg/shapes.py");
  // `git mv shapes.py geometry.py`, then an edit: neither its bytes nor its name are left.
  Deno.writeTextFileSync(
    join(t.root, "pkg/geometry.py"),
    "# Shapes and their areas.\n" +
      Deno.readTextFileSync(shapes).replace("self.r * self.r", "self.r ** 2"),
  );
  Deno.removeSync(shapes);
  const hit = await t.first("circle area radius");
  assert.equal(hit.verdict, "REBUILT", JSON.stringify(hit));
  assert.equal(hit.path, join(t.root, "pkg/geometry.py"));
  assert.equal(hit.moved_from, shapes);
  assert.equal(at(hit), "Circle.area:11-13", "where its definition is now, a line lower");
});

Deno.test("a deleted file is not REBUILT at a new file of its folder that holds few of its definitions", async () => {
  using t = await indexed();
  const shapes = join(t.root, "pkg/shapes.py");
  // A new module beside it with one of its five signatures, the hit's own (`def area(self):`).
  Deno.writeTextFileSync(
    join(t.root, "pkg/wheel.py"),
    "class Wheel:\n    def spokes(self):\n        return 32\n\n    def area(self):\n        return 0\n",
  );
  Deno.removeSync(shapes);
  const r = await cli(t.home, ["search", "--json", "circle area radius"]);
  const out = JSON.parse(r.stdout) as SearchResult;
  assert.deepEqual(
    out.hits.filter((h) => h.moved_from !== null).map((h) => `${h.path}: ${h.reason}`),
    [],
  );
  assert.ok(out.pruned.some((p) => p.path === shapes), JSON.stringify(out.pruned));
});
