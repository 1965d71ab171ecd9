import assert from "node:assert/strict";
import { definitionLines } from "./lines_now.ts";

const SHAPES = [
  "class Circle:", //         1
  "    def __init__(self, r):", // 2
  "        self.r = r", //    3
  "    def area(self):", //   4
  "        return 3 * self.r", // 5
  "class Square:", //         6
  "    def __init__(self, s):", // 7
  "        self.s = s", //    8
  "    def area(self):", //   9
  "        return self.s", // 10
];
const INDEXED = [
  { id: 1, signature: "class Circle:", line: 1 },
  { id: 2, signature: "def __init__(self, r):", line: 2 },
  { id: 3, signature: "def area(self):", line: 4 },
  { id: 4, signature: "class Square:", line: 6 },
  { id: 5, signature: "def __init__(self, s):", line: 7 },
  { id: 6, signature: "def area(self):", line: 9 },
];
const pad = (n: number) => Array.from({ length: n }, () => "# pad");

Deno.test("definitionLines() keeps namesakes in their order and places a deleted one nowhere", () => {
  const cases: [string, string[], Record<number, number | null | undefined>][] = [
    ["unchanged", SHAPES, { 1: 1, 2: 2, 3: 4, 4: 6, 5: 7, 6: 9 }],
    // Nearest-first put Square.area (9) on Circle.area's new line (16).
    ["twelve lines above", [...pad(12), ...SHAPES], { 1: 13, 2: 14, 3: 16, 4: 18, 5: 19, 6: 21 }],
    ["Square.area deleted", SHAPES.slice(0, 8), { 3: 4, 6: null }],
    ["Square.area deleted, twelve lines above", [...pad(12), ...SHAPES.slice(0, 8)], {
      3: 16,
      6: null,
    }],
    ["Circle.area deleted", [...SHAPES.slice(0, 3), ...SHAPES.slice(5)], { 3: null, 6: 7 }],
    [
      "a namesake added between",
      [...SHAPES.slice(0, 5), "    def area(self):", ...SHAPES.slice(5)],
      {
        3: 4,
        6: 10,
      },
    ],
    ["no area left", SHAPES.filter((l) => !l.includes("area")), { 3: undefined, 6: undefined }],
  ];
  for (const [name, lines, want] of cases) {
    const got = definitionLines(lines, INDEXED);
    for (const [id, line] of Object.entries(want)) {
      assert.equal(got.get(Number(id)), line, `${name}: ${id}`);
    }
  }
});

Deno.test("definitionLines() finds a symbol whose parameters were edited at the line still defining its name", () => {
  const indexed = [
    { id: 1, signature: "def compute_total(items, tax_rate):", line: 2, name: "compute_total" },
    { id: 2, signature: "def compute(items):", line: 6, name: "compute" },
    { id: 3, signature: "def retry_with_backoff(call):", line: 9, name: "retry_with_backoff" },
  ];
  const now = [
    "import os",
    "# added",
    "def compute_total(items, tax_rate, discount=0):", // a parameter added
    "    return sum(items)",
    "",
    "",
    "def compute(items, rate):", // not compute_total's line: another name
    "    return items",
    "",
    "def retry_call(call):", // renamed: gone
    "    total = compute_total(items)", // a call is no definition
  ];
  const got = definitionLines(now, indexed);
  assert.deepEqual([got.get(1), got.get(2), got.get(3)], [3, 7, undefined]);
  // Without its name, a symbol is found by its signature alone, as before.
  const bare = definitionLines(now, indexed.map(({ name: _, ...s }) => s));
  assert.deepEqual([bare.get(1), bare.get(2)], [undefined, undefined]);
});

Deno.test("definitionLines() finds a method written name first (a JS/TS method, a C++ constructor) whose parameters were edited, never a call of it", () => {
  const indexed = [
    { id: 1, signature: "addLine(price: number)", line: 3, name: "addLine" },
    {
      id: 2,
      signature: "subtotalWithDiscount(rate: number)",
      line: 7,
      name: "subtotalWithDiscount",
    },
    { id: 3, signature: "Widget(int x)", line: 14, name: "Widget" },
    { id: 4, signature: "load(url, opts)", line: 18, name: "load" },
  ];
  const now = [
    "export class Cart {", // 1
    "  /** Adds a line. */", // 2
    "  addLine(price: number, qty = 1) {", // 3: a parameter added
    "    this.items.push(price);", // 4
    "  }", // 5
    "  total() {", // 6
    "    subtotalWithDiscount(0.1);", // 7: a call, not its definition
    "    return this.subtotalWithDiscount(0.1, 2);", // 8
    "  }", // 9
    "  async subtotalWithDiscount(rate: number, coupon = 0): Promise<number> {", // 10
    "    return 0;", // 11
    "  }", // 12
    "}", // 13
    "Widget(int x, int y) : n(x) {}", // 14
    "", // 15
    "function run() {", // 16
    "  load(url).then(() => {", // 17: calls
    "  load(url, () => {", // 18
    "  load(", // 19: over several lines: not told from a call
    "    url,", // 20
    "  ) {", // 21
  ];
  const got = definitionLines(now, indexed);
  assert.deepEqual([got.get(1), got.get(2), got.get(3), got.get(4)], [3, 10, 14, undefined]);
});
