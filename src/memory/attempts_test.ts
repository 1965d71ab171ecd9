import assert from "node:assert/strict";
import { findRepeat, mergeTests } from "./attempts.ts";
import { newRow } from "./remember.ts";
import { MAX_TEXT } from "./types.ts";

/** `n` test names `prefix0000`… of 20 characters each (22 as stored, with quotes; 23 with a comma). */
const names = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(20 - prefix.length, "0")}`);

Deno.test("mergeTests() joins the failure's tests and the repeat's, sorted and unique", () => {
  assert.deepEqual(mergeTests(["b", "c"], ["a", "b"]), { tests: ["a", "b", "c"], leftOut: 0 });
  assert.deepEqual(mergeTests([], []), { tests: [], leftOut: 0 });
  assert.deepEqual(mergeTests(["a"], []), { tests: ["a"], leftOut: 0 });
});

Deno.test("mergeTests() keeps every one of the repeat's tests and as many older ones as fit in MAX_TEXT", () => {
  const older = names("old_", 2_500), newer = names("new_", 2_500);
  const { tests, leftOut } = mergeTests(older, newer);
  const stored = JSON.stringify(tests).length;
  assert.ok(stored <= MAX_TEXT, `${stored} characters`);
  assert.ok(MAX_TEXT - stored < 23, "no older name that fits was left out");
  assert.ok(newer.every((t) => tests.includes(t)), "the newest failing tests are all kept");
  assert.equal(tests.length + leftOut, 5_000);
  assert.equal(leftOut, 5_000 - Math.floor((MAX_TEXT - 1) / 23));
  assert.deepEqual(tests, [...tests].sort());
});

Deno.test("findRepeat() bounds the tests of a failure repeated with thousands of names", () => {
  const older = names("old_", 2_500);
  const open = newRow({
    id: "m0000000001",
    kind: "attempt",
    text: "the suite failed after the upgrade",
    author: "ada",
    scope: "project",
    tests: JSON.stringify(older),
  }, 0);
  const repeat = findRepeat([open], names("new_", 2_500), "the suite failed after the upgrade");
  assert.ok(repeat);
  assert.ok(JSON.stringify(repeat.tests).length <= MAX_TEXT);
  assert.ok((repeat.testsLeftOut ?? 0) > 0);
});
