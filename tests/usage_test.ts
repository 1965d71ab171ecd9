/**
 * Usage, for the dashboard: searches and hook injections are counted in
 * `logs/usage.log` (counts only, never a query), and an injected result the
 * agent then opens counts as used.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { homePaths, usageLogPath } from "../src/config/mod.ts";
import { usage } from "../src/ui/usage_data.ts";
import { cli, copyDir, removeTree, tempDir } from "./helpers.ts";

const FIXTURES = new URL("./fixtures/harness/", import.meta.url).pathname;

Deno.test("searches, injections and the results an agent then opened are counted per day, and no query is logged", async () => {
  const base = tempDir();
  try {
    const home = join(base, "home");
    const repo = join(base, "shop");
    copyDir(join(FIXTURES, "repo"), repo);
    assert.equal((await cli(home, ["index", repo, "--no-embed"])).code, 0);
    const query = "compute total discount";
    assert.equal((await cli(home, ["search", query])).code, 0);
    const hook = (payload: Record<string, unknown>) =>
      cli(home, ["hook", "--harness", "claude-code"], {
        stdin: JSON.stringify({ session_id: "u1", cwd: repo, ...payload }),
      });
    const prompt = await hook({
      hook_event_name: "UserPromptSubmit",
      prompt: "Fix compute_total so a negative discount never raises the total",
    });
    assert.match(prompt.stdout, /pkg\/billing\.py/, "prior work was injected");
    // The agent reads the file it was shown: that result was used.
    await hook({
      hook_event_name: "PostToolUse",
      tool_name: "Read",
      tool_input: { file_path: join(repo, "pkg/billing.py") },
      tool_response: { type: "text" },
    });
    const text = Deno.readTextFileSync(usageLogPath(homePaths(home)));
    assert.ok(!text.includes("compute total") && !text.includes("negative discount"), text);
    const days = usage(homePaths(home)).days;
    assert.equal(days.length, 1);
    const d = days[0]!;
    assert.equal(d.searches, 2, "the CLI's and the prompt hook's");
    assert.ok((d.verdicts.STRONG ?? 0) >= 2, JSON.stringify(d.verdicts));
    assert.ok(d.injections >= 1 && d.injectedTokens > 0, JSON.stringify(d));
    assert.ok(d.injectedResults >= 1, JSON.stringify(d));
    assert.equal(d.usedResults, 1);
  } finally {
    removeTree(base);
  }
});

Deno.test("the usage and hook logs move aside at 8 MiB instead of growing for ever, and the Usage view still counts the days before", async () => {
  const base = tempDir();
  try {
    const home = join(base, "home");
    const repo = join(base, "shop");
    copyDir(join(FIXTURES, "repo"), repo);
    assert.equal((await cli(home, ["index", repo, "--no-embed"])).code, 0);
    const logs = homePaths(home).logs;
    Deno.mkdirSync(logs, { recursive: true, mode: 0o700 });
    // Months of searches and hook events, logged while nothing ever moved them aside.
    const line = JSON.stringify({ at: "2024-01-01T09:00:00.000Z", event: "search", verdicts: {} });
    const full = (line + "\n").repeat(Math.ceil((8 * 1024 * 1024) / (line.length + 1)));
    Deno.writeTextFileSync(join(logs, "usage.log"), full, { mode: 0o600 });
    Deno.writeTextFileSync(
      join(logs, "hooks.log"),
      "2024-01-01T09:00:00.000Z claude-code PostToolUse → 0 ms\n".repeat(160_000),
      { mode: 0o600 },
    );
    assert.equal((await cli(home, ["search", "compute total discount"])).code, 0);
    const hook = await cli(home, ["hook", "--harness", "claude-code"], {
      stdin: JSON.stringify({
        session_id: "u2",
        cwd: repo,
        hook_event_name: "PostToolUse",
        tool_name: "Read",
        tool_input: { file_path: join(repo, "pkg/billing.py") },
      }),
      // Every event logged, as when debugging hooks.
      env: { HEIMDALL_HOOK_DEBUG: "1", HEIMDALL_HOOK_SERVER: "0" },
    });
    assert.equal(hook.code, 0, hook.stderr);
    for (const name of ["usage.log", "hooks.log"]) {
      const size = Deno.statSync(join(logs, name)).size;
      assert.ok(size < 1024 * 1024, `${name} moved aside: ${size} bytes now`);
      const aside = Deno.statSync(join(logs, `${name}.1`));
      assert.ok(aside.size >= 8 * 1024 * 1024, `${name}.1 holds what was there`);
      assert.equal(aside.mode! & 0o777, 0o600);
    }
    const days = usage(homePaths(home)).days;
    assert.equal(days[0]!.day, "2024-01-01", "the days before the move are still counted");
    assert.ok(days[0]!.searches > 1000);
    assert.equal(days.at(-1)!.searches, 1, "and today's search");
  } finally {
    removeTree(base);
  }
});
