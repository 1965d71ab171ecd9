/** The open failures the pre-edit hook warns of: what the person may see, and what is still current. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, removeTree, tempDir, writeTree } from "./helpers.ts";

Deno.test("before an edit, the hook warns of open failures the person may see: not another's private one, not a superseded one", async () => {
  const base = tempDir("heimdall-hook-failures-");
  try {
    const repo = join(base, "repo");
    writeTree(repo, { "src/r.ts": "export function retry(n: number) {\n  return n + 1;\n}\n" });
    const home = join(base, "home");
    assert.equal((await cli(home, ["index", repo])).code, 0);
    const as = async (author: string, args: string[]) => {
      const r = await cli(home, args, { cwd: repo, env: { HEIMDALL_AUTHOR: author } });
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    await as("bob", [
      "attempt",
      "--about",
      "retry",
      "--failed",
      "--scope",
      "private",
      "bob alone: tried a backoff table",
    ]);
    await as("alice", ["attempt", "--about", "retry", "--failed", "alice: the loop never ends"]);
    const old = await as("alice", [
      "attempt",
      "--about",
      "retry",
      "--failed",
      "--json",
      "alice: counted from zero, off by one",
    ]);
    await as("alice", [
      "remember",
      "--kind",
      "decision",
      "--about",
      "retry",
      "--supersedes",
      JSON.parse(old).memory.id,
      "counting from one is the rule",
    ]);
    const file = join(repo, "src/r.ts");
    const context = async (author: string) => {
      const r = await cli(home, ["hook", "--harness", "claude-code"], {
        cwd: repo,
        env: { HEIMDALL_AUTHOR: author },
        stdin: JSON.stringify({
          session_id: `s-${author}`,
          cwd: repo,
          hook_event_name: "PreToolUse",
          tool_name: "Edit",
          tool_input: { file_path: file, old_string: "n + 1", new_string: "n + 2" },
        }),
      });
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    };
    const alice = await context("alice");
    assert.match(alice, /alice: the loop never ends/);
    assert.doesNotMatch(alice, /bob alone/);
    assert.doesNotMatch(alice, /off by one/);
    assert.match(await context("bob"), /bob alone: tried a backoff table/);
  } finally {
    removeTree(base);
  }
});
