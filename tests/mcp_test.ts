/**
 * `heimdall mcp` end to end: the official SDK's client over stdio against
 * `deno run main.ts mcp` on an indexed fixture repository; the stateless
 * 2026-07-28 revision spoken raw over the same stdio; and two machines
 * sharing memory through a real PostgreSQL (see tests/team_fixture.ts for
 * where the server comes from).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  cli,
  copyDir,
  MAIN,
  mcpEnv,
  openFilesOf,
  removeTree,
  SLUGIFY,
  tempDir,
  writeTree,
} from "./helpers.ts";
import {
  freshDatabase,
  heimdall,
  heimdallJson,
  type Machine,
  machine,
  noPostgres,
  pgServer,
  sql,
} from "./team_fixture.ts";
import { fixture, payloadText } from "./harness_fixtures.ts";
import { TOOLS } from "../src/mcp/tools/mod.ts";
import { Journal } from "../src/store/mod.ts";

/** Every tool the server lists: the stateless answers must carry them all. */
const TOOL_COUNT = TOOLS.length;

const FIXTURE = new URL("./fixtures/harness/repo/", import.meta.url).pathname;
const PERMS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  "--allow-net=127.0.0.1,localhost",
];

/** A fixture repository, indexed, with one decision and one failed attempt on compute_total. */
async function indexedRepo(): Promise<{ base: string; repo: string; home: string }> {
  const base = tempDir();
  const repo = join(base, "shop");
  const home = join(base, "home");
  copyDir(FIXTURE, repo);
  const env = { HEIMDALL_AUTHOR: "ada" };
  assert.equal((await cli(home, ["index", repo], { env })).code, 0);
  const sym = `${repo}/pkg/billing.py:compute_total`;
  assert.equal(
    (await cli(home, [
      "remember",
      "--kind",
      "decision",
      "--about",
      sym,
      "Discounts are clamped to [0, 1]",
    ], { env }))
      .code,
    0,
  );
  assert.equal(
    (await cli(home, [
      "attempt",
      "--about",
      sym,
      "--failed",
      "--tests",
      "t::neg",
      "Rounding first broke t::neg",
    ], {
      env,
    })).code,
    0,
  );
  return { base, repo, home };
}

