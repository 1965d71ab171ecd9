/**
 * The team store on a real PostgreSQL: two machines (two homes, two clones in
 * differently named folders) sharing one database, writing at once.
 *
 * The server comes from $HEIMDALL_TEST_PG_URL (CI's `.ci/run` starts one with
 * scripts/pg_test_server.sh). Without it these tests start their own through
 * the same script, except under CI=true, where a missing server is a failure.
 * Each step works in a fresh database, dropped afterwards.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Conflict, openPgTeamStore } from "../src/team/mod.ts";
import {
  freshDatabase,
  heimdall,
  heimdallJson,
  type Machine,
  machine,
  noPostgres,
  pgServer,
  withClockBehind,
  withPg,
} from "./team_fixture.ts";

/** Two machines with clones of one repository in different folders, both connected to `url`. */
async function team(url: string): Promise<[Machine, Machine]> {
  const [a, b] = await Promise.all([machine("shop"), machine("shop-clone")]);
  // Both connect to the empty database at once: the schema is created once, under a lock.
  const connected = await Promise.all(
    [a, b].map((m) => heimdall(m.home, ["team", "connect", url])),
  );
  for (const r of connected) assert.equal(r.code, 0, r.stderr);
  return [a, b];
}

const brief = (list: Conflict[]) =>
  list.map((c) => [c.claim.developer, c.claim.qualname, c.relation, c.hops]);

