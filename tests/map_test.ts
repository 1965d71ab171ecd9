/**
 * The architectural map end to end: a real repository in a temp folder with
 * a `.heimdall/map.toml`, the real CLI (`constraints`, `map check`), and
 * `constraintsFor()` as the hooks call it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { constraintsFor, MapError, parseMap } from "../src/map/mod.ts";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cli, MAIN, mcpEnv, PERMS, tempDir, writeTree } from "./helpers.ts";
import { secretSamples } from "./secret_samples.ts";

const MAP = `# Heimdall's own layout, abridged
[component.cli]
description = "argv → command → exit code"
paths = ["src/cli/**"]
depends_on = ["store", "memory"]
must = ["Bad input exits 2 with the value named"]
info = ["One file per command"]

[component.store]
paths = ["src/store/**"]
must = ["Only this folder imports node:sqlite"]
should = ["Migrations are append-only"]
info = ["WAL mode"]

[component.memory]
paths = ["src/memory/**"]
should = ["Never delete a memory row"]

[component.schema]
paths = ["src/store/schema.ts"]
must = ["Never edit a released migration"]

[component.everything]
paths = ["**"]
info = ["Deno 2, strict TypeScript"]
`;

function repoWith(map: string | null, files: Record<string, string> = {}): {
  base: string;
  repo: string;
  home: string;
} {
  const base = tempDir();
  const repo = join(base, "repo");
  writeTree(repo, {
    "src/cli/mod.ts": "export {};\n",
    "src/store/journal.ts": "export {};\n",
    "src/store/schema.ts": "export {};\n",
    "src/memory/mod.ts": "export {};\n",
    "README.md": "# r\n",
    ...(map === null ? {} : { ".heimdall/map.toml": map }),
    ...files,
  });
  return { base, repo: Deno.realPathSync(repo), home: join(base, "home") };
}

Deno.test("constraints: the most specific glob wins, with the component's and its dependencies' constraints", async () => {
  const { repo, home } = repoWith(MAP);
  const cases: [string, string, string][] = [
    ["src/store/schema.ts", "schema", "src/store/schema.ts"],
    ["src/store/journal.ts", "store", "src/store/**"],
    ["src/store", "store", "src/store/**"],
    ["src/cli/new_cmd.ts", "cli", "src/cli/**"], // a file not written yet
    ["README.md", "everything", "**"],
  ];
  for (const [path, component, glob] of cases) {
    const r = constraintsFor(join(repo, path));
    assert.equal(r?.component, component, path);
    assert.equal(r?.glob, glob, path);
    assert.equal(r?.root, repo);
  }
  const cliRule = constraintsFor(join(repo, "src/cli/mod.ts"))!;
  assert.deepEqual(cliRule.constraints.map((c) => [c.level, c.component, c.via]), [
    ["must", "cli", "own"],
    ["info", "cli", "own"],
    ["must", "store", "depends_on"],
    ["should", "store", "depends_on"],
    ["should", "memory", "depends_on"],
  ]);
  // Outside any repository with a map: null.
  assert.equal(constraintsFor(join(tempDir(), "x.ts")), null);

  let r = await cli(home, ["constraints", "src/cli/mod.ts"], { cwd: repo });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /src\/cli\/mod\.ts → component cli \(glob src\/cli\/\*\*/);
  assert.match(r.stdout, /must\s+Bad input exits 2 with the value named/);
  assert.match(r.stdout, /depends on store:\n\s+must\s+Only this folder imports node:sqlite/);
  assert.doesNotMatch(r.stdout, /WAL mode/); // a dependency's info stays out
  r = await cli(home, ["constraints", "src/store/schema.ts", "--json"], { cwd: repo });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).constraints.map((c: { text: string }) => c.text), [
    "Never edit a released migration",
  ]);
});

Deno.test("constraints: a tie goes to the component declared first; a root file named ..x is covered; a dependency named twice counts once; no component exits 1; a broken map exits 2 with its line", async () => {
  const tie = `[component.a]
paths = ["lib/*.ts"]
[component.b]
paths = ["lib/*.ts"]
`;
  const { repo, home } = repoWith(tie, { "lib/x.ts": "" });
  assert.equal(constraintsFor(join(repo, "lib/x.ts"))?.component, "a");
  // A dependency named twice lists its constraints once.
  const twice = parseMap(MAP.replace('["store", "memory"]', '["store", "memory", "store"]'), "m");
  assert.deepEqual(twice.components[0]!.depends_on, ["store", "memory"]);
  // A name starting with ".." at the root is inside the repository like any other.
  const dots = repoWith(`[component.top]\npaths = ["*.ts"]\n`, { "..x.ts": "" });
  assert.equal(constraintsFor(join(dots.repo, "..x.ts"))?.component, "top");
  let r = await cli(home, ["constraints", "README.md"], { cwd: repo });
  assert.equal(r.code, 1);
  assert.match(r.stdout, /no component of .*map\.toml covers it/);

  const broken = repoWith(`[component.a]\npaths = ["src/**"\nmust = ["x"]\n`);
  r = await cli(broken.home, ["constraints", "src/cli/mod.ts"], { cwd: broken.repo });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /map\.toml:3: expected "," or "]"/);
  assert.throws(() => constraintsFor(join(broken.repo, "src/cli/mod.ts")), MapError);
});

