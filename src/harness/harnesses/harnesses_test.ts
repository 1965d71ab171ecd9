/**
 * Every registered harness's description against its payload fixtures
 * (`tests/fixtures/harness/<name>/`): each fixture normalises to the event
 * it expects, answers come in the harness's own format and never grant a
 * permission, every event in a harness's table has a fixture, and every
 * fixture says where its payload came from.
 */
import assert from "node:assert/strict";
import { relative } from "node:path";
import { parseEvent, renderAnswer, rowOf } from "../engine.ts";
import type { HookEvent } from "../event.ts";
import { parseTestRun } from "../test_runs/mod.ts";
import { HARNESSES, harnessSpec } from "./mod.ts";
import { fixture, fixtureNames, payloadText } from "../../../tests/harness_fixtures.ts";

Deno.test("every harness's payload fixtures normalise to the expected event", () => {
  const repo = "/home/dev/shop";
  let n = 0;
  for (const harness of HARNESSES) {
    for (const name of fixtureNames(harness)) {
      const f = fixture(harness, name);
      const ev = parseEvent(harnessSpec(harness), JSON.parse(payloadText(f, repo)), {
        cwd: "/elsewhere",
        env: () => undefined,
        event: null,
      });
      const at = `${harness}/${name}`;
      assert.equal(ev.kind, f.expect.kind, at);
      assert.notEqual(ev.sessionId, "unknown", `${at}: a session id`);
      if (f.payload.cwd !== undefined || harness === "cursor") assert.equal(ev.cwd, repo, at);
      if (f.expect.source !== undefined) {
        assert.equal((ev as { source: string | null }).source, f.expect.source, at);
      }
      if (f.expect.final !== undefined) {
        assert.equal((ev as { final: boolean }).final, f.expect.final, at);
      }
      if (ev.kind === "prompt") assert.match(ev.prompt, /negative discount/, at);
      if (f.expect.tool) {
        assert.ok(ev.kind === "before_tool" || ev.kind === "after_tool", at);
        assert.equal(ev.tool.kind, f.expect.tool.kind, at);
        if (f.expect.tool.paths) {
          assert.deepEqual(
            [...new Set(ev.tool.edits.map((e) => relative(repo, e.path)))],
            f.expect.tool.paths,
            at,
          );
        }
        if (f.expect.tool.command) assert.equal(ev.tool.command, f.expect.tool.command, at);
      }
      if (f.expect.outcome) {
        assert.equal(ev.kind, "after_tool", at);
        if (f.expect.outcome.ok !== undefined) assert.equal(ev.outcome.ok, f.expect.outcome.ok, at);
        if (f.expect.outcome.exitCode !== undefined) {
          assert.equal(ev.outcome.exitCode, f.expect.outcome.exitCode, at);
        }
      }
      if (f.expect.test) {
        assert.equal(ev.kind, "after_tool", at);
        const run = parseTestRun(
          ev.tool.command!,
          ev.outcome.output,
          ev.outcome.exitCode,
          ev.outcome.ok,
        );
        assert.ok(run, `${at}: a test run`);
        assert.equal(run.runner, f.expect.test.runner, at);
        assert.equal(run.outcome, f.expect.test.outcome, at);
        assert.deepEqual(run.failed, f.expect.test.failed, at);
      }
      n++;
    }
  }
  assert.ok(n >= 40, `${n} fixtures`);
});

Deno.test("the edit region of a before-edit event carries the replaced text", () => {
  const f = fixture("claude-code", "pre_edit");
  const ev = parseEvent(harnessSpec("claude-code"), JSON.parse(payloadText(f, "/r")), {
    cwd: "/",
    env: () => undefined,
    event: null,
  }) as Extract<HookEvent, { kind: "before_tool" }>;
  assert.match(ev.tool.edits[0]!.oldText!, /return apply_discount\(subtotal, discount\)/);
  const codex = parseEvent(
    harnessSpec("codex"),
    JSON.parse(payloadText(fixture("codex", "pre_apply_patch"), "/r")),
    {
      cwd: "/",
      env: () => undefined,
      event: null,
    },
  ) as Extract<HookEvent, { kind: "before_tool" }>;
  assert.match(
    codex.tool.edits[0]!.oldText!,
    /subtotal = sum\(prices\)\n {4}return apply_discount\(subtotal, discount\)/,
  );
});