async function connect(home: string, cwd: string, author = "ada"): Promise<Client> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...PERMS, MAIN, "mcp"],
    env: mcpEnv(home, author),
    cwd,
    stderr: "pipe",
  });
  const client = new Client({ name: "heimdall-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** A note remember takes, on the server's folder. */
const NOTE = { kind: "note", text: "Totals are rounded last", about: ["."] };

type CallResult = {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

function text(r: CallResult): string {
  return r.content.map((c) => c.text).join("\n");
}

Deno.test("the SDK client lists every tool with a schema and honest annotations, and calls each", async () => {
  const { base, repo, home } = await indexedRepo();
  const client = await connect(home, repo);
  try {
    assert.equal(client.getServerVersion()?.name, "heimdall");
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.deepEqual(names.sort(), [
      "blast_radius",
      "callees",
      "callers",
      "claim",
      "conflicts",
      "constraints",
      "handoff",
      "insert_note",
      "list_tasks",
      "record_attempt",
      "release",
      "remember",
      "resume_task",
      "search",
      "start_task",
      "status",
      "symbols",
      "who_knows",
      "why",
    ]);
    for (const t of tools) {
      assert.equal(t.inputSchema.type, "object", t.name);
      assert.ok(t.description && t.description.length > 40, t.name);
      assert.equal(typeof t.annotations?.readOnlyHint, "boolean", t.name);
      assert.equal(typeof t.annotations?.destructiveHint, "boolean", t.name);
      assert.equal(typeof t.annotations?.idempotentHint, "boolean", t.name);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    // What an agent is told of superseding is what remember does (a fact replaces a fact too).
    assert.match(
      byName.get("remember")!.description!,
      /decision, convention or fact on the same anchors supersedes the current one of its kind/,
    );
    for (
      const ro of [
        "search",
        "why",
        "callers",
        "callees",
        "blast_radius",
        "symbols",
        "constraints",
        "who_knows",
        "status",
        "list_tasks",
      ]
    ) {
      assert.equal(byName.get(ro)!.annotations!.readOnlyHint, true, ro);
    }
    for (
      const rw of [
        "insert_note",
        "remember",
        "record_attempt",
        "claim",
        "handoff",
        "start_task",
        "resume_task",
        "release",
      ]
    ) {
      assert.equal(byName.get(rw)!.annotations!.readOnlyHint, false, rw);
    }
    assert.deepEqual(Object.keys(byName.get("search")!.inputSchema.properties ?? {}).sort(), [
      "kind",
      "lang",
      "limit",
      "path_prefix",
      "query",
      "repo",
    ]);

    const call = async (name: string, args: Record<string, unknown>) =>
      await client.callTool({ name, arguments: args }) as CallResult;

    const search = await call("search", { query: "compute total discount" });
    assert.ok(!search.isError, text(search));
    const hits = search.structuredContent!.hits as {
      path: string;
      verdict: string;
      symbols: { name: string; line: number }[];
      confidence: number;
    }[];
    const billing = hits.find((h) => h.path?.endsWith("pkg/billing.py"));
    assert.ok(billing, text(search));
    assert.ok(billing.symbols.length > 0 && billing.symbols.length <= 5, text(search));
    assert.ok(billing.confidence >= 0 && billing.confidence <= 1);
    assert.match(text(search), /STRONG|WEAK/);

    const sym = "pkg/billing.py:compute_total";
    const why = await call("why", { target: sym });
    assert.ok(!why.isError, text(why));
    assert.match(text(why), /Discounts are clamped/);
    // Past ten, the history the text leaves out is counted, not silently dropped.
    for (let i = 1; i <= 12; i++) {
      await call("remember", { kind: "decision", text: `Round rule ${i}`, about: ["pkg/cart.py"] });
    }
    const long = await call("why", { target: "pkg/cart.py" });
    const history = (long.structuredContent!.history as unknown[]).length;
    assert.ok(history > 10, text(long));
    assert.match(
      text(long),
      new RegExp(`- … and ${history - 10} older in history \\(all in the structured answer; `),
    );

    const callers = await call("callers", { symbol: sym });
    assert.ok(!callers.isError, text(callers));
    assert.match(text(callers), /Cart\.total/);
    const callees = await call("callees", { symbol: sym });
    // The callee where it is defined, with the line that calls it (the CLI's listing).
    assert.match(
      text(callees),
      /function apply_discount — pkg\/billing\.py:4 {2}\(called at line 12\)/,
    );
    const blast = await call("blast_radius", { symbol: "apply_discount", depth: 2 });
    assert.match(text(blast), /compute_total/);
    // A listing stops at `limit` and says how many more there are.
    const total = (blast.structuredContent as { total: number }).total;
    assert.ok(total >= 2, text(blast));
    const one = await call("blast_radius", { symbol: "apply_discount", depth: 2, limit: 1 });
    assert.equal((one.structuredContent as { hits: unknown[] }).hits.length, 1);
    assert.match(
      text(one),
      new RegExp(
        `… and ${total - 1} more dependents within 2 hops; call again with a larger limit`,
      ),
    );
    const symbols = await call("symbols", { path: "pkg/billing.py" });
    assert.match(text(symbols), /function compute_total/);

    const constraints = await call("constraints", { path: "pkg/cart.py" });
    assert.match(text(constraints), /must: A cart never computes money itself/);
    assert.equal(constraints.structuredContent!.component, "cart");

    const note = await call("insert_note", {
      title: "How totals work",
      body: "compute_total sums then discounts",
      paths: ["pkg/billing.py"],
    });
    assert.ok(!note.isError, text(note));
    assert.equal(typeof note.structuredContent!.id, "number");
    // As `heimdall insert`: a path that is not there is refused, named, and nothing is written.
    const astray = await call("insert_note", {
      title: "Where totals live",
      body: "see the file",
      paths: ["pkg/no_such.py"],
    });
    assert.equal(astray.isError, true, text(astray));
    assert.match(text(astray), /Cannot attach "pkg\/no_such\.py": no such file or folder/);
    // An empty path is no path: never the server's folder.
    const empty = await call("insert_note", { title: "Totals", body: "x", paths: [""] });
    assert.equal(empty.isError, true, text(empty));
    assert.match(text(empty), /Empty path "" in paths/);
    const blankAbout = await call("remember", { kind: "note", text: "x", about: [" "] });
    assert.match(text(blankAbout), /Empty --about " ": it names no symbol or path/);
    const blank = await call("insert_note", { title: "   ", body: "x" });
    assert.equal(blank.isError, true, text(blank));
    assert.match(text(blank), /Empty title/);
    const remembered = await call("remember", {
      kind: "convention",
      text: "Prices are floats in euros",
      about: ["pkg/billing.py"],
    });
    assert.ok(!remembered.isError, text(remembered));
    const attempt = await call("record_attempt", {
      about: [sym],
      outcome: "passed",
      text: "Clamping the discount fixed it",
      tests: ["t::neg"],
    });
    assert.ok(!attempt.isError, text(attempt));
    assert.match(text(attempt), /resolves/);

    const claim = await call("claim", { targets: [sym] });
    assert.ok(!claim.isError, text(claim));
    assert.match(text(claim), /Claimed 1 symbol/);
    const conflicts = await call("conflicts", { target: "Cart.total" });
    assert.ok(!conflicts.isError, text(conflicts));
    assert.equal(
      (conflicts.structuredContent!.conflicts as unknown[]).length,
      0,
      "your own claim is not a conflict",
    );
    // A folder is no claim's target: said so, not "check the spelling".
    const folder = await call("conflicts", { target: "pkg" });
    assert.equal(folder.isError, true, text(folder));
    assert.match(text(folder), /"\S*\/pkg" is a folder; .*name one of its files, or a symbol/);
    const who = await call("who_knows", { target: sym });
    assert.ok(!who.isError, text(who));
    assert.match(text(who), /ada/);
    assert.match(text(who), /: 1 person across \d+ symbols?\n/, text(who));
    const handoff = await call("handoff", { task_id: "no-such-task", to: "grace" });
    assert.equal(handoff.isError, true, "an unknown task is an error result");
    // Eleven people who claimed it: the text names ten and counts the rest.
    for (let i = 0; i < 11; i++) {
      const r = await cli(home, ["claim", "Cart.total"], {
        cwd: repo,
        env: { HEIMDALL_AUTHOR: `dev${i}` },
      });
      assert.equal(r.code === 0 || r.code === 1, true, r.stderr);
    }
    const people = await call("who_knows", { target: "Cart.total" });
    const experts = (people.structuredContent!.experts as unknown[]).length;
    assert.ok(experts > 10, text(people));
    assert.match(
      text(people),
      new RegExp(`- … and ${experts - 10} more \\(all in the structured answer\\)`),
    );

    const status = await call("status", {});
    assert.ok(!status.isError, text(status));
    assert.equal((status.structuredContent!.roots as unknown[]).length, 1);

    // Errors come back as isError results written for the agent.
    const badArgs = await call("search", {});
    assert.equal(badArgs.isError, true);
    assert.match(text(badArgs), /query/);
    // A query of spaces asks nothing: an error, not "no hits".
    const spaces = await call("search", { query: "   " });
    assert.equal(spaces.isError, true, text(spaces));
    assert.match(text(spaces), /Empty query/);
    const unknownSymbol = await call("callers", { symbol: "no_such_function_anywhere" });
    assert.equal(unknownSymbol.isError, true);
    assert.match(text(unknownSymbol), /No symbol "no_such_function_anywhere"/);
    // An unknown tool is a JSON-RPC error (-32602), as MCP's tools page has it, naming the tools.
    await assert.rejects(
      call("no_such_tool", {}),
      (e: Error & { code?: number }) =>
        e.code === -32602 &&
        /Unknown tool "no_such_tool": the tools are search, insert_note, .*status/.test(e.message),
    );
  } finally {
    await client.close();
    removeTree(base);
  }
});

Deno.test("the task board over MCP: start, list, hand off, resume with the whole history, release", async () => {
  const { base, repo, home } = await indexedRepo();
  const [ada, grace] = [await connect(home, repo, "ada"), await connect(home, repo, "grace")];
  const call = async (c: Client, name: string, args: Record<string, unknown>) => {
    const r = await c.callTool({ name, arguments: args }) as CallResult;
    return r;
  };
  try {
    const started = await call(ada, "start_task", { text: "Fix negative discounts" });
    assert.ok(!started.isError, text(started));
    const id = (started.structuredContent!.task as { id: string }).id;
    assert.ok(!(await call(ada, "claim", { targets: ["pkg/billing.py:compute_total"] })).isError);
    const tried = await call(ada, "record_attempt", {
      about: ["pkg/billing.py:compute_total"],
      outcome: "failed",
      text: "Clamping in Cart broke t::neg",
    });
    assert.ok(!tried.isError, text(tried));
    const mine = await call(ada, "list_tasks", {});
    assert.equal(mine.structuredContent!.current, id);
    assert.match(text(mine), new RegExp(`\\* ${id} "Fix negative discounts" \\(open, ada\\)`));
    assert.ok(!(await call(ada, "handoff", { task_id: id, to: "grace", note: "t::neg" })).isError);

    const waiting = await call(grace, "list_tasks", { which: "handed_off" });
    assert.deepEqual(
      (waiting.structuredContent!.tasks as { id: string }[]).map((t) => t.id),
      [id],
    );
    assert.equal(
      ((await call(grace, "list_tasks", { which: "open" })).structuredContent!.tasks as unknown[])
        .length,
      0,
    );
    const resumed = await call(grace, "resume_task", { task_id: id });
    assert.ok(!resumed.isError, text(resumed));
    assert.match(text(resumed), /Clamping in Cart broke t::neg/, "the history comes in one call");
    assert.match(text(resumed), /handoff ada: t::neg/);
    const claims = resumed.structuredContent!.claims as { developer: string }[];
    assert.deepEqual(claims.map((c) => c.developer), ["grace"], "ownership moved");
    const team = await call(grace, "list_tasks", { which: "mine" });
    assert.equal(team.structuredContent!.current, id);

    const both = await call(grace, "release", { task_id: id, all: true });
    assert.equal(both.isError, true);
    assert.match(text(both), /exactly one of targets, task_id or all/);
    const released = await call(grace, "release", { task_id: id });
    assert.ok(!released.isError, text(released));
    assert.equal(released.structuredContent!.released, 1);
    // One task a line, as `heimdall task list` shows it, whatever its text holds.
    const second = await call(grace, "start_task", { text: "Check rounding\nthen totals" });
    assert.match(text(second), /"Check rounding\\nthen totals"/);
    const listed = await call(grace, "list_tasks", {});
    const tasks = listed.structuredContent!.tasks as unknown[];
    assert.equal(text(listed).split("\n").length, tasks.length, text(listed));
  } finally {
    await ada.close();
    await grace.close();
    removeTree(base);
  }
});

Deno.test("conflicts leaves out the claims the agent's own hooks made, release lets them go, and a teammate's stay", async () => {
  const { base, repo, home } = await indexedRepo();
  // Claude Code's before-edit hook claims compute_total in the harness's session,
  // which the MCP server it also started knows nothing of.
  const preEdit = payloadText(fixture("claude-code", "pre_edit"), repo);
  const hook = (author: string, session: string) =>
    cli(home, ["hook", "--harness", "claude-code"], {
      stdin: JSON.stringify({ ...JSON.parse(preEdit), session_id: session }),
      cwd: repo,
      env: { HEIMDALL_AUTHOR: author, HEIMDALL_HOOK_SERVER: "0" },
    });
  assert.equal((await hook("ada", "cc-ada")).code, 0);
  const claims = await cli(home, ["claims"], { cwd: repo });
  assert.match(claims.stdout, /ada \(claude-code\) +compute_total/, claims.stdout);
  const client = await connect(home, repo, "ada");
  const call = async (name: string, args: Record<string, unknown>) =>
    await client.callTool({ name, arguments: args }) as CallResult;
  try {
    const own = await call("conflicts", { target: "compute_total" });
    assert.ok(!own.isError, text(own));
    assert.match(text(own), /^compute_total: 0 conflict\(s\)$/, "its own claim, as another's");
    assert.equal(own.structuredContent!.othersActive, 0);
    // A teammate's hook claim is a conflict, as before.
    assert.equal((await hook("bob", "cc-bob")).code, 0);
    const theirs = await call("conflicts", { target: "compute_total" });
    const who = (theirs.structuredContent!.conflicts as { claim: { developer: string } }[])
      .map((c) => c.claim.developer);
    assert.deepEqual(who, ["bob"], text(theirs));
    // Done with it: the agent lets its own claim go, and only its own.
    const released = await call("release", { targets: ["compute_total"] });
    assert.ok(!released.isError, text(released));
    assert.equal(released.structuredContent!.released, 1, text(released));
    const left = await cli(home, ["claims"], { cwd: repo });
    assert.doesNotMatch(left.stdout, /ada/, left.stdout);
    assert.match(left.stdout, /bob \(claude-code\) +compute_total/, left.stdout);
  } finally {
    await client.close();
    removeTree(base);
  }
});

Deno.test("remember, record_attempt and claim over MCP file under the task the agent's hooks started from its prompt", async () => {
  const { base, repo, home } = await indexedRepo();
  // Claude Code's prompt hook makes the prompt the session's task, in the harness's session.
  const prompt = payloadText(fixture("claude-code", "prompt"), repo);
  const hooked = await cli(home, ["hook", "--harness", "claude-code"], {
    stdin: JSON.stringify({ ...JSON.parse(prompt), session_id: "cc-ada" }),
    cwd: repo,
    env: { HEIMDALL_AUTHOR: "ada", HEIMDALL_HOOK_SERVER: "0" },
  });
  assert.equal(hooked.code, 0, hooked.stderr);
  const listed = await cli(home, ["task", "list", "--json"], { cwd: repo });
  const [task] = (JSON.parse(listed.stdout) as { tasks: { id: string }[] }).tasks;
  assert.ok(task, listed.stdout);
  const client = await connect(home, repo, "ada");
  const call = async (name: string, args: Record<string, unknown>) =>
    await client.callTool({ name, arguments: args }) as CallResult;
  try {
    const mine = await call("list_tasks", {});
    assert.equal(mine.structuredContent!.current, task.id, text(mine));
    for (
      const [name, args] of [
        ["record_attempt", { about: ["compute_total"], outcome: "failed", text: "Clamping broke" }],
        ["remember", { kind: "decision", text: "Clamp discounts at 0", about: ["compute_total"] }],
        ["claim", { targets: ["compute_total"] }],
      ] as const
    ) {
      const r = await call(name, args);
      assert.ok(!r.isError, text(r));
    }
    const shown = await cli(home, ["task", "show", task.id, "--json"], { cwd: repo });
    const got = JSON.parse(shown.stdout) as {
      memories: { text: string }[];
      claims: { qualname: string }[];
    };
    assert.deepEqual(
      got.memories.map((m) => m.text).sort(),
      ["Clamp discounts at 0", "Clamping broke"],
      "what the agent records belongs to the task it works on",
    );
    assert.deepEqual(got.claims.map((c) => c.qualname), ["compute_total"]);
    // Named, the task is the agent's own too.
    const named = await call("claim", { targets: ["apply_discount"], task_id: task.id });
    assert.ok(!named.isError, text(named));
    assert.match(text(named), new RegExp(`for task ${task.id}`));
    // A task the agent starts itself is its current one from then on.
    const own = await call("start_task", { text: "Round totals last" });
    const ownId = (own.structuredContent!.task as { id: string }).id;
    assert.equal((await call("list_tasks", {})).structuredContent!.current, ownId);
  } finally {
    await client.close();
    removeTree(base);
  }
});

Deno.test("search's repo and path_prefix resolve from the server's folder, as the CLI's --repo and --path do from the shell's", async () => {
  const { base, repo, home } = await indexedRepo();
  const pkg = join(repo, "pkg");
  const link = join(base, "shop-link");
  Deno.symlinkSync(repo, link);
  const client = await connect(home, pkg);
  try {
    const query = "compute_total";
    const paths = (r: CallResult) =>
      (r.structuredContent!.hits as { path: string }[]).map((h) => h.path).sort();
    const cliPaths = async (flags: string[]) => {
      const r = await cli(home, ["search", query, "--json", ...flags], {
        cwd: pkg,
        env: { HEIMDALL_HOOK_SERVER: "0" },
      });
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout).hits as { path: string }[]).map((h) => h.path).sort();
    };
    // Unfiltered, the question finds the test folder too: the filters below must drop it.
    const all = await client.callTool({ name: "search", arguments: { query } }) as CallResult;
    assert.ok(paths(all).some((p) => p.includes("/tests/")), text(all));
    const cases: [Record<string, string>, string[]][] = [
      [{ path_prefix: "." }, ["--path", "."]],
      [{ repo: "." }, ["--repo", "."]],
      [{ path_prefix: join(link, "pkg") }, ["--path", join(link, "pkg")]],
    ];
    for (const [filter, flags] of cases) {
      const r = await client.callTool({
        name: "search",
        arguments: { query, ...filter },
      }) as CallResult;
      assert.ok(!r.isError, `${JSON.stringify(filter)}: ${text(r)}`);
      assert.ok(paths(r).length > 0, text(r));
      assert.ok(paths(r).every((p) => p.startsWith(pkg + "/")), text(r));
      assert.deepEqual(paths(r), await cliPaths(flags), JSON.stringify(filter));
    }
  } finally {
    await client.close();
    removeTree(base);
  }
});

Deno.test("search's text names where else a hit's function is copied, relative to the server's folder; its result lists every place", async () => {
  const base = tempDir();
  const repo = join(base, "mono");
  const home = join(base, "home");
  // Seven packages with a module of their own, each holding a copy of one function.
  const files: Record<string, string> = {};
  for (const name of ["blog", "shop", "docs", "cli", "api", "web", "admin"]) {
    files[`${name}/src/util.ts`] =
      `export function ${name}Title(items: string[]): string {\n  const head = "${name}";\n` +
      `  return head + items.map((i) => i.trim()).join(", ");\n}\n\n${SLUGIFY}\n`;
  }
  writeTree(repo, files);
  assert.equal((await cli(home, ["index", repo])).code, 0);
  const client = await connect(home, repo);
  try {
    const r = await client.callTool({
      name: "search",
      arguments: { query: "slugify a title" },
    }) as CallResult;
    assert.ok(!r.isError, text(r));
    const hit =
      (r.structuredContent!.hits as { path: string; same_code: { path: string }[] }[])[0]!;
    assert.equal(hit.same_code.length, 6, text(r));
    const first = text(r).split("\n").find((l) => l.startsWith("1. "))!;
    assert.match(
      first,
      /; same code in: (\w+\/src\/util\.ts:6, ){4}\w+\/src\/util\.ts:6 \(\+1 more\)$/,
    );
  } finally {
    await client.close();
    removeTree(base);
  }
});

Deno.test("search answers a megabyte pasted without spaces as the CLI answers a long query: its first words, the rest named as left out", async () => {
  const { base, repo, home } = await indexedRepo();
  const client = await connect(home, repo);
  try {
    // A dotted chain, a camelCase run and a script without spaces: each splits into
    // more words than one call takes as arguments.
    const chain = ["compute_total", ...Array.from({ length: 150_000 }, (_, i) => `w${i}`)].join(
      ".",
    );
    const camel = "computeTotal" + "DiscountRate".repeat(80_000);
    const han = "割引" + "合計金額計算".repeat(60_000);
    for (const query of [chain, camel, han]) {
      const r = await client.callTool({ name: "search", arguments: { query } }) as CallResult;
      assert.ok(!r.isError, `${query.slice(0, 20)}…: ${text(r)}`);
    }
    const r = await client.callTool({ name: "search", arguments: { query: chain } }) as CallResult;
    assert.match(text(r), /the query's first 64 words; \d+ more left out/);
    assert.match(text(r), /compute_total/);
  } finally {
    await client.close();
    removeTree(base);
  }
});

Deno.test("a megabyte value a look-up finds nothing for is quoted cut short in its error, not sent back whole", async () => {
  const { base, repo, home } = await indexedRepo();
  const client = await connect(home, repo);
  try {
    const huge = "pkg/" + "a".repeat(1_000_000);
    const calls: [string, Record<string, string>][] = [
      ["search", { query: "total", lang: huge }],
      ["search", { query: "total", repo: huge }],
      ["search", { query: "total", path_prefix: huge }],
      ["symbols", { path: huge }],
      ["why", { target: "compute_total", as_of: huge }],
    ];
    for (const [name, args] of calls) {
      const r = await client.callTool({ name, arguments: args }) as CallResult;
      const what = `${name} ${Object.keys(args).join(",")}`;
      assert.ok(r.isError, what);
      assert.match(text(r), /… \(\d{7} characters\)/, what);
      assert.ok(text(r).length < 2_000, `${what}: ${text(r).length} characters`);
    }
  } finally {
    await client.close();
    removeTree(base);
  }
});

Deno.test("a hand-off note longer than a memory's text is refused with the limit, and the task stays the agent's", async () => {
  const { base, repo, home } = await indexedRepo();
  const client = await connect(home, repo);
  try {
    const started = await client.callTool({
      name: "start_task",
      arguments: { text: "fix totals" },
    }) as CallResult;
    assert.ok(!started.isError, text(started));
    const id = (started.structuredContent as { task: { id: string } }).task.id;
    const note = "pasted log line\n".repeat(5_000);
    const r = await client.callTool({
      name: "handoff",
      arguments: { task_id: id, to: "bob", note },
    }) as CallResult;
    assert.ok(r.isError, text(r));
    assert.match(
      text(r),
      new RegExp(`^Hand-off note too long: ${note.length} characters, at most 65536; `),
    );
    const list = await cli(home, ["task", "list", "--json"], {
      cwd: repo,
      env: { HEIMDALL_AUTHOR: "ada" },
    });
    assert.match(list.stdout, /"owner": ?"ada"/, list.stdout);
  } finally {
    await client.close();
    removeTree(base);
  }
});

Deno.test("an argument a tool does not take is refused by name, with the ones it takes, and nothing is written", async () => {
  const { base, repo, home } = await indexedRepo();
  const client = await connect(home, repo);
  try {
    for (const t of (await client.listTools()).tools) {
      assert.equal(t.inputSchema.additionalProperties, false, t.name);
    }
    const call = async (name: string, args: Record<string, unknown>) =>
      await client.callTool({ name, arguments: args }) as CallResult;
    // `--path` is the CLI's flag; the tool's is path_prefix: no unfiltered answer in its place.
    const search = await call("search", { query: "compute_total", path: "pkg" });
    assert.equal(search.isError, true, text(search));
    assert.match(
      text(search),
      /Unknown argument "path": search takes query, limit, repo, path_prefix, lang, kind/,
    );
    // A misspelt scope would have shared a memory meant to stay private.
    const remember = await call("remember", {
      kind: "note",
      text: "Only on this laptop",
      about: ["pkg/billing.py"],
      visibility: "private",
    });
    assert.equal(remember.isError, true, text(remember));
    assert.match(text(remember), /Unknown argument "visibility": remember takes .*scope/);
    const why = await call("why", { target: "pkg/billing.py" });
    assert.doesNotMatch(text(why), /Only on this laptop/);
    const status = await call("status", { verbose: true });
    assert.match(text(status), /Unknown argument "verbose": status takes no arguments/);
  } finally {
    await client.close();
    removeTree(base);
  }
});

Deno.test("symbols answers a path as `heimdall symbols` does: through a linked folder, and why a path has no outline", async () => {
  const base = tempDir();
  const repo = join(base, "repo");
  const home = join(base, "home");
  writeTree(repo, {
    "src/a.ts": "export function a(): void {}\n",
    ".gitignore": "gen/\n",
    "gen/out.ts": "export function g(): void {}\n",
  });
  assert.equal((await cli(home, ["index", repo])).code, 0);
  writeTree(repo, { "src/later.ts": "export function c(): void {}\n" });
  Deno.symlinkSync(repo, join(base, "link"));
  const client = await connect(home, repo);
  try {
    const outline = await client.callTool({
      name: "symbols",
      arguments: { path: join(base, "link/src/a.ts") },
    }) as CallResult;
    assert.ok(!outline.isError, text(outline));
    assert.match(text(outline), /function a/);
    // By the end of its path, as `heimdall symbols a.ts` finds it: the file named first.
    const byEnd = await client.callTool({
      name: "symbols",
      arguments: { path: "a.ts" },
    }) as CallResult;
    assert.ok(!byEnd.isError, text(byEnd));
    assert.ok(text(byEnd).startsWith(`${join(repo, "src/a.ts")}:\n`), text(byEnd));
    assert.match(text(byEnd), /function a/);
    const cases: [string, RegExp][] = [
      ["src/nope.ts", /No file ".*\/repo\/src\/nope\.ts"; check the path/],
      ["src", /".*\/repo\/src" is a folder; symbols outlines one file/],
      ["gen/out.ts", /".*\/gen\/out\.ts" is ignored \(\.gitignore:1 gen\/\)/],
      ["src/later.ts", /".*\/src\/later\.ts" is not in the index yet.*heimdall reconcile/],
    ];
    for (const [path, want] of cases) {
      const r = await client.callTool({ name: "symbols", arguments: { path } }) as CallResult;
      assert.equal(r.isError, true, path);
      assert.match(text(r), want, path);
      const typed = await cli(home, ["symbols", path], { cwd: repo });
      assert.equal(typed.stderr.trim(), `heimdall symbols: ${text(r)}`, path);
    }
  } finally {
    await client.close();
    removeTree(base);
  }
});

Deno.test("the graph tools say which file changed or went away since it was indexed, as the CLI does", async () => {
  const { base, repo, home } = await indexedRepo();
  const billing = join(repo, "pkg/billing.py");
  Deno.writeTextFileSync(billing, "# moved down a line\n" + Deno.readTextFileSync(billing));
  Deno.removeSync(join(repo, "tests/test_billing.py"));
  const client = await connect(home, repo);
  try {
    const call = async (name: string, args: Record<string, unknown>) =>
      await client.callTool({ name, arguments: args }) as CallResult;
    const moved =
      "note: pkg/billing.py changed since it was indexed: its lines may have moved; `heimdall reconcile pkg/billing.py` brings the index up to date";
    const outline = await call("symbols", { path: "pkg/billing.py" });
    assert.ok(text(outline).endsWith(`\n${moved}`), text(outline));
    assert.deepEqual(outline.structuredContent!.drifted, [{ path: billing, drift: "changed" }]);
    const callers = await call("callers", { symbol: "compute_total" });
    assert.ok(text(callers).includes(moved), text(callers));
    assert.match(
      text(callers),
      /note: tests\/test_billing\.py is gone from disk since it was indexed/,
    );
    // The same notes the command line prints on stderr.
    const typed = await cli(home, ["callers", "compute_total"], { cwd: repo });
    const notes = (t: string) =>
      t.split("\n").filter((l) => l.includes("note: ")).map((l) => l.slice(l.indexOf("note: ")));
    assert.deepEqual(notes(text(callers)), notes(typed.stderr));
    // A file as indexed gets none.
    const cart = await call("symbols", { path: "pkg/cart.py" });
    assert.doesNotMatch(text(cart), /note:/);
    assert.equal(cart.structuredContent!.drifted, undefined);
  } finally {
    await client.close();
    removeTree(base);
  }
});

Deno.test("constraints answers as `heimdall constraints`: a path no component covers, no map, a map that does not parse", async () => {
  const { base, repo, home } = await indexedRepo();
  const client = await connect(home, repo);
  try {
    const ask = async (path: string) =>
      await client.callTool({ name: "constraints", arguments: { path } }) as CallResult;
    const typed = async (path: string) =>
      (await cli(home, ["constraints", path], { cwd: repo })).stdout.trim();
    // The map covers pkg/ only: the README is in no component of it, which is not "no map".
    const readme = await ask("README.md");
    assert.equal(text(readme), await typed("README.md"));
    assert.match(text(readme), /no component of \S*\/\.heimdall\/map\.toml covers it/);
    const outside = await ask(base);
    assert.equal(text(outside), await typed(base));
    assert.match(text(outside), /no \.heimdall\/map\.toml in its folder or above/);
    Deno.writeTextFileSync(join(repo, ".heimdall/map.toml"), "[component.x\n");
    const broken = await ask("pkg/cart.py");
    assert.equal(broken.isError, true);
    assert.match(
      text(broken),
      /map\.toml:1: .*; fix the map \(`heimdall map check` lists every problem\)/,
    );
  } finally {
    await client.close();
    removeTree(base);
  }
});

Deno.test("HEIMDALL_HOME=~/… as an agent's JSON settings pass it is the home folder's, not a folder named ~ where the server starts", async () => {
  const base = tempDir();
  const repo = join(base, "repo");
  Deno.mkdirSync(repo);
  // No shell expands it: the process gets the tilde as written.
  const env = {
    ...mcpEnv("~/heimdall-home"),
    HOME: base,
    DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "", ".cache/deno"),
  };
  const client = new Client({ name: "heimdall-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", ...PERMS, MAIN, "mcp"],
      env,
      cwd: repo,
      stderr: "pipe",
    }),
  );
  try {
    const r = await client.callTool({ name: "remember", arguments: NOTE }) as CallResult;
    assert.ok(!r.isError, text(r));
    assert.ok(Deno.statSync(join(base, "heimdall-home/journal.db")).isFile);
    assert.throws(() => Deno.statSync(join(repo, "~")), Deno.errors.NotFound);
  } finally {
    await client.close();
  }
  const typed = await cli("~/heimdall-home", ["why", "."], { cwd: repo, env });
  assert.equal(typed.code, 0, typed.stderr);
  assert.match(typed.stdout, /Totals are rounded last/);
  removeTree(base);
});