Deno.test({ name: "team store on PostgreSQL", ignore: noPostgres() }, async (t) => {
  const server = await pgServer();
  const cleanups: (() => Promise<void> | void)[] = [];
  const step = (name: string, fn: (url: string) => Promise<void>) =>
    t.step(name, async () => {
      const db = await freshDatabase(server.url);
      cleanups.push(db.drop);
      await fn(db.url);
    });
  const machines = async (url: string) => {
    const pair = await team(url);
    for (const m of pair) cleanups.push(() => m[Symbol.dispose]());
    return pair;
  };
  try {
    await step(
      "two clients claiming at once both land, and each sees the other's claims as conflicts",
      async (url) => {
        const [a, b] = await machines(url);
        const claims = await Promise.all([
          heimdall(a.home, ["claim", "route", "dispatch"], { author: "alice", cwd: a.repo }),
          heimdall(b.home, ["claim", "handleRequest", "store"], { author: "bob", cwd: b.repo }),
        ]);
        for (const r of claims) assert.equal(r.code, 0, r.stderr);

        for (const m of [a, b]) {
          const all = await heimdallJson<{ claims: { developer: string; qualname: string }[] }>(
            m.home,
            ["claims"],
          );
          assert.deepEqual(all.claims.map((c) => `${c.developer}:${c.qualname}`).sort(), [
            "alice:dispatch",
            "alice:route",
            "bob:handleRequest",
            "bob:store",
          ]);
        }
        const seenByAlice = await heimdallJson<{ conflicts: Conflict[] }>(a.home, [
          "conflicts",
          "route",
        ], {
          author: "alice",
          cwd: a.repo,
        });
        assert.deepEqual(brief(seenByAlice.conflicts), [
          ["bob", "handleRequest", "caller", 1],
          ["bob", "store", "callee", 2],
        ]);
        // Bob's machine places Alice's claims in its own clone, and shows the path there.
        const seenByBob = await heimdallJson<{ conflicts: Conflict[] }>(b.home, [
          "conflicts",
          "handleRequest",
        ], {
          author: "bob",
          cwd: b.repo,
        });
        assert.deepEqual(brief(seenByBob.conflicts), [
          ["alice", "route", "callee", 1],
          ["alice", "dispatch", "callee", 2],
        ]);
        assert.ok(seenByBob.conflicts[0]!.path.every((s) => s.path.startsWith(b.repo)));

        // Only names, relative paths and hashes reached the server.
        const rows = await withPg(
          url,
          async (c) =>
            (await c.query("SELECT repo, path FROM heimdall.claims")).rows as {
              repo: string;
              path: string;
            }[],
        );
        assert.deepEqual([...new Set(rows.map((r) => `${r.repo}/${r.path}`))].sort(), [
          "shop/src/app.ts",
          "shop/src/dispatch.ts",
          "shop/src/router.ts",
          "shop/src/store.ts",
        ]);
      },
    );

    await step("times come from the server's clock; a claim expires by it", async (url) => {
      const [a, b] = await machines(url);
      const store = await openPgTeamStore(url);
      const who = { developer: "alice", agent: null, session: null };
      const key = {
        repo: "shop",
        path: "src/store.ts",
        qualname: "store",
        kind: "function",
        structHash: null,
      };
      try {
        // Every clock reading of this process runs a day behind while the store writes.
        const [[c], task] = await withClockBehind(86_400_000, async () =>
          [
            await store.claim(who, [key], { ttlSeconds: 60, taskId: null, taskText: null }),
            await store.startTask(who, "clock"),
          ] as const);
        const real = Date.now();
        assert.ok(
          Math.abs(c!.createdAt - real) < 5000,
          `claim stamped ${c!.createdAt}, server now ≈ ${real}`,
        );
        assert.equal(c!.expiresAt - c!.createdAt, 60_000);
        assert.ok(Math.abs(task.createdAt - real) < 5000);
      } finally {
        await store.close();
      }
      const short = await heimdallJson<{ claims: { expiresAt: number; createdAt: number }[] }>(
        a.home,
        ["claim", "dispatch", "--ttl", "2s"],
        { author: "carol", cwd: a.repo },
      );
      const [c] = short.claims;
      assert.equal(c!.expiresAt - c!.createdAt, 2000);
      // The server runs on this machine, so its clock and ours agree on when that is.
      await new Promise((r) => setTimeout(r, Math.max(0, c!.expiresAt - Date.now()) + 200));
      const after = await heimdallJson<{ conflicts: Conflict[] }>(b.home, ["conflicts", "route"], {
        author: "bob",
        cwd: b.repo,
      });
      assert.deepEqual(brief(after.conflicts), [["alice", "store", "callee", 2]]);
    });

    await step("a store outlives a connection the server dropped while idle", async (url) => {
      const store = await openPgTeamStore(url);
      try {
        const who = { developer: "alice", agent: null, session: null };
        await store.startTask(who, "before the drop");
        const killed = await withPg(url, async (c) =>
          (await c.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE application_name = 'heimdall' AND datname = current_database()`,
          )).rowCount);
        assert.equal(killed, 1);
        await new Promise((r) => setTimeout(r, 500));
        await store.startTask(who, "after the drop");
        const texts = (await store.listTasks({ includeDone: false })).map((t) => t.text);
        assert.deepEqual(texts.sort(), ["after the drop", "before the drop"]);
      } finally {
        await store.close();
      }
    });

    await step(
      "one person claiming the same code from several connections at once, or naming it twice, holds one claim",
      async (url) => {
        // An agent's parallel edits: each hook claims what it changed, at once.
        const stores = await Promise.all(Array.from({ length: 8 }, () => openPgTeamStore(url)));
        try {
          const who = { developer: "alice", agent: "claude", session: "s1" };
          for (const qualname of ["route", "dispatch", "store"]) {
            const key = {
              repo: "shop",
              path: "src/x.ts",
              qualname,
              kind: "function",
              structHash: null,
            };
            await Promise.all(
              stores.map((s) =>
                s.claim(who, [key], { ttlSeconds: 60, taskId: null, taskText: null })
              ),
            );
          }
          const held = (await stores[0]!.activeClaims(null)).map((c) => c.qualname);
          assert.deepEqual(held.sort(), ["dispatch", "route", "store"]);
          // The same code named twice in one claim is one claim too.
          const twice = { repo: "shop", path: "src/y.ts", qualname: "main", kind: "function" };
          const made = await stores[0]!.claim(who, [
            { ...twice, structHash: null },
            { ...twice, structHash: null },
          ], { ttlSeconds: 60, taskId: null, taskText: null });
          assert.equal(made.length, 1);
          assert.equal(
            (await stores[0]!.activeClaims(null)).filter((c) => c.qualname === "main").length,
            1,
          );
        } finally {
          await Promise.all(stores.map((s) => s.close()));
        }
      },
    );

    await step(
      "an acknowledged warning is not repeated to that person, on any machine",
      async (url) => {
        const [a, b] = await machines(url);
        await heimdall(a.home, ["claim", "dispatch"], { author: "alice", cwd: a.repo });
        assert.equal(
          (await heimdall(b.home, ["conflicts", "route", "--ack"], { author: "bob", cwd: b.repo }))
            .code,
          0,
        );
        const again = await heimdall(b.home, ["conflicts", "route"], {
          author: "bob",
          cwd: b.repo,
        });
        assert.equal(again.code, 1);
        assert.match(again.stdout, /1 acknowledged conflict not shown/);
        // The ack lives in the shared store: Bob on machine A is not warned either; Carol is.
        assert.equal(
          (await heimdall(a.home, ["conflicts", "route"], { author: "bob", cwd: a.repo })).code,
          1,
        );
        assert.equal(
          (await heimdall(a.home, ["conflicts", "route"], { author: "carol", cwd: a.repo })).code,
          0,
        );
      },
    );

    await step(
      "an acknowledged warning warns again once a hand-off gives the claim to someone else",
      async (url) => {
        using m = await machine();
        assert.equal((await heimdall(m.home, ["team", "connect", url])).code, 0);
        const as = (author: string, env: Record<string, string> = {}) => ({
          author,
          cwd: m.repo,
          env,
        });
        const task = await heimdallJson<{ id: string }>(
          m.home,
          ["task", "start", "split dispatch"],
          as("alice"),
        );
        assert.equal((await heimdall(m.home, ["claim", "dispatch"], as("alice"))).code, 0);
        assert.equal((await heimdall(m.home, ["conflicts", "route", "--ack"], as("bob"))).code, 0);
        assert.equal((await heimdall(m.home, ["conflicts", "route"], as("bob"))).code, 1);
        // Handed to Carol, the claim is hers: Bob has not seen that warning.
        const handed = await heimdall(
          m.home,
          ["task", "handoff", task.id, "--to", "carol"],
          as("alice"),
        );
        assert.equal(handed.code, 0, handed.stderr);
        const after = await heimdallJson<{ conflicts: Conflict[] }>(m.home, [
          "conflicts",
          "route",
          "--ack",
        ], as("bob"));
        assert.deepEqual(after.conflicts.map((c) => [c.claim.developer, c.claim.qualname]), [[
          "carol",
          "dispatch",
        ]]);
        // Carol taking it up in another session is still Carol: not shown again.
        const resumed = await heimdall(
          m.home,
          ["task", "resume", task.id],
          as("carol", { HEIMDALL_SESSION: "s2" }),
        );
        assert.equal(resumed.code, 0, resumed.stderr);
        assert.equal((await heimdall(m.home, ["conflicts", "route"], as("bob"))).code, 1);
      },
    );

    await step(
      "a hand-off moves a task and its claims from one machine to another",
      async (url) => {
        const [a, b] = await machines(url);
        const task = await heimdallJson<{ id: string }>(
          a.home,
          ["task", "start", "split dispatch"],
          {
            author: "alice",
            cwd: a.repo,
          },
        );
        await heimdall(a.home, ["claim", "dispatch", "store"], { author: "alice", cwd: a.repo });
        const handed = await heimdall(a.home, [
          "task",
          "handoff",
          task.id,
          "--to",
          "bob",
          "--note",
          "tests next",
        ], {
          author: "alice",
          cwd: a.repo,
        });
        assert.equal(handed.code, 0, handed.stderr);
        const resumed = await heimdallJson<
          {
            task: { owner: string };
            claimsMoved: number;
            events: { kind: string; note: string | null }[];
          }
        >(b.home, ["task", "resume", task.id], { author: "bob", cwd: b.repo });
        assert.equal(resumed.task.owner, "bob");
        assert.equal(resumed.claimsMoved, 2);
        assert.deepEqual(resumed.events.map((e) => [e.kind, e.note]), [["start", null], [
          "handoff",
          "tests next",
        ], [
          "resume",
          null,
        ]]);
        // Alice now gets warned about Bob's claims; Bob's own are no conflict for him.
        const alice = await heimdallJson<{ conflicts: Conflict[] }>(
          a.home,
          ["conflicts", "route"],
          {
            author: "alice",
            cwd: a.repo,
          },
        );
        assert.deepEqual(brief(alice.conflicts), [["bob", "dispatch", "callee", 1], [
          "bob",
          "store",
          "callee",
          2,
        ]]);
        assert.equal(
          (await heimdall(b.home, ["conflicts", "route"], { author: "bob", cwd: b.repo })).code,
          1,
        );
        const list = await heimdallJson<{ current: string | null }>(b.home, ["task", "list"], {
          author: "bob",
        });
        assert.equal(list.current, task.id);
      },
    );

    await step(
      "a user who may not create schemas connects once the schema is made for them; an older build is told to upgrade, a newer one who may migrate",
      async (url) => {
        using m = await machine();
        const suffix = crypto.randomUUID().replaceAll("-", "").slice(0, 8);
        const owner = `heimdall_owner_${suffix}`, reader = `heimdall_reader_${suffix}`;
        const as = (role: string) => {
          const u = new URL(url);
          u.username = role;
          return u.toString();
        };
        await withPg(
          url,
          (c) => c.query(`CREATE ROLE ${owner} LOGIN; CREATE ROLE ${reader} LOGIN`),
        );
        try {
          const refused = await heimdall(m.home, ["team", "connect", as(owner)]);
          assert.equal(refused.code, 3);
          assert.match(refused.stderr, /create the schema for it/);
          // The remedy the message gives: an administrator makes the schema theirs.
          await withPg(url, (c) => c.query(`CREATE SCHEMA heimdall AUTHORIZATION ${owner}`));
          const owned = await heimdall(m.home, ["team", "connect", as(owner)]);
          assert.equal(owned.code, 0, owned.stderr);
          // A teammate allowed to read and write the tables, not to change the schema.
          await withPg(as(owner), (c) =>
            c.query(
              `GRANT USAGE ON SCHEMA heimdall TO ${reader};
               GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA heimdall TO ${reader};
               GRANT USAGE ON ALL SEQUENCES IN SCHEMA heimdall TO ${reader}`,
            ));
          const joined = await heimdall(m.home, ["team", "connect", as(reader)]);
          assert.equal(joined.code, 0, joined.stderr);
          // A newer build migrated the store: this one says so, not "grant CREATE".
          await withPg(
            as(owner),
            (c) => c.query("INSERT INTO heimdall.schema_version (version) VALUES (99)"),
          );
          const older = await heimdall(m.home, ["claims"]);
          assert.equal(older.code, 3);
          assert.match(
            older.stderr,
            /schema version 99, newer than this build knows.*upgrade heimdall/,
          );
          // This build is the newer one: the teammate may not apply its migration, the owner may.
          await withPg(as(owner), (c) =>
            c.query(
              `DELETE FROM heimdall.schema_version WHERE version >= 3;
               ALTER TABLE heimdall.memories DROP CONSTRAINT memories_kind_check`,
            ));
          const behind = await heimdall(m.home, ["claims"]);
          assert.equal(behind.code, 3);
          assert.match(behind.stderr, /schema version 2.*needs 3/, behind.stderr);
          assert.match(
            behind.stderr,
            /heimdall team connect.*as the schema's owner/,
            behind.stderr,
          );
          assert.doesNotMatch(behind.stderr, /may not create schema/, behind.stderr);
          const upgraded = await heimdall(m.home, ["team", "connect", as(owner)]);
          assert.equal(upgraded.code, 0, upgraded.stderr);
          assert.equal((await heimdall(m.home, ["team", "connect", as(reader)])).code, 0);
        } finally {
          await withPg(url, (c) => c.query(`DROP OWNED BY ${owner}, ${reader} CASCADE`));
          await withPg(url, (c) => c.query(`DROP ROLE ${owner}; DROP ROLE ${reader}`));
        }
      },
    );

    await step(
      "connect hides the password, keeps the config private, and refuses a dead server",
      async (url) => {
        using m = await machine();
        const withPassword = new URL(url);
        withPassword.password = ["s3cret", "pw"].join("-");
        const r = await heimdall(m.home, ["team", "connect", withPassword.toString()]);
        assert.equal(r.code, 0, r.stderr);
        assert.ok(!`${r.stdout}${r.stderr}`.includes("s3cret-pw"), r.stdout);
        assert.match(r.stdout, /:\*\*\*@/);
        assert.equal(Deno.statSync(join(m.home, "config.json")).mode! & 0o777, 0o600);
        const status = await heimdall(m.home, ["team", "status"]);
        assert.match(status.stdout, /shared PostgreSQL/);
        assert.ok(!status.stdout.includes("s3cret-pw"));

        const dead = new URL(url);
        dead.port = "1";
        const refused = await heimdall(m.home, ["team", "connect", dead.toString()]);
        assert.equal(refused.code, 3);
        assert.ok(!refused.stderr.includes("s3cret-pw"));
        const config = JSON.parse(Deno.readTextFileSync(join(m.home, "config.json")));
        assert.equal(config.teamUrl, withPassword.toString(), "a failed connect keeps the old URL");

        // The driver also reads a password from the query: never shown either.
        const inQuery = new URL(url);
        inQuery.searchParams.set("password", ["q", "s3cret", "pw"].join("-"));
        const viaQuery = await heimdall(m.home, ["team", "connect", inQuery.toString()]);
        assert.equal(viaQuery.code, 0, viaQuery.stderr);
        const shown = [
          viaQuery,
          await heimdall(m.home, ["team", "status"]),
          await heimdall(m.home, ["claims", "--json"]),
        ];
        for (const r of shown) {
          assert.ok(!`${r.stdout}${r.stderr}`.includes("q-s3cret-pw"), r.stdout);
        }
        inQuery.port = "1";
        const deadQuery = await heimdall(m.home, ["team", "connect", inQuery.toString()]);
        assert.equal(deadQuery.code, 3);
        assert.match(deadQuery.stderr, /password=\*\*\*/);
        assert.ok(!deadQuery.stderr.includes("q-s3cret-pw"), deadQuery.stderr);

        const off = await heimdall(m.home, ["team", "disconnect"]);
        assert.equal(off.code, 0);
        assert.ok(!off.stdout.includes("q-s3cret-pw"), off.stdout);
        assert.match((await heimdall(m.home, ["team", "status"])).stdout, /this machine's journal/);
      },
    );
  } finally {
    for (const c of cleanups.reverse()) await c();
    await server.stop();
  }
});
