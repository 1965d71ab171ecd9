/**
 * The team commands when things go wrong: a server that stops answering
 * after login or drops the connection mid-command (a TCP proxy in this
 * process), a teammate's transaction holding a lock, URLs that do not parse
 * or lack a password, a teammate's terminal escapes, hand-offs onto claims
 * already held, someone else's task, claims on renamed code.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { homePaths } from "../src/config/mod.ts";
import type { ActiveClaim, Task } from "../src/team/mod.ts";
import {
  freshDatabase,
  heimdall,
  heimdallJson,
  type Machine,
  machine,
  noPostgres,
  pgServer,
  withPg,
} from "./team_fixture.ts";

/** What the proxy does to a connection once `after` round trips were relayed. */
type Fault = "hang" | "close";

/**
 * A TCP proxy to `upstream` (host:port) on a free loopback port: it relays
 * each connection until the server has answered `after` round trips (its
 * ReadyForQuery messages: the login is the first), then, on the client's
 * next message, either swallows everything both ways (`hang`: a server or
 * link that stopped answering) or closes both sides (`close`).
 */
function faultyProxy(upstream: URL, after: number, fault: Fault) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  const serve = async (client: Deno.Conn) => {
    const server = await Deno.connect({
      hostname: upstream.hostname,
      port: Number(upstream.port),
    });
    open.add(client).add(server);
    const close = () => {
      for (const c of [client, server]) {
        try {
          c.close();
        } catch { /* closed already */ }
        open.delete(c);
      }
    };
    let ready = 0;
    let frozen = false;
    // Server → client: count ReadyForQuery ('Z') messages by walking the frames.
    (async () => {
      let pending = new Uint8Array(0);
      for await (const chunk of server.readable) {
        if (frozen) continue;
        const all = new Uint8Array(pending.length + chunk.length);
        all.set(pending);
        all.set(chunk, pending.length);
        let at = 0;
        while (at + 5 <= all.length) {
          const len = new DataView(all.buffer, at + 1, 4).getInt32(0);
          if (at + 1 + len > all.length) break;
          if (all[at] === 0x5a) ready++;
          at += 1 + len;
        }
        pending = all.slice(at);
        await client.write(chunk).catch(() => {});
      }
    })().catch(() => {});
    // Client → server: the fault strikes at the first message after `after` answers.
    try {
      for await (const chunk of client.readable) {
        if (!frozen && ready >= after) frozen = true;
        if (frozen) {
          if (fault === "close") break;
          continue;
        }
        await server.write(chunk);
      }
    } catch { /* closed */ }
    close();
  };
  (async () => {
    for await (const c of listener) serve(c).catch(() => {});
  })().catch(() => {});
  const { port } = listener.addr as Deno.NetAddr;
  const url = new URL(upstream);
  url.port = String(port);
  return {
    url: url.toString(),
    close() {
      listener.close();
      for (const c of open) {
        try {
          c.close();
        } catch { /* closed already */ }
      }
    },
  };
}

/** One authentication request (backend message 'R') of `code` followed by `data`. */
function auth(code: number, data: string): Uint8Array {
  const text = new TextEncoder().encode(data);
  const msg = new Uint8Array(9 + text.length);
  const v = new DataView(msg.buffer);
  msg[0] = 0x52;
  v.setInt32(1, 8 + text.length);
  v.setInt32(5, code);
  msg.set(text, 9);
  return msg;
}

/**
 * A server that asks for a SCRAM password, like one with `scram-sha-256` in
 * pg_hba.conf: it offers SCRAM-SHA-256, answers the client's first message
 * with its own, then waits without a word.
 */
function passwordAskingServer() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  (async () => {
    for await (const c of listener) {
      conns.push(c);
      (async () => {
        const buf = new Uint8Array(4096);
        await c.read(buf); // the startup message
        await c.write(auth(10, "SCRAM-SHA-256\0\0"));
        const n = await c.read(buf); // SASLInitialResponse: "n,,n=*,r=NONCE"
        const nonce = /r=([^,\0]+)/.exec(new TextDecoder().decode(buf.subarray(0, n ?? 0)))?.[1];
        await c.write(auth(11, `r=${nonce}srv,s=${btoa("salt-salt-salt")},i=4096`));
      })().catch(() => {});
    }
  })().catch(() => {});
  return {
    url: `postgres://heimdall@127.0.0.1:${(listener.addr as Deno.NetAddr).port}/team`,
    close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed already */ }
      }
    },
  };
}