Deno.test("tool calls without a journal are isError results naming the remedy", async () => {
  const base = tempDir();
  const client = await connect(join(base, "home"), base);
  try {
    const r = await client.callTool({
      name: "search",
      arguments: { query: "anything" },
    }) as CallResult;
    assert.equal(r.isError, true);
    assert.match(text(r), /heimdall index/);
  } finally {
    await client.close();
    removeTree(base);
  }
});

Deno.test("a home that cannot be made is an isError result with the remedy the command line gives", async () => {
  const base = tempDir();
  Deno.writeTextFileSync(join(base, "file"), "not a folder");
  const home = join(base, "file/home");
  const client = await connect(home, base);
  try {
    for (const [name, args] of [["status", {}], ["remember", NOTE]] as const) {
      const r = await client.callTool({ name, arguments: args }) as CallResult;
      assert.equal(r.isError, true, name);
      assert.match(
        text(r),
        /"[^"]*\/file" on its way is a file, not a folder.*; check that path and the disk, then retry$/,
        name,
      );
    }
    const typed = await cli(home, ["remember", "--kind", "note", "--about", ".", "x"], {
      cwd: base,
    });
    assert.equal(typed.code, 3);
    assert.match(
      typed.stderr,
      /"[^"]*\/file" on its way is a file, not a folder.*; check that path and the disk, then retry$/m,
    );
  } finally {
    await client.close();
    removeTree(base);
  }
});

