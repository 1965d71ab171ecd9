/**
 * The team's shared memory on a real PostgreSQL: two machines (two homes,
 * two clones of one repository in differently named folders) connected to
 * one database, real CLI subprocesses writing at once.
 *
 * The server comes from $HEIMDALL_TEST_PG_URL; without it these tests start
 * their own with scripts/pg_test_server.sh, except under CI=true, where a
 * missing server is a failure (as in tests/team_pg_test.ts). Each step works
 * in a fresh database, dropped afterwards.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { homePaths, loadConfig } from "../src/config/mod.ts";
import { Journal } from "../src/store/mod.ts";
import { SharedMemory } from "../src/team/mod.ts";
import { sh, writeTree } from "./helpers.ts";
import {
  freshDatabase,
  heimdall,
  heimdallJson,
  type Machine,
  machine,
  noPostgres,
  pgServer,
  sql,
  withClockBehind,
} from "./team_fixture.ts";

interface Item {
  id: string;
  kind: string;
  text: string;
  author: string;
  standing: string;
  recorded_at: number;
  superseded_at: number | null;
  superseded_by: string | null;
  status: string | null;
  resolved_by: string | null;
  forgotten_at: number | null;
  count: number;
  anchors: { path: string; symbol: string | null; state: string }[];
}
interface WhyJson {
  target: { type: string; path: string | null };
  current: Item[];
  history: Item[];
}
interface HistoryJson {
  memories: Item[];
  events: { event: string; memory_id: string; at: number }[];
}
interface Remembered {
  memory: Item;
  superseded: string[];
}
interface Attempted {
  memory: Item;
  repeated: boolean;
  matchedBy: string | null;
  resolved: string[];
}
interface StoredRow {
  id: string;
  author: string;
  text: string;
  scope: string;
  recorded_ms: number;
  superseded_ms: number | null;
  superseded_by: string | null;
  count: number;
}

const STORED = `SELECT id, author, text, scope,
  floor(extract(epoch from recorded_at) * 1000)::float8 AS recorded_ms,
  floor(extract(epoch from superseded_at) * 1000)::float8 AS superseded_ms,
  superseded_by, count FROM heimdall.memories`;

/** `remember --kind KIND --about ABOUT`, then `rest`: more flags, then the text. */
function remembering(kind: string, about: string, ...rest: string[]): string[] {
  return ["remember", "--kind", kind, "--about", about, ...rest];
}