Deno.test("map check passes a good map and lists file counts per component; a file as ROOT is named as one", async () => {
  const { repo, home } = repoWith(MAP);
  const r = await cli(home, ["map", "check", repo, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.problems, []);
  assert.deepEqual(
    out.components.map((c: { name: string; files: number }) => [c.name, c.files]),
    // The map's own folder is not indexed, so README.md is all that is left to "everything".
    [["cli", 1], ["store", 1], ["memory", 1], ["schema", 1], ["everything", 1]],
  );
  // ROOT is a folder: a file is refused as a file, not as missing.
  const file = await cli(home, ["map", "check", join(repo, "README.md")]);
  assert.equal(file.code, 2);
  assert.match(file.stderr, /README\.md": a file, not a folder; pass the repository's root/);
  // From inside the repository, ROOT defaults to the nearest map.
  const inside = await cli(home, ["map", "check"], { cwd: join(repo, "src/store") });
  assert.equal(inside.code, 0, inside.stderr);
  assert.match(inside.stdout, /map ok/);
});

Deno.test("map check exits 1 on a glob matching nothing, a component whose files are gone, and a map that does not parse or is not UTF-8", async () => {
  const { repo, home } = repoWith(
    MAP.replace('paths = ["src/memory/**"]', 'paths = [\n  "src/memory/**",\n  "src/memroy/**",\n]')
      .replace('paths = ["src/store/**"]', 'paths = ["src/store/**"]\nsources = ["docs/gone.md"]'),
  );
  let r = await cli(home, ["map", "check", repo]);
  assert.equal(r.code, 1);
  // Each problem names the file and the line to fix, as a parse error does.
  assert.match(
    r.stderr,
    /map\.toml:19: glob "src\/memroy\/\*\*" of component "memory" matches no file .*; fix it/,
  );
  assert.match(r.stderr, /map\.toml:11: source "docs\/gone\.md" of component "store" does not/);

  // All of a component's files vanish.
  Deno.writeTextFileSync(join(repo, ".heimdall/map.toml"), MAP);
  Deno.removeSync(join(repo, "src/memory"), { recursive: true });
  r = await cli(home, ["map", "check", repo, "--json"]);
  assert.equal(r.code, 1);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(
    out.problems.map((
      p: { kind: string; component: string; line: number },
    ) => [p.kind, p.component, p.line]),
    [
      ["component-empty", "memory", 15],
    ],
  );

  // A map that does not parse: the line is named.
  Deno.writeTextFileSync(
    join(repo, ".heimdall/map.toml"),
    `[component.a]\npaths = ["src/**"]\nmust = "not a list"\n`,
  );
  r = await cli(home, ["map", "check", repo]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /map\.toml:3: "must" of component "a" must be a list of strings/);
  // It was not checked against the files: no "0 files, 0 in no component" to mislead.
  assert.doesNotMatch(r.stdout, /\d+ files?, \d+ in no component/);
  Deno.writeTextFileSync(
    join(repo, ".heimdall/map.toml"),
    `[component.a]\npaths = ["src/**"]\ndepends_on = ["ghost"]\n`,
  );
  r = await cli(home, ["map", "check", repo]);
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /map\.toml:3: component "a" depends on "ghost", which the map does not declare/,
  );

  // Bytes that are not UTF-8 are refused with their line, not read as a glob of "\ufffd".
  Deno.writeFileSync(
    join(repo, ".heimdall/map.toml"),
    new Uint8Array([
      ...new TextEncoder().encode('[component.a]\npaths = ["src/'),
      0xff,
      0x2a,
      0x22,
      0x5d,
      0x0a,
    ]),
  );
  r = await cli(home, ["map", "check", repo]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /map\.toml:2: not valid UTF-8; save the map as UTF-8/);
  assert.throws(() => constraintsFor(join(repo, "src/cli/mod.ts")), /map\.toml:2: not valid UTF-8/);

  // No map at all: exit 1, said plainly.
  const none = repoWith(null);
  r = await cli(none.home, ["map", "check", none.repo]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /no \.heimdall\/map\.toml/);
  r = await cli(none.home, ["map", "lint"]);
  assert.equal(r.code, 2);
});

Deno.test("a map.json says the same as map.toml; an ignored folder's files do not count", async () => {
  const json = JSON.stringify(
    {
      component: {
        store: { paths: ["src/store/**"], must: ["Only this folder imports node:sqlite"] },
        vendored: { paths: ["vendor/**"] },
      },
    },
    null,
    2,
  );
  const { repo, home } = repoWith(null, {
    ".heimdall/map.json": json,
    ".gitignore": "vendor/\n",
    "vendor/lib.js": "x",
  });
  assert.deepEqual(
    constraintsFor(join(repo, "src/store/journal.ts"))?.constraints.map((c) => c.text),
    [
      "Only this folder imports node:sqlite",
    ],
  );
  const r = await cli(home, ["map", "check", repo]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /component "vendored" covers no file/);
  // A component (or key) written twice is refused, not dropped silently as JSON.parse does.
  assert.throws(
    () =>
      parseMap(
        '{"component": {\n  "a": {"paths": ["x"], "must": ["m"]},\n  "b": {"paths": ["y"], "note": "{\\"a\\": 1}"},\n  "a": {"paths": ["z"]}\n}}',
        "m.json",
      ),
    /m\.json:4: "a" is defined twice in the same object/,
  );
  assert.equal(
    parseMap(
      '{"component": {"a": {"paths": ["x"], "depends_on": ["b"]}, "b": {"paths": ["a"]}}}',
      "m.json",
    )
      .components.length,
    2,
  );
  // The line of a JSON key is the one under its own component, not the first of that name.
  assert.throws(
    () =>
      parseMap(
        '{"component": {\n  "a": {\n    "paths": ["x"]\n  },\n  "b": {\n    "paths": ["y/[z-a]"]\n  }\n}}',
        "m.json",
      ),
    /m\.json:6: Bad glob "y\/\[z-a\]"/,
  );
  assert.throws(
    () =>
      parseMap(
        '{\n  "component": {\n    "a": { "paths": ["x"], "colour": "red" }\n  }\n}',
        "m.json",
      ),
    /m\.json:3: unknown key "colour" in component "a"/,
  );
});

Deno.test("map check refuses a map with no component and a source that does not exist, and counts constraints with no source", async () => {
  const empty = repoWith("# nothing declared yet\n");
  let r = await cli(empty.home, ["map", "check", empty.repo]);
  assert.equal(r.code, 1, "an empty map is not ok");
  assert.match(
    r.stderr,
    /declares no component, so it constrains nothing; add \[component\.NAME\]/,
  );
  assert.doesNotMatch(r.stdout, /map ok/);

  const sourced = MAP.replace(
    'paths = ["src/store/**"]',
    'paths = ["src/store/**"]\nsources = ["docs/adr/0001-journal.md"]',
  );
  const { repo, home } = repoWith(sourced);
  r = await cli(home, ["map", "check", repo, "--json"]);
  assert.equal(r.code, 1);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.problems.map((p: { kind: string }) => p.kind), ["source-missing"]);
  // cli 2 + memory 1 + schema 1 + everything 1; store's 3 cite their source.
  assert.equal(out.unsourced, 5);
  writeTree(repo, { "docs/adr/0001-journal.md": "# The journal\n\nOne SQLite file.\n" });
  r = await cli(home, ["map", "check", repo]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /info: 5 constraints cite no source document/);
});