Deno.test("a journal replaced at its path (indexed again, a rebuild's salvage) is the one MCP writes and reads next", async () => {
  const { base, repo, home } = await indexedRepo();
  const client = await connect(home, repo);
  const remember = async (note: string) => {
    const r = await client.callTool({
      name: "remember",
      arguments: { kind: "note", text: note, about: ["."] },
    }) as CallResult;
    assert.ok(!r.isError, text(r));
  };
  const count = (file: string, like: string) => {
    const j = Journal.open(file, { readOnly: true });
    try {
      return j.get<{ n: number }>("SELECT count(*) AS n FROM memories WHERE text LIKE ?", like)!.n;
    } finally {
      j.close();
    }
  };
  try {
    // Both connections and the team open on the first journal.
    await remember("first note, written before the journal is replaced");
    const started = await client.callTool({
      name: "start_task",
      arguments: { text: "a task before the journal is replaced" },
    }) as CallResult;
    assert.ok(!started.isError, text(started));
    const before = await client.callTool({ name: "search", arguments: { query: "compute total" } });
    assert.ok(!(before as CallResult).isError);
    // The journal moved aside with its WAL (as a salvage moves the damaged one), a new one indexed.
    const journal = join(home, "journal.db");
    for (const suffix of ["", "-wal", "-shm"]) {
      try {
        Deno.renameSync(journal + suffix, `${journal}.old${suffix}`);
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
      }
    }
    assert.equal((await cli(home, ["index", repo])).code, 0);
    await remember("second note, written after the journal is replaced");
    assert.equal(count(journal, "second note%"), 1, "written to the journal at the path");
    // The team's local store is that journal too: a task started now is there.
    const task = await client.callTool({
      name: "start_task",
      arguments: { text: "a task after the journal is replaced" },
    }) as CallResult;
    assert.ok(!task.isError, text(task));
    const tasks = (file: string) => {
      const j = Journal.open(file, { readOnly: true });
      try {
        return j.get<{ n: number }>(
          "SELECT count(*) AS n FROM tasks WHERE text LIKE 'a task after%'",
        )!
          .n;
      } finally {
        j.close();
      }
    };
    assert.equal(tasks(journal), 1);
    assert.equal(tasks(`${journal}.old`), 0);
    assert.equal(count(`${journal}.old`, "second note%"), 0, "not to the file moved aside");
    // Reads follow too: the new journal's note is found, the old one's is not there.
    const found = await client.callTool({
      name: "search",
      arguments: { query: "second note written after the journal is replaced" },
    }) as CallResult;
    assert.match(text(found), /second note/);
    assert.doesNotMatch(text(found), /first note/);
    // Nothing is left open on the file moved aside once no call runs.
    if (Deno.build.os === "linux") {
      const held = await openFilesOf(home, "mcp");
      assert.ok(held.some((f) => f === journal), `the journal at the path is open: ${held}`);
      assert.deepEqual(held.filter((f) => f.startsWith(`${journal}.old`)), []);
    }
  } finally {
    await client.close();
    removeTree(base);
  }
});

