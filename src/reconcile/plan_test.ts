import assert from "node:assert/strict";
import type { PathRow } from "../store/mod.ts";
import {
  budgetScale,
  isRacy,
  type Observed,
  PARSE_TRIES,
  parseTry,
  planCommit,
  planPath,
  RACY_WINDOW_MS,
  rowSettled,
  timeMissReason,
} from "./plan.ts";

function row(over: Partial<PathRow> = {}): PathRow {
  return {
    id: 1,
    root_id: 1,
    path: "/r/a.ts",
    rel: "a.ts",
    state: "indexed",
    reason: null,
    hash: "h1",
    size: 10,
    mtime_ms: 1000,
    language: "typescript",
    summary: null,
    requested_depth: 3,
    target_depth: 1,
    effective_depth: 1,
    depth_reason: null,
    generation: 4,
    racy: 0,
    ...over,
    // A cast, so columns added to paths later need no edit here (the plan reads none of them).
  } as PathRow;
}

const file = (size = 10, mtimeMs = 1000): Observed => ({ kind: "file", size, mtimeMs });
const ctx = { maxFileBytes: 100, wantDepth: 1 as const, deep: false };

Deno.test("planPath() decides the first step from a stat and the row", () => {
  const cases: [
    string,
    Observed,
    PathRow | undefined,
    Partial<typeof ctx> & { excluded?: string; rootId?: number },
    string,
  ][] = [
    ["a missing indexed file is retracted", { kind: "missing" }, row(), {}, "retract"],
    ["a missing unknown file costs nothing", { kind: "missing" }, undefined, {}, "nothing"],
    ["a folder is expanded", { kind: "dir" }, undefined, {}, "expand"],
    ["a symlink or device that was indexed is retracted", { kind: "other" }, row(), {}, "retract"],
    ["an excluded indexed file is retracted", file(), row(), { excluded: "secret" }, "retract"],
    ["an excluded new file is not read", file(), undefined, { excluded: "ignored" }, "nothing"],
    ["a file over the cap is not read", file(1000), undefined, {}, "too-large"],
    ["an unchanged stat costs nothing", file(), row(), {}, "nothing"],
    ["a new mtime means read", file(10, 2000), row(), {}, "read"],
    ["a new size means read", file(11), row(), {}, "read"],
    [
      "a new ctime behind the same size and mtime means read (cp -p, an archive's fixed mtime)",
      { kind: "file", size: 10, mtimeMs: 1000, ctimeMs: 7000 },
      row({ ctime_ms: 5000 }),
      {},
      "read",
    ],
    [
      "an unchanged ctime costs nothing",
      { kind: "file", size: 10, mtimeMs: 1000, ctimeMs: 5000 },
      row({ ctime_ms: 5000 }),
      {},
      "nothing",
    ],
    [
      "a row from before ctimes were recorded is read once",
      { kind: "file", size: 10, mtimeMs: 1000, ctimeMs: 5000 },
      row({ ctime_ms: null }),
      {},
      "read",
    ],
    ["a racy row is always re-read", file(), row({ racy: 1 }), {}, "read"],
    ["deep re-reads an unchanged stat", file(), row(), { deep: true }, "read"],
    ["a new file is read", file(), undefined, {}, "read"],
    ["a deeper capability re-reads", file(), row(), { wantDepth: 3 as never }, "read"],
    [
      "a file that already degraded at this depth is not retried",
      file(),
      row({ target_depth: 3, effective_depth: 1 }),
      { wantDepth: 3 as never },
      "nothing",
    ],
    [
      "a time-budget miss with tries left is read again",
      file(),
      row({ target_depth: 3, effective_depth: 1, depth_reason: MISS_1 }),
      { wantDepth: 3 as never },
      "read",
    ],
    [
      "a time-budget miss on its last try is not",
      file(),
      row({ target_depth: 3, effective_depth: 1, depth_reason: MISS_3 }),
      { wantDepth: 3 as never },
      "nothing",
    ],
    ["a row of another root is read (to hand it over)", file(), row(), { rootId: 2 }, "read"],
    ["a row of its own root is not", file(), row(), { rootId: 1 }, "nothing"],
    [
      "an unreadable file is tried once per audit",
      file(),
      row({ state: "error", reason: "unreadable: Permission denied" }),
      {},
      "read",
    ],
    [
      "a too-large row under another root is recorded again",
      file(1000),
      row({ reason: "too large", size: 1000 }),
      { rootId: 2 },
      "too-large",
    ],
  ];
  for (const [name, observed, indexed, over, want] of cases) {
    assert.deepEqual(planPath(observed, indexed, { ...ctx, ...over }).do, want, name);
  }
});

