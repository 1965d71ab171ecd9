/**
 * `heimdall search` answered by the home's warm server (the one the hooks
 * start): the same answer, byte for byte but for times, as a search in its
 * own process; every case the server should not answer is answered by the
 * process itself, as the command always has. Real subprocesses, a real
 * server on 127.0.0.1, real signals. A client that must not read the
 * journal runs with `--deny-read` on it: its answer can only have come
 * from the server.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  cli,
  type CliResult,
  removeTree,
  tempDir,
  waitFor,
  warmServer,
  writeTree,
} from "./helpers.ts";
import { exists } from "../src/files/mod.ts";
import { SEARCH_WAIT_MS } from "../src/cli/search_client.ts";
import { exchange, readPortFile } from "../src/harness/hook_wire.ts";

const TINY = new URL("./fixtures/models/tiny", import.meta.url).pathname;
const NET = ["--allow-net=127.0.0.1"];

/** A home with one indexed repository; returns both folders. */
async function indexed(): Promise<{ home: string; repo: string }> {
  const home = tempDir();
  const repo = tempDir();
  writeTree(repo, {
    "pricing/discount.py": [
      "def apply_discount(price, rate):",
      "    return round(price * (1 - rate), 2)",
      "",
      "def tax(price):",
      "    return price * 0.2",
      "",
    ].join("\n"),
    "web/cookies.ts": [
      "/** Parse a cookie header into its pairs. */",
      "export function parseCookies(header: string): Record<string, string> {",
      "  return Object.fromEntries(header.split(';').map((p) => p.trim().split('=')));",
      "}",
      "",
    ].join("\n"),
    "docs/guide.md": "# Discounts\n\nA discount is applied to the price before tax.\n",
  });
  const r = await cli(home, ["index", repo]);
  assert.equal(r.code, 0, r.stderr);
  return { home, repo };
}

/**
 * Runs `body` on a freshly indexed home with its warm server running (after
 * `prepare`, when given, has run on the home without a server), then stops
 * the server and removes both folders.
 */
async function withServer(
  body: (t: { home: string; repo: string; server: { pid: number } }) => Promise<void>,
  prepare?: (home: string, repo: string) => Promise<void>,
): Promise<void> {
  const { home, repo } = await indexed();
  try {
    await prepare?.(home, repo);
    const server = await warmServer(home);
    try {
      await body({ home, repo, server });
    } finally {
      await server.stop();
    }
  } finally {
    removeTree(home);
    removeTree(repo);
  }
}

/** `heimdall search …` that may not read the journal: only a server can answer it. */
function viaServerOnly(home: string, args: string[], cwd?: string): Promise<CliResult> {
  return cli(home, ["search", ...args], {
    extraPerms: [...NET, `--deny-read=${join(home, "journal.db")}`],
    ...(cwd ? { cwd } : {}),
  });
}

/** `heimdall search …` in its own process (no server asked). */
function alone(home: string, args: string[], cwd?: string): Promise<CliResult> {
  return cli(home, ["search", ...args], {
    env: { HEIMDALL_HOOK_SERVER: "0" },
    ...(cwd ? { cwd } : {}),
  });
}

/** The hits of a `--json` answer without the time each was checked. */
function hitsOf(stdout: string): unknown[] {
  const r = JSON.parse(stdout) as { hits: Record<string, unknown>[] };
  return r.hits.map(({ freshness: _f, ...rest }) => rest);
}

/** A human answer without its timing (`· 12 ms ·`). */
const untimed = (s: string) => s.replace(/ · \d+ ms · /g, " · ");

