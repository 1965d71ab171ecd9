/**
 * Team coordination on one machine (the local journal): claims, conflicts in
 * all three directions with their call paths, the hop limit, expiry,
 * acknowledged warnings, tasks and hand-offs, who-knows. Real repositories,
 * real journals, the real CLI in subprocesses.
 */
import assert from "node:assert/strict";
import { homePaths } from "../src/config/mod.ts";
import { recordAttempt, remember } from "../src/memory/mod.ts";
import { Journal } from "../src/store/mod.ts";
import { type ActiveClaim, type Conflict, LocalTeamStore, type Task } from "../src/team/mod.ts";
import { heimdall, heimdallJson, machine, withClockBehind } from "./team_fixture.ts";
import { writeTree } from "./helpers.ts";

interface ConflictsJson {
  conflicts: Conflict[];
  acknowledged_hidden: number;
}

const chain = (c: Conflict) => c.path.map((s) => s.qualname).join(" > ");

Deno.test("conflicts finds claims on the same symbol, a callee and a caller, each with its call path", async () => {
  using m = await machine();
  for (const [author, symbol] of [["alice", "dispatch"], ["carol", "main"], ["dave", "route"]]) {
    const r = await heimdall(m.home, ["claim", symbol!], { author: author!, cwd: m.repo });
    assert.equal(r.code, 0, r.stderr);
  }
  // Bob's own claim is never a conflict for him.
  await heimdall(m.home, ["claim", "handleRequest"], { author: "bob", cwd: m.repo });

  const r = await heimdallJson<ConflictsJson>(m.home, ["conflicts", "route"], {
    author: "bob",
    cwd: m.repo,
  });
  const got = r.conflicts.map((c) => [c.claim.developer, c.relation, c.hops, chain(c)]);
  assert.deepEqual(got, [
    ["dave", "same", 0, "route"],
    ["alice", "callee", 1, "route > dispatch"],
    ["carol", "caller", 2, "main > handleRequest > route"],
  ]);
  const dispatch = r.conflicts[1]!;
  assert.equal(dispatch.claim.repo, "shop");
  assert.equal(dispatch.claim.path, "src/dispatch.ts");
  assert.match(dispatch.path[1]!.path, /src\/dispatch\.ts$/);

  // The human output names the people, the relation and the path; exit 0 with conflicts.
  const text = await heimdall(m.home, ["conflicts", "src/router.ts"], {
    author: "bob",
    cwd: m.repo,
  });
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /alice claimed dispatch, which it calls \(1 hop\)/);
  assert.match(text.stdout, /carol claimed main, which calls it \(2 hops\)/);
  assert.match(text.stdout, /main \(src\/app\.ts:7\) → handleRequest \(src\/app\.ts:3\) → route/);

  // Dave sees Bob's claim on handleRequest (calls route), not his own on route.
  const dave = await heimdallJson<ConflictsJson>(m.home, ["conflicts", "route"], {
    author: "dave",
    cwd: m.repo,
  });
  assert.deepEqual(dave.conflicts.map((c) => c.claim.developer).sort(), ["alice", "bob", "carol"]);
});

Deno.test("conflicts reaches as far as --hops and no further; nothing in reach exits 1", async () => {
  using m = await machine();
  await heimdall(m.home, ["claim", "store"], { author: "alice", cwd: m.repo });
  const reach = async (hops: string) =>
    await heimdall(m.home, ["conflicts", "main", "--hops", hops, "--json"], {
      author: "bob",
      cwd: m.repo,
    });
  // main → handleRequest → route → dispatch → store: 4 hops.
  assert.equal((await reach("3")).code, 1);
  const four = await reach("4");
  assert.equal(four.code, 0, four.stderr);
  assert.equal(
    chain((JSON.parse(four.stdout) as ConflictsJson).conflicts[0]!),
    "main > handleRequest > route > dispatch > store",
  );
  // The default is 3 hops.
  assert.equal(
    (await heimdall(m.home, ["conflicts", "main"], { author: "bob", cwd: m.repo })).code,
    1,
  );
  const bad = await heimdall(m.home, ["conflicts", "main", "--hops", "x"], { cwd: m.repo });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Invalid --hops "x"/);
});

