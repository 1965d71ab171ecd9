import assert from "node:assert/strict";
import { activeAnchor } from "./anchors.ts";
import { newRow } from "./remember.ts";
import { parseMemoryLine } from "./transfer.ts";
import { MemoryInputError } from "./types.ts";

const NOW = Date.UTC(2026, 11, 1);
const DAY = 24 * 3600 * 1000;

/** A memory line as `heimdall export` writes it, with `patch` applied. */
function line(patch: Record<string, unknown> = {}, anchorPatch: Record<string, unknown> = {}) {
  const at = NOW - 10 * DAY;
  const memory = newRow({
    id: "m0123456789",
    kind: "decision",
    text: "Discounts are clamped to [0, 1]",
    author: "ada",
    scope: "project",
  }, at);
  const anchor = activeAnchor({
    ord: 0,
    target: "file",
    original: "pkg/billing.py",
    path: "/r/pkg/billing.py",
    root: "/r",
    symbol: null,
    symbol_kind: null,
    name: "billing.py",
    node_id: null,
    struct_hash: null,
    shape: null,
    start_line: null,
    end_line: null,
  }, at);
  return JSON.stringify({ ...memory, ...patch, anchors: [{ ...anchor, ...anchorPatch }] });
}

Deno.test("parseMemoryLine() accepts a line as export writes it", () => {
  const m = parseMemoryLine(line(), "f:2", NOW);
  assert.equal(m.id, "m0123456789");
  assert.equal(m.anchors.length, 1);
});

Deno.test("parseMemoryLine() refuses impossible times, naming the record, field and value", () => {
  const y5138 = Date.UTC(5138, 0, 1);
  const cases: [Record<string, unknown>, Record<string, unknown>, RegExp][] = [
    [
      { recorded_at: y5138 },
      {},
      /f:2: field "recorded_at" is 99972403200000 \(5138-01-01T00:00:00\.000Z, year 5138\)/,
    ],
    [{ updated_at: NOW + 2 * DAY }, {}, /field "updated_at" .*no later than now/],
    [{ valid_from: -1 }, {}, /field "valid_from" is -1/],
    [{ valid_to: y5138 }, {}, /field "valid_to" .*year 5138.*before the year 2100/],
    [{ last_seen_at: 1.5 }, {}, /field "last_seen_at" is 1\.5, expected whole milliseconds/],
    [{ valid_to: NOW - 20 * DAY }, {}, /field "valid_to" \(\d+\) is not after "valid_from"/],
    [{}, { state_at: y5138 }, /f:2, anchor 0: field "state_at" .*year 5138/],
  ];
  for (const [patch, anchorPatch, message] of cases) {
    assert.throws(() => parseMemoryLine(line(patch, anchorPatch), "f:2", NOW), (e: unknown) => {
      assert.ok(e instanceof MemoryInputError);
      assert.match(e.message, message);
      return true;
    });
  }
  // A valid time in the future is a plan, not an error; a day of clock skew is tolerated.
  parseMemoryLine(line({ valid_to: Date.UTC(2030, 0, 1), updated_at: NOW + DAY / 2 }), "f:2", NOW);
});

Deno.test("parseMemoryLine() refuses oversized fields and malformed tests", () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ text: "x".repeat(65_537) }, /field "text" is 65537 characters long, at most 65536/],
    [{ author: "a".repeat(5_000) }, /field "author" is 5000 characters long, at most 4096/],
    [{ tests: "not json" }, /field "tests" is "not json", expected a JSON list/],
    [{ tests: "[1, 2]" }, /field "tests" .* expected a JSON list/],
    [{ outcome: "maybe" }, /field "outcome" is "maybe", expected one of failed, passed/],
  ];
  for (const [patch, message] of cases) {
    assert.throws(() => parseMemoryLine(line(patch), "f:2", NOW), message);
  }
  assert.throws(
    () => parseMemoryLine(line({}, { state: "ok" }), "f:2", NOW),
    /anchor 0: field "state" is "ok", expected one of active, moved, orphaned/,
  );
  const many = JSON.parse(line());
  many.anchors = Array.from({ length: 257 }, () => many.anchors[0]);
  assert.throws(
    () => parseMemoryLine(JSON.stringify(many), "f:2", NOW),
    /257 anchors, at most 256/,
  );
});
