import assert from "node:assert/strict";
import {
  attachedDefLines,
  codeChunks,
  FIRST_DRAWN,
  signTestP,
  splitOf,
} from "../scripts/bench_search.ts";

Deno.test("attachedDefLines: a definition keeps the comment and attributes right above it", () => {
  const lines = [
    "use std::fmt;", // 1
    "", // 2
    "/// Saves the state.", // 3
    "#[inline]", // 4
    "fn save() {}", // 5
    "", // 6
    "fn bare() {}", // 7
    "// Restores the state.", // 8
    "fn restore() {}", // 9
    "#include <x.h>", // 10
    "int main() {}", // 11
  ];
  assert.deepEqual(attachedDefLines(lines, [9, 5, 7, 11]), [3, 7, 8, 11]);
  // The next definition's doc comment is no longer the end of this one's chunk.
  assert.deepEqual(codeChunks(lines.length, attachedDefLines(lines, [5, 7, 9])), [
    [1, 2],
    [3, 6],
    [7, 7],
    [8, 11],
  ]);
  assert.deepEqual(codeChunks(lines.length, [5, 7, 9]), [[1, 4], [5, 6], [7, 8], [9, 11]]);
});

Deno.test("attachedDefLines: never past the previous definition", () => {
  const lines = ["@decorator", "def a(): pass", "# about b", "def b(): pass"];
  assert.deepEqual(attachedDefLines(lines, [2, 4]), [1, 3]);
  assert.deepEqual(attachedDefLines(["// c", "fn a() {}", "fn b() {}"], [1, 2, 3]), [1, 2, 3]);
});

Deno.test("signTestP: two-sided binomial tail of the discordant questions", () => {
  assert.equal(signTestP(0, 0), 1);
  assert.equal(signTestP(3, 3), 1);
  // 5 against 7: 2 × (1 + 12 + 66 + 220 + 495 + 792) / 4096.
  assert.ok(Math.abs(signTestP(5, 7) - 2 * 1586 / 4096) < 1e-12);
  assert.equal(signTestP(7, 5), signTestP(5, 7));
  assert.equal(signTestP(0, 6), 2 / 64);
  assert.ok(signTestP(20, 2) < 0.001);
});

Deno.test("splitOf: the first questions alternate as drawn, later ones within their language", () => {
  const drawn: { group: string; split: "tune" | "test" }[] = [];
  const draw = (group: string) => drawn.push({ group, split: splitOf(drawn, group) });
  // Rounds of three languages: in the order drawn, each language changes half every round.
  while (drawn.length < FIRST_DRAWN) for (const g of ["bash", "c", "rust"]) draw(g);
  assert.deepEqual(drawn.slice(0, 6).map((c) => c.split), [
    "tune",
    "test",
    "tune",
    "test",
    "tune",
    "test",
  ]);
  // Bash ran out: rounds of two would put every later c question in one half.
  for (let i = 0; i < 100; i++) for (const g of ["c", "rust"]) draw(g);
  for (const g of ["c", "rust"]) {
    const later = drawn.slice(FIRST_DRAWN).filter((c) => c.group === g);
    assert.equal(later.filter((c) => c.split === "tune").length, 50, g);
    const all = drawn.filter((c) => c.group === g);
    assert.ok(Math.abs(all.filter((c) => c.split === "tune").length * 2 - all.length) <= 2, g);
  }
});