Deno.test("a claim expires after its ttl, and a released one ends at once", async () => {
  using m = await machine();
  const short = await heimdallJson<{ claims: { expiresAt: number; createdAt: number }[] }>(
    m.home,
    ["claim", "dispatch", "--ttl", "2s"],
    { author: "alice", cwd: m.repo },
  );
  const [c] = short.claims;
  assert.equal(c!.expiresAt - c!.createdAt, 2000);
  await heimdall(m.home, ["claim", "store"], { author: "alice", cwd: m.repo });
  // The journal's clock is this machine's: wait until the short claim is past its time.
  await new Promise((r) => setTimeout(r, Math.max(0, c!.expiresAt - Date.now()) + 200));
  const after = await heimdallJson<ConflictsJson>(m.home, ["conflicts", "route"], {
    author: "bob",
    cwd: m.repo,
  });
  assert.deepEqual(after.conflicts.map((c) => c.claim.qualname), ["store"]);

  const released = await heimdall(m.home, ["release", "store"], { author: "alice", cwd: m.repo });
  assert.match(released.stdout, /released 1 claim/);
  assert.equal(
    (await heimdall(m.home, ["conflicts", "route"], { author: "bob", cwd: m.repo })).code,
    1,
  );
  assert.equal((await heimdall(m.home, ["claims"], { cwd: m.repo })).code, 1);
  const badTtl = await heimdall(m.home, ["claim", "store", "--ttl", "soon"], { cwd: m.repo });
  assert.equal(badTtl.code, 2);
  assert.match(badTtl.stderr, /Invalid --ttl "soon"/);
});

Deno.test("an acknowledged conflict is not repeated for the same person and claim", async () => {
  using m = await machine();
  await heimdall(m.home, ["claim", "dispatch"], { author: "alice", cwd: m.repo });
  const first = await heimdall(m.home, ["conflicts", "route", "--ack"], {
    author: "bob",
    cwd: m.repo,
  });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /alice claimed dispatch/);

  const again = await heimdall(m.home, ["conflicts", "route"], { author: "bob", cwd: m.repo });
  assert.equal(again.code, 1);
  assert.match(again.stdout, /1 acknowledged conflict not shown/);
  // The pair is (bob, that claim): from another symbol it stays acknowledged…
  assert.equal(
    (await heimdall(m.home, ["conflicts", "dispatch"], { author: "bob", cwd: m.repo })).code,
    1,
  );
  // …--all still shows it, another person still gets it, and a new claim warns anew.
  assert.equal(
    (await heimdall(m.home, ["conflicts", "route", "--all"], { author: "bob", cwd: m.repo })).code,
    0,
  );
  assert.equal(
    (await heimdall(m.home, ["conflicts", "route"], { author: "erin", cwd: m.repo })).code,
    0,
  );
  await heimdall(m.home, ["claim", "store"], { author: "alice", cwd: m.repo });
  const fresh = await heimdallJson<ConflictsJson>(m.home, ["conflicts", "route"], {
    author: "bob",
    cwd: m.repo,
  });
  assert.deepEqual(fresh.conflicts.map((c) => c.claim.qualname), ["store"]);
  assert.equal(fresh.acknowledged_hidden, 1);
});

Deno.test("an acknowledged conflict warns again once a hand-off gives the claim to someone else", async () => {
  using m = await machine();
  const as = (author: string, env: Record<string, string> = {}) => ({ author, cwd: m.repo, env });
  const task = await heimdallJson<{ id: string }>(
    m.home,
    ["task", "start", "split dispatch"],
    as("alice"),
  );
  assert.equal((await heimdall(m.home, ["claim", "dispatch"], as("alice"))).code, 0);
  assert.equal((await heimdall(m.home, ["conflicts", "route", "--ack"], as("bob"))).code, 0);
  assert.equal((await heimdall(m.home, ["conflicts", "route"], as("bob"))).code, 1);
  // Handed to Carol, the claim is hers: Bob has not seen that warning.
  const handed = await heimdall(m.home, ["task", "handoff", task.id, "--to", "carol"], as("alice"));
  assert.equal(handed.code, 0, handed.stderr);
  const after = await heimdallJson<ConflictsJson>(
    m.home,
    ["conflicts", "route", "--ack"],
    as("bob"),
  );
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
});

