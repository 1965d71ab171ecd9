/**
 * `heimdall mcp` at the edges of its stdio: a client that closes stdin right
 * after its requests, a message over the size limit, lines that are JSON but
 * no JSON-RPC request, a write while another process holds the journal's
 * lock, and what the server says about versions and capabilities. Each
 * spoken raw over the real server's stdin and stdout, as a client would.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Journal } from "../src/store/mod.ts";
import { cli, copyDir, MAIN, mcpEnv, removeTree, tempDir } from "./helpers.ts";

const FIXTURE = new URL("./fixtures/harness/repo/", import.meta.url).pathname;
const PERMS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  "--allow-net=127.0.0.1,localhost",
];

type Msg = Record<string, unknown>;

/** The fixture repository, indexed in a fresh home. */
async function indexedRepo(): Promise<{ base: string; repo: string; home: string }> {
  const base = tempDir();
  const repo = join(base, "shop");
  const home = join(base, "home");
  copyDir(FIXTURE, repo);
  assert.equal((await cli(home, ["index", repo])).code, 0);
  return { base, repo, home };
}

/** The server as a process: raw lines in, every line it writes kept, stdin closed at will. */
class Server {
  readonly lines: Msg[] = [];
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #stdout: Promise<void>;
  readonly #stderr: Promise<string>;
  #waiters: (() => void)[] = [];

  /** A server started as the constructor does, past the initialize handshake (its request id 1). */
  static async started(
    home: string,
    cwd: string,
    env: Record<string, string> = mcpEnv(home),
  ): Promise<Server> {
    const s = new Server(home, cwd, env);
    await s.send(INITIALIZE, INITIALIZED);
    await s.answer(1);
    return s;
  }