Deno.test("planCommit() replaces only when the bytes or the target depth changed", () => {
  const fresh = { hash: "h1", size: 10, mtimeMs: 1000, racy: 0, wantDepth: 1 as const };
  assert.deepEqual(planCommit(undefined, fresh).do, "replace");
  assert.deepEqual(planCommit(row(), fresh).do, "nothing");
  assert.deepEqual(planCommit(row(), { ...fresh, hash: "h2" }).do, "replace");
  assert.deepEqual(planCommit(row(), { ...fresh, mtimeMs: 5 }).do, "touch");
  assert.deepEqual(planCommit(row({ racy: 1 }), fresh).do, "touch");
  assert.deepEqual(planCommit(row(), { ...fresh, wantDepth: 3 as never }).do, "replace");
  assert.deepEqual(planCommit(row({ state: "error" }), fresh).do, "replace");
  assert.deepEqual(planCommit(row(), { ...fresh, rootId: 2 }).do, "replace", "handed over");
  const missed = row({ target_depth: 3, effective_depth: 1, depth_reason: MISS_1 });
  assert.deepEqual(
    planCommit(missed, { ...fresh, wantDepth: 3 as never }).do,
    "replace",
    "same bytes, parsed again with more time",
  );
});

const MISS = "parse budget exceeded: parse took longer than 1000 ms";
const MISS_1 = timeMissReason(MISS, 1);
const MISS_3 = timeMissReason(MISS, PARSE_TRIES);

Deno.test("parseTry() reads the try of a time-budget miss, and only of one", () => {
  assert.equal(parseTry(MISS), 1);
  assert.equal(parseTry(MISS_1), 1);
  assert.equal(parseTry(timeMissReason(MISS, 2)), 2);
  assert.equal(parseTry(MISS_3), PARSE_TRIES);
  assert.equal(parseTry("parse budget exceeded: 2000000 chars > 1000000 limit"), undefined);
  assert.equal(parseTry("3 syntax errors (lines 1, 2, 3)"), undefined);
  assert.equal(parseTry(null), undefined);
  assert.match(MISS_1, /try 1 of 3; retried with twice the time/);
  assert.match(MISS_3, /try 3 of 3; not retried until the file changes/);
  assert.deepEqual([1, 2, 3].map(budgetScale), [1, 2, 4]);
});

Deno.test("rowSettled() leaves only fixable rows unsettled", () => {
  const base = { state: "indexed" as const, reason: null, depth_reason: null };
  assert.equal(rowSettled({ ...base, effective_depth: 3, target_depth: 3 }, 3), true);
  assert.equal(rowSettled({ ...base, effective_depth: 1, target_depth: 1 }, 3), false);
  // A root asked for less than its rows hold: read again, shallower.
  assert.equal(rowSettled({ ...base, effective_depth: 3, target_depth: 3 }, 2), false);
  assert.equal(rowSettled({ ...base, effective_depth: 2, target_depth: 3 }, 1), false);
  // L0 still keeps a file's row (L1): nothing shallower to read.
  assert.equal(rowSettled({ ...base, effective_depth: 1, target_depth: 1 }, 0), true);
  assert.equal(
    rowSettled({ ...base, effective_depth: 1, target_depth: 3, depth_reason: "no grammar" }, 3),
    true,
  );
  assert.equal(
    rowSettled({ ...base, effective_depth: 1, target_depth: 3, depth_reason: MISS_1 }, 3),
    false,
  );
  const error = { ...base, state: "error" as const, effective_depth: 1, target_depth: 1 };
  assert.equal(rowSettled({ ...error, reason: "unreadable: EACCES" }, 1), false);
  assert.equal(rowSettled({ ...error, reason: "something else" }, 1), true);
});

Deno.test("isRacy() flags files modified within the racy window of their read", () => {
  assert.deepEqual(isRacy(10_000, 10_000), true);
  assert.deepEqual(isRacy(10_000 - RACY_WINDOW_MS + 1, 10_000), true);
  assert.deepEqual(isRacy(10_000 - RACY_WINDOW_MS - 1, 10_000), false);
});