Deno.test("a hand-off moves the task's claims, notes, attempts and decisions to the new owner", async () => {
  using m = await machine();
  const dave = { author: "dave", cwd: m.repo };
  const task = await heimdallJson<Task>(m.home, ["task", "start", "refactor routing"], dave);
  // Claims without --task go to the current task.
  await heimdall(m.home, ["claim", "route", "dispatch"], dave);
  const j = Journal.open(homePaths(m.home).journal);
  try {
    remember(j, {
      kind: "decision",
      text: "route keeps the string API",
      about: ["route"],
      author: "dave",
      taskId: task.id,
      cwd: m.repo,
    });
    recordAttempt(j, {
      about: ["dispatch"],
      outcome: "failed",
      text: "inlining dispatch broke audit",
      tests: ["audit_test"],
      author: "dave",
      taskId: task.id,
      cwd: m.repo,
    });
  } finally {
    j.close();
  }

  const handed = await heimdall(
    m.home,
    ["task", "handoff", task.id, "--to", "erin", "--note", "dispatch half done"],
    dave,
  );
  assert.equal(handed.code, 0, handed.stderr);
  assert.match(handed.stdout, /to erin with 2 active claims/);
  // Bob now sees the claims as Erin's.
  const bob = await heimdallJson<ConflictsJson>(m.home, ["conflicts", "route"], {
    author: "bob",
    cwd: m.repo,
  });
  assert.deepEqual(bob.conflicts.map((c) => [c.claim.developer, c.claim.qualname]), [
    ["erin", "route"],
    ["erin", "dispatch"],
  ]);
  // Someone else cannot pick it up without --take; Dave no longer owns it.
  const frank = await heimdall(m.home, ["task", "resume", task.id], {
    author: "frank",
    cwd: m.repo,
  });
  assert.equal(frank.code, 2);
  assert.match(frank.stderr, /belongs to erin; pass --take/);
  assert.equal((await heimdall(m.home, ["task", "handoff", task.id, "--to", "bob"], dave)).code, 2);

  const resumed = await heimdallJson<
    {
      task: Task;
      claimsMoved: number;
      claims: { developer: string; qualname: string }[];
      events: { kind: string; note: string | null }[];
      memories: { kind: string; text: string; author: string }[];
    }
  >(m.home, ["task", "resume", task.id], { author: "erin", cwd: m.repo });
  assert.equal(resumed.task.owner, "erin");
  assert.equal(resumed.task.state, "open");
  assert.equal(resumed.claimsMoved, 2);
  assert.deepEqual(resumed.claims.map((c) => [c.developer, c.qualname]), [["erin", "route"], [
    "erin",
    "dispatch",
  ]]);
  assert.deepEqual(resumed.events.map((e) => e.kind), ["start", "handoff", "resume"]);
  assert.equal(resumed.events[1]!.note, "dispatch half done");
  assert.deepEqual(resumed.memories.map((x) => [x.kind, x.author]).sort(), [
    ["attempt", "dave"],
    ["decision", "dave"],
  ]);
  // It is Erin's current task now: her next claim joins it.
  await heimdall(m.home, ["claim", "store"], { author: "erin", cwd: m.repo });
  const claims = await heimdallJson<{ claims: ActiveClaim[] }>(m.home, ["claims"], { cwd: m.repo });
  assert.deepEqual(
    claims.claims.map((c) => [c.developer, c.qualname, c.taskId]),
    [["erin", "route", task.id], ["erin", "dispatch", task.id], ["erin", "store", task.id]],
  );
  const done = await heimdall(m.home, ["task", "done", task.id], { author: "erin", cwd: m.repo });
  assert.match(done.stdout, /released 3 claims/);
  assert.equal((await heimdall(m.home, ["claims"], { cwd: m.repo })).code, 1);
});

