import assert from "node:assert/strict";
import { MIN_SERVER_VERSION, oldServerProblem } from "./pg_store.ts";

Deno.test("oldServerProblem() refuses a PostgreSQL older than 13 by its version, with the remedy, and passes 13 and later", () => {
  assert.match(
    oldServerProblem(120017, "postgres://ann@db/team")!,
    /^The team store "postgres:\/\/ann@db\/team" runs PostgreSQL 12; heimdall needs PostgreSQL 13 or later .*upgrade the server/,
  );
  assert.match(oldServerProblem(90624, "x")!, /runs PostgreSQL 9;/);
  for (const v of [MIN_SERVER_VERSION, 150004, 170000]) {
    assert.equal(oldServerProblem(v, "x"), undefined);
  }
  // A version it cannot read is no reason to refuse: the statements say what fails.
  assert.equal(oldServerProblem(NaN, "x"), undefined);
});