Deno.test("search through the warm server: the same answer as in its own process, paths from the asker's folder", async () => {
  await withServer(async ({ home, repo }) => {
    const ask = ["apply", "discount", "price", "--json"];
    const served = await viaServerOnly(home, ask);
    assert.equal(served.code, 0, served.stderr);
    const own = await alone(home, ask);
    assert.equal(own.code, 0, own.stderr);
    assert.deepEqual(hitsOf(served.stdout), hitsOf(own.stdout));
    assert.equal((hitsOf(served.stdout)[0] as { symbol: string }).symbol, "apply_discount");

    // Human output, run from inside the repository: paths relative to it, --path from it.
    const human = ["parse", "cookie", "header", "--path", "web"];
    const servedHuman = await viaServerOnly(home, human, repo);
    const ownHuman = await alone(home, human, repo);
    assert.equal(servedHuman.code, 0, servedHuman.stderr);
    assert.equal(untimed(servedHuman.stdout), untimed(ownHuman.stdout));
    assert.match(servedHuman.stdout, /parseCookies — web\/cookies\.ts:2/);
    assert.doesNotMatch(servedHuman.stdout, /discount/);

    // No hit: exit 1, the same words.
    const none = await viaServerOnly(home, ["zebra", "quokka"]);
    assert.equal(none.code, 1);
    assert.match(none.stdout, /no match for "zebra quokka"/);
  }, async (home) => {
    const before = await cli(home, ["status"], { extraPerms: NET });
    assert.match(before.stdout, /server {3}not running \(the first hook or search starts one/);
  });
});

Deno.test("the warm server's one connection sees what is indexed after it, and a journal that replaced its file", async () => {
  await withServer(async ({ home, repo }) => {
    const symbolOf = async (words: string[]) => {
      const r = await viaServerOnly(home, [...words, "--json"]);
      assert.ok(r.code <= 1, r.stderr);
      return (hitsOf(r.stdout)[0] as { symbol?: string } | undefined)?.symbol;
    };
    assert.equal(await symbolOf(["apply", "discount", "price"]), "apply_discount");
    // Committed after the server opened its connection: read by the next request.
    writeTree(repo, { "pricing/refund.py": "def refund_order(order):\n    return order.total\n" });
    assert.equal((await cli(home, ["index", repo])).code, 0);
    assert.equal(await symbolOf(["refund", "order"]), "refund_order");
    // The journal deleted and made again from another folder: a new file at the same path.
    // The config goes too: a plain index walks every configured root, repo's as well.
    for (const f of ["journal.db", "journal.db-wal", "journal.db-shm", "config.json"]) {
      try {
        Deno.removeSync(join(home, f));
      } catch { /* not there */ }
    }
    const other = tempDir();
    writeTree(other, { "ship.py": "def schedule_shipment(parcel):\n    return parcel\n" });
    assert.equal((await cli(home, ["index", other])).code, 0);
    assert.equal(await symbolOf(["schedule", "shipment", "parcel"]), "schedule_shipment");
    assert.equal(
      await symbolOf(["apply", "discount", "price"]),
      undefined,
      "not the old file's rows",
    );
    removeTree(other);
  });
});

Deno.test("search with a warm server: a bad command line and a failed search are the command's own errors", async () => {
  await withServer(async ({ home }) => {
    const limit = await cli(home, ["search", "x", "--limit", "0"], { extraPerms: NET });
    assert.equal(limit.code, 2);
    assert.match(limit.stderr, /Invalid --limit "0": expected a whole number from 1 to 200/);
    // The server's search fails (an unknown language): the process searches and says why.
    const lang = await cli(home, ["search", "discount", "--lang", "cobol"], { extraPerms: NET });
    assert.equal(lang.code, 2, lang.stdout);
    assert.match(lang.stderr, /cobol/);
    assert.match(lang.stderr, /python/);
    // Nothing of either reached stdout.
    assert.equal(limit.stdout + lang.stdout, "");
  });
});

Deno.test("search through the warm server reads the config with the asker's HEIMDALL_* variables, not the server's", async () => {
  await withServer(async ({ home }) => {
    // A team store named only on this command line (nothing listens on port 9): the
    // search warns that it shows this machine's copy, as it does in its own process.
    const env = { HEIMDALL_TEAM_URL: "postgres://ada@127.0.0.1:9/team" };
    const served = await cli(home, ["search", "apply", "discount", "--json"], {
      env,
      extraPerms: [...NET, "--allow-net=127.0.0.1:9", `--deny-read=${join(home, "journal.db")}`],
    });
    const own = await cli(home, ["search", "apply", "discount", "--json"], {
      env: { ...env, HEIMDALL_HOOK_SERVER: "0" },
      extraPerms: ["--allow-net=127.0.0.1:9"],
    });
    assert.equal(served.code, 0, served.stderr);
    assert.equal(own.code, 0, own.stderr);
    assert.match(own.stderr, /showing this machine's copy of the team's memories/);
    assert.equal(served.stderr, own.stderr);
    assert.deepEqual(hitsOf(served.stdout), hitsOf(own.stdout));
    // Without the variable, neither warns.
    const plain = await viaServerOnly(home, ["apply", "discount"]);
    assert.equal(plain.stderr, "");
  });
});

Deno.test("a search from another build is refused and leaves the server to the hooks", async () => {
  await withServer(async ({ home, repo, server }) => {
    const at = readPortFile(home)!;
    const asked = { query: "apply discount", limit: 8, cwd: repo, json: true };
    const r = await exchange(at.port, {
      token: at.token,
      build: "another build",
      identity: "[]",
      search: asked,
      env: {},
      waitMs: 2000,
    }, 2000);
    assert.deepEqual(r, { status: "refused", reason: "build" });
    // Still serving: it answers a ping, and a search of its own build.
    assert.deepEqual(await exchange(at.port, { token: at.token, ping: true }, 2000), {
      status: "pong",
      pid: server.pid,
    });
    const served = await viaServerOnly(home, ["apply", "discount", "--json"]);
    assert.equal(served.code, 0, served.stderr);
  });
});

Deno.test("status says whether the warm server answers; a search with it stopped answers in its own process after at most the wait", async () => {
  await withServer(async ({ home, server }) => {
    const warm = await cli(home, ["status", "--json"], { extraPerms: NET });
    const state = JSON.parse(warm.stdout).server;
    assert.equal(state.pid, server.pid);
    assert.equal(state.answering, true);
    assert.match(
      (await cli(home, ["status"], { extraPerms: NET })).stdout,
      new RegExp(
        `server {3}warm, pid ${server.pid} on 127\\.0\\.0\\.1:\\d+: answers hooks and searches`,
      ),
    );
    Deno.kill(server.pid, "SIGSTOP");
    assert.match(
      (await cli(home, ["status"], { extraPerms: NET })).stdout,
      new RegExp(`server {3}pid ${server.pid} did not answer a ping within 500 ms`),
    );
    const t0 = performance.now();
    const r = await cli(home, ["search", "apply", "discount", "--json"], { extraPerms: NET });
    const ms = performance.now() - t0;
    assert.equal(r.code, 0, r.stderr);
    assert.equal((hitsOf(r.stdout)[0] as { symbol: string }).symbol, "apply_discount");
    // Its wait for the server, then a whole search of its own: never a hang.
    assert.ok(ms >= SEARCH_WAIT_MS, `answered in ${ms} ms: the server cannot have answered`);
    assert.ok(ms < SEARCH_WAIT_MS + 20_000, `took ${ms} ms`);
  });
});

Deno.test("search with an embedding model active is ranked by meaning in its own process, never by the server without it", async () => {
  await withServer(async ({ home }) => {
    // The server refuses: a client that may not read the journal cannot answer at all.
    const denied = await viaServerOnly(home, ["apply", "discount"]);
    assert.notEqual(denied.code, 0);
    const r = await cli(home, ["search", "apply", "discount"], { extraPerms: NET });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /lexical\+semantic|semantic/);
    assert.doesNotMatch(r.stdout, /semantic leg off/);
  }, async (home, repo) => {
    const imported = await cli(home, ["model", "import", "tiny", "--from", TINY]);
    assert.equal(imported.code, 0, imported.stderr);
    const embedded = await cli(home, ["index", repo]);
    assert.equal(embedded.code, 0, embedded.stderr);
  });
});