Deno.test("who-knows ranks people by decisions, attempts and claims on the code and its neighbours", async () => {
  using m = await machine();
  const j = Journal.open(homePaths(m.home).journal);
  try {
    remember(j, {
      kind: "decision",
      text: "dispatch stays sync",
      about: ["dispatch"],
      author: "alice",
      cwd: m.repo,
    });
    recordAttempt(j, {
      about: ["dispatch"],
      outcome: "failed",
      text: "a cache in dispatch went stale",
      tests: ["t1"],
      author: "bob",
      cwd: m.repo,
    });
    // A private memory does not tell on its author.
    remember(j, {
      kind: "note",
      text: "mine",
      about: ["dispatch"],
      author: "mallory",
      scope: "private",
      cwd: m.repo,
    });
  } finally {
    j.close();
  }
  await heimdall(m.home, ["claim", "route"], { author: "carol", cwd: m.repo });
  await heimdall(m.home, ["claim", "main"], { author: "dave", cwd: m.repo });
  const r = await heimdallJson<{ experts: { person: string; score: number; about: string[] }[] }>(
    m.home,
    ["who-knows", "dispatch"],
    { cwd: m.repo },
  );
  // alice: decision 3; bob: attempt 2; carol: claim on a caller one hop away, 1 × 0.5;
  // dave's claim on main is three hops away, beyond the default one hop.
  assert.deepEqual(r.experts.map((x) => [x.person, x.score]), [["alice", 3], ["bob", 2], [
    "carol",
    0.5,
  ]]);
  assert.deepEqual(r.experts[2]!.about, ["route"]);
  const wider = await heimdallJson<{ experts: { person: string; score: number }[] }>(
    m.home,
    ["who-knows", "dispatch", "--hops", "3"],
    { cwd: m.repo },
  );
  assert.deepEqual(wider.experts.at(-1), { ...wider.experts.at(-1), person: "dave", score: 0.125 });
  assert.equal((await heimdall(m.home, ["who-knows", "audit"], { cwd: m.repo })).code, 1);
});

Deno.test("who-knows counts a memory about a whole file for the file and the symbols in it", async () => {
  using m = await machine();
  const j = Journal.open(homePaths(m.home).journal);
  try {
    remember(j, {
      kind: "decision",
      text: "dispatch.ts imports nothing from the router",
      about: ["src/dispatch.ts"],
      author: "erin",
      cwd: m.repo,
    });
  } finally {
    j.close();
  }
  type Ranked = { experts: { person: string; score: number; about: string[] }[] };
  const file = await heimdallJson<Ranked>(m.home, ["who-knows", "src/dispatch.ts"], {
    cwd: m.repo,
  });
  assert.deepEqual(file.experts.map((x) => [x.person, x.score, x.about]), [
    ["erin", 3, ["dispatch.ts"]],
  ]);
  const symbol = await heimdallJson<Ranked>(m.home, ["who-knows", "dispatch"], { cwd: m.repo });
  assert.deepEqual(symbol.experts.map((x) => [x.person, x.score]), [["erin", 3]]);
  // route calls dispatch: one hop from the file, the decision is worth half.
  const caller = await heimdallJson<Ranked>(m.home, ["who-knows", "route"], { cwd: m.repo });
  assert.deepEqual(caller.experts.map((x) => [x.person, x.score]), [["erin", 1.5]]);
});