Deno.test({
  name:
    "a journal deleted by hand is let go after the next call, and the one indexed again is written",
  ignore: Deno.build.os !== "linux", // what the server holds open is read from /proc
  async fn() {
    const { base, repo, home } = await indexedRepo();
    const client = await connect(home, repo);
    const journal = join(home, "journal.db");
    const call = async (name: string, args: Record<string, unknown>) =>
      await client.callTool({ name, arguments: args }) as CallResult;
    try {
      const first = await call("remember", { kind: "note", text: "a note before", about: ["."] });
      assert.ok(!first.isError, text(first));
      assert.ok(!(await call("search", { query: "compute total" })).isError);
      for (const suffix of ["", "-wal", "-shm"]) Deno.removeSync(journal + suffix);
      // The call finds no journal; once it is over, the deleted one is not held.
      const gone = await call("search", { query: "compute total" });
      assert.ok(gone.isError, "no journal to search");
      const held = await openFilesOf(home, "mcp");
      const deleted = held.filter((f) => f.startsWith(journal) && f.endsWith(" (deleted)"));
      assert.deepEqual(deleted, [], "the deleted journal's files are not held");
      assert.equal((await cli(home, ["index", repo])).code, 0);
      const after = await call("remember", { kind: "note", text: "a note after", about: ["."] });
      assert.ok(!after.isError, text(after));
      const j = Journal.open(journal, { readOnly: true });
      try {
        const n =
          j.get<{ n: number }>("SELECT count(*) AS n FROM memories WHERE text = 'a note after'")!.n;
        assert.equal(n, 1, "written to the journal indexed again");
      } finally {
        j.close();
      }
    } finally {
      await client.close();
      removeTree(base);
    }
  },
});