Deno.test({ name: "team memory on PostgreSQL", ignore: noPostgres() }, async (t) => {
  const server = await pgServer();
  const cleanups: (() => Promise<void> | void)[] = [];
  const step = (name: string, fn: (url: string, a: Machine, b: Machine) => Promise<void>) =>
    t.step(name, async () => {
      const db = await freshDatabase(server.url, "heimdall_m");
      cleanups.push(db.drop);
      const [a, b] = await Promise.all([machine("shop"), machine("shop-clone")]);
      cleanups.push(() => a[Symbol.dispose](), () => b[Symbol.dispose]());
      for (const m of [a, b]) {
        const r = await heimdall(m.home, ["team", "connect", db.url]);
        assert.equal(r.code, 0, r.stderr);
      }
      await fn(db.url, a, b);
    });
  const alice = (a: Machine) => ({ author: "alice", cwd: a.repo });
  const bob = (b: Machine) => ({ author: "bob", cwd: b.repo });

  try {
    await step(
      "decisions on the same code from two machines at once: exactly one stays current, the others superseded, on the server's clock",
      async (url, a, b) => {
        const before = Date.now();
        // Four writers at once, two per machine, on the same function (named two ways).
        const writes = await Promise.all([
          heimdallJson<Remembered>(
            a.home,
            remembering("decision", "dispatch", "dispatch stays synchronous (a1)"),
            alice(a),
          ),
          heimdallJson<Remembered>(
            b.home,
            remembering("decision", "src/dispatch.ts:dispatch", "dispatch moves to a queue (b1)"),
            bob(b),
          ),
          heimdallJson<Remembered>(
            a.home,
            remembering("decision", "dispatch", "dispatch keeps its signature (a2)"),
            alice(a),
          ),
          heimdallJson<Remembered>(
            b.home,
            remembering("decision", "dispatch", "dispatch logs every request (b2)"),
            bob(b),
          ),
        ]);
        const after = Date.now();
        const rows = await sql<StoredRow>(url, `${STORED} ORDER BY recorded_at`);
        assert.equal(rows.length, 4);
        const current = rows.filter((r) => r.superseded_ms === null);
        assert.equal(current.length, 1, JSON.stringify(rows));
        // A chain: each but the last superseded by the next one, at the instant it was recorded.
        for (let i = 0; i + 1 < rows.length; i++) {
          const [older, newer] = [rows[i]!, rows[i + 1]!];
          assert.equal(older.superseded_by, newer.id);
          assert.equal(older.superseded_ms, newer.recorded_ms);
          assert.ok(newer.recorded_ms > older.recorded_ms, "recorded after the one it supersedes");
        }
        for (const r of rows) {
          assert.ok(r.recorded_ms >= before - 2000 && r.recorded_ms <= after + 2000);
        }
        // Every writer was told what it superseded, and together that is everyone but the first.
        assert.deepEqual(
          writes.flatMap((w) => w.superseded).sort(),
          rows.slice(0, -1).map((r) => r.id).sort(),
        );

        // Both machines answer the same, with the server's times.
        for (const [m, who] of [[a, alice(a)], [b, bob(b)]] as const) {
          const why = await heimdallJson<WhyJson>(m.home, ["why", "dispatch"], who);
          assert.deepEqual(why.current.map((x) => x.id), [current[0]!.id]);
          assert.deepEqual(
            why.history.map((x) => [x.id, x.standing, x.recorded_at, x.superseded_at]).sort(),
            rows.slice(0, -1).map((r) => [r.id, "superseded", r.recorded_ms, r.superseded_ms])
              .sort(),
          );
          // The copy is anchored to this machine's own clone.
          assert.ok(why.current[0]!.anchors[0]!.path.startsWith(m.repo), m.repo);
          const history = await heimdallJson<HistoryJson>(m.home, ["history", "dispatch"], who);
          assert.equal(history.memories.length, 4);
          assert.equal(history.events.filter((e) => e.event === "superseded").length, 3);
        }

        // A decision recorded on A is in B's why and search at once.
        const fresh = await heimdallJson<Remembered>(
          a.home,
          remembering("convention", "store", "store writes go through the outbox table"),
          alice(a),
        );
        const seen = await heimdallJson<WhyJson>(b.home, ["why", "store"], bob(b));
        assert.deepEqual(seen.current.map((x) => [x.id, x.author]), [[fresh.memory.id, "alice"]]);
        const found = await heimdallJson<{ hits: { source: string; ref_id: string }[] }>(
          b.home,
          ["search", "--kind", "memory", "outbox table"],
          bob(b),
        );
        assert.deepEqual(found.hits.map((h) => [h.source, h.ref_id]), [[
          "memory",
          fresh.memory.id,
        ]]);
        // Pulled again by every read: never a second copy of a row, nor of its search entry.
        await heimdall(b.home, ["why", "store"], bob(b));
        const j = Journal.open(homePaths(b.home).journal, { readOnly: true });
        try {
          assert.equal(j.get<{ n: number }>("SELECT count(*) AS n FROM memories")!.n, 5);
          assert.equal(
            j.get<{ n: number }>("SELECT count(*) AS n FROM chunks WHERE source = 'memory'")!.n,
            5,
          );
          assert.equal(j.get<{ n: number }>("SELECT count(*) AS n FROM memory_shared")!.n, 5);
        } finally {
          j.close();
        }

        // Times come from the server even when this process's clock is a day behind.
        const home = homePaths(a.home);
        const journal = Journal.open(home.journal);
        const shared = await SharedMemory.open({ home, config: () => loadConfig(home.config) });
        try {
          const r = await withClockBehind(86_400_000, () =>
            shared.remember(journal, {
              kind: "fact",
              text: "dispatch is called once per request",
              about: ["dispatch"],
              author: "alice",
              cwd: a.repo,
            }));
          const real = Date.now();
          assert.ok(Math.abs(r.memory.recorded_at - real) < 5000, `${r.memory.recorded_at}`);
          assert.ok(Math.abs(r.memory.valid_from - real) < 5000);
        } finally {
          await shared.close();
          journal.close();
        }
      },
    );

    await step(
      "a failure seen on both machines counts once; a pass on one resolves it for both; who-knows and a hand-off read the other machine's memories",
      async (url, a, b) => {
        const first = await heimdallJson<Attempted>(a.home, [
          "attempt",
          "--about",
          "store",
          "--failed",
          "--tests",
          "store_test",
          "store throws on an empty request",
        ], alice(a));
        assert.equal(first.repeated, false);
        const again = await heimdallJson<Attempted>(b.home, [
          "attempt",
          "--about",
          "src/store.ts:store",
          "--failed",
          "--tests",
          "store_test",
          "store threw on the empty request",
        ], bob(b));
        assert.equal(again.repeated, true);
        assert.equal(again.matchedBy, "tests");
        assert.equal(again.memory.id, first.memory.id);
        assert.equal(again.memory.count, 2);
        const stored = await sql<StoredRow>(url, STORED);
        assert.deepEqual(stored.map((r) => [r.id, r.count]), [[first.memory.id, 2]]);
        const onA = await heimdallJson<WhyJson>(a.home, ["why", "store"], alice(a));
        assert.deepEqual(onA.current.map((x) => [x.id, x.count, x.status]), [[
          first.memory.id,
          2,
          "open",
        ]]);

        // The agent's account on B joins the team's failure there: same row, count unchanged.
        const bHome = homePaths(b.home);
        const bJournal = Journal.open(bHome.journal);
        const bShared = await SharedMemory.open({
          home: bHome,
          config: () => loadConfig(bHome.config),
        });
        try {
          const input = {
            about: ["src/store.ts:store"],
            text: "the empty request reaches store before validation",
            tests: ["store_test"],
            author: "bob",
            cwd: b.repo,
          };
          assert.equal(await bShared.describe(bJournal, input), first.memory.id);
          assert.equal(await bShared.describe(bJournal, input), first.memory.id, "told twice");
        } finally {
          await bShared.close();
          bJournal.close();
        }
        const told = await sql<{ text: string; count: number }>(
          url,
          `SELECT text, count FROM heimdall.memories WHERE id = '${first.memory.id}'`,
        );
        assert.deepEqual(told.map((r) => r.count), [2]);
        assert.equal(
          told[0]!.text,
          "store throws on an empty request\n\nAgent's account: the empty request reaches store before validation",
        );
        const toldOnA = await heimdallJson<WhyJson & { current: { text: string }[] }>(
          a.home,
          ["why", "store"],
          alice(a),
        );
        assert.match(toldOnA.current[0]!.text, /Agent's account: the empty request/);

        const pass = await heimdallJson<Attempted>(b.home, [
          "attempt",
          "--about",
          "store",
          "--passed",
          "--tests",
          "store_test",
          "--fix",
          "abc123",
          "guard the empty request",
        ], bob(b));
        assert.deepEqual(pass.resolved, [first.memory.id]);
        const resolved = await heimdallJson<WhyJson>(a.home, ["why", "store"], alice(a));
        assert.deepEqual(
          resolved.history.map((x) => [x.id, x.standing, x.resolved_by]),
          [[first.memory.id, "resolved", pass.memory.id]],
        );

        // who-knows on B ranks Alice by her decision recorded on A.
        await heimdall(a.home, remembering("decision", "route", "route never retries"), alice(a));
        const experts = await heimdallJson<{ experts: { person: string; decisions: number }[] }>(
          b.home,
          ["who-knows", "route"],
          bob(b),
        );
        assert.deepEqual(experts.experts.map((x) => [x.person, x.decisions]), [["alice", 1]]);

        // A task's memories travel with its hand-off, from A to B.
        const task = await heimdallJson<{ id: string }>(
          a.home,
          ["task", "start", "split dispatch"],
          alice(a),
        );
        await heimdall(
          a.home,
          remembering("note", "dispatch", "--task", task.id, "half of dispatch moved to route"),
          alice(a),
        );
        assert.equal(
          (await heimdall(a.home, ["task", "handoff", task.id, "--to", "bob"], alice(a))).code,
          0,
        );
        const resumed = await heimdallJson<{ memories: { text: string; author: string }[] }>(
          b.home,
          ["task", "resume", task.id],
          bob(b),
        );
        assert.deepEqual(resumed.memories.map((x) => [x.author, x.text]), [[
          "alice",
          "half of dispatch moved to route",
        ]]);
      },
    );

    await step(
      "private memories never reach PostgreSQL, secrets are redacted before anything leaves, and a forget on one machine shows on the other",
      async (url, a, b) => {
        const mine = await heimdallJson<Remembered>(b.home, [
          "remember",
          "--kind",
          "note",
          "--scope",
          "private",
          "--about",
          "route",
          "my private doubt about route",
        ], bob(b));
        const tried = await heimdallJson<Attempted>(b.home, [
          "attempt",
          "--scope",
          "private",
          "--about",
          "route",
          "--failed",
          "private experiment on route",
        ], bob(b));
        const token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
        const shared = await heimdallJson<Remembered>(b.home, [
          "remember",
          "--kind",
          "fact",
          "--scope",
          "team",
          "--about",
          "route",
          `deploys of route use ${token}`,
        ], bob(b));
        const rows = await sql<StoredRow>(url, STORED);
        assert.deepEqual(rows.map((r) => [r.id, r.scope, r.text]), [[
          shared.memory.id,
          "team",
          "deploys of route use [REDACTED:github_token]",
        ]]);
        const leaked = await sql<{ n: number }>(
          url,
          `SELECT count(*)::int AS n FROM heimdall.memories
           WHERE id = ANY($1) OR text LIKE '%private%' OR text LIKE $2`,
          [[mine.memory.id, tried.memory.id], `%${token}%`],
        );
        assert.equal(leaked[0]!.n, 0);
        // Nothing but names, repository-relative paths and hashes about the code.
        const anchors = await sql<{ repo: string; path: string; qualname: string }>(
          url,
          "SELECT repo, path, qualname FROM heimdall.memory_anchors",
        );
        assert.deepEqual(anchors, [{ repo: "shop", path: "src/router.ts", qualname: "route" }]);
        // Bob sees his private note; Alice's machine never had it.
        const bobWhy = await heimdallJson<WhyJson>(b.home, ["why", "route"], bob(b));
        assert.deepEqual(
          bobWhy.current.map((x) => x.id).sort(),
          [mine.memory.id, tried.memory.id, shared.memory.id].sort(),
        );
        const aliceWhy = await heimdallJson<WhyJson>(a.home, ["why", "route"], alice(a));
        assert.deepEqual(aliceWhy.current.map((x) => x.id), [shared.memory.id]);

        // A private decision cannot supersede the team's.
        const refused = await heimdall(b.home, [
          "remember",
          "--kind",
          "fact",
          "--scope",
          "private",
          "--about",
          "route",
          "--supersedes",
          shared.memory.id,
          "no",
        ], bob(b));
        assert.equal(refused.code, 2);
        assert.match(refused.stderr, /private memory cannot supersede it/);

        const forgot = await heimdall(a.home, ["forget", shared.memory.id], alice(a));
        assert.equal(forgot.code, 0, forgot.stderr);
        const after = await heimdallJson<WhyJson>(b.home, ["why", "route"], bob(b));
        assert.deepEqual(
          after.history.map((x) => [x.id, x.standing]),
          [[shared.memory.id, "forgotten"]],
        );
        const gone = await heimdall(b.home, ["search", "--kind", "memory", "deploys"], bob(b));
        assert.equal(gone.code, 1, gone.stdout);
      },
    );

    await step(
      "a memory about code another machine has not got waits, and finds it once that machine indexes it",
      async (_url, a, b) => {
        // Code in the shared repository that B's clone lacks: orphaned there until it comes.
        const extra = {
          "src/extra.ts": `export function extra(x: number): number {\n  return x + 1;\n}\n`,
        };
        writeTree(a.repo, extra);
        assert.equal((await heimdall(a.home, ["index", a.repo])).code, 0);
        // And a repository B has not got at all: a placeholder until B indexes a clone.
        const tools = join(a.base, "tools");
        const toolFiles = {
          "lib/fmt.ts": `export function pad(s: string): string {\n  return s;\n}\n`,
        };
        writeTree(tools, toolFiles);
        await sh("git init -q && git remote add origin https://example.com/acme/tools.git", tools);
        assert.equal((await heimdall(a.home, ["index", tools])).code, 0);
        const d = await heimdallJson<Remembered>(
          a.home,
          remembering("decision", "extra", "extra stays pure"),
          alice(a),
        );
        const p = await heimdallJson<Remembered>(
          a.home,
          remembering("convention", "pad", "pad never trims"),
          alice(a),
        );
        const waiting = await heimdallJson<HistoryJson>(b.home, ["history"], bob(b));
        const copyOf = (id: string) =>
          waiting.memories.find((m) => m.id === id)!.anchors.map((
            x,
          ) => [x.path, x.symbol, x.state]);
        assert.deepEqual(copyOf(d.memory.id), [[
          join(b.repo, "src/extra.ts"),
          "extra",
          "orphaned",
        ]]);
        assert.deepEqual(copyOf(p.memory.id), [["tools/lib/fmt.ts", "pad", "active"]]);

        writeTree(b.repo, extra);
        assert.equal((await heimdall(b.home, ["index", b.repo])).code, 0);
        const bTools = join(b.base, "tools-clone");
        writeTree(bTools, toolFiles);
        await sh("git init -q && git remote add origin https://example.com/acme/tools.git", bTools);
        assert.equal((await heimdall(b.home, ["index", bTools])).code, 0);
        for (
          const [name, id, file] of [
            ["extra", d.memory.id, join(b.repo, "src/extra.ts")],
            ["pad", p.memory.id, join(bTools, "lib/fmt.ts")],
          ]
        ) {
          const found = await heimdallJson<WhyJson>(b.home, ["why", name!], bob(b));
          assert.equal(found.target.type, "symbol");
          assert.deepEqual(found.current.map((x) => x.id), [id]);
          assert.deepEqual(found.current[0]!.anchors.map((x) => [x.path, x.state]), [[
            file,
            "active",
          ]]);
        }
      },
    );

    await step(
      "a shared decision leaves one whose valid time ended before it as history, here and in the store",
      async (url, a, b) => {
        const about = ["remember", "--kind", "decision", "--about", "route"];
        const old = await heimdallJson<Remembered>(a.home, [
          ...about,
          "--valid-from",
          "2020-01-01",
          "--valid-to",
          "2021-01-01",
          "route retried in 2020",
        ], alice(a));
        const now = await heimdallJson<Remembered>(
          b.home,
          [...about, "route never retries"],
          bob(b),
        );
        assert.deepEqual(now.superseded, []);
        const rows = await sql<{ superseded_by: string | null }>(
          url,
          `SELECT superseded_by FROM heimdall.memories WHERE id = '${old.memory.id}'`,
        );
        assert.deepEqual(rows, [{ superseded_by: null }]);
      },
    );

    await step(
      "a copy forgotten here while disconnected stays forgotten when the store changes its row, unless that failure comes back",
      async (url, a, b) => {
        const fail = async (text: string, test: string) =>
          (await heimdallJson<Attempted>(b.home, [
            "attempt",
            "--about",
            "store",
            "--failed",
            "--tests",
            test,
            text,
          ], bob(b))).memory.id;
        const superseded = await fail("store throws on a flaky disk", "disk_test");
        const recurring = await fail("store times out under load", "load_test");
        await heimdallJson<WhyJson>(a.home, ["why", "store"], alice(a));
        assert.equal((await heimdall(a.home, ["team", "disconnect"])).code, 0);
        for (const id of [superseded, recurring]) {
          const off = await heimdall(a.home, ["forget", id], alice(a));
          assert.equal(off.code, 0, off.stderr);
        }
        assert.equal((await heimdall(a.home, ["team", "connect", url])).code, 0);
        // Bob settles one failure with a decision (its row in the store changes) …
        await heimdallJson<Remembered>(
          b.home,
          remembering(
            "decision",
            "store",
            "--supersedes",
            superseded,
            "store retries a flaky disk once",
          ),
          bob(b),
        );
        // … and sees the other fail again: news, shown to A again.
        await fail("store times out under load again", "load_test");
        const w = await heimdallJson<WhyJson>(a.home, ["why", "store"], alice(a));
        const settled = w.history.find((x) => x.id === superseded)!;
        assert.notEqual(settled.forgotten_at, null, "the forget made here stays");
        assert.notEqual(settled.superseded_by, null);
        const back = w.current.find((x) => x.id === recurring)!;
        assert.equal(back.forgotten_at, null);
        assert.equal(back.count, 2);
      },
    );

    await step(
      "with the store unreachable, reads answer from the copies with a warning and shared writes exit 3",
      async (_url, a, b) => {
        const d = await heimdallJson<Remembered>(
          a.home,
          remembering("decision", "route", "route stays a pure function"),
          alice(a),
        );
        await heimdall(b.home, ["why", "route"], bob(b));
        const config = join(b.home, "config.json");
        const c = JSON.parse(Deno.readTextFileSync(config));
        const dead = new URL(c.teamUrl);
        dead.port = "1";
        Deno.writeTextFileSync(config, JSON.stringify({ ...c, teamUrl: dead.toString() }));

        const read = await heimdall(b.home, ["why", "route", "--json"], bob(b));
        assert.equal(read.code, 0, read.stderr);
        assert.match(read.stderr, /Cannot reach the team store.*as of its last sync/);
        assert.deepEqual(
          (JSON.parse(read.stdout) as WhyJson).current.map((x) => x.id),
          [d.memory.id],
        );
        // who-knows is a read too: the copies rank people, without the store's claims.
        const knows = await heimdall(b.home, ["who-knows", "route", "--json"], bob(b));
        assert.equal(knows.code, 0, knows.stderr);
        assert.match(
          knows.stderr,
          /Cannot reach the team store.*as of its last sync, without claims/,
        );
        assert.deepEqual(
          (JSON.parse(knows.stdout) as { experts: { person: string; decisions: number }[] })
            .experts.map((x) => [x.person, x.decisions]),
          [["alice", 1]],
        );
        const write = await heimdall(b.home, remembering("note", "route", "lost"), bob(b));
        assert.equal(write.code, 3);
        assert.match(write.stderr, /Cannot reach the team store/);
        const local = await heimdall(b.home, [
          "remember",
          "--kind",
          "note",
          "--scope",
          "private",
          "--about",
          "route",
          "fine here",
        ], bob(b));
        assert.equal(local.code, 0, local.stderr);
      },
    );

    await step(
      "a pass does not resolve a failure that a decision superseded: the failure stays history as it was",
      async (url, a, b) => {
        const failed = await heimdallJson<Attempted>(a.home, [
          "attempt",
          "--about",
          "store",
          "--failed",
          "--tests",
          "store_test",
          "store throws on an empty request",
        ], alice(a));
        const decided = await heimdallJson<Remembered>(
          a.home,
          remembering(
            "decision",
            "store",
            "--supersedes",
            failed.memory.id,
            "store refuses an empty request before it is queued",
          ),
          alice(a),
        );
        assert.deepEqual(decided.superseded, [failed.memory.id]);
        const pass = await heimdallJson<Attempted>(b.home, [
          "attempt",
          "--about",
          "store",
          "--passed",
          "--tests",
          "store_test",
          "guard the empty request",
        ], bob(b));
        assert.deepEqual(pass.resolved, []);
        const row = await sql<{ status: string; resolved_by: string | null }>(
          url,
          `SELECT status, resolved_by FROM heimdall.memories WHERE id = '${failed.memory.id}'`,
        );
        assert.deepEqual(row, [{ status: "open", resolved_by: null }]);
      },
    );

    await step(
      "a store restored from an older backup: what the team writes after it still reaches a machine that had pulled further",
      async (url, a, b) => {
        for (const fn of ["route", "dispatch", "store"]) {
          const r = await heimdall(
            b.home,
            ["remember", "--kind", "decision", "--about", fn, `${fn} before the backup`],
            bob(b),
          );
          assert.equal(r.code, 0, r.stderr);
        }
        // A pulls all three: its cursor stands at the third revision.
        const seen = await heimdallJson<WhyJson>(a.home, ["why", "store"], alice(a));
        assert.deepEqual(seen.current.map((m) => m.text), ["store before the backup"]);
        // The server is restored from a backup taken before any of them.
        await sql(
          url,
          `DELETE FROM heimdall.memory_anchors; DELETE FROM heimdall.memories;
           UPDATE heimdall.memory_feed SET rev = 0`,
        );
        // Written after the restore: enough revisions that the store's feed passes A's cursor again.
        for (const fn of ["route", "dispatch", "store", "audit"]) {
          const r = await heimdall(
            b.home,
            ["remember", "--kind", "decision", "--about", fn, `${fn} after the restore`],
            bob(b),
          );
          assert.equal(r.code, 0, r.stderr);
        }
        const why = await heimdallJson<WhyJson>(a.home, ["why", "route"], alice(a));
        // (The copy of what the store lost stays here: nothing this machine saw is deleted.)
        assert.ok(
          why.current.some((m) => m.text === "route after the restore"),
          JSON.stringify(why),
        );
      },
    );
  } finally {
    for (const c of cleanups.reverse()) await c();
    await server.stop();
  }
});

Deno.test({
  name:
    "heimdall redact redacts the person's own rows in the team store too, under a new revision; a teammate's rows stay theirs; a store out of reach is named",
  ignore: noPostgres(),
}, async () => {
  const server = await pgServer();
  const db = await freshDatabase(server.url, "heimdall_r");
  const [a, b] = await Promise.all([machine("shop"), machine("shop-clone")]);
  try {
    for (const m of [a, b]) {
      const r = await heimdall(m.home, ["team", "connect", db.url]);
      assert.equal(r.code, 0, r.stderr);
    }
    const alice = { author: "alice", cwd: a.repo };
    const bob = { author: "bob", cwd: b.repo };
    await heimdallJson(a.home, [
      "remember",
      "--kind",
      "decision",
      "--about",
      "dispatch",
      "dispatch retries twice",
    ], alice);
    await heimdallJson(
      b.home,
      ["remember", "--kind", "note", "--about", "route", "route is hot"],
      bob,
    );
    const task = await heimdallJson<{ id: string }>(
      a.home,
      ["task", "start", "split dispatch"],
      alice,
    );
    assert.equal((await heimdall(a.home, ["claim", "dispatch"], alice)).code, 0);
    const handed = await heimdall(a.home, [
      "task",
      "handoff",
      task.id,
      "--to",
      "carol",
      "--note",
      "see the runbook",
    ], alice);
    assert.equal(handed.code, 0, handed.stderr);
    // As a build from before a rule of the screen pushed them (built from pieces).
    const token = "gh" + "p_" + "Q7vX2mK9pL4rT8wN3bY6cF1dH5jS0aZeUoIi";
    const url = "https://deploy:" + "k9d2m7qXw4pZr" + "@git.example.com/shop.git";
    const bump = `WITH f AS (UPDATE heimdall.memory_feed SET rev = rev + 1 RETURNING rev)
      UPDATE heimdall.memories m SET text = m.text || ' with ${token}', rev = f.rev FROM f`;
    await sql(db.url, bump);
    const revAfterPlant = Number(
      (await sql<{ rev: string }>(db.url, "SELECT rev::text AS rev FROM heimdall.memory_feed"))[0]!
        .rev,
    );
    await sql(db.url, `UPDATE heimdall.tasks SET text = text || ' via ${url}'`);
    await sql(db.url, `UPDATE heimdall.task_events SET note = '${token}' WHERE kind = 'handoff'`);
    await sql(db.url, `UPDATE heimdall.claims SET task_text = task_text || ' via ${url}'`);
    const whyOnB = async () =>
      (await heimdall(b.home, ["why", "dispatch", "--as-of", "2099-01-01"], bob)).stdout;
    const dump = async () =>
      JSON.stringify(
        await sql(
          db.url,
          `SELECT (SELECT json_agg(m ORDER BY id) FROM heimdall.memories m) AS m,
             (SELECT json_agg(t ORDER BY id) FROM heimdall.tasks t) AS t,
             (SELECT json_agg(e ORDER BY id) FROM heimdall.task_events e) AS e,
             (SELECT json_agg(c ORDER BY id) FROM heimdall.claims c) AS c`,
        ),
      );
    const before = await dump();

    const dry = await heimdall(a.home, ["redact", "--dry-run"], alice);
    assert.equal(dry.code, 0, dry.stderr);
    for (const table of ["memories", "tasks", "task_events", "claims"]) {
      assert.match(dry.stdout, new RegExp(`team ${table} \\S+ \\(`), dry.stdout);
    }
    assert.equal(await dump(), before, "--dry-run changes nothing");

    const r = await heimdall(a.home, ["redact"], alice);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /team memories \S+ \(text: github_token\)/);
    assert.ok(!(r.stdout + r.stderr).includes(token), "never the value");
    assert.match(r.stderr, /the rows of "alice" were screened/);
    const rows = await sql<{ author: string; text: string }>(
      db.url,
      "SELECT author, text FROM heimdall.memories ORDER BY author",
    );
    assert.deepEqual(rows, [
      { author: "alice", text: "dispatch retries twice with [REDACTED:github_token]" },
      { author: "bob", text: `route is hot with ${token}` },
    ], "alice's own rows only");
    const rest = await dump();
    assert.ok(!rest.includes("k9d2m7qXw4pZr"), rest);
    assert.equal(rest.split(token).length - 1, 1, "bob's memory only");
    // The redacted memory took a new revision, which the other machine's next pull copies.
    const revs = await sql<{ rev: string }>(
      db.url,
      "SELECT rev::text AS rev FROM heimdall.memories WHERE author = 'alice'",
    );
    assert.ok(Number(revs[0]!.rev) > revAfterPlant, "a new revision");
    const after = await whyOnB();
    assert.ok(!after.includes(token), after);
    assert.match(after, /dispatch retries twice with \[REDACTED:github_token\]/);

    // A store it cannot reach: named, with what it left there, and exit 3.
    const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (closed.addr as Deno.NetAddr).port;
    closed.close();
    const away = await heimdall(a.home, ["redact"], {
      ...alice,
      env: { HEIMDALL_TEAM_URL: `postgres://alice@127.0.0.1:${port}/gone` },
    });
    assert.equal(away.code, 3, away.stdout + away.stderr);
    assert.match(
      away.stderr,
      /the team store "postgres:\/\/alice@127\.0\.0\.1:\d+\/gone" was not screened: .*run `heimdall redact` again once it is reachable/,
    );
  } finally {
    a[Symbol.dispose]();
    b[Symbol.dispose]();
    await db.drop();
    await server.stop();
  }
});
