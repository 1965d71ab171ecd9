import assert from "node:assert/strict";
import { HARNESSES, type HarnessName } from "../harnesses/mod.ts";
import { inspectWiring } from "./inspect.ts";
import { type InstallContext, planHarness } from "./plan.ts";

const CTX: InstallContext = {
  scope: "user",
  userHome: "/home/u",
  project: "/p",
  argv: ["/usr/local/bin/heimdall"],
  hookArgv: ["/usr/local/bin/heimdall"],
  heimdallHome: null,
  budget: null,
  env: () => undefined,
};

/** The files `init --harness NAME` would write into an empty home, in memory. */
function installed(harness: HarnessName): Map<string, string> {
  const files = new Map<string, string>();
  for (const c of planHarness(harness, CTX, () => null, false).changes) files.set(c.path, c.after!);
  return files;
}

Deno.test("inspectWiring() finds every event init wires, for every harness", () => {
  for (const harness of HARNESSES) {
    const files = installed(harness);
    const w = inspectWiring(harness, CTX, (p) => files.get(p) ?? null);
    assert.ok(w.events.length >= 5, `${harness}: ${w.events}`);
    assert.deepEqual(w.missingEvents, [], harness);
  }
});

Deno.test("inspectWiring() names the events whose hooks were removed by hand", () => {
  // Gemini CLI: only SessionStart left of its six events.
  const gemini = installed("gemini");
  const [path, text] = [...gemini][0]!;
  const settings = JSON.parse(text);
  settings.hooks = { SessionStart: settings.hooks.SessionStart };
  gemini.set(path, JSON.stringify(settings));
  const w = inspectWiring("gemini", CTX, (p) => gemini.get(p) ?? null);
  assert.deepEqual(w.missingEvents, [
    "BeforeAgent",
    "BeforeTool",
    "AfterTool",
    "AfterAgent",
    "SessionEnd",
  ]);
  assert.equal(w.hookCommands.length, 1);

  // Cursor (flat): an event left with only someone else's hook counts as missing.
  const cursor = installed("cursor");
  const hooksPath = [...cursor.keys()].find((p) => p.endsWith("hooks.json"))!;
  const hooks = JSON.parse(cursor.get(hooksPath)!);
  hooks.hooks.stop = [{ command: "notify-send done" }];
  cursor.set(hooksPath, JSON.stringify(hooks));
  assert.deepEqual(inspectWiring("cursor", CTX, (p) => cursor.get(p) ?? null).missingEvents, [
    "stop",
  ]);

  // Kiro (a file of Heimdall's own): its hooks list cut short.
  const kiro = installed("kiro");
  const kiroPath = [...kiro.keys()].find((p) => p.includes("/hooks/"))!;
  const kiroHooks = JSON.parse(kiro.get(kiroPath)!);
  kiroHooks.hooks = kiroHooks.hooks.slice(0, 2);
  kiro.set(kiroPath, JSON.stringify(kiroHooks));
  assert.deepEqual(inspectWiring("kiro", CTX, (p) => kiro.get(p) ?? null).missingEvents, [
    "PreToolUse",
    "PostToolUse",
    "Stop",
  ]);
});