/** A raw JSON-RPC session over the server's stdio: send lines, read answers by id. */
class RawSession {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #lines: string[] = [];
  #waiters: (() => void)[] = [];
  #done: Promise<void>;

  constructor(home: string, cwd: string) {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...PERMS, MAIN, "mcp"],
      env: mcpEnv(home),
      cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#done = (async () => {
      let buf = "";
      for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
        buf += chunk;
        let nl;
        while ((nl = buf.indexOf("\n")) >= 0) {
          this.#lines.push(buf.slice(0, nl));
          buf = buf.slice(nl + 1);
          this.#waiters.splice(0).forEach((w) => w());
        }
      }
    })();
  }

  /** Every line the server wrote to stdout so far. */
  get lines(): readonly string[] {
    return this.#lines;
  }

  async send(message: unknown): Promise<void> {
    await this.sendRaw(JSON.stringify(message) + "\n");
  }

  async sendRaw(line: string): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(line));
  }

  /** The first answer with a null id (an error about a line that had none). */
  answerNull(): Promise<Record<string, unknown>> {
    return this.answer(null);
  }

  async answer(id: number | null): Promise<Record<string, unknown>> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const hit = this.#lines.map((l) => JSON.parse(l)).find((m) => m.id === id);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no answer to request ${id}`);
      await new Promise<void>((r) => {
        this.#waiters.push(r);
        setTimeout(r, 200);
      });
    }
  }

  async close(): Promise<void> {
    await this.#writer.close();
    await this.#done;
    await this.#child.status;
  }
}

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

