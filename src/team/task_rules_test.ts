import assert from "node:assert/strict";
import { isMine, planFinish, planHandoff, planResume, TaskStateError } from "./task_rules.ts";
import type { Actor, Task } from "./types.ts";

const task = (owner: string, state: Task["state"] = "open"): Task => ({
  id: "t1",
  text: "x",
  owner,
  ownerAgent: "claude",
  ownerSession: "s1",
  state,
  createdAt: 0,
  updatedAt: 0,
});
const me = (developer: string, session: string | null = null): Actor => ({
  developer,
  agent: "codex",
  session,
});
const refused = (fn: () => unknown, re: RegExp) =>
  assert.throws(fn, (e: unknown) => e instanceof TaskStateError && re.test(e.message));

Deno.test("planHandoff() lets only the owner hand a task to someone else", () => {
  assert.deepEqual(planHandoff(task("dave"), "t1", me("dave"), "erin"), {
    owner: "erin",
    ownerAgent: null,
    ownerSession: null,
    state: "handed_off",
  });
  refused(() => planHandoff(task("dave"), "t1", me("bob"), "erin"), /belongs to dave, not bob/);
  refused(() => planHandoff(task("dave"), "t1", me("dave"), "dave"), /already dave's/);
  refused(() => planHandoff(task("dave", "done"), "t1", me("dave"), "erin"), /is done/);
  refused(() => planHandoff(undefined, "t9", me("dave"), "erin"), /No task "t9"/);
});

Deno.test("planHandoff() hands to the name trimmed, as a developer's own name is, and refuses one that is not one line", () => {
  assert.equal(planHandoff(task("dave"), "t1", me("dave"), "  erin\n").owner, "erin");
  refused(() => planHandoff(task("dave"), "t1", me("dave"), " dave "), /already dave's/);
  refused(
    () => planHandoff(task("dave"), "t1", me("dave"), "erin\nmallory"),
    /^Hand-off of "t1" to "erin\\nmallory": a person's name is one line/,
  );
  refused(() => planHandoff(task("dave"), "t1", me("dave"), "e".repeat(5_000)), /at most 4096/);
});

Deno.test("planResume() gives the task to its owner, or to anyone who says take", () => {
  assert.deepEqual(planResume(task("erin", "handed_off"), "t1", me("erin", "s2"), false), {
    owner: "erin",
    ownerAgent: "codex",
    ownerSession: "s2",
    state: "open",
  });
  refused(() => planResume(task("erin"), "t1", me("frank"), false), /belongs to erin; pass --take/);
  assert.equal(planResume(task("erin"), "t1", me("frank"), true).owner, "frank");
});

Deno.test("planFinish() is the owner's; isMine() needs the same developer and session", () => {
  assert.equal(planFinish(task("erin"), "t1", me("erin")).state, "done");
  refused(() => planFinish(task("erin"), "t1", me("bob")), /only its owner/);
  assert.equal(isMine({ developer: "a", session: null }, me("a")), true);
  assert.equal(isMine({ developer: "a", session: "s1" }, me("a")), false);
  assert.equal(isMine({ developer: "a", session: "s1" }, me("a", "s1")), true);
  assert.equal(isMine({ developer: "b", session: null }, me("a")), false);
});