Deno.test("who-knows counts a claim on a whole file for the symbols in it, as a memory about it", async () => {
  using m = await machine();
  assert.equal(
    (await heimdall(m.home, ["claim", "src/dispatch.ts"], { author: "ivy", cwd: m.repo })).code,
    0,
  );
  type Ranked = { experts: { person: string; score: number; claims: number; about: string[] }[] };
  const symbol = await heimdallJson<Ranked>(m.home, ["who-knows", "dispatch"], { cwd: m.repo });
  assert.deepEqual(symbol.experts.map((x) => [x.person, x.score, x.claims, x.about]), [
    ["ivy", 1, 1, ["dispatch.ts"]],
  ]);
  // route calls dispatch: one hop from the file, the claim is worth half.
  const caller = await heimdallJson<Ranked>(m.home, ["who-knows", "route"], { cwd: m.repo });
  assert.deepEqual(caller.experts.map((x) => [x.person, x.score]), [["ivy", 0.5]]);
  // Asked about the file itself, the claim counts once.
  const file = await heimdallJson<Ranked>(m.home, ["who-knows", "src/dispatch.ts"], {
    cwd: m.repo,
  });
  assert.deepEqual(file.experts.map((x) => [x.person, x.score, x.claims]), [["ivy", 1, 1]]);
});

Deno.test("who-knows names a convention a convention, not a note", async () => {
  using m = await machine();
  const j = Journal.open(homePaths(m.home).journal);
  try {
    for (const [kind, author] of [["convention", "gina"], ["note", "hal"]] as const) {
      remember(j, { kind, text: `${kind} on dispatch`, about: ["dispatch"], author, cwd: m.repo });
    }
  } finally {
    j.close();
  }
  const r = await heimdall(m.home, ["who-knows", "dispatch"], { cwd: m.repo });
  assert.equal(r.code, 0, r.stderr);
  // gina's convention (worth 2) was listed as "1 note", the same as hal's note (worth 1).
  assert.match(r.stdout, /^1\. gina {2}2 {2}1 convention; on dispatch$/m);
  assert.match(r.stdout, /^2\. hal {2}1 {2}1 note or fact; on dispatch$/m);
  const json = await heimdallJson<{ experts: { person: string; conventions: number }[] }>(
    m.home,
    ["who-knows", "dispatch"],
    { cwd: m.repo },
  );
  assert.deepEqual(json.experts.map((x) => [x.person, x.conventions]), [["gina", 1], ["hal", 0]]);
});

Deno.test("the local store stamps claims and tasks with SQLite's clock, not the caller's", async () => {
  using m = await machine();
  const store = new LocalTeamStore(Journal.open(homePaths(m.home).journal));
  const who = { developer: "alice", agent: null, session: null };
  const key = { repo: "shop", path: "src/a.ts", qualname: "f", kind: "function", structHash: null };
  try {
    // Every clock reading of this process runs a day behind while the store writes.
    const [[c], task] = await withClockBehind(86_400_000, async () =>
      [
        await store.claim(who, [key], { ttlSeconds: 60, taskId: null, taskText: null }),
        await store.startTask(who, "t"),
      ] as const);
    const real = Date.now();
    assert.ok(Math.abs(c!.createdAt - real) < 5000, `${c!.createdAt} vs ${real}`);
    assert.equal(c!.expiresAt - c!.createdAt, 60_000);
    assert.ok(Math.abs(task.createdAt - real) < 5000);
  } finally {
    await store.close();
  }
});

