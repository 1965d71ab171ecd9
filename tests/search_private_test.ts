/** A private memory is its author's alone, in search as in `why`. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cli, MAIN, mcpEnv, PERMS, removeTree, tempDir, writeTree } from "./helpers.ts";

/** What the MCP `search` tool answers `query` for `author`. */
async function mcpSearch(
  home: string,
  cwd: string,
  author: string,
  query: string,
): Promise<string> {
  const client = new Client({ name: "heimdall-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", ...PERMS, MAIN, "mcp"],
      env: mcpEnv(home, author),
      cwd,
      stderr: "pipe",
    }),
  );
  try {
    const r = await client.callTool({ name: "search", arguments: { query } }) as {
      content: { text: string }[];
    };
    return r.content.map((c) => c.text).join("\n");
  } finally {
    await client.close();
  }
}

Deno.test("search never returns another author's private memory; its author finds it", async () => {
  const base = tempDir("heimdall-private-");
  try {
    const repo = join(base, "repo");
    writeTree(repo, { "lib/plan.py": "def plan():\n    return 1\n" });
    const home = join(base, "home");
    assert.equal((await cli(home, ["index", repo])).code, 0);
    const as = (author: string) => ({ env: { HEIMDALL_AUTHOR: author } });
    const about = join(repo, "lib/plan.py");
    const wrote = await cli(home, [
      "remember",
      "--kind",
      "decision",
      "--scope",
      "private",
      "--about",
      about,
      "alice private zebracorn plan",
    ], as("alice"));
    assert.equal(wrote.code, 0, wrote.stderr);
    const shared = await cli(home, [
      "remember",
      "--kind",
      "note",
      "--about",
      about,
      "the zebracorn rollout is shared",
    ], as("alice"));
    assert.equal(shared.code, 0, shared.stderr);

    const bob = await cli(home, ["search", "--json", "zebracorn"], as("bob"));
    const bobTexts = JSON.parse(bob.stdout).hits.map((h: { summary: string }) => h.summary);
    assert.ok(bobTexts.some((t: string) => t.includes("shared")), bobTexts.join(" | "));
    assert.ok(!bobTexts.some((t: string) => t.includes("alice private")), bobTexts.join(" | "));
    const alice = await cli(home, ["search", "--json", "zebracorn"], as("alice"));
    const aliceTexts = JSON.parse(alice.stdout).hits.map((h: { summary: string }) => h.summary);
    assert.ok(aliceTexts.some((t: string) => t.includes("alice private")), aliceTexts.join(" | "));
    // The MCP tool answers as the agent's author does.
    assert.doesNotMatch(await mcpSearch(home, repo, "bob", "zebracorn"), /alice private/);
    assert.match(await mcpSearch(home, repo, "alice", "zebracorn"), /alice private/);
  } finally {
    removeTree(base);
  }
});
