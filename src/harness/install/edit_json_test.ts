import assert from "node:assert/strict";
import { ConfigEditError } from "./json_file.ts";
import { type HookWant, setFlatHooks, setGroupedHooks } from "./edit_json.ts";

const MARKER = /heimdall hook/;
const WANT: HookWant = {
  event: "stop",
  matcher: null,
  entry: { command: "heimdall hook --harness test" },
};

Deno.test("setGroupedHooks() and setFlatHooks() refuse a `hooks` that is not an object, and leave it", () => {
  for (const set of [setGroupedHooks, setFlatHooks]) {
    const root = { hooks: "left by hand" };
    assert.throws(() => set(root, [WANT], MARKER), ConfigEditError);
    assert.deepEqual(root, { hooks: "left by hand" });
  }
});

Deno.test("setGroupedHooks() and setFlatHooks() refuse an event of theirs that is not a list, and leave it", () => {
  for (const set of [setGroupedHooks, setFlatHooks]) {
    const root = { hooks: { stop: { command: "mine" }, other: "left by hand" } };
    assert.throws(
      () => set(root, [WANT], MARKER),
      /"hooks\.stop" in "" is not a list; make it a list/,
    );
    assert.deepEqual(root, { hooks: { stop: { command: "mine" }, other: "left by hand" } });
    // An event Heimdall does not hook is not its to judge; an uninstall adds nothing.
    const theirs = { hooks: { other: "left by hand" } };
    set(theirs, [WANT], MARKER);
    assert.deepEqual(theirs.hooks.other, "left by hand");
    set(root, [], MARKER);
    assert.deepEqual(root, { hooks: { stop: { command: "mine" }, other: "left by hand" } });
  }
});

Deno.test("setFlatHooks() adds a missing hook to an absent `hooks`, and a second run changes nothing", () => {
  const root: Record<string, unknown> = {};
  setFlatHooks(root, [WANT], MARKER);
  assert.deepEqual(root, { hooks: { stop: [WANT.entry] } });
  setFlatHooks(root, [WANT], MARKER);
  assert.deepEqual(root, { hooks: { stop: [WANT.entry] } });
});