Deno.test("the stateless 2026-07-28 revision: server/discover, per-request _meta, no handshake", async () => {
  const { base, repo, home } = await indexedRepo();
  const s = new RawSession(home, repo);
  try {
    await s.send({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } });
    const discover = (await s.answer(1)).result as Record<string, unknown>;
    assert.equal(discover.resultType, "complete");
    assert.ok((discover.supportedVersions as string[]).includes("2026-07-28"));
    // Only the versions a request may name: the others are negotiated by initialize.
    assert.deepEqual(discover.supportedVersions, ["2026-07-28"]);
    assert.deepEqual(Object.keys(discover.capabilities as object), ["tools"]);
    assert.equal(typeof discover.instructions, "string");
    assert.equal(typeof discover.ttlMs, "number");
    assert.equal(discover.cacheScope, "public");
    const serverInfo =
      (discover._meta as Record<string, { name: string }>)["io.modelcontextprotocol/serverInfo"];
    assert.equal(serverInfo?.name, "heimdall");

    // No initialize: a tools/list carrying _meta is answered in the new envelope.
    await s.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: META } });
    const list = (await s.answer(2)).result as Record<string, unknown>;
    assert.equal(list.resultType, "complete");
    assert.equal(typeof list.ttlMs, "number");
    assert.equal((list.tools as unknown[]).length, TOOL_COUNT);

    await s.send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "why", arguments: { target: "pkg/billing.py:compute_total" }, _meta: META },
    });
    const call = (await s.answer(3)).result as Record<string, unknown>;
    assert.equal(call.resultType, "complete");
    assert.match(JSON.stringify(call.content), /Discounts are clamped/);

    await s.send({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "callers", arguments: { symbol: "nope_nothing" }, _meta: META },
    });
    const err = (await s.answer(4)).result as Record<string, unknown>;
    assert.equal(err.isError, true);
    assert.equal(err.resultType, "complete");

    // A version the server does not speak: -32022 with the versions it does.
    await s.send({
      jsonrpc: "2.0",
      id: 5,
      method: "tools/list",
      params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
    });
    const unsupported = (await s.answer(5)).error as {
      code: number;
      data: { supported: string[]; requested: string };
    };
    assert.equal(unsupported.code, -32022);
    assert.equal(unsupported.data.requested, "2099-01-01");
    assert.ok(unsupported.data.supported.includes("2026-07-28"));

    // The client's capabilities are required on every request.
    await s.send({
      jsonrpc: "2.0",
      id: 6,
      method: "tools/list",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
    });
    assert.equal(((await s.answer(6)).error as { code: number }).code, -32602);

    // A call whose arguments are not an object is invalid params, named; a line that is
    // not JSON gets the parse error, and the session goes on.
    await s.send({
      jsonrpc: "2.0",
      id: 60,
      method: "tools/call",
      params: { name: "why", arguments: "x" },
    });
    const badArgs = (await s.answer(60)).error as { code: number; message: string };
    assert.equal(badArgs.code, -32602);
    assert.match(badArgs.message, /arguments of why must be an object, not a string/);
    await s.sendRaw("{not json\n");
    const parse = await s.answerNull();
    assert.equal((parse.error as { code: number }).code, -32700);

    // The initialize era still works on the same stdio, with its own envelope.
    await s.send({
      jsonrpc: "2.0",
      id: 7,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "old", version: "1" },
      },
    });
    const init = (await s.answer(7)).result as Record<string, unknown>;
    assert.equal(init.protocolVersion, "2025-06-18");
    await s.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await s.send({ jsonrpc: "2.0", id: 8, method: "tools/list", params: {} });
    const legacy = (await s.answer(8)).result as Record<string, unknown>;
    assert.equal(legacy.resultType, undefined, "the old era's answers are untouched");
    assert.equal((legacy.tools as unknown[]).length, TOOL_COUNT);
    await s.send({
      jsonrpc: "2.0",
      id: 9,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "new", version: "1" },
      },
    });
    assert.equal(
      ((await s.answer(9)).result as Record<string, unknown>).protocolVersion,
      "2025-11-25",
    );

    // stdout carried protocol messages and nothing else.
    for (const line of s.lines) assert.equal(JSON.parse(line).jsonrpc, "2.0", line);
  } finally {
    await s.close();
    removeTree(base);
  }
});

// ---------------------------------------------------------------- a shared team store

interface WhyItem {
  id: string;
  kind: string;
  text: string;
  author: string;
  count: number;
  scope: string;
  anchors: { path: string; state: string }[];
}
interface WhyJson {
  current: WhyItem[];
  history: (WhyItem & { standing: string })[];
}

