/**
 * No secret is ever stored: 50 fake secrets of 33 kinds (tests/secret_samples.ts)
 * are planted through every way text gets in (files in an indexed root, one
 * after 412 KiB of filler; CLI insert, remember, attempt, import, task,
 * claim, hand-off; the MCP tools; hook events of a whole session; the team
 * store on a real PostgreSQL), then the raw bytes of everything under
 * $HEIMDALL_HOME (journal, WAL, sessions, logs) and every row of every
 * PostgreSQL table are searched for each secret. A canary (an ordinary
 * word sent the same ways) must be found, so a search that sees nothing
 * cannot pass.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, removeTree, tempDir, writeTree } from "./helpers.ts";
import {
  ALL_LINES,
  leaks,
  ok,
  ONE_LINERS,
  pgRows,
  plantedRepo,
  plantThroughCli,
  plantThroughHooks,
  plantThroughMcp,
  rawFiles,
  SAMPLES,
} from "./secret_plant.ts";
import { freshDatabase, noPostgres, pgServer } from "./team_fixture.ts";
import { sniffSecret } from "../src/files/mod.ts";

Deno.test("no planted secret reaches the journal, its WAL, sessions or logs by any way in", async () => {
  const base = tempDir("heimdall-secrets-");
  try {
    const canary = "zebracanary" + crypto.randomUUID().slice(0, 8);
    const repo = plantedRepo(base);
    const home = join(base, "home");
    await ok(home, ["index", repo]);
    const cliOut = await plantThroughCli(home, repo, base, canary);
    const mcpOut = await plantThroughMcp(home, repo, canary);
    const hookOut = await plantThroughHooks(home, repo, base, canary);
    // A search that finds a file gone logs its query (logs/search.log): here, a secret.
    Deno.removeSync(join(repo, "pkg/canary_module.py"));
    const searchOut = (await ok(home, [
      "search",
      `canary_function_word ${ONE_LINERS[0]!.line}`,
    ])).stdout;

    const stored = rawFiles(home);
    assert.ok([...stored.keys()].some((p) => p.endsWith("journal.db")), "a journal was written");
    assert.ok([...stored.keys()].some((p) => p.includes("/sessions/")), "sessions were written");
    assert.ok([...stored.keys()].some((p) => p.includes("/logs/")), "logs were written");
    const all = [...stored.values()].join("\n");
    assert.ok(all.includes("canary_function_word"), "the planted repository was indexed");
    assert.ok(all.includes(canary), "the canary went in by the same ways");
    assert.ok(all.includes("[REDACTED:"), "secrets were replaced, not dropped silently");
    assert.deepEqual(leaks(stored), [], "no secret in the home's files");

    const agentSaw = new Map<string, string>([
      ["hook output", hookOut.join("\n")],
      ["search output", searchOut],
      ["CLI output", cliOut.join("\n")],
      ["MCP answers", mcpOut.join("\n")],
    ]);
    assert.ok(hookOut.join("\n").includes(canary), "the second session was shown prior work");
    assert.deepEqual(leaks(agentSaw), [], "nothing stored comes back to an agent with a secret");
  } finally {
    removeTree(base);
  }
});

Deno.test("a file holding a PGP private key block or a glued token is skipped: search finds no word of it", async () => {
  const base = tempDir("heimdall-secrets-");
  try {
    const pgp = SAMPLES.find((s) => s.line.includes("PGP PRIVATE"))!;
    const glued = SAMPLES.find((s) => s.line.includes("%20" + s.secret))!;
    const repo = join(base, "repo");
    writeTree(repo, {
      "keys/release.asc": `# the release key\n${pgp.line}\n`,
      "notes/escaped.json": `{"note":"first\\n${glued.secret}"}\n`,
      "src/ordinary.ts": "export const ordinaryWord = 1;\n",
    });
    const home = join(base, "home");
    assert.match((await ok(home, ["index", repo])).stdout, /2 secret files skipped/);
    // The index folds case: a word of the secret, lower-cased, is what it would hold.
    for (const word of [pgp.secret.slice(0, 40), glued.secret]) {
      const r = await cli(home, ["search", word.toLowerCase()]);
      assert.equal(r.code, 1, `${word}: ${r.stdout}`);
    }
    assert.equal((await ok(home, ["search", "ordinaryWord"])).code, 0);
  } finally {
    removeTree(base);
  }
});

Deno.test({
  name: "no planted secret reaches the shared PostgreSQL, nor this machine's copy of it",
  ignore: noPostgres(),
  async fn() {
    const server = await pgServer();
    const db = await freshDatabase(server.url);
    const base = tempDir("heimdall-secrets-pg-");
    try {
      const canary = "zebracanary" + crypto.randomUUID().slice(0, 8);
      const repo = plantedRepo(base);
      const home = join(base, "home");
      await ok(home, ["index", repo]);
      await ok(home, ["team", "connect", db.url]);
      await plantThroughCli(home, repo, base, canary);
      await ok(home, [
        "remember",
        "--kind",
        "decision",
        "--scope",
        "team",
        "--about",
        "pkg/billing.py",
        `${canary} team decision\n${ALL_LINES}`,
      ], { cwd: repo });
      await plantThroughMcp(home, repo, canary);
      const hookOut = await plantThroughHooks(home, repo, base, canary);

      const rows = await pgRows(db.url);
      assert.ok(rows.size >= 5, "the team schema exists");
      const all = [...rows.values()].join("\n");
      assert.ok(all.includes(canary), "the canary reached PostgreSQL by the same ways");
      assert.ok(all.includes("[REDACTED:"), "secrets were replaced");
      assert.deepEqual(leaks(rows), [], "no secret in any PostgreSQL table");
      assert.deepEqual(leaks(rawFiles(home)), [], "no secret in the home's files");
      assert.deepEqual(leaks(new Map([["hook output", hookOut.join("\n")]])), []);
    } finally {
      removeTree(base);
      await db.drop();
      await server.stop();
    }
  },
});

Deno.test("a README whose example token is a stand-in (ghp_xxxx…) is indexed and found", async () => {
  const base = tempDir("heimdall-secrets-");
  try {
    const repo = join(base, "repo");
    writeTree(repo, {
      "README.md": "# Publishing\n\nSet the token before the release script runs:\n\n" +
        "    export GITHUB_TOKEN=ghp_" + "x".repeat(36) + "\n",
    });
    const home = join(base, "home");
    assert.match((await ok(home, ["index", repo])).stdout, /0 secret files skipped/);
    assert.match((await ok(home, ["search", "release script token"])).stdout, /README\.md/);
  } finally {
    removeTree(base);
  }
});

Deno.test("a file naming a variable github_pat_… in snake_case is indexed and found", async () => {
  const base = tempDir("heimdall-secrets-");
  try {
    const repo = join(base, "repo");
    writeTree(repo, {
      "settings.py": `github_pat_environment_variable_name = "GITHUB_PAT"\n\n` +
        "def read_release_settings():\n    return github_pat_environment_variable_name\n",
    });
    const home = join(base, "home");
    assert.match((await ok(home, ["index", repo])).stdout, /0 secret files skipped/);
    assert.match((await ok(home, ["search", "read release settings"])).stdout, /settings\.py/);
  } finally {
    removeTree(base);
  }
});

Deno.test("a WordPress wp-config.php with its database password is never indexed", async () => {
  const base = tempDir("heimdall-secrets-");
  try {
    const pw = "Xk2" + "9vLmq77Pz";
    const repo = join(base, "repo");
    writeTree(repo, {
      "wp-config.php": `<?php\n/** The name of the database for WordPress */\n` +
        `define( 'DB_NAME', 'blog' );\ndefine( 'DB_USER', 'blog' );\n` +
        `define( 'DB_PASSWORD', '${pw}' );\n`,
    });
    const home = join(base, "home");
    assert.match((await ok(home, ["index", repo])).stdout, /1 secret files skipped/);
    const samples = [{ kind: "password_assignment", line: "", secret: pw }];
    assert.deepEqual(leaks(rawFiles(home), samples), [], "the password is in no file of the home");
    assert.equal((await cli(home, ["search", pw.toLowerCase()])).code, 1);
  } finally {
    removeTree(base);
  }
});

Deno.test("a Django settings.py with its production SECRET_KEY is never indexed", async () => {
  const base = tempDir("heimdall-secrets-");
  try {
    const key = "k#9x2!vq8@z7^m4&w1*b6" + "%h3(j)p-_=+q0r5t8y2u4i6o";
    const repo = join(base, "repo");
    writeTree(repo, {
      "site/settings.py": `DEBUG = False\nSECRET_KEY = '${key}'\nALLOWED_HOSTS = ["*"]\n`,
      "site/dev_settings.py": "SECRET_KEY = 'django-insecure-w1*b6%h3(j)p-_=+q0r5t8y2u4i6o'\n",
    });
    const home = join(base, "home");
    assert.match((await ok(home, ["index", repo])).stdout, /1 secret files skipped/);
    const samples = [{ kind: "secret_assignment", line: "", secret: key }];
    assert.deepEqual(leaks(rawFiles(home), samples), [], "the key is in no file of the home");
  } finally {
    removeTree(base);
  }
});

Deno.test("no file of this repository holds a credential-shaped literal, so its own index skips none and scanners find none", () => {
  const root = new URL("..", import.meta.url).pathname;
  const listed = new Deno.Command("git", { args: ["ls-files", "-z"], cwd: root, stdout: "piped" })
    .outputSync();
  assert.ok(listed.success, "git ls-files");
  const files = new TextDecoder().decode(listed.stdout).split("\0").filter((f) => f !== "");
  assert.ok(files.length > 500, `${files.length} files listed`);
  const holding: string[] = [];
  for (const rel of files) {
    let text: string;
    try {
      text = Deno.readTextFileSync(join(root, rel));
    } catch {
      continue; // binary, or gone from the work tree
    }
    // Fake credentials are assembled at run time (tests/secret_samples.ts), or split in two.
    const kind = sniffSecret(text);
    if (kind !== undefined) holding.push(`${rel} (${kind})`);
  }
  assert.deepEqual(holding, []);
});