Deno.test("answers carry context in each harness's format and never a permission decision", () => {
  const ctx = "Heimdall: remember the rounding rule";
  for (const harness of HARNESSES) {
    for (const name of fixtureNames(harness)) {
      const ev = parseEvent(
        harnessSpec(harness),
        JSON.parse(payloadText(fixture(harness, name), "/r")),
        {
          cwd: "/",
          env: () => undefined,
          event: null,
        },
      );
      const out = renderAnswer(harnessSpec(harness), ev, ctx);
      const none = renderAnswer(harnessSpec(harness), ev, null);
      const at = `${harness}/${name}`;
      if (out !== null) {
        assert.doesNotMatch(out, /permission|"decision"|"allow"|"approve"/i, at);
      }
      switch (harness) {
        case "claude-code":
        case "codex":
        case "gemini":
          assert.equal(none, null, at);
          if (out !== null) {
            const o = JSON.parse(out);
            assert.equal(o.hookSpecificOutput.hookEventName, ev.native, at);
            assert.equal(o.hookSpecificOutput.additionalContext, ctx, at);
          } else assert.equal(ev.kind, "stop", `${at}: only stops say nothing`);
          break;
        case "cursor":
          assert.equal(none, "{}", `${at}: Cursor always gets JSON`);
          JSON.parse(out!);
          break;
        case "kiro":
          assert.equal(out, ev.kind === "session_start" || ev.kind === "prompt" ? ctx : null, at);
          break;
        case "windsurf":
          assert.equal(out, ctx, at);
          break;
        case "pi":
          assert.deepEqual(JSON.parse(out!), { context: ctx }, at);
          break;
      }
    }
  }
});

Deno.test("odd payloads are ignored events, not errors", () => {
  for (const harness of HARNESSES) {
    for (const p of [null, 42, "text", [], {}, { hook_event_name: 7 }, { tool_info: null }]) {
      const ev = parseEvent(harnessSpec(harness), p, {
        cwd: "/w",
        env: () => undefined,
        event: null,
      });
      assert.equal(ev.kind, "ignored", `${harness} ${JSON.stringify(p)}`);
      assert.equal(ev.cwd, "/w");
    }
  }
});

Deno.test("a pause renders as each harness's deny where it has one, as a warning elsewhere, and never as an approval", () => {
  const reason = "Heimdall paused this edit once: bob is changing a callee.";
  const want: Record<string, RegExp | null> = {
    "claude-code": /"permissionDecision":"deny","permissionDecisionReason":"Heimdall paused/,
    codex: /"permissionDecision":"deny","permissionDecisionReason":"Heimdall paused/,
    gemini: /^\{"decision":"deny","reason":"Heimdall paused/,
    cursor: /^\{"permission":"deny","user_message":"Heimdall paused/,
    pi: /^\{"block":true,"reason":"Heimdall paused/,
    windsurf: /^Heimdall paused this edit once/,
    kiro: null, // Kiro shows a pre-tool hook's output to no one: nothing to say there
  };
  const pre: Record<string, string> = {
    "claude-code": "pre_edit",
    codex: "pre_apply_patch",
    gemini: "before_tool",
    cursor: "pre_tool",
    pi: "tool_call_edit",
    windsurf: "pre_write_code",
    kiro: "pre_fs_write",
  };
  for (const harness of HARNESSES) {
    const ev = parseEvent(
      harnessSpec(harness),
      JSON.parse(payloadText(fixture(harness, pre[harness]!), "/r")),
      { cwd: "/", env: () => undefined, event: null },
    );
    assert.equal(ev.kind, "before_tool", harness);
    const out = renderAnswer(harnessSpec(harness), ev, "Constraint: round money to cents", reason);
    const expected = want[harness];
    if (expected === null) assert.equal(out, null, harness);
    else {
      assert.match(out!, expected!, harness);
      assert.doesNotMatch(out!, /"allow"|"approve"/i, harness);
    }
  }
});

Deno.test("every event in a harness's table has a payload fixture", () => {
  for (const harness of HARNESSES) {
    const spec = harnessSpec(harness);
    const covered = new Set<string>();
    for (const name of fixtureNames(harness)) {
      const ev = parseEvent(spec, JSON.parse(payloadText(fixture(harness, name), "/r")), {
        cwd: "/",
        env: () => undefined,
        event: null,
      });
      const row = rowOf(spec, ev.native);
      if (row === null) continue;
      covered.add(Object.entries(spec.events).find(([, r]) => r === row)![0]);
    }
    const missing = Object.keys(spec.events).filter((e) => !covered.has(e));
    assert.deepEqual(missing, [], `${harness}: events without a fixture`);
  }
});

Deno.test("every payload fixture says where it came from: a documented schema or a capture", () => {
  const documented = /^documented: (https:\/\/\S+|src\/\S+) \(.+\)/;
  const captured = /^captured from \S+ \d\S*/;
  for (const harness of HARNESSES) {
    for (const name of fixtureNames(harness)) {
      const { source } = fixture(harness, name);
      const at = `${harness}/${name}`;
      assert.equal(typeof source, "string", `${at}: a source`);
      assert.ok(documented.test(source) || captured.test(source), `${at}: ${source}`);
    }
  }
});
