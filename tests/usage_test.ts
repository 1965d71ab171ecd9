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
