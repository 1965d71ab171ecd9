/**
 * The scoring behind the call graph's checker comparison
 * (`scripts/callgraph/compare.ts`): Heimdall keeps one edge per caller and
 * target, at the first call, so a checker's later call site of the same name
 * inside that caller counts as found, and one outside it does not.
 */
import assert from "node:assert/strict";
import { compareCalls, type HeimdallCall, type OracleCall } from "../scripts/callgraph/compare.ts";

const decl = { file: "lib.ts", line: 2, name: "add" };
const site = (line: number, targets = [decl]): OracleCall => ({
  file: "app.ts",
  line,
  name: "add",
  targets,
  external: false,
});
const edge = (line: number, caller: { start: number; end: number }): HeimdallCall => ({
  file: "app.ts",
  line,
  name: "add",
  how: "import",
  caller,
  dst: { file: "lib.ts", start: 1, end: 3, name: "add", qualname: "add" },
});

Deno.test("compareCalls() finds each call site of a caller through its one edge, and no other caller's", () => {
  // `run` (lines 5–9) calls add at lines 6 and 8; `main` (lines 11–13) at line 12.
  const score = compareCalls([edge(6, { start: 5, end: 9 })], [site(6), site(8), site(12)]);
  assert.equal(score.judged, 1);
  assert.equal(score.precision, 1);
  assert.equal(score.inRepo, 3);
  assert.equal(score.found, 2, "lines 6 and 8 through run's edge; main's call at 12 is missed");
  assert.deepEqual(score.missed, ["app.ts:12 add → lib.ts:2"]);
});

Deno.test("compareCalls() judges an edge wrong where the checker places the call elsewhere", () => {
  const elsewhere = [{ file: "other.ts", line: 40, name: "add" }];
  const score = compareCalls([edge(6, { start: 5, end: 9 })], [site(6, elsewhere)]);
  assert.equal(score.judged, 1);
  assert.equal(score.correct, 0);
  assert.equal(score.found, 0);
  assert.match(score.wrong[0]!, /checker: other\.ts:40 add/);
});