Deno.test("map check names the documents the last commit changed that the index has not seen", async () => {
  const { repo, home } = repoWith(MAP, { "docs/guide.md": "# Guide\n\nv1\n" });
  const git = (...args: string[]) => {
    const out = new Deno.Command("git", {
      args: ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args],
      stdout: "null",
      stderr: "piped",
    }).outputSync();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
  };
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "first");
  assert.equal((await cli(home, ["index", repo, "--no-embed"])).code, 0);
  let r = await cli(home, ["map", "check", repo, "--json"]);
  assert.deepEqual(JSON.parse(r.stdout).behind_head, [], "everything committed is indexed");

  // A commit changes one document and adds another; the index has not run since.
  writeTree(repo, { "docs/guide.md": "# Guide\n\nv2\n", "docs/adr.md": "# ADR\n" });
  git("add", ".");
  git("commit", "-qm", "second");
  r = await cli(home, ["map", "check", repo]);
  assert.equal(r.code, 0, "behind HEAD is reported, not a failure");
  assert.match(r.stdout, /behind HEAD: 2 documents the last commit changed/);
  assert.match(r.stdout, /docs\/adr\.md {2}not indexed/);
  assert.match(r.stdout, /docs\/guide\.md {2}older version indexed/);
  // Edited again after the commit: the working tree's business, not a stale index.
  Deno.writeTextFileSync(join(repo, "docs/guide.md"), "# Guide\n\nv3, uncommitted\n");
  r = await cli(home, ["map", "check", repo, "--json"]);
  assert.deepEqual(JSON.parse(r.stdout).behind_head.map((b: { rel: string }) => b.rel), [
    "docs/adr.md",
  ]);
  assert.equal((await cli(home, ["reconcile", repo])).code, 0);
  r = await cli(home, ["map", "check", repo, "--json"]);
  assert.deepEqual(JSON.parse(r.stdout).behind_head, []);
});

