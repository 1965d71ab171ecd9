/**
 * Personal memory end to end: a real transcript read by the stop hook, the
 * review queue through the real CLI, recall at session start, a distiller,
 * and `reflect`'s knowledge page.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, copyDir, removeTree, tempDir, waitFor } from "./helpers.ts";
import { DatabaseSync } from "node:sqlite";
import { exists } from "../src/files/mod.ts";
import { WriteIntent } from "../src/store/write_lock.ts";
import { leaks, rawFiles } from "./secret_plant.ts";
import { secretSamples } from "./secret_samples.ts";

const FIXTURES = new URL("./fixtures/harness/", import.meta.url).pathname;

const jsonl = (...rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
const user = (text: string) => ({ type: "user", message: { role: "user", content: text } });
const assistant = (text: string) => ({
  type: "assistant",
  message: { role: "assistant", content: [{ type: "text", text }] },
});

interface Queued {
  id: number;
  text: string;
  kind: string;
  confidence: number;
  source: string;
  status: string;
  seen: number;
  memory_id: string | null;
}

async function setup() {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "shop");
  copyDir(join(FIXTURES, "repo"), repo);
  Deno.mkdirSync(join(repo, ".git")); // a repository: the project personal memory is kept on
  const env = { HEIMDALL_AUTHOR: "ada" };
  assert.equal((await cli(home, ["index", repo, "--no-embed"], { env })).code, 0);
  const hook = async (payload: Record<string, unknown>, author = "ada") => {
    const r = await cli(home, ["hook", "--harness", "claude-code"], {
      stdin: JSON.stringify({ session_id: "s1", cwd: repo, ...payload }),
      env: { HEIMDALL_AUTHOR: author },
    });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  const queue = async (...args: string[]) => {
    const r = await cli(home, ["review", "--all", "--json", ...args], { env, cwd: repo });
    return JSON.parse(r.stdout || '{"candidates":[]}').candidates as Queued[];
  };
  return { base, home, repo, env, hook, queue };
}

Deno.test("the stop hook queues the person's durable statements once; review accepts, edits and rejects; session start recalls them to their author only", async () => {
  const { base, home, repo, env, hook, queue } = await setup();
  try {
    const transcript = join(base, "s1.jsonl");
    Deno.writeTextFileSync(
      transcript,
      jsonl(
        user("Fix the cart. From now on, run the linter before every commit."),
        assistant("Always happy to. I will never skip it."),
        user("We use pytest, not unittest. Can you always squash commits?"),
      ),
    );
    await hook({ hook_event_name: "Stop", transcript_path: transcript });
    let list = await queue();
    assert.deepEqual(list.map((c) => [c.kind, c.text, c.status]), [
      ["preference", "We use pytest, not unittest.", "pending"],
      ["rule", "From now on, run the linter before every commit.", "pending"],
    ]);
    assert.match(list[1]!.source, /s1\.jsonl:1$/);

    // The next turn says the same thing again, in other words: seen twice, not queued twice.
    Deno.writeTextFileSync(
      transcript,
      jsonl(assistant("Linted."), user("From now on run the linter before every single commit.")),
      { append: true },
    );
    await hook({ hook_event_name: "Stop", transcript_path: transcript });
    list = await queue();
    assert.equal(list.length, 2);
    assert.equal(list.find((c) => c.kind === "rule")!.seen, 2);

    const rule = list.find((c) => c.kind === "rule")!;
    const pref = list.find((c) => c.kind === "preference")!;
    const accepted = await cli(home, [
      "review",
      "accept",
      String(rule.id),
      "--text",
      "Run the linter before every commit",
    ], { env, cwd: repo });
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.equal((await cli(home, ["review", "reject", String(pref.id)], { env })).code, 0);
    assert.equal((await cli(home, ["review", "reject", "999"], { env })).code, 2);
    const typo = await cli(home, ["review", "accept", "1x"], { env });
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /Invalid ID "1x": expected the number `heimdall review` shows/);
    const pending = await cli(home, ["review"], { env });
    assert.equal(pending.code, 1, "nothing left to review");

    // A rejected statement is never queued again, even when said again.
    Deno.writeTextFileSync(transcript, jsonl(user("We use pytest, not unittest!")), {
      append: true,
    });
    await hook({ hook_event_name: "Stop", transcript_path: transcript });
    assert.equal((await queue()).length, 2);

    // Recall: the author's session start brings it back; another person's does not.
    const mine = await hook({ hook_event_name: "SessionStart", source: "startup" });
    assert.match(mine, /Your preferences on this project[\s\S]*Run the linter before every commit/);
    const theirs = await hook(
      { hook_event_name: "SessionStart", source: "startup", session_id: "s2" },
      "bob",
    );
    assert.doesNotMatch(theirs, /Run the linter/);
    const why = await cli(home, ["why", repo, "--json"], { env });
    const prefs = (JSON.parse(why.stdout).current as { kind: string; scope: string }[])
      .filter((m) => m.kind === "preference");
    assert.deepEqual(prefs.map((m) => m.scope), ["private"]);
  } finally {
    removeTree(base);
  }
});

Deno.test("review --project lists a repository's statements from a folder inside it, and names a folder that is not there", async () => {
  const { base, home, repo, env, hook } = await setup();
  try {
    const transcript = join(base, "s1.jsonl");
    Deno.writeTextFileSync(transcript, jsonl(user("From now on, run the linter first.")));
    await hook({ hook_event_name: "Stop", transcript_path: transcript });
    const list = async (project: string) =>
      await cli(home, ["review", "--json", "--project", project], { env, cwd: repo });
    const texts = async (project: string) =>
      (JSON.parse((await list(project)).stdout).candidates as Queued[]).map((c) => c.text);
    assert.deepEqual(await texts(repo), ["From now on, run the linter first."]);
    const inside = join(repo, "pkg");
    assert.ok(Deno.statSync(inside).isDirectory);
    assert.deepEqual(await texts(inside), ["From now on, run the linter first."]);
    assert.deepEqual(await texts("pkg"), ["From now on, run the linter first."]);
    const typo = await list(join(repo, "pgk"));
    assert.equal(typo.code, 2, typo.stdout);
    assert.match(typo.stderr, /No project folder ".*pgk"/);
  } finally {
    removeTree(base);
  }
});

Deno.test("a transcript past the 4 MiB the stop hook reads: the person's statements in its new turns are still queued", async () => {
  const { base, hook, queue } = await setup();
  try {
    const transcript = join(base, "s1.jsonl");
    // Tool output, not turns: a megabyte a line.
    const output = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ type: "progress", data: `${i}`.repeat(1 << 20) }));
    const said = (n: number) => Array.from({ length: n }, (_, i) => assistant(`Step ${i} done.`));
    Deno.writeTextFileSync(transcript, jsonl(...said(10), ...output(3)));
    await hook({ hook_event_name: "Stop", transcript_path: transcript });
    assert.deepEqual(await queue(), []);
    // The session goes on: the ten turns the first stop read fall out of the last 4 MiB,
    // and as many new ones come into it, the person's rule among them.
    Deno.writeTextFileSync(
      transcript,
      jsonl(...output(2), user("From now on, run the linter before every commit."), ...said(9)),
      { append: true },
    );
    assert.ok(Deno.statSync(transcript).size > 5 << 20);
    await hook({ hook_event_name: "Stop", transcript_path: transcript });
    assert.deepEqual((await queue()).map((c) => c.text), [
      "From now on, run the linter before every commit.",
    ]);
  } finally {
    removeTree(base);
  }
});

Deno.test("a secret holding a sentence end is redacted whole: no piece of it reaches the review queue or the journal", async () => {
  const { base, home, hook, queue } = await setup();
  try {
    // Secrets of every kind, some with "." or "!" inside (a password, a JWT, a webhook URL).
    const samples = [...secretSamples(), ...secretSamples(9)];
    assert.ok(samples.some((s) => s.kind === "password_assignment" && /[.!?]/.test(s.secret)));
    const pem = samples.find((s) => s.kind === "private_key" && s.line.includes("\n"))!;
    const transcript = join(base, "s1.jsonl");
    Deno.writeTextFileSync(
      transcript,
      jsonl(
        ...samples.map((s) => user(`From now on, always keep ${s.line} in the deploy config.`)),
        user(`Fix it.\n${pem.line}\nFrom now on, run the linter before every commit.`),
      ),
    );
    await hook({ hook_event_name: "Stop", transcript_path: transcript });
    const queued = await queue();
    assert.ok(queued.some((c) => c.text.includes("[REDACTED:password_assignment]")));
    // A private key's lines become one placeholder; a sentence after it keeps its own line.
    const lint = queued.find((c) => c.text.startsWith("From now on, run the linter"))!;
    const line = samples.length + 1 + 1 + pem.line.split("\n").length;
    assert.match(lint.source, new RegExp(`s1\\.jsonl:${line}$`));
    const shown = await cli(home, ["review", "--all"], { env: { HEIMDALL_AUTHOR: "ada" } });
    assert.deepEqual(leaks(new Map([["review", shown.stdout]]), samples), []);
    assert.deepEqual(leaks(rawFiles(home), samples), []);
  } finally {
    removeTree(base);
  }
});

Deno.test("a configured confidence accepts sure statements at once; a distiller's proposals are redacted and reviewed like the rest", async () => {
  const { base, home, repo, env, hook, queue } = await setup();
  try {
    const transcript = join(base, "s1.jsonl");
    Deno.writeTextFileSync(
      transcript,
      jsonl(user("From now on, never push to main. Make sure to update the changelog.")),
    );
    await hook({ hook_event_name: "Stop", transcript_path: transcript }, "ada");
    let list = await queue();
    assert.deepEqual(
      list.map((c) => c.status),
      ["pending", "pending"],
      "no auto-accept by default",
    );

    const distiller = join(base, "distill.sh");
    const token = "ghp_" + "Z1y2X3w4V5u6T7s8R9q0P1o2N3m4L5k6J7i8";
    Deno.writeTextFileSync(
      distiller,
      `#!/bin/sh\ntest -f "$1" || exit 4\nprintf '0.9\\tPrefer small pull requests\\nDeploy with token ${token}\\n'\n`,
    );
    Deno.chmodSync(distiller, 0o755);
    const config = join(home, "config.json");
    const c = JSON.parse(Deno.readTextFileSync(config));
    Deno.writeTextFileSync(
      config,
      JSON.stringify({ ...c, distiller, personalAutoAccept: 0.85 }),
      { mode: 0o600 },
    );
    // A mistyped transcript is named, not handed to the distiller to fail on.
    const missing = join(base, "s1.jsnol");
    let r = await cli(home, ["review", "distill", missing, "--project", repo], { env });
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stderr, /No transcript ".*s1\.jsnol": no such file/);
    // So is a mistyped project folder, before the distiller runs.
    r = await cli(home, ["review", "distill", transcript, "--project", `${repo}-x`], { env });
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stderr, /No project folder ".*-x": --project takes the repository/);
    r = await cli(home, ["review", "distill", transcript, "--project", repo], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /2 statements queued \(1 accepted\)/);
    list = await queue();
    const distilled = list.filter((x) => x.source.startsWith("distiller"));
    assert.deepEqual(distilled.map((x) => [x.text, x.status]).sort(), [
      ["Deploy with token [REDACTED:github_token]", "pending"],
      ["Prefer small pull requests", "accepted"],
    ]);
    // The hook's own capture honours the threshold too.
    Deno.writeTextFileSync(transcript, jsonl(user("From now on, tag every release.")), {
      append: true,
    });
    await hook({ hook_event_name: "Stop", transcript_path: transcript });
    const tagged = (await queue()).find((x) => x.text === "From now on, tag every release.");
    assert.equal(tagged?.status, "accepted");
    assert.ok(!Deno.readTextFileSync(join(home, "journal.db")).includes(token));
  } finally {
    removeTree(base);
  }
});

Deno.test("a distiller that repeats a private key or a long line with a token: no piece of either is queued", async () => {
  const { base, home, repo, env, queue } = await setup();
  try {
    const samples = secretSamples();
    const pem = samples.find((s) => s.kind === "private_key" && s.line.includes("\n"))!;
    const token = samples.find((s) => s.kind === "github_token")!;
    // The line is cut to 300 characters in the middle of the token.
    const long = "Always deploy with " + "x".repeat(290 - 19) + " " + token.secret + " today";
    const said = join(base, "said.txt");
    Deno.writeTextFileSync(said, `Always deploy with this key:\n${pem.line}\n${long}\n`);
    const distiller = join(base, "distill.sh");
    Deno.writeTextFileSync(distiller, `#!/bin/sh\ncat '${said}'\n`);
    Deno.chmodSync(distiller, 0o755);
    const transcript = join(base, "s1.jsonl");
    Deno.writeTextFileSync(transcript, jsonl(user("Ship it.")));
    const r = await cli(home, ["review", "distill", transcript, "--project", repo], {
      env: { ...env, HEIMDALL_DISTILLER: distiller },
    });
    assert.equal(r.code, 0, r.stderr);
    const texts = (await queue()).map((c) => c.text);
    assert.ok(texts.includes("[REDACTED:private_key]"), texts.join("\n"));
    assert.ok(texts.some((t) => t.startsWith("Always deploy with x")));
    // Not the key's lines one by one, nor the token's first characters.
    const pieces = [
      ...pem.secret.split("\n").filter((l) => l.length > 20),
      token.secret.slice(0, 12),
    ];
    for (const piece of pieces) {
      assert.ok(!texts.some((t) => t.includes(piece)), piece);
      assert.deepEqual(leaks(rawFiles(home), [{ kind: "piece", line: piece, secret: piece }]), []);
    }
  } finally {
    removeTree(base);
  }
});

Deno.test("a distiller named only in a session's environment runs, with it, from the warm server", async () => {
  const { base, home, repo, queue } = await setup();
  try {
    const distiller = join(base, "distill.sh");
    Deno.writeTextFileSync(distiller, "#!/bin/sh\nprintf '0.9\\tPrefer small pull requests\\n'\n");
    Deno.chmodSync(distiller, 0o755);
    const transcript = join(base, "s1.jsonl");
    Deno.writeTextFileSync(transcript, jsonl(user("Fix the cart, please.")));
    const stop = (env: Record<string, string>) =>
      cli(home, ["hook", "--harness", "claude-code"], {
        stdin: JSON.stringify({
          session_id: "s1",
          cwd: repo,
          hook_event_name: "Stop",
          transcript_path: transcript,
        }),
        env: { HEIMDALL_AUTHOR: "ada", HEIMDALL_HOOK_WAIT_MS: "10000", ...env },
        extraPerms: ["--allow-net=127.0.0.1"],
      });
    // The first hook starts the warm server, without the variable.
    assert.equal((await stop({})).code, 0);
    await waitFor(() => exists(join(home, "hookd.port")), 30_000, "the warm server");
    const r = await stop({ HEIMDALL_DISTILLER: distiller, HEIMDALL_HOOK_DEBUG: "1" });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      Deno.readTextFileSync(join(home, "logs", "hooks.log")),
      /Stop → stop in [\d.]+ ms \(server pid/,
    );
    await waitFor(
      async () => (await queue()).some((c) => c.text === "Prefer small pull requests"),
      30_000,
      "the distiller's proposal in the review queue",
    );
  } finally {
    removeTree(base);
  }
});

Deno.test("review accept: two processes accepting at once keep one preference; one whose memory was forgotten is recorded anew", async () => {
  const { base, home, repo, env, queue } = await setup();
  try {
    const distiller = join(base, "distill.sh");
    Deno.writeTextFileSync(
      distiller,
      "#!/bin/sh\nprintf 'Always pin the lockfile\\nNever log raw card numbers\\nPrefer one commit per fix\\nUse tabs in makefiles only\\n'\n",
    );
    Deno.chmodSync(distiller, 0o755);
    const run = async (...args: string[]) => {
      const r = await cli(home, args, {
        env: { ...env, HEIMDALL_DISTILLER: distiller },
        cwd: repo,
      });
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    const transcript = join(base, "s1.jsonl");
    Deno.writeTextFileSync(transcript, jsonl(user("hello")));
    await run("review", "distill", transcript, "--project", repo);
    const ids = (await queue()).map((c) => c.id);
    assert.equal(ids.length, 4);
    // Each candidate accepted by two processes at once.
    const said = await Promise.all(
      ids.flatMap((id) => [0, 1].map(() => run("review", "accept", String(id), "--json"))),
    );
    const memoryOf = new Map((await queue()).map((c) => [c.id, c.memory_id]));
    for (const out of said) {
      const r = JSON.parse(out) as { id: number; memory: string };
      assert.equal(r.memory, memoryOf.get(r.id), "both processes name the one memory kept");
    }
    const current = async () =>
      (JSON.parse(await run("why", repo, "--json")).current as { id: string; kind: string }[])
        .filter((m) => m.kind === "preference").map((m) => m.id).sort();
    assert.deepEqual(await current(), [...memoryOf.values()].sort());

    // Forgotten since: accepting it again brings it back, as a new memory.
    const first = memoryOf.get(ids[0]!)!;
    await run("forget", first);
    const again = JSON.parse(await run("review", "accept", String(ids[0]), "--json")).memory;
    assert.notEqual(again, first);
    assert.ok((await current()).includes(again));
    // An edit of it then supersedes the new one, not the forgotten one.
    const second = memoryOf.get(ids[1]!)!;
    await run("forget", second);
    const edited = JSON.parse(
      await run("review", "accept", String(ids[1]), "--text", "Never log card numbers", "--json"),
    ).memory;
    assert.ok((await current()).includes(edited));
    assert.ok(!(await current()).includes(second));
  } finally {
    removeTree(base);
  }
});

Deno.test("review reject of a candidate accepted while it waited for the lock leaves it accepted", async () => {
  const { base, home, repo, env, hook, queue } = await setup();
  try {
    const transcript = join(base, "s1.jsonl");
    Deno.writeTextFileSync(transcript, jsonl(user("From now on, run the linter first.")));
    await hook({ hook_event_name: "Stop", transcript_path: transcript });
    const [c] = await queue();
    assert.equal(c!.status, "pending");
    const journal = join(home, "journal.db");
    // Another writer holds the lock: reject reads the candidate (pending), then waits to write.
    const db = new DatabaseSync(journal);
    db.exec("PRAGMA busy_timeout = 5000");
    db.exec("BEGIN IMMEDIATE");
    const reject = cli(home, ["review", "reject", String(c!.id)], { env, cwd: repo });
    const intent = new WriteIntent(`${journal}-wait`);
    await waitFor(() => intent.waiting(), 30_000, "review reject to wait for the lock");
    // Meanwhile it is accepted (as `review accept` writes it) and the lock is let go.
    db.prepare(
      "UPDATE personal_candidates SET status = 'accepted', memory_id = 'm1', decided_at = 1 WHERE id = ?",
    ).run(c!.id);
    db.exec("COMMIT");
    db.close();
    const r = await reject;
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stderr, /is accepted as memory m1/);
    assert.deepEqual((await queue()).map((x) => [x.status, x.memory_id]), [["accepted", "m1"]]);
  } finally {
    removeTree(base);
  }
});

Deno.test("review accept of a rejected candidate says it will not come back, and the remedy it names keeps it", async () => {
  const { base, home, repo, env, queue } = await setup();
  try {
    const distiller = join(base, "distill.sh");
    Deno.writeTextFileSync(distiller, "#!/bin/sh\nprintf 'Never log raw card numbers\\n'\n");
    Deno.chmodSync(distiller, 0o755);
    const run = (...args: string[]) =>
      cli(home, args, { env: { ...env, HEIMDALL_DISTILLER: distiller }, cwd: repo });
    const transcript = join(base, "s1.jsonl");
    Deno.writeTextFileSync(transcript, jsonl(user("hello")));
    assert.equal((await run("review", "distill", transcript, "--project", repo)).code, 0);
    const [c] = await queue();
    assert.equal((await run("review", "reject", String(c!.id))).code, 0);
    // Said again: not queued again.
    assert.equal((await run("review", "distill", transcript, "--project", repo)).code, 0);
    assert.deepEqual((await queue()).map((x) => [x.id, x.status]), [[c!.id, "rejected"]]);
    const refused = await run("review", "accept", String(c!.id));
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /is not queued again/);
    const remedy = /heimdall (remember .*) TEXT$/m.exec(refused.stderr);
    assert.ok(remedy, refused.stderr);
    const kept = await run(...remedy[1]!.split(" "), c!.text, "--json");
    assert.equal(kept.code, 0, kept.stderr);
    const why = JSON.parse((await run("why", repo, "--json")).stdout);
    assert.deepEqual(
      why.current.map((m: { kind: string; text: string }) => [m.kind, m.text]),
      [["preference", c!.text]],
    );
  } finally {
    removeTree(base);
  }
});

Deno.test("review distill: sessions queueing the same statements at once queue each once and count the others as seen", async () => {
  const { base, home, repo, env, queue } = await setup();
  try {
    const distiller = join(base, "distill.sh");
    const statements = Array.from(
      { length: 150 },
      () => `Always keep rule ${crypto.randomUUID()} in mind`,
    );
    // Each distiller waits for the other three, so that the four sessions queue together.
    const ready = join(base, "ready");
    Deno.mkdirSync(ready);
    Deno.writeTextFileSync(
      distiller,
      `#!/bin/sh\ntouch ${ready}/$$\nwhile [ "$(ls ${ready} | wc -l)" -lt 4 ]; do sleep 0.01; done\nprintf '${
        statements.join("\\n")
      }\\n'\n`,
    );
    Deno.chmodSync(distiller, 0o755);
    const transcript = join(base, "s1.jsonl");
    Deno.writeTextFileSync(transcript, jsonl(user("hello")));
    const results = await Promise.all(
      [0, 1, 2, 3].map(() =>
        cli(home, ["review", "distill", transcript, "--project", repo], {
          env: { ...env, HEIMDALL_DISTILLER: distiller },
          cwd: repo,
        })
      ),
    );
    for (const r of results) assert.equal(r.code, 0, r.stderr);
    const list = await queue();
    assert.deepEqual(list.map((c) => c.text).sort(), [...statements].sort());
    assert.deepEqual(list.map((c) => c.seen), statements.map(() => 4));
  } finally {
    removeTree(base);
  }
});

Deno.test("reflect writes the project's knowledge page from its shared memories, replaces it next time, and search finds it", async () => {
  const { base, home, repo } = await setup();
  try {
    const run = (args: string[], author = "ada") =>
      cli(home, args, { env: { HEIMDALL_AUTHOR: author }, cwd: repo });
    assert.equal(
      (await run([
        "remember",
        "--kind",
        "decision",
        "--about",
        "pkg/billing.py:compute_total",
        "Discounts are clamped to [0, 1]",
      ]))
        .code,
      0,
    );
    for (const author of ["ada", "bob"]) {
      assert.equal(
        (await run(
          [
            "attempt",
            "--about",
            "pkg/billing.py:compute_total",
            "--failed",
            "--tests",
            "t::neg",
            "Rounding first broke t::neg",
          ],
          author,
        )).code,
        0,
      );
    }
    assert.equal(
      (await run([
        "remember",
        "--kind",
        "convention",
        "--scope",
        "private",
        "--about",
        "pkg/cart.py",
        "my private aside",
      ]))
        .code,
      0,
    );
    // Bob holds the function now: a claim, from the team store.
    const claimed = await run(["claim", "pkg/billing.py:compute_total"], "bob");
    assert.equal(claimed.code, 0, claimed.stderr);
    const first = await run(["reflect", "--json"]);
    assert.equal(first.code, 0, first.stderr);
    const page = JSON.parse(first.stdout) as { id: string; text: string };
    assert.match(
      page.text,
      /^Knowledge page of shop: as of \d{4}-\d\d-\d\d, activity of the last 7 days/,
    );
    assert.match(
      page.text,
      /Current decisions:\n- Discounts are clamped to \[0, 1\] \(ada, on compute_total in pkg\/billing\.py\)/,
    );
    assert.match(page.text, /Open failures:\n- Rounding first broke t::neg ×2/);
    assert.match(page.text, /Hot files:\n- pkg\/billing\.py: ada \(2\), bob \(1\)/);
    assert.doesNotMatch(page.text, /private aside/, "private memories stay out of a shared page");

    const second = JSON.parse((await run(["reflect", "--json"])).stdout) as {
      id: string;
      superseded: string[];
    };
    assert.deepEqual(second.superseded, [page.id]);
    const found = await run([
      "search",
      "--json",
      "--kind",
      "memory",
      "knowledge page shop decisions",
    ]);
    const hits = JSON.parse(found.stdout).hits as { ref_id: string }[];
    assert.equal(hits[0]?.ref_id, second.id);
    const bad = await run(["reflect", "--since", "forever"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Invalid --since "forever"/);
  } finally {
    removeTree(base);
  }
});