Deno.test({
  name: "team commands against a server that stops answering",
  ignore: noPostgres(),
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const server = await pgServer();
  const db = await freshDatabase(server.url);
  const m = await machine();
  const proxies: { close(): void }[] = [];
  try {
    const alice = { author: "alice", cwd: m.repo };
    assert.equal((await heimdall(m.home, ["team", "connect", db.url])).code, 0);
    const remembered = await heimdall(
      m.home,
      ["remember", "--kind", "decision", "--about", "route", "route stays synchronous"],
      alice,
    );
    assert.equal(remembered.code, 0, remembered.stderr);
    await heimdall(m.home, ["claim", "dispatch"], { author: "bob", cwd: m.repo });
    const via = (after: number, fault: Fault) => {
      const p = faultyProxy(new URL(db.url), after, fault);
      proxies.push(p);
      return { ...alice, env: { HEIMDALL_TEAM_URL: p.url } };
    };

    await t.step(
      "a lock held by a teammate's transaction fails the command in seconds",
      async () => {
        await withPg(db.url, async (c) => {
          await c.query("BEGIN");
          await c.query("LOCK TABLE heimdall.claims IN ACCESS EXCLUSIVE MODE");
          try {
            const r = await heimdall(m.home, ["claims"], alice);
            assert.equal(r.code, 3, r.stderr);
            assert.match(
              r.stderr,
              /Cannot reach the team store "[^"]+" \(no answer in 5 s: waiting for a lock another session holds\); retry, or check the server/,
            );
          } finally {
            await c.query("ROLLBACK");
          }
        });
      },
    );

    await t.step(
      "a server silent after login: claims and conflicts exit 3, why answers from the copies",
      async () => {
        // Round trips: the login, the schema version; the next query meets silence.
        const [claims, conflicts, why] = await Promise.all([
          heimdall(m.home, ["claims"], via(2, "hang")),
          heimdall(m.home, ["conflicts", "route"], via(2, "hang")),
          heimdall(m.home, ["why", "route"], via(2, "hang")),
        ]);
        for (const r of [claims, conflicts]) {
          assert.equal(r.code, 3, r.stderr);
          assert.match(r.stderr, /\(no answer in 10 s\); retry, or check the server/);
        }
        assert.equal(why.code, 0, why.stderr);
        assert.match(why.stdout, /route stays synchronous/);
        assert.match(why.stderr, /no answer in 10 s.*showing this machine's copy/);
      },
    );

    await t.step(
      "a server that never answers the login: exit 3, saying how long it waited",
      async () => {
        const r = await heimdall(m.home, ["claims"], via(0, "hang"));
        assert.equal(r.code, 3, r.stderr);
        assert.match(
          r.stderr,
          /Cannot reach the team store "[^"]+" \(no answer in 5 s: logging in\)/,
        );
        assert.doesNotMatch(r.stderr, /timeout expired/);
      },
    );

    await t.step(
      "a connection dropped mid-command: why and history answer from the copies",
      async () => {
        for (const args of [["why", "route"], ["history", "route"]]) {
          const r = await heimdall(m.home, args, via(2, "close"));
          assert.equal(r.code, 0, `${args[0]}: ${r.stderr}`);
          assert.match(r.stdout, /route stays synchronous/);
          assert.match(r.stderr, /Lost the team store.*showing this machine's copy/);
        }
      },
    );

    await t.step("the store still works afterwards (nothing left locked)", async () => {
      const all = await heimdallJson<{ claims: ActiveClaim[] }>(m.home, ["claims"], alice);
      assert.deepEqual(all.claims.map((c) => c.qualname), ["dispatch"]);
    });
  } finally {
    for (const p of proxies) p.close();
    m[Symbol.dispose]();
    await db.drop();
    await server.stop();
  }
});