Deno.test("claim and conflicts explain unknown names and unparsed files", async () => {
  using m = await machine();
  // A config file stays at L1 (plain text is prose now, chunked at L2).
  Deno.writeTextFileSync(`${m.repo}/settings.toml`, "retries = 3\n");
  await heimdall(m.home, ["reconcile", `${m.repo}/settings.toml`]);
  const unknown = await heimdall(m.home, ["claim", "nosuchthing"], { cwd: m.repo });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /No symbol "nosuchthing"/);
  const plain = await heimdall(m.home, ["conflicts", "settings.toml"], { cwd: m.repo });
  assert.equal(plain.code, 2);
  assert.match(plain.stderr, /"settings.toml" is indexed at L1 without symbols/);
  const task = await heimdall(m.home, ["claim", "route", "--task", "feedbeef"], { cwd: m.repo });
  assert.equal(task.code, 2);
  assert.match(task.stderr, /No task "feedbeef"/); // A folder, or a file the index does not hold, is named as such: no "check the spelling".
  Deno.mkdirSync(`${m.repo}/lib`, { recursive: true });
  Deno.writeTextFileSync(`${m.repo}/lib/later.ts`, "export function later() {}\n");
  for (const command of ["claim", "conflicts", "who-knows", "release"]) {
    const folder = await heimdall(m.home, [command, "lib"], { cwd: m.repo });
    assert.equal(folder.code, 2, command);
    assert.match(folder.stderr, /"\S*\/lib" is a folder; .*name one of its files, or a symbol/);
  }
  const later = await heimdall(m.home, ["claim", "lib/later.ts"], { cwd: m.repo });
  assert.equal(later.code, 2);
  assert.match(later.stderr, /"\S*\/lib\/later\.ts" is not in the index, .*`heimdall symbols /);
});

Deno.test("conflicts reach a C++ method through its declaration: a claim on the definition warns its callers, and back", async () => {
  using m = await machine();
  // Calls land on the declaration in the header; a claim names the definition.
  writeTree(m.repo, {
    "cpp/w.h": "class Widget {\n public:\n  void open();\n  void close();\n};\n",
    "cpp/w.cpp":
      '#include "w.h"\nvoid Widget::open() {\n  close();\n}\nvoid Widget::close() {\n}\n',
    "cpp/main.cpp": '#include "w.h"\nvoid start() {\n  Widget w;\n  w.open();\n}\n',
  });
  assert.equal((await heimdall(m.home, ["index", m.repo])).code, 0);
  const relation = async (claimed: string, asked: string) => {
    const c = await heimdall(m.home, ["claim", claimed], { author: "alice", cwd: m.repo });
    assert.equal(c.code, 0, c.stderr);
    const r = await heimdallJson<ConflictsJson>(m.home, ["conflicts", asked], {
      author: "bob",
      cwd: m.repo,
    });
    await heimdall(m.home, ["release", "--all"], { author: "alice", cwd: m.repo });
    return r.conflicts.map((
      c,
    ) => [c.relation, c.hops, c.path.map((s) => s.path.slice(m.repo.length + 1))]);
  };
  assert.deepEqual(await relation("Widget::open", "start"), [
    ["callee", 1, ["cpp/main.cpp", "cpp/w.cpp"]],
  ]);
  assert.deepEqual(await relation("Widget::close", "start"), [
    ["callee", 2, ["cpp/main.cpp", "cpp/w.cpp", "cpp/w.cpp"]],
  ]);
  assert.deepEqual(await relation("start", "Widget::open"), [
    ["caller", 1, ["cpp/main.cpp", "cpp/w.h"]],
  ]);
  // The header's declaration is the same method as the definition asked about.
  assert.deepEqual(await relation("cpp/w.h", "Widget::open"), [["same", 0, ["cpp/w.h"]]]);
});

Deno.test("task start refuses a text longer than a line can say, and a hand-off takes a name trimmed", async () => {
  using m = await machine();
  const long = await heimdall(m.home, ["task", "start", "log ".repeat(200)], {
    author: "ada",
    cwd: m.repo,
  });
  assert.equal(long.code, 2, long.stderr);
  assert.match(long.stderr, /Task text too long: 799 characters, at most 500/);
  const none = await heimdall(m.home, ["task", "list", "--json"], { author: "ada", cwd: m.repo });
  assert.equal(none.code, 1, none.stderr);

  const task = await heimdallJson<Task>(m.home, ["task", "start", "tidy the router"], {
    author: "ada",
    cwd: m.repo,
  });
  const h = await heimdall(m.home, ["task", "handoff", task.id, "--to", " bob "], {
    author: "ada",
    cwd: m.repo,
  });
  assert.equal(h.code, 0, h.stderr);
  const r = await heimdall(m.home, ["task", "resume", task.id], { author: "bob", cwd: m.repo });
  assert.equal(r.code, 0, r.stderr);
});