Deno.test({
  name: "with a shared PostgreSQL, the MCP memory tools write to the team and read the team's",
  ignore: noPostgres(),
}, async (t) => {
  const server = await pgServer();
  const cleanups: (() => Promise<void> | void)[] = [];
  try {
    const db = await freshDatabase(server.url, "heimdall_mcp");
    cleanups.push(db.drop);
    const [a, b] = await Promise.all([machine("shop"), machine("shop-clone")]);
    cleanups.push(() => a[Symbol.dispose](), () => b[Symbol.dispose]());
    for (const m of [a, b]) {
      const r = await heimdall(m.home, ["team", "connect", db.url]);
      assert.equal(r.code, 0, r.stderr);
    }
    const bob = (m: Machine) => ({ author: "bob", cwd: m.repo });
    const client = await connect(a.home, a.repo, "alice");
    const call = async (name: string, args: Record<string, unknown>) =>
      await client.callTool({ name, arguments: args }) as CallResult;
    try {
      await t.step("a decision remembered through MCP on A is in B's `why` at once", async () => {
        const r = await call("remember", {
          kind: "decision",
          text: "dispatch stays synchronous",
          about: ["dispatch"],
        });
        assert.ok(!r.isError, text(r));
        const id = r.structuredContent!.id as string;
        assert.deepEqual(
          await sql(db.url, "SELECT id, author, scope, text FROM heimdall.memories"),
          [{ id, author: "alice", scope: "project", text: "dispatch stays synchronous" }],
        );
        const seen = await heimdallJson<WhyJson>(b.home, ["why", "dispatch"], bob(b));
        assert.deepEqual(seen.current.map((m) => [m.id, m.author, m.text]), [[
          id,
          "alice",
          "dispatch stays synchronous",
        ]]);
        assert.ok(seen.current[0]!.anchors[0]!.path.startsWith(b.repo), "placed on B's clone");
      });

      await t.step("a decision recorded on B is in A's MCP `why` and `search`", async () => {
        // A's server has been connected (and has pulled) since before B writes.
        const before = await call("why", { target: "route" });
        assert.ok(!before.isError, text(before));
        assert.deepEqual((before.structuredContent!.current as WhyItem[]).length, 0);
        const fromB = await heimdallJson<{ memory: WhyItem }>(b.home, [
          "remember",
          "--kind",
          "decision",
          "--about",
          "route",
          "route never retries a request",
        ], bob(b));
        const why = await call("why", { target: "route" });
        assert.ok(!why.isError, text(why));
        assert.deepEqual(
          (why.structuredContent!.current as WhyItem[]).map((m) => [m.id, m.author]),
          [[fromB.memory.id, "bob"]],
        );
        assert.match(text(why), /route never retries a request/);

        const another = await heimdallJson<{ memory: WhyItem }>(b.home, [
          "remember",
          "--kind",
          "convention",
          "--about",
          "store",
          "store writes go through the outbox table",
        ], bob(b));
        const found = await call("search", { query: "outbox table", kind: "memory" });
        assert.ok(!found.isError, text(found));
        assert.deepEqual(
          (found.structuredContent!.hits as { source: string; ref_id: string }[]).map((h) => [
            h.source,
            h.ref_id,
          ]),
          [["memory", another.memory.id]],
        );
      });

      await t.step(
        "a failure recorded through MCP is the team's: B's repeat counts it",
        async () => {
          const failed = await call("record_attempt", {
            about: ["store"],
            outcome: "failed",
            text: "store throws on an empty request",
            tests: ["store_test"],
          });
          assert.ok(!failed.isError, text(failed));
          const again = await heimdallJson<{ memory: WhyItem; repeated: boolean }>(b.home, [
            "attempt",
            "--about",
            "src/store.ts:store",
            "--failed",
            "--tests",
            "store_test",
            "store threw on the empty request again",
          ], bob(b));
          assert.equal(again.repeated, true);
          assert.equal(again.memory.id, failed.structuredContent!.id);
          assert.equal(again.memory.count, 2);
          const why = await call("why", { target: "store" });
          const attempt = (why.structuredContent!.current as WhyItem[]).find((m) =>
            m.kind === "attempt"
          );
          assert.deepEqual([attempt?.id, attempt?.count], [failed.structuredContent!.id, 2]);
        },
      );

      await t.step("private memories stay on this machine", async () => {
        const r = await call("remember", {
          kind: "note",
          text: "my private doubt about audit",
          about: ["audit"],
          scope: "private",
        });
        assert.ok(!r.isError, text(r));
        const leaked = await sql<{ n: number }>(
          db.url,
          "SELECT count(*)::int AS n FROM heimdall.memories WHERE id = $1 OR text LIKE '%private%'",
          [r.structuredContent!.id],
        );
        assert.equal(leaked[0]!.n, 0);
        const mine = await call("why", { target: "audit" });
        assert.match(text(mine), /my private doubt about audit/);
      });

      await t.step(
        "a read while another process holds A's journal lock answers from A's copy, and says so",
        async () => {
          const fromB = await heimdallJson<{ memory: WhyItem }>(b.home, [
            "remember",
            "--kind",
            "decision",
            "--about",
            "audit",
            "audit rows are never updated",
          ], bob(b));
          const holder = Journal.open(join(a.home, "journal.db"));
          try {
            holder.db.exec("BEGIN IMMEDIATE");
            const locked = await call("why", { target: "audit" });
            assert.ok(!locked.isError, text(locked));
            assert.match(
              String(locked.structuredContent!.team_warning),
              /could not be copied here: another process is writing to the journal; showing this machine's copy/,
            );
            holder.db.exec("ROLLBACK");
          } finally {
            holder.close();
          }
          const why = await call("why", { target: "audit" });
          assert.equal(why.structuredContent!.team_warning ?? null, null, text(why));
          assert.ok(
            (why.structuredContent!.current as WhyItem[]).some((m) => m.id === fromB.memory.id),
          );
        },
      );

      await t.step(
        "calls at once are answered in order on the server's one connection",
        async () => {
          const writes = [1, 2, 3, 4].map((i) =>
            call("remember", { kind: "decision", text: `dispatch rule ${i}`, about: ["dispatch"] })
          );
          const reads = [1, 2, 3].map(() => call("why", { target: "dispatch" }));
          const all = await Promise.all([...writes, ...reads]);
          for (const r of all) assert.ok(!r.isError, text(r));
          const rows = await sql<{ id: string; superseded_by: string | null }>(
            db.url,
            "SELECT id, superseded_by FROM heimdall.memories WHERE text LIKE 'dispatch%'",
          );
          assert.equal(rows.length, 5);
          assert.equal(
            rows.filter((r) => r.superseded_by === null).length,
            1,
            JSON.stringify(rows),
          );
          const why = await call("why", { target: "dispatch" });
          const current = (why.structuredContent!.current as WhyItem[]).filter((m) =>
            m.kind === "decision"
          );
          assert.deepEqual(
            current.map((m) => m.id),
            rows.filter((r) => r.superseded_by === null).map((r) => r.id),
          );
        },
      );
    } finally {
      await client.close();
    }

    await t.step(
      "with the store unreachable, shared writes are isError results naming the remedy, private ones and reads go on",
      async () => {
        const config = join(a.home, "config.json");
        const c = JSON.parse(Deno.readTextFileSync(config));
        const dead = new URL(c.teamUrl);
        dead.port = "1";
        Deno.writeTextFileSync(config, JSON.stringify({ ...c, teamUrl: dead.toString() }));
        const offline = await connect(a.home, a.repo, "alice");
        const call = async (name: string, args: Record<string, unknown>) =>
          await offline.callTool({ name, arguments: args }) as CallResult;
        try {
          const shared = await call("remember", {
            kind: "note",
            text: "lost on the way",
            about: ["route"],
          });
          assert.equal(shared.isError, true, text(shared));
          assert.match(text(shared), /Cannot reach the team store/);
          assert.match(text(shared), /scope "private"/);
          const attempt = await call("record_attempt", {
            about: ["route"],
            outcome: "failed",
            text: "route failed offline",
          });
          assert.equal(attempt.isError, true, text(attempt));
          const local = await call("remember", {
            kind: "note",
            text: "kept here while offline",
            about: ["route"],
            scope: "private",
          });
          assert.ok(!local.isError, text(local));
          const why = await call("why", { target: "route" });
          assert.ok(!why.isError, text(why));
          assert.match(text(why), /route never retries a request/, "B's decision, as copied");
          assert.match(text(why), /kept here while offline/);
          assert.match(text(why), /note: Cannot reach the team store.*as of its last sync/);
          assert.match(String(why.structuredContent!.team_warning), /Cannot reach/);
          // who_knows is a read too: ranked by the copies, without the store's claims.
          const knows = await call("who_knows", { target: "route" });
          assert.ok(!knows.isError, text(knows));
          assert.match(text(knows), /bob/);
          assert.match(text(knows), /note: Cannot reach the team store.*without claims/);
        } finally {
          await offline.close();
        }
        const stored = await sql<{ text: string }>(db.url, "SELECT text FROM heimdall.memories");
        assert.ok(!stored.some((r) => /offline|lost on the way/.test(r.text)), "nothing offline");
      },
    );
  } finally {
    for (const c of cleanups.reverse()) await c();
    await server.stop();
  }
});

Deno.test({
  name:
    "an MCP server already running when `team connect` or `team disconnect` changes the store uses the new one at its next call",
  ignore: noPostgres(),
}, async () => {
  const server = await pgServer();
  const db = await freshDatabase(server.url, "heimdall_mcp");
  using m = await machine("shop");
  const client = await connect(m.home, m.repo, "alice");
  const call = async (name: string, args: Record<string, unknown>) =>
    await client.callTool({ name, arguments: args }) as CallResult;
  const stored = async () => ({
    claims: (await sql<{ q: string }>(db.url, "SELECT qualname AS q FROM heimdall.claims"))
      .map((r) => r.q),
    memories: (await sql<{ t: string }>(db.url, "SELECT text AS t FROM heimdall.memories"))
      .map((r) => r.t),
  });
  try {
    // The agent's session starts before the person connects this machine to the team.
    const before = await call("claim", { targets: ["dispatch"] });
    assert.ok(!before.isError, text(before));
    const connected = await heimdall(m.home, ["team", "connect", db.url]);
    assert.equal(connected.code, 0, connected.stderr);
    const claimed = await call("claim", { targets: ["route"] });
    assert.ok(!claimed.isError, text(claimed));
    const decided = await call("remember", {
      kind: "decision",
      text: "route stays pure",
      about: ["route"],
    });
    assert.ok(!decided.isError, text(decided));
    assert.deepEqual(await stored(), { claims: ["route"], memories: ["route stays pure"] });

    // Disconnected, nothing more of this machine's goes to the team.
    assert.equal((await heimdall(m.home, ["team", "disconnect"])).code, 0);
    const after = await call("remember", {
      kind: "note",
      text: "said after disconnecting",
      about: ["route"],
    });
    assert.ok(!after.isError, text(after));
    assert.ok(!(await call("claim", { targets: ["store"] })).isError);
    assert.deepEqual(await stored(), { claims: ["route"], memories: ["route stays pure"] });
  } finally {
    await client.close();
    await db.drop();
    await server.stop();
  }
});