Deno.test("a team URL that does not parse is a usage error that hides the password", async () => {
  using m = await machine();
  const bad = "postgres://heimdall:top:se#cret/pw@127.0.0.1:5432/team";
  const fromEnv = await heimdall(m.home, ["claims"], { env: { HEIMDALL_TEAM_URL: bad } });
  Deno.writeTextFileSync(homePaths(m.home).config, JSON.stringify({ teamUrl: bad }));
  const fromFile = await heimdall(m.home, ["claims"]);
  for (const r of [fromEnv, fromFile]) {
    assert.equal(r.code, 2, r.stderr);
    assert.doesNotMatch(r.stderr + r.stdout, /top|cret|internal error/);
    assert.match(r.stderr, /teamUrl.*percent-encode special characters/);
  }
  const connect = await heimdall(m.home, ["team", "connect", bad]);
  assert.equal(connect.code, 2, connect.stderr);
  assert.match(
    connect.stderr,
    /Invalid team URL "postgres:\/\/heimdall:\*\*\*@127\.0\.0\.1:5432\/team"/,
  );
});

Deno.test({
  name: "a server asking for a password none was given for says where to put one",
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  using m = await machine();
  const server = passwordAskingServer();
  try {
    const r = await heimdall(m.home, ["team", "connect", server.url], {
      env: { PGPASSWORD: "", PGPASSFILE: "/nonexistent/pgpass" },
    });
    assert.equal(r.code, 3, r.stderr);
    assert.doesNotMatch(r.stderr, /SASL|must be a string/);
    assert.match(
      r.stderr,
      /asks for a password and none was given; put it in the URL .* or in PGPASSWORD/,
    );
  } finally {
    server.close();
  }
});

Deno.test("a host this process may not reach says which --allow-net it needs, not that the server is down", async () => {
  using m = await machine();
  // The fixture's runner allows the network on loopback only.
  for (const host of ["db.example.com", "10.1.2.3"]) {
    const r = await heimdall(m.home, ["team", "connect", `postgres://ann@${host}/team`]);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, new RegExp(`--allow-net.*${host.replaceAll(".", "\\.")}`), r.stderr);
    assert.doesNotMatch(r.stderr, /check that the server runs|EPERM/, r.stderr);
  }
});

/**
 * A server that refuses every login with SQLSTATE `code` and `message` (an
 * ErrorResponse, as PostgreSQL answers a wrong password), whatever the client sends.
 */
function refusingServer(code: string, message: string) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  const text = new TextEncoder().encode(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`);
  const reply = new Uint8Array(5 + text.length);
  reply[0] = 0x45; // 'E'
  new DataView(reply.buffer).setInt32(1, 4 + text.length);
  reply.set(text, 5);
  (async () => {
    for await (const c of listener) {
      conns.push(c);
      (async () => {
        await c.read(new Uint8Array(4096)); // the startup message
        await c.write(reply);
      })().catch(() => {});
    }
  })().catch(() => {});
  return {
    url: `postgres://ann:${"wrong-pw"}@127.0.0.1:${(listener.addr as Deno.NetAddr).port}/team`,
    close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed already */ }
      }
    },
  };
}

Deno.test({
  name: "a wrong password is blamed on the password, with where to put the right one",
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  using m = await machine();
  const server = refusingServer("28P01", 'password authentication failed for user "ann"');
  try {
    const r = await heimdall(m.home, ["team", "connect", server.url]);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /refused the password for user "ann"/, r.stderr);
    assert.match(r.stderr, /in the URL .* or in PGPASSWORD/, r.stderr);
    assert.doesNotMatch(r.stderr, /wrong-pw|check that the server runs/, r.stderr);
  } finally {
    server.close();
  }
});

Deno.test({
  name: "a server whose pg_hba.conf has no entry for us says who is refused and who can allow it",
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  using m = await machine();
  const server = refusingServer(
    "28000",
    'no pg_hba.conf entry for host "10.0.0.7", user "ann", database "team", no encryption',
  );
  try {
    const r = await heimdall(m.home, ["team", "connect", server.url]);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /does not let user "ann" in to database "team" from this host/);
    assert.match(r.stderr, /pg_hba\.conf entry, or add \?sslmode=verify-full/);
    assert.doesNotMatch(r.stderr, /check that the server runs/, r.stderr);
  } finally {
    server.close();
  }
});