Deno.test("a search that found no server starts one, and the next search is answered by it; HEIMDALL_HOOK_SERVER=0 and a bad command line start none", async () => {
  const { home, repo } = await indexed();
  const spawned = join(home, "hookd.spawn");
  try {
    // Never: the variable says so, or the command line is wrong, or the process may not connect.
    const off = await cli(home, ["search", "apply", "discount"], {
      env: { HEIMDALL_HOOK_SERVER: "0" },
      extraPerms: NET,
    });
    assert.equal(off.code, 0, off.stderr);
    const bad = await cli(home, ["search", "x", "--limit", "0"], { extraPerms: NET });
    assert.equal(bad.code, 2);
    const noNet = await cli(home, ["search", "apply", "discount"]);
    assert.equal(noNet.code, 0, noNet.stderr);
    assert.ok(!exists(spawned) && !exists(join(home, "hookd.port")), "no server started");

    // A search answered in its own process, then a server for the next one.
    const first = await cli(home, ["search", "apply", "discount", "--json"], { extraPerms: NET });
    assert.equal(first.code, 0, first.stderr);
    assert.ok(exists(spawned), "the search asked for a server");
    await waitFor(() => exists(join(home, "hookd.port")), 30_000, "the started server's port file");
    // It has searched once, so the first search asked of it is not its first.
    const log = join(home, "logs", "hooks.log");
    await waitFor(
      () => exists(log) && /warmed up: a search in \d+ ms/.test(Deno.readTextFileSync(log)),
      30_000,
      "the server's warm-up search",
    );
    const next = await viaServerOnly(home, ["apply", "discount", "--json"]);
    assert.equal(next.code, 0, next.stderr);
    assert.deepEqual(hitsOf(next.stdout), hitsOf(first.stdout));
  } finally {
    const at = readPortFile(home);
    if (at?.pid) {
      try {
        Deno.kill(at.pid, "SIGTERM");
      } catch { /* gone */ }
      await waitFor(() => !exists(`/proc/${at.pid}`), 10_000, "the server to stop");
    }
    removeTree(home);
    removeTree(repo);
  }
});