Deno.test("map check asks git a fixed number of times however many documents the last commit changed", async () => {
  const docs = Object.fromEntries(
    Array.from({ length: 40 }, (_, i) => [`docs/d${i}.md`, `# Doc ${i}\n`]),
  );
  const { base, repo, home } = repoWith(MAP, docs);
  const run = (...args: string[]) =>
    new Deno.Command("git", {
      args: ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args],
      stdout: "null",
    }).outputSync();
  run("init", "-q");
  run("add", ".");
  run("commit", "-qm", "forty documents");
  Deno.writeTextFileSync(join(repo, "docs/d3.md"), "# Doc 3, edited since\n");
  // A git on PATH that logs each call, then runs the real one.
  const real = new TextDecoder().decode(
    new Deno.Command("sh", { args: ["-c", "command -v git"], stdout: "piped" }).outputSync().stdout,
  ).trim();
  const log = join(base, "git.log");
  writeTree(base, { "bin/git": `#!/bin/sh\necho "$@" >> ${log}\nexec ${real} "$@"\n` });
  Deno.chmodSync(join(base, "bin/git"), 0o755);
  const r = await cli(home, ["map", "check", repo, "--json"], {
    env: { PATH: `${join(base, "bin")}:${Deno.env.get("PATH")}` },
  });
  const behind = JSON.parse(r.stdout).behind_head.map((b: { rel: string }) => b.rel);
  // README.md and the forty, but the one edited since.
  assert.equal(behind.length, 40, JSON.stringify(behind));
  assert.ok(!behind.includes("docs/d3.md"));
  const calls = Deno.readTextFileSync(log).trim().split("\n");
  assert.ok(calls.length <= 4, `${calls.length} git calls:\n${calls.join("\n")}`);
});

Deno.test("a secret written in the map is redacted in what constraints show, on the command line and over MCP", async () => {
  const repo = tempDir();
  const home = tempDir();
  const token = secretSamples().find((s) => s.kind === "github_token")!.secret;
  writeTree(repo, {
    ".heimdall/map.toml":
      `[component.deploy]\ndescription = "Deploys with ${token}"\npaths = ["deploy/**"]\nmust = ["Deploy with token ${token} only"]\n`,
    "deploy/run.sh": "echo run\n",
  });
  const shown = await cli(home, ["constraints", join(repo, "deploy/run.sh"), "--json"]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.ok(!shown.stdout.includes(token), shown.stdout);
  assert.match(shown.stdout, /Deploy with token \[REDACTED:github_token\] only/);
  const client = new Client({ name: "heimdall-map-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", ...PERMS, MAIN, "mcp"],
      env: mcpEnv(home),
      cwd: repo,
      stderr: "pipe",
    }),
  );
  try {
    const r = await client.callTool({
      name: "constraints",
      arguments: { path: "deploy/run.sh" },
    }) as { content: { text: string }[]; structuredContent?: unknown };
    const all = JSON.stringify(r);
    assert.ok(!all.includes(token), all);
    assert.match(all, /\[REDACTED:github_token\]/);
  } finally {
    await client.close();
  }
});

Deno.test("an empty constraint is refused with its line, not shown as a blank rule before every edit", async () => {
  const { repo, home } = repoWith(
    `[component.a]\npaths = ["src/**"]\nmust = [\n  "Bad input exits 2",\n  "  ",\n]\n`,
  );
  let r = await cli(home, ["constraints", join(repo, "src/cli/mod.ts")]);
  assert.equal(r.code, 2, r.stdout);
  assert.match(r.stderr, /map\.toml:5: "must" constraint 2 of component "a" is empty/);
  r = await cli(home, ["map", "check", repo]);
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stderr, /map\.toml:5: "must" constraint 2 of component "a" is empty/);
});