Deno.test({
  name: "a database or user the server does not have is named, with the remedy",
  ignore: noPostgres(),
}, async () => {
  const server = await pgServer();
  try {
    using m = await machine();
    const url = new URL(server.url);
    url.pathname = "/no_such_team_db";
    const db = await heimdall(m.home, ["team", "connect", url.toString()]);
    assert.equal(db.code, 3, db.stderr);
    assert.match(
      db.stderr,
      /server has no database "no_such_team_db"; create it \(CREATE DATABASE no_such_team_db\) or fix the database name in the URL/,
      db.stderr,
    );
    const user = new URL(server.url);
    user.username = "no_such_team_user";
    const role = await heimdall(m.home, ["team", "connect", user.toString()]);
    assert.equal(role.code, 3, role.stderr);
    assert.match(
      role.stderr,
      /server has no user "no_such_team_user"; fix the user name in the URL, or create the role/,
      role.stderr,
    );
    assert.equal(
      (await heimdall(m.home, ["team", "status"])).stdout.includes("this machine's journal"),
      true,
      "a failed connect changes nothing",
    );
  } finally {
    await server.stop();
  }
});

Deno.test("remember with the store down says why once, as a write", async () => {
  using m = await machine();
  const r = await heimdall(
    m.home,
    ["remember", "--kind", "decision", "--about", "route", "keep it"],
    { cwd: m.repo, env: { HEIMDALL_TEAM_URL: "postgres://heimdall@127.0.0.1:1/team" } },
  );
  assert.equal(r.code, 3, r.stderr);
  assert.equal(r.stderr.match(/Cannot reach the team store/g)?.length, 1, r.stderr);
  assert.doesNotMatch(r.stderr, /showing this machine's copy/);
  // What was to be said is not stored: the message says how to keep it here instead.
  assert.match(r.stderr, /to keep it on this machine only, run it again with --scope private/);
  const attempt = await heimdall(
    m.home,
    ["attempt", "--about", "route", "--failed", "route broke"],
    { cwd: m.repo, env: { HEIMDALL_TEAM_URL: "postgres://heimdall@127.0.0.1:1/team" } },
  );
  assert.equal(attempt.code, 3, attempt.stderr);
  assert.match(attempt.stderr, /run it again with --scope private/);
});

Deno.test("team disconnect says a connection from HEIMDALL_TEAM_URL stays until unset", async () => {
  using m = await machine();
  const r = await heimdall(m.home, ["team", "disconnect"], {
    env: { HEIMDALL_TEAM_URL: "postgres://heimdall:pw@127.0.0.1:1/team" },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /still connected to postgres:\/\/heimdall:\*\*\*@.*HEIMDALL_TEAM_URL; unset it/,
  );
  assert.doesNotMatch(r.stdout, /not connected/);
});

Deno.test({
  name: "team connect says when HEIMDALL_TEAM_URL keeps the commands on another store",
  ignore: noPostgres(),
}, async () => {
  const server = await pgServer();
  try {
    using m = await machine();
    const env = { HEIMDALL_TEAM_URL: "postgres://heimdall:pw@127.0.0.1:1/other" };
    const r = await heimdall(m.home, ["team", "connect", server.url], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /now go there/);
    assert.match(
      r.stdout,
      /saved .* in config\.json, but the commands still use postgres:\/\/heimdall:\*\*\*@127\.0\.0\.1:1\/other from HEIMDALL_TEAM_URL; unset it/,
    );
    const json = await heimdall(m.home, ["team", "connect", server.url, "--json"], { env });
    assert.equal(json.code, 0, json.stderr);
    assert.equal(
      JSON.parse(json.stdout).still_connected,
      "postgres://heimdall:***@127.0.0.1:1/other",
    );
    // The same URL in both: nothing to say.
    const same = await heimdall(m.home, ["team", "connect", server.url], {
      env: { HEIMDALL_TEAM_URL: server.url },
    });
    assert.match(same.stdout, /now go there/);
  } finally {
    await server.stop();
  }
});

Deno.test("a teammate's terminal escapes are printed inert in every human-output line", async () => {
  using m = await machine();
  const bob = { author: "bob\x1b[2J", cwd: m.repo };
  const alice = { author: "alice", cwd: m.repo };
  const task = await heimdallJson<Task>(
    m.home,
    ["task", "start", "evil \x1b]0;pwned\x07 task"],
    bob,
  );
  assert.ok(task.text.includes("\x1b")); // JSON keeps the text as it is
  assert.equal((await heimdall(m.home, ["claim", "route"], bob)).code, 0);
  const handed = await heimdall(
    m.home,
    ["task", "handoff", task.id, "--to", "carol", "--note", "see \x1b[31mred\x1b[0m"],
    bob,
  );
  assert.equal(handed.code, 0, handed.stderr);
  const outputs = await Promise.all([
    heimdall(m.home, ["claims"], alice),
    heimdall(m.home, ["task", "list"], alice),
    heimdall(m.home, ["task", "show", task.id], alice),
    heimdall(m.home, ["claim", "route"], alice),
    heimdall(m.home, ["conflicts", "route"], alice),
  ]);
  for (const r of outputs) {
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes("\x07") && !r.stdout.includes("\x1b"), r.stdout);
  }
  assert.match(outputs[2]!.stdout, /see \\x1b\[31mred/);
  assert.match(outputs[1]!.stdout, /evil \\x1b\]0;pwned\\x07 task/);
});

/** The local journal, or a fresh database on `server` connected to. */
async function storeOn(m: Machine, server: string | null): Promise<() => Promise<void>> {
  if (server === null) return () => Promise.resolve();
  const db = await freshDatabase(server);
  assert.equal((await heimdall(m.home, ["team", "connect", db.url])).code, 0);
  return db.drop;
}

async function taskRules(server: string | null): Promise<void> {
  using m = await machine();
  const drop = await storeOn(m, server);
  try {
    const alice = { author: "alice", cwd: m.repo };
    const bob = { author: "bob", cwd: m.repo };
    const carol = { author: "carol", cwd: m.repo };

    // A hand-off onto a claim the receiver already holds leaves one claim.
    assert.equal((await heimdall(m.home, ["claim", "dispatch", "--ttl", "5h"], carol)).code, 0);
    const task = await heimdallJson<Task>(m.home, ["task", "start", "split dispatch"], alice);
    assert.equal((await heimdall(m.home, ["claim", "dispatch", "--task", task.id], alice)).code, 0);
    assert.equal(
      (await heimdall(m.home, ["task", "handoff", task.id, "--to", "carol"], alice)).code,
      0,
    );
    const all = await heimdallJson<{ claims: ActiveClaim[] }>(m.home, ["claims"], carol);
    const carols = all.claims.filter((c) => c.developer === "carol");
    assert.equal(carols.length, 1, JSON.stringify(all.claims));
    assert.equal(carols[0]!.taskId, task.id);
    // The later expiry (carol's 5 h, not the task's default 2 h) is kept.
    assert.ok(carols[0]!.expiresAt - Date.now() > 4 * 3600_000, JSON.stringify(carols[0]));
    const released = await heimdall(m.home, ["release", "dispatch"], carol);
    assert.match(released.stdout, /released 1 claim$/m);

    // Someone else's task is refused, naming its owner.
    const own = await heimdallJson<Task>(m.home, ["task", "start", "route work"], alice);
    const theirs = await heimdall(m.home, ["claim", "route", "--task", own.id], bob);
    assert.equal(theirs.code, 2, theirs.stderr);
    assert.match(theirs.stderr, new RegExp(`Task "${own.id}" belongs to alice, not to you`));

    // Claims on code renamed since are released by the names they were made with.
    assert.equal((await heimdall(m.home, ["claim", "dispatch", "store"], bob)).code, 0);
    for (
      const [file, from, to] of [["src/dispatch.ts", "dispatch", "forward"], [
        "src/store.ts",
        "store",
        "persist",
      ]]
    ) {
      const path = join(m.repo, file!);
      Deno.writeTextFileSync(
        path,
        Deno.readTextFileSync(path).replaceAll(`function ${from}(`, `function ${to}(`),
      );
    }
    assert.equal((await heimdall(m.home, ["index", m.repo])).code, 0);
    const byName = await heimdall(m.home, ["release", "dispatch"], bob);
    assert.equal(byName.code, 0, byName.stderr);
    assert.match(byName.stdout, /released 1 claim$/m);
    const byFile = await heimdall(m.home, ["release", "src/store.ts"], bob);
    assert.equal(byFile.code, 0, byFile.stderr);
    assert.match(byFile.stdout, /released 1 claim$/m);
  } finally {
    await drop();
  }
}

Deno.test("task rules on the local journal: hand-off merges claims, others' tasks refused, renamed code released", async () => {
  await taskRules(null);
});

Deno.test({
  name:
    "task rules on PostgreSQL: hand-off merges claims, others' tasks refused, renamed code released",
  ignore: noPostgres(),
}, async () => {
  const server = await pgServer();
  try {
    await taskRules(server.url);
  } finally {
    await server.stop();
  }
});
