import assert from "node:assert/strict";
import type { PathRow } from "../store/mod.ts";
import { isRacy, type Observed, planCommit, planPath, RACY_WINDOW_MS } from "./plan.ts";

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
  };
}

const file = (size = 10, mtimeMs = 1000): Observed => ({ kind: "file", size, mtimeMs });
const ctx = { maxFileBytes: 100, wantDepth: 1 as const, deep: false };

Deno.test("planPath() decides the first step from a stat and the row", () => {
  const cases: [
    string,
    Observed,
    PathRow | undefined,
    Partial<typeof ctx> & { excluded?: string },
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
});

Deno.test("isRacy() flags files modified within the racy window of their read", () => {
  assert.deepEqual(isRacy(10_000, 10_000), true);
  assert.deepEqual(isRacy(10_000 - RACY_WINDOW_MS + 1, 10_000), true);
  assert.deepEqual(isRacy(10_000 - RACY_WINDOW_MS - 1, 10_000), false);
});
