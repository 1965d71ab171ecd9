import assert from "node:assert/strict";
import { KINDS } from "../memory/types.ts";
import { REMEMBER_HELP } from "./memory_cmd.ts";

Deno.test("remember's help names every kind it accepts (all but attempt, which has its own command)", () => {
  const usage = REMEMBER_HELP.split("\n")[0]!;
  const listed = /--kind (\S+)/.exec(usage)![1]!.split("|");
  assert.deepEqual(listed, KINDS.filter((k) => k !== "attempt"));
});