  constructor(home: string, cwd: string, env: Record<string, string> = mcpEnv(home)) {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...PERMS, MAIN, "mcp"],
      env,
      cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#stderr = new Response(child.stderr).text();
    this.#stdout = (async () => {
      let buf = "";
      for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
        buf += chunk;
        let nl;
        while ((nl = buf.indexOf("\n")) >= 0) {
          this.lines.push(JSON.parse(buf.slice(0, nl)));
          buf = buf.slice(nl + 1);
          this.#waiters.splice(0).forEach((w) => w());
        }
      }
    })();
  }

  async send(...messages: unknown[]): Promise<void> {
    await this.sendRaw(messages.map((m) => JSON.stringify(m) + "\n").join(""));
  }

  async sendRaw(text: string): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(text));
  }

  /** The answer to request `id` (null: an error about a line without a readable id). */
  async answer(id: number | null): Promise<Msg> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const hit = this.lines.find((m) => m.id === id && ("result" in m || "error" in m));
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no answer to request ${id}`);
      await new Promise<void>((r) => {
        this.#waiters.push(r);
        setTimeout(r, 200);
      });
    }
  }

  /** Where the answer to `id` came in the order of everything written. */
  position(id: number): number {
    return this.lines.findIndex((m) => m.id === id);
  }

  /** Closes stdin and waits for the server to exit. */
  async end(): Promise<{ code: number; stderr: string }> {
    await this.#writer.close();
    await this.#stdout;
    const { code } = await this.#child.status;
    return { code, stderr: await this.#stderr };
  }
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "edge", version: "1" },
  },
};
const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };

function call(id: number, name: string, args: unknown): Msg {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

function toolText(answer: Msg): string {
  const result = answer.result as { content: { text: string }[] };
  return result.content.map((c) => c.text).join("\n");
}

Deno.test("a client that closes stdin right after its requests still gets every answer before the server exits", async () => {
  const { base, repo, home } = await indexedRepo();
  try {
    const s = new Server(home, repo);
    await s.send(
      INITIALIZE,
      INITIALIZED,
      call(2, "search", { query: "compute total discount" }),
      call(3, "remember", {
        kind: "fact",
        text: "Totals are rounded last",
        about: ["pkg/billing.py"],
      }),
      call(4, "why", { target: "pkg/billing.py:compute_total" }),
      { jsonrpc: "2.0", id: 5, method: "ping" },
    );
    const { code, stderr } = await s.end();
    assert.equal(code, 0, stderr);
    for (const id of [1, 2, 3, 4, 5]) assert.ok(s.position(id) >= 0, `no answer to ${id}`);
    assert.match(toolText(await s.answer(2)), /billing\.py/);
    assert.match(toolText(await s.answer(3)), /^Remembered fact /);
    // What was answered was also written: a new session finds it.
    const again = new Server(home, repo);
    await again.send(INITIALIZE, INITIALIZED, call(2, "why", { target: "pkg/billing.py" }));
    assert.match(toolText(await again.answer(2)), /Totals are rounded last/);
    await again.end();
  } finally {
    removeTree(base);
  }
});

Deno.test("a message over 10 MiB is answered with its size, the limit and its id, and the server reads on", async () => {
  const { base, repo, home } = await indexedRepo();
  try {
    const s = await Server.started(home, repo);
    // As the SDK's client writes it: the id last, after the params that make it large.
    const big = {
      jsonrpc: "2.0",
      method: "tools/call",
      params: { name: "search", arguments: { query: "z".repeat(11 * 2 ** 20) } },
      id: 2,
    };
    await s.send(big, { jsonrpc: "2.0", id: 3, method: "ping" });
    const refused = (await s.answer(2)).error as { code: number; message: string; data: Msg };
    assert.equal(refused.code, -32600);
    assert.match(refused.message, /the message is \d+ bytes \(11\.0 MiB\)/);
    assert.match(refused.message, /over the limit of 10485760 bytes \(10\.0 MiB\) per message/);
    assert.deepEqual(refused.data, {
      size: JSON.stringify(big).length,
      limit: 10 * 2 ** 20,
    });
    assert.deepEqual((await s.answer(3)).result, {});
    await s.send(call(4, "search", { query: "compute total" }));
    assert.match(toolText(await s.answer(4)), /billing\.py/);
    const { code, stderr } = await s.end();
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /Top-level await/);
  } finally {
    removeTree(base);
  }
});

Deno.test("JSON that is no JSON-RPC request gets Invalid Request saying why, with its id when readable", async () => {
  const { base, repo, home } = await indexedRepo();
  try {
    const s = await Server.started(home, repo);
    const cases: [string, number | null, RegExp][] = [
      ['[{"jsonrpc":"2.0","id":2,"method":"ping"}]', null, /batch/],
      ['{"jsonrpc":"2.0","id":3}', 3, /no "method"/],
      ['{"id":4,"method":"ping"}', 4, /lacks "jsonrpc": "2.0"/],
      ['"str"', null, /not a string/],
      ["null", null, /not null/],
      ["42", null, /not a number \(42\)/],
      ['{"jsonrpc":"2.0","id":{"n":5},"method":"ping"}', null, /"id" must be .* not an object/],
      ['{"jsonrpc":"2.0","id":23.5,"method":"ping"}', null, /not a number \(23\.5\)/],
    ];
    for (const [line, id, why] of cases) {
      const before = s.lines.length;
      await s.sendRaw(line + "\n");
      await s.send({ jsonrpc: "2.0", id: 99, method: "ping" });
      await s.answer(99); // answers come in order: the line's is before it
      const answers = s.lines.slice(before);
      assert.equal(answers.length, 2, line);
      const error = answers[0]!.error as { code: number; message: string };
      assert.equal(answers[0]!.id, id, line);
      assert.equal(error.code, -32600, line);
      assert.match(error.message, /^Invalid Request: /, line);
      assert.match(error.message, why, line);
      s.lines.splice(before);
    }
    await s.send(call(6, "search", null));
    const nullArgs = (await s.answer(6)).error as { code: number; message: string };
    assert.equal(nullArgs.code, -32602);
    assert.match(nullArgs.message, /the arguments of search must be an object, not null$/);
    await s.sendRaw("{not json\n");
    assert.equal(((await s.answer(null)).error as { code: number }).code, -32700);
    assert.equal((await s.end()).code, 0);
  } finally {
    removeTree(base);
  }
});

Deno.test("params a method does not take get Invalid params naming the param, not an internal error with a validator dump", async () => {
  const { base, repo, home } = await indexedRepo();
  try {
    const s = new Server(home, repo);
    // A handshake whose params are wrong is refused as such, and a right one still goes.
    await s.send({ jsonrpc: "2.0", id: 2, method: "initialize", params: { protocolVersion: 5 } });
    const badInit = (await s.answer(2)).error as { code: number; message: string };
    assert.equal(badInit.code, -32602, badInit.message);
    assert.match(badInit.message, /^Invalid params of initialize: protocolVersion: .*string/);
    assert.doesNotMatch(badInit.message, /\n/);
    await s.send(INITIALIZE, INITIALIZED);
    await s.answer(1);
    const cases: [Msg, RegExp][] = [
      [
        { jsonrpc: "2.0", id: 3, method: "tools/list", params: { cursor: 5 } },
        /^Invalid params of tools\/list: cursor: .*expected string, received number$/,
      ],
      [
        { jsonrpc: "2.0", id: 4, method: "ping", params: { _meta: 5 } },
        /^Invalid params of ping: _meta: .*expected object, received number$/,
      ],
      [
        {
          jsonrpc: "2.0",
          id: 5,
          method: "tools/call",
          params: { name: "search", arguments: { query: "x" }, _meta: { progressToken: {} } },
        },
        /^Invalid params of tools\/call: _meta\.progressToken: expected string or number$/,
      ],
    ];
    for (const [request, why] of cases) {
      await s.send(request);
      const error = (await s.answer(request.id as number)).error as {
        code: number;
        message: string;
      };
      assert.equal(error.code, -32602, error.message);
      assert.match(error.message, why);
    }
    // The session goes on.
    await s.send({ jsonrpc: "2.0", id: 6, method: "tools/list", params: {} });
    assert.ok("result" in (await s.answer(6)));
    assert.equal((await s.end()).code, 0);
  } finally {
    removeTree(base);
  }
});

Deno.test("a write while another process holds the journal's lock answers with the holder and the remedy, and holds up no other request", async () => {
  const { base, repo, home } = await indexedRepo();
  const holder = Journal.open(join(home, "journal.db"));
  try {
    const s = await Server.started(home, repo);
    holder.db.exec("BEGIN IMMEDIATE");
    const remember = call(2, "remember", {
      kind: "fact",
      text: "Written while locked",
      about: ["pkg/billing.py"],
    });
    await s.send(remember);
    await s.send(
      { jsonrpc: "2.0", id: 3, method: "ping" },
      call(4, "search", { query: "compute total" }),
    );
    const refused = await s.answer(2);
    assert.equal((refused.result as Msg).isError, true);
    assert.match(
      toolText(refused),
      /^Cannot remember now: the journal ".*journal\.db" is locked for writing by another process/,
    );
    assert.match(toolText(refused), /wrote nothing; call remember again in a few seconds$/);
    assert.ok(s.position(3) >= 0 && s.position(3) < s.position(2), "ping waited for remember");
    assert.ok(s.position(4) >= 0 && s.position(4) < s.position(2), "search waited for remember");
    assert.match(toolText(await s.answer(4)), /billing\.py/);

    holder.db.exec("ROLLBACK");
    await s.send({ ...remember, id: 5 });
    const written = await s.answer(5);
    assert.notEqual((written.result as Msg).isError, true, toolText(written));
    assert.match(toolText(written), /^Remembered fact /);
    assert.equal((await s.end()).code, 0);
  } finally {
    holder.close();
    removeTree(base);
  }
});

Deno.test("a write the client cancels while it waits for its turn is never made", async () => {
  const { base, repo, home } = await indexedRepo();
  const holder = Journal.open(join(home, "journal.db"));
  try {
    const s = await Server.started(home, repo);
    holder.db.exec("BEGIN IMMEDIATE");
    await s.send(call(2, "remember", {
      kind: "note",
      text: "Cancelled by the person",
      about: ["pkg/billing.py"],
    }));
    await new Promise((r) => setTimeout(r, 300));
    await s.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 2, reason: "the person pressed Esc" },
    });
    await s.send({ jsonrpc: "2.0", id: 3, method: "ping" });
    await s.answer(3);
    holder.db.exec("ROLLBACK");
    // A write still waiting would take its turn within a tenth of a second of the lock's release.
    await new Promise((r) => setTimeout(r, 600));
    await s.send(call(4, "why", { target: "pkg/billing.py" }));
    assert.doesNotMatch(toolText(await s.answer(4)), /Cancelled by the person/);
    assert.equal(s.position(2), -1, "a cancelled request is not answered");
    const { code, stderr } = await s.end();
    assert.equal(code, 0);
    assert.doesNotMatch(stderr, /failed/);
    assert.equal(
      holder.all("SELECT id FROM memories WHERE text LIKE '%Cancelled by%'").length,
      0,
      "the cancelled memory was written",
    );
  } finally {
    holder.close();
    removeTree(base);
  }
});

Deno.test("a note attached to a named pipe is recorded without reading it, and the server answers on", async () => {
  const { base, repo, home } = await indexedRepo();
  try {
    const pipe = join(repo, "events.pipe");
    assert.ok(new Deno.Command("mkfifo", { args: [pipe] }).outputSync().success);
    const s = await Server.started(home, repo);
    await s.send(
      call(2, "insert_note", {
        title: "Where the billing events go",
        body: "the worker writes them to a pipe",
        paths: ["events.pipe", "pkg/billing.py"],
      }),
      { jsonrpc: "2.0", id: 3, method: "ping" },
    );
    const note = await s.answer(2);
    assert.notEqual((note.result as Msg).isError, true, toolText(note));
    assert.match(toolText(note), /^Note \d+ recorded: Where the billing events go/);
    assert.ok("result" in await s.answer(3));
    assert.equal((await s.end()).code, 0);
    const j = Journal.open(join(home, "journal.db"), { readOnly: true });
    try {
      type Row = { path: string; hash: string | null; size: number | null };
      const rows = j.all<Row>("SELECT path, hash, size FROM note_paths ORDER BY ord");
      assert.deepEqual(rows.map((r) => [r.path, r.hash, r.size]).slice(0, 1), [[pipe, null, null]]);
      // The file beside it is read as before: its hash lets a search find it again if it moves.
      assert.equal(rows[1]?.path, join(repo, "pkg/billing.py"));
      assert.equal(rows[1]?.size, Deno.statSync(join(repo, "pkg/billing.py")).size);
      assert.equal(typeof rows[1]?.hash, "string");
    } finally {
      j.close();
    }
  } finally {
    removeTree(base);
  }
});

Deno.test('a server whose folder was deleted still writes as the person, not as "unknown"', async () => {
  const { base, repo, home } = await indexedRepo();
  try {
    const global = join(base, "gitconfig");
    Deno.writeTextFileSync(global, "[user]\n\tname = Gus Global\n");
    const { HEIMDALL_AUTHOR: _, ...env } = mcpEnv(home);
    // An agent's worktree, removed while its session goes on.
    const worktree = join(base, "worktree");
    Deno.mkdirSync(worktree);
    const s = await Server.started(home, worktree, { ...env, GIT_CONFIG_GLOBAL: global, USER: "" });
    Deno.removeSync(worktree);
    await s.send(
      call(2, "start_task", { text: "Round totals to cents" }),
      call(3, "remember", {
        kind: "note",
        text: "Totals round half up",
        about: [join(repo, "pkg/billing.py")],
        scope: "private",
      }),
    );
    assert.match(toolText(await s.answer(2)), /\(open, Gus Global\)/);
    assert.match(toolText(await s.answer(3)), /^Remembered note /);
    assert.equal((await s.end()).code, 0);
    const j = Journal.open(join(home, "journal.db"), { readOnly: true });
    try {
      const m = j.get<{ author: string }>("SELECT author FROM memories WHERE text LIKE 'Totals%'");
      assert.equal(m?.author, "Gus Global", "a private memory its author can no longer see");
    } finally {
      j.close();
    }
  } finally {
    removeTree(base);
  }
});

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

Deno.test("initialize, server/discover and -32022 tell the same versions and capabilities", async () => {
  const { base, repo, home } = await indexedRepo();
  try {
    const s = new Server(home, repo);
    await s.send({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } });
    const discover = (await s.answer(1)).result as {
      supportedVersions: string[];
      capabilities: { tools: { listChanged: boolean } };
    };
    // An initialize-era version named in a request's _meta is refused: it is not offered.
    await s.send({
      jsonrpc: "2.0",
      id: 2,
      method: "server/discover",
      params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2025-06-18" } },
    });
    const refused = (await s.answer(2)).error as {
      code: number;
      message: string;
      data: { supported: string[] };
    };
    assert.equal(refused.code, -32022);
    assert.match(refused.message, /2025-06-18 is negotiated with initialize/);
    assert.ok(!refused.data.supported.includes("2025-06-18"));
    assert.deepEqual(discover.supportedVersions, refused.data.supported);
    // Every version offered is one a request may name.
    let id = 10;
    for (const v of refused.data.supported) {
      await s.send({
        jsonrpc: "2.0",
        id: ++id,
        method: "tools/list",
        params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": v } },
      });
      assert.ok("result" in await s.answer(id), v);
    }
    await s.send({ ...INITIALIZE, id: 20 });
    const initialized = (await s.answer(20)).result as {
      capabilities: { tools: { listChanged: boolean } };
    };
    assert.equal(initialized.capabilities.tools.listChanged, false);
    assert.deepEqual(initialized.capabilities, discover.capabilities);
    assert.equal((await s.end()).code, 0);
  } finally {
    removeTree(base);
  }
});

/** True when util-linux `script` is here to give a process a terminal. */
const HAS_SCRIPT = (() => {
  try {
    return Deno.statSync("/usr/bin/script").isFile;
  } catch {
    return false;
  }
})();

Deno.test({
  name:
    "typed at a terminal, the server says on stderr what it waits for; an agent's pipe hears nothing",
  ignore: !HAS_SCRIPT,
  async fn() {
    const base = tempDir();
    try {
      const home = join(base, "home");
      const command = ["deno", "run", ...PERMS, MAIN, "mcp"].join(" ");
      // `script` runs it on a terminal; its stdin at end of input stops it.
      const typed = await new Deno.Command("script", {
        args: ["-qec", command, "/dev/null"],
        env: { ...mcpEnv(home), PATH: `${join(Deno.execPath(), "..")}:${Deno.env.get("PATH")}` },
        cwd: base,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const said = new TextDecoder().decode(typed.stdout);
      assert.match(said, /heimdall mcp: serving MCP on stdin\/stdout for an agent/);
      assert.match(said, /`heimdall init` registers it/);
      const piped = await new Deno.Command(Deno.execPath(), {
        args: ["run", ...PERMS, MAIN, "mcp"],
        env: mcpEnv(home),
        cwd: base,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(piped.code, 0);
      assert.equal(new TextDecoder().decode(piped.stdout), "");
      assert.doesNotMatch(new TextDecoder().decode(piped.stderr), /serving MCP/);
    } finally {
      removeTree(base);
    }
  },
});
