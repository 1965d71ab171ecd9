/** Search end to end through the real CLI, on a copy of a fixture tree: verdicts against the disk. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { homePaths } from "../src/config/mod.ts";
import { MAX_QUERY_WORDS, search, type SearchHit, type SearchResult } from "../src/search/mod.ts";
import { dumpIndex, Journal } from "../src/store/mod.ts";
import {
  cli,
  MAIN,
  PERMS,
  removeTree,
  sh,
  tempDir,
  unprivileged,
  withTempDir,
  writeTree,
} from "./helpers.ts";

const FIXTURE = new URL("./fixtures/search/repo", import.meta.url).pathname;

/** A fresh copy of the fixture, indexed; disposed with its home. */
async function indexedFixture() {
  const base = tempDir("heimdall-search-");
  const repo = join(base, "repo");
  copyTree(FIXTURE, repo);
  const home = join(base, "home");
  const idx = await cli(home, ["index", repo]);
  assert.equal(idx.code, 0, idx.stderr);
  return {
    base,
    repo: Deno.realPathSync(repo),
    home,
    search: async (...args: string[]) => {
      const r = await cli(home, ["search", "--json", ...args]);
      assert.ok(r.code === 0 || r.code === 1, r.stderr);
      return { code: r.code, result: JSON.parse(r.stdout) as SearchResult };
    },
    [Symbol.dispose]() {
      removeTree(base);
    },
  };
}

/** Copies a tree, dating every file an hour back so none is "racy" (re-read by the next pass). */
function copyTree(from: string, to: string): void {
  const past = new Date(Date.now() - 3_600_000);
  Deno.mkdirSync(to, { recursive: true });
  for (const e of Deno.readDirSync(from)) {
    if (e.isDirectory) copyTree(join(from, e.name), join(to, e.name));
    else {
      Deno.copyFileSync(join(from, e.name), join(to, e.name));
      Deno.utimeSync(join(to, e.name), past, past);
    }
  }
}

function hitAt(result: SearchResult, path: string): SearchHit | undefined {
  return result.hits.find((h) => h.path === path);
}

Deno.test("search ranks the answering file first, STRONG, with its symbol and the JSON shape", async () => {
  using t = await indexedFixture();
  const { code, result } = await t.search("portfolio optimization");
  assert.equal(code, 0);
  const top = result.hits[0]!;
  assert.equal(top.path, join(t.repo, "src/portfolio/optimizer.ts"));
  assert.equal(top.verdict, "STRONG");
  assert.equal(top.reason, null);
  assert.match(top.symbol ?? "", /PortfolioOptimizer/);
  assert.equal(top.coverage, 1);
  assert.equal(top.freshness.checked, "hash");
  assert.deepEqual(Object.keys(result).sort(), [
    "hits",
    "legs",
    "pruned",
    "query",
    "summary",
    "took_ms",
  ]);
  for (
    const key of [
      "rank",
      "verdict",
      "reason",
      "path",
      "repo",
      "line",
      "end_line",
      "symbol",
      "kind",
      "score",
      "coverage",
      "moved_from",
      "summary",
    ]
  ) assert.ok(key in top, `hit has ${key}`);
  assert.equal(top.repo, "repo");
  assert.ok(top.line! >= 1 && top.end_line! >= top.line!);
  assert.deepEqual(result.legs.semantic, {
    on: false,
    reason: "no model; run heimdall model pull multilingual-e5-small-int8",
  });
  assert.equal(result.legs.lexical.on, true);
  // One result per file: the optimizer's other symbols are counted, not listed.
  assert.equal(result.hits.filter((h) => h.path === top.path).length, 1);
});

Deno.test("a pasted query of thousands of words is searched by its first words and says how many it left out", async () => {
  using t = await indexedFixture();
  // The question, then a log's worth of distinct words: each word costs a count and a scan.
  const letters = (i: number) =>
    [...i.toString(26)].map((d) => "abcdefghijklmnopqrstuvwxyz"[parseInt(d, 26)]).join("");
  const log = Array.from({ length: 3000 }, (_, i) => `frame${letters(i)}`).join(" ");
  const { result } = await t.search(`portfolio optimization ${log}`);
  assert.equal(result.hits[0]!.path, join(t.repo, "src/portfolio/optimizer.ts"));
  assert.equal(result.legs.lexical.words_ignored, 2 + 3000 - MAX_QUERY_WORDS);
  const human = await cli(t.home, ["search", `portfolio optimization ${log}`]);
  assert.match(human.stdout, /lexical \(the query's first 64 words; 2938 more left out\)/);
  // A question within the bound says nothing of it.
  const short = await t.search("portfolio optimization");
  assert.equal(short.result.legs.lexical.words_ignored, undefined);
});

Deno.test("an identifier in the query is split and also matched whole", async () => {
  using t = await indexedFixture();
  const { result } = await t.search("parseHTTPRequestLine");
  assert.equal(result.hits[0]!.path, join(t.repo, "src/net/http_client.ts"));
  assert.equal(result.hits[0]!.symbol, "parseHTTPRequestLine");
  const split = await t.search("parse http request line");
  assert.equal(split.result.hits[0]!.symbol, "parseHTTPRequestLine");
});

Deno.test("a moved file comes back REBUILT at its new path, and the journal converges", async () => {
  using t = await indexedFixture();
  const old = join(t.repo, "src/net/retry.py");
  const moved = join(t.repo, "lib/net_retry.py");
  Deno.renameSync(old, moved);
  const { code, result } = await t.search("retry exponential backoff");
  assert.equal(code, 0);
  const hit = result.hits[0]!;
  assert.equal(hit.verdict, "REBUILT");
  assert.equal(hit.path, moved);
  assert.equal(hit.moved_from, old);
  assert.match(hit.reason ?? "", /moved from .*retry\.py \(same content\)/);
  assert.ok(!result.hits.some((h) => h.path === old), "the dead path is never shown");
  // The reconciler was told: the next pass re-anchors the journal.
  const hints = [...Deno.readDirSync(homePaths(t.home).hints)].map((e) =>
    Deno.readTextFileSync(join(homePaths(t.home).hints, e.name))
  ).join("");
  assert.ok(hints.includes(old) && hints.includes(moved), hints);
  assert.equal((await cli(t.home, ["index", t.repo])).code, 0);
  const after = await t.search("retry exponential backoff");
  assert.equal(after.result.hits[0]!.path, moved);
  assert.equal(after.result.hits[0]!.verdict, "STRONG");
});

Deno.test("a file moved and edited is found again by its symbol", async () => {
  using t = await indexedFixture();
  const old = join(t.repo, "src/portfolio/stats.ts");
  const moved = join(t.repo, "lib/stats.ts");
  Deno.writeTextFileSync(moved, "// moved here\n\n" + Deno.readTextFileSync(old));
  Deno.removeSync(old);
  const { result } = await t.search("sample covariance matrix");
  const hit = result.hits.find((h) => h.moved_from === old);
  assert.ok(hit, JSON.stringify(result.hits));
  assert.equal(hit.verdict, "REBUILT");
  assert.equal(hit.path, moved);
  assert.match(hit.reason ?? "", /same symbol/);
  const line = Deno.readTextFileSync(moved).split("\n")[hit.line! - 1]!;
  assert.match(line, /export function covariance/);
});

/** `file`'s text without `def name(…)` and the lines of its body (up to the next top-level line). */
function withoutPythonFunction(file: string, name: string): { rest: string; fn: string } {
  const lines = Deno.readTextFileSync(file).split("\n");
  const start = lines.findIndex((l) => l.startsWith(`def ${name}(`));
  let end = start + 1;
  while (end < lines.length && (lines[end] === "" || /^\s/.test(lines[end]!))) end++;
  return {
    rest: [...lines.slice(0, start), ...lines.slice(end)].join("\n"),
    fn: lines.slice(start, end).join("\n"),
  };
}

Deno.test("a function moved to another module comes back REBUILT there, and the journal converges", async () => {
  using t = await indexedFixture();
  const old = join(t.repo, "src/net/retry.py");
  const moved = join(t.repo, "src/net/backoff.py");
  const { rest, fn } = withoutPythonFunction(old, "retry_with_backoff");
  Deno.writeTextFileSync(old, rest);
  Deno.writeTextFileSync(moved, `import random\nimport time\n\n\n${fn}\n`);
  const { result } = await t.search("retry exponential backoff");
  const hit = result.hits.find((h) => h.moved_from === old);
  assert.ok(hit, JSON.stringify(result.hits));
  assert.equal(hit.verdict, "REBUILT");
  assert.equal(hit.path, moved);
  assert.equal(hit.symbol, "retry_with_backoff");
  assert.match(hit.reason ?? "", /moved from .*retry\.py \(same symbol\)/);
  assert.equal(hit.line, 5);
  // The file it left is no hit for the function it no longer holds.
  assert.ok(!result.hits.some((h) => h.path === old && h.symbol === "retry_with_backoff"));
  const hints = [...Deno.readDirSync(homePaths(t.home).hints)].map((e) =>
    Deno.readTextFileSync(join(homePaths(t.home).hints, e.name))
  ).join("");
  assert.ok(hints.includes(moved), hints);
  assert.equal((await cli(t.home, ["index", t.repo])).code, 0);
  const after = (await t.search("retry exponential backoff")).result.hits[0]!;
  assert.deepEqual([after.path, after.symbol, after.verdict], [
    moved,
    "retry_with_backoff",
    "STRONG",
  ]);
});

Deno.test("a function deleted from its module is not said to have moved to a copy that stood elsewhere", async () => {
  using t = await indexedFixture();
  const old = join(t.repo, "src/net/retry.py");
  const copy = join(t.repo, "src/net/vendored.py");
  const { rest, fn } = withoutPythonFunction(old, "retry_with_backoff");
  Deno.writeTextFileSync(copy, `import random\nimport time\n\n\n${fn}\n`);
  assert.equal((await cli(t.home, ["index", t.repo])).code, 0);
  // The copy is edited since (not as indexed), and the function is deleted from its module.
  Deno.writeTextFileSync(copy, Deno.readTextFileSync(copy) + "\n# vendored from retry.py\n");
  Deno.writeTextFileSync(old, rest);
  const { result } = await t.search("retry exponential backoff");
  assert.ok(!result.hits.some((h) => h.moved_from === old), JSON.stringify(result.hits));
  assert.ok(result.hits.some((h) => h.path === copy), JSON.stringify(result.hits));
});

Deno.test("a deleted file is never returned: pruned, logged and hinted", async () => {
  using t = await indexedFixture();
  const gone = join(t.repo, "lib/colors.js");
  Deno.removeSync(gone);
  const { code, result } = await t.search("terminal colours green ANSI escape");
  assert.ok(!result.hits.some((h) => h.path === gone));
  assert.deepEqual(result.pruned.map((p) => p.path), [gone]);
  assert.match(result.summary, /1 stale pruned/);
  const log = Deno.readTextFileSync(join(t.home, "logs", "search.log"));
  assert.match(log, new RegExp(`pruned ${gone.replaceAll("/", "\\/")}.*hinted the reconciler`));
  if (result.hits.length === 0) assert.equal(code, 1);
  // After the reconciler's pass the journal no longer holds it.
  assert.equal((await cli(t.home, ["index", t.repo])).code, 0);
  const again = await t.search("terminal colours green ANSI escape");
  assert.deepEqual(again.result.pruned, []);
});

Deno.test("a hit's file replaced by a named pipe, a link to /dev/zero or a file grown to gigabytes never holds up a search", async () => {
  using t = await indexedFixture();
  const file = join(t.repo, "src/net/retry.py");
  const query = ["retry", "flaky", "network", "call", "exponential", "backoff"];
  // Each search is bounded: the second stage read a pipe (no writer: waits forever),
  // /dev/zero (never ends) and a 3 GB file (a minute, 6 GB of memory) whole.
  const bounded = async () => {
    const r = await cli(t.home, ["search", "--json", ...query], {
      signal: AbortSignal.timeout(60_000),
    });
    assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout) as SearchResult;
  };
  Deno.removeSync(file);
  await sh(`mkfifo ${JSON.stringify(file)}`);
  let result = await bounded();
  // Not a regular file: never indexed, so the hit is gone, as the next pass will say.
  assert.ok(!result.hits.some((h) => h.path === file), JSON.stringify(result.hits));
  assert.deepEqual(result.pruned.map((p) => p.path), [file]);
  Deno.removeSync(file);
  Deno.symlinkSync("/dev/zero", file);
  result = await bounded();
  assert.deepEqual(result.pruned.map((p) => p.path), [file]);
  Deno.removeSync(file);
  // A sparse file: gigabytes long, no disk used.
  using f = Deno.openSync(file, { create: true, write: true });
  f.truncateSync(3 * 1024 ** 3);
  result = await bounded();
  const hit = hitAt(result, file);
  assert.ok(hit, JSON.stringify(result.hits));
  assert.equal(hit.verdict, "WEAK");
  assert.match(hit.reason ?? "", /over the 4 MB read limit/);
});

/** `heimdall search --json QUERY` as a user chmod stops (as root: in a user namespace of its own). */
async function searchUnprivileged(home: string, query: string): Promise<SearchResult> {
  const [cmd, ...pre] = [...unprivileged()!, Deno.execPath()];
  const out = await new Deno.Command(cmd!, {
    args: [...pre, "run", ...PERMS, MAIN, "search", "--json", query],
    env: { HEIMDALL_HOME: home, HEIMDALL_HOOK_SERVER: "0", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.ok(out.code === 0 || out.code === 1, stderr);
  return JSON.parse(new TextDecoder().decode(out.stdout)) as SearchResult;
}

Deno.test({
  name: "a file that cannot be read is not said to lack the query's words it was never read for",
  ignore: unprivileged() === undefined,
  fn: async () => {
    using t = await indexedFixture();
    const guide = join(t.repo, "docs/guide.md");
    Deno.chmodSync(guide, 0o000);
    const hit = hitAt(
      await searchUnprivileged(t.home, "deploying container registry canary"),
      guide,
    );
    assert.ok(hit, "the unreadable section keeps its place");
    assert.equal(hit.verdict, "WEAK");
    assert.match(hit.reason ?? "", /cannot be read now, so its text is unchecked/);
    // Its section says "container", "registry" and "canary"; only its title was there to check.
    assert.doesNotMatch(hit.reason ?? "", /missing:/);
  },
});

Deno.test({
  name: "a file in a folder that cannot be searched (chmod 000) is unchecked, not pruned as gone",
  ignore: unprivileged() === undefined,
  fn: async () => {
    using t = await indexedFixture();
    const docs = join(t.repo, "docs");
    const guide = join(docs, "guide.md");
    const note = await cli(t.home, [
      "insert",
      "--title",
      "Canary rollback runbook",
      "--body",
      "Roll the canary back with kubectl rollout undo.",
      "--path",
      guide,
    ]);
    assert.equal(note.code, 0, note.stderr);
    Deno.chmodSync(docs, 0o000);
    try {
      const result = await searchUnprivileged(t.home, "deploying container registry canary");
      // It was pruned: "gone from disk and not found under its root".
      assert.deepEqual(result.pruned, []);
      const hit = hitAt(result, guide);
      assert.ok(hit, JSON.stringify(result.hits));
      assert.equal(hit.verdict, "WEAK");
      assert.match(
        hit.reason ?? "",
        /cannot be read now, so its text is unchecked \(Permission denied/,
      );
      assert.equal(hit.symbol, "Operations guide > Deploying");
      // A note pointing there is not told its file is gone either.
      const noted = (await searchUnprivileged(t.home, "canary rollback runbook")).hits.find((h) =>
        h.source === "notes"
      );
      assert.ok(noted);
      assert.doesNotMatch(noted.reason ?? "", /which is gone/);
    } finally {
      Deno.chmodSync(docs, 0o755);
    }
  },
});

Deno.test("the time a search spends before looking for moved files is not taken from its budget for looking", async () => {
  using t = await indexedFixture();
  const guide = join(t.repo, "docs/guide.md");
  const note = await cli(t.home, [
    "insert",
    "--title",
    "Canary rollback",
    "--body",
    "Roll the canary back with kubectl rollout undo when the error budget burns.",
    "--path",
    guide,
  ]);
  assert.equal(note.code, 0, note.stderr);
  // A private memory among the candidates: who is asking is looked up (git config, a
  // subprocess) after verification has begun; here it takes 400 ms.
  const memory = await cli(t.home, [
    "remember",
    "--kind",
    "note",
    "--about",
    guide,
    "--scope",
    "private",
    "--author",
    "ada",
    "The canary rollback runbook lives in the operations guide.",
  ]);
  assert.equal(memory.code, 0, memory.stderr);
  // Renamed in its folder, not indexed there yet.
  const renamed = join(t.repo, "docs/operations.md");
  Deno.renameSync(guide, renamed);
  const j = Journal.open(homePaths(t.home).journal, { readOnly: true });
  try {
    const result = await search(j, {
      query: "canary rollback kubectl rollout undo",
      home: homePaths(t.home),
      viewer: async () => {
        await new Promise((r) => setTimeout(r, 400));
        return "ada";
      },
    });
    const noted = result.hits.find((h) => h.source === "notes");
    assert.ok(noted, JSON.stringify(result.hits));
    // It said "points at …/guide.md, which is gone": the 250 ms for looking had run out
    // before any look.
    assert.equal(noted.verdict, "REBUILT", noted.reason ?? "");
    assert.equal(noted.path, renamed);
    assert.ok(!result.pruned.some((p) => p.path === guide), JSON.stringify(result.pruned));
  } finally {
    j.close();
  }
});

Deno.test("a gone file its search ran out of time to look for is not said to be nowhere under its root", async () => {
  using t = await indexedFixture();
  const retry = join(t.repo, "src/net/retry.py");
  const size = Deno.statSync(retry).size;
  // Twenty thousand files of its size, not indexed: each is read and hashed by the look
  // for its bytes, far past the 250 ms a search looks for moved files.
  const extra = join(t.repo, "extra");
  Deno.mkdirSync(extra);
  for (let i = 0; i < 20_000; i++) {
    Deno.writeTextFileSync(join(extra, `f${i}.txt`), String(i).padEnd(size, "x"));
  }
  Deno.removeSync(retry);
  const { result } = await t.search("retry flaky network call exponential backoff");
  const pruned = result.pruned.find((p) => p.path === retry);
  assert.ok(pruned, JSON.stringify(result.pruned));
  // It said "gone from disk and not found under its root" of a root not looked through.
  assert.match(pruned.reason, /not found in the 250 ms a search looks for moved files/);
});

Deno.test("a quoted question that opens with a flag is searched, not refused as an unknown option", async () => {
  using t = await indexedFixture();
  const r = await cli(t.home, ["search", "--json", "--force retry flaky network call"]);
  // It was: Unknown option "--force retry flaky network call".
  assert.equal(r.code, 0, r.stderr);
  const result = JSON.parse(r.stdout) as SearchResult;
  assert.equal(result.query, "--force retry flaky network call");
  assert.equal(result.hits[0]?.path, join(t.repo, "src/net/retry.py"));
  // A flag alone is still a flag.
  assert.match(
    (await cli(t.home, ["search", "retry", "--force"])).stderr,
    /Unknown option "--force"/,
  );
});

Deno.test("a removed root answers nothing from the moment it is removed, before the writer retracts it", async () => {
  using t = await indexedFixture();
  const before = await t.search("portfolio optimization");
  assert.equal(before.result.hits[0]?.verdict, "STRONG");
  const removed = await cli(t.home, ["roots", "remove", t.repo]);
  assert.equal(removed.code, 0, removed.stderr);
  // No writer has run: the journal still holds the root and its files, on disk as they were.
  const j = Journal.open(homePaths(t.home).journal, { readOnly: true });
  assert.ok(j.get("SELECT 1 FROM roots WHERE path = ?", t.repo), "still in the journal");
  j.close();
  const after = await t.search("portfolio optimization");
  assert.equal(after.code, 1);
  assert.deepEqual(after.result.hits.map((h) => h.path), []);
  // Asked for by name it was "no match" (exit 1), and an unknown --repo listed it as a root.
  const named = await cli(t.home, ["search", "portfolio", "--repo", "repo"]);
  assert.equal(named.code, 2, named.stderr);
  assert.match(named.stderr, /No repository "repo": ".*repo" was removed from the roots/);
  const other = await cli(t.home, ["search", "portfolio", "--repo", "nosuch"]);
  assert.match(other.stderr, /roots: none/);
  // Added back, it answers again, still from the same rows.
  assert.equal((await cli(t.home, ["roots", "add", t.repo])).code, 0);
  assert.equal((await t.search("portfolio optimization")).result.hits[0]?.verdict, "STRONG");
});

Deno.test("a file rewritten so it no longer answers is not STRONG", async () => {
  using t = await indexedFixture();
  const file = join(t.repo, "src/net/http_client.ts");
  Deno.writeTextFileSync(file, "export const unrelated = 42;\n");
  const { result } = await t.search("fetch with timeout abort");
  // The journal still says it answers; the disk says otherwise.
  const hit = hitAt(result, file);
  assert.ok(hit, JSON.stringify(result.hits));
  assert.equal(hit.verdict, "WEAK");
  assert.match(hit.reason ?? "", /changed since indexed/);
  assert.ok(hit.coverage < 1);
  assert.ok(hit.freshness.index_behind_ms !== null);
});

Deno.test("a moved file keeps its place among files that answer less well", () =>
  withTempDir("heimdall-search-", async (base) => {
    const repo = join(base, "repo");
    copyTree(FIXTURE, repo);
    // Three weaker answers: each mentions exponential backoff, none retries a network call.
    for (const i of [1, 2, 3]) {
      Deno.mkdirSync(join(repo, "src/jobs"), { recursive: true });
      Deno.writeTextFileSync(
        join(repo, `src/jobs/sched${i}.py`),
        `def schedule_${i}(job):\n    """Run a job later; a failed job is retried with exponential backoff."""\n    return job\n`,
      );
    }
    const home = join(base, "home");
    assert.equal((await cli(home, ["index", repo])).code, 0);
    const query = ["search", "--json", "retry a flaky network call with exponential backoff"];
    const first = JSON.parse((await cli(home, query)).stdout) as SearchResult;
    assert.ok(first.hits[0]!.path!.endsWith("src/net/retry.py"), JSON.stringify(first.hits));
    Deno.mkdirSync(join(repo, "lib2"));
    Deno.renameSync(join(repo, "src/net/retry.py"), join(repo, "lib2/net_retry.py"));
    // The journal still has the old path; the answer is still the best one, found again.
    const after = JSON.parse((await cli(home, query)).stdout) as SearchResult;
    assert.equal(after.hits[0]!.verdict, "REBUILT", JSON.stringify(after.hits));
    assert.ok(after.hits[0]!.path!.endsWith("lib2/net_retry.py"));
  }));

Deno.test("in a file edited since indexing, every symbol a hit shows is where it is now", async () => {
  using t = await indexedFixture();
  const file = join(t.repo, "src/net/retry.py");
  const query = "retry backoff circuit breaker cooldown allow";
  const before = hitAt((await t.search(query)).result, file);
  assert.ok(before && before.symbols.length >= 2, JSON.stringify(before));
  const text = Deno.readTextFileSync(file);
  Deno.writeTextFileSync(
    file,
    text.replace("import time\n", "import time\n" + "# note\n".repeat(10)),
  );
  const after = hitAt((await t.search(query)).result, file);
  assert.ok(after, "the edited file still answers");
  assert.equal(after.verdict, "WEAK");
  const lines = (h: SearchHit) => new Map(h.symbols.map((s) => [s.name, s.line] as const));
  const was = lines(before);
  for (const [name, line] of lines(after)) {
    if (was.has(name)) assert.equal(line, was.get(name)! + 10, `${name} moved down 10 lines`);
  }
});

Deno.test("a same-size rewrite with its mtime restored is caught for the top results", async () => {
  using t = await indexedFixture();
  const file = join(t.repo, "src/net/retry.py");
  const before = Deno.statSync(file);
  const text = Deno.readTextFileSync(file);
  const rewritten = text.replace("exponential backoff", "exponential B4CK0FF");
  assert.equal(rewritten.length, text.length);
  Deno.writeTextFileSync(file, rewritten);
  Deno.utimeSync(file, before.atime!, before.mtime!);
  assert.equal(Deno.statSync(file).size, before.size);
  const { result } = await t.search("retry flaky network call");
  const hit = result.hits[0]!;
  assert.equal(hit.path, file);
  assert.equal(hit.verdict, "WEAK");
  assert.match(hit.reason ?? "", /content differs from the index/);
  assert.equal(hit.freshness.checked, "hash");
});

Deno.test("notes are searchable at once, with verdicts for the paths they point at", async () => {
  using t = await indexedFixture();
  const insert = (title: string, body: string, path: string, ...more: string[]) =>
    cli(t.home, [
      "insert",
      "--title",
      title,
      "--body",
      body,
      "--path",
      join(t.repo, path),
      ...more,
    ]);
  const ins = await insert(
    "Rate limiter for the billing API",
    "Token bucket with a refill every second; wraps retry_with_backoff for 429 answers.",
    "src/net/retry.py",
    "--keywords",
    "throttle,quota",
  );
  assert.equal(ins.code, 0, ins.stderr);
  // One path: it said "(1 paths attached)".
  assert.match(ins.stdout, /^noted #1: Rate limiter for the billing API \(1 path attached\)$/m);
  const { result } = await t.search("billing quota throttle", "--kind", "notes");
  assert.equal(result.hits.length, 1);
  const note = result.hits[0]!;
  assert.equal(note.kind, "note");
  assert.equal(note.source, "notes");
  assert.equal(note.symbol, "Rate limiter for the billing API");
  assert.equal(note.path, join(t.repo, "src/net/retry.py"));
  assert.equal(note.verdict, "STRONG");
  // A note has no lines in the file it points at: no symbol of that file is named at line 1.
  assert.equal(note.line, null);
  assert.deepEqual(note.symbols, []);
  // The note survives re-indexing, and follows its path when it moves.
  Deno.renameSync(join(t.repo, "src/net/retry.py"), join(t.repo, "retry.py"));
  assert.equal((await cli(t.home, ["index", t.repo])).code, 0);
  const moved = (await t.search("billing quota throttle", "--kind", "notes")).result.hits[0]!;
  assert.equal(moved.verdict, "REBUILT");
  assert.equal(moved.path, join(t.repo, "retry.py"));
  Deno.removeSync(join(t.repo, "retry.py"));
  const gone = (await t.search("billing quota throttle", "--kind", "notes")).result.hits[0]!;
  assert.equal(gone.verdict, "WEAK");
  assert.match(gone.reason ?? "", /points at .*retry\.py, which is gone/);
  // A note may point at a folder (`insert --path` takes either): there, it is not gone.
  const dir = await insert(
    "Networking layout",
    "Sockets and retries live together under net",
    "src/net",
  );
  assert.equal(dir.code, 0, dir.stderr);
  const folder = (await t.search("sockets retries layout", "--kind", "notes")).result.hits[0]!;
  assert.equal(folder.symbol, "Networking layout");
  assert.equal(folder.verdict, "STRONG", folder.reason ?? "");
});

Deno.test("markdown sections are found by heading and text", async () => {
  using t = await indexedFixture();
  const { result } = await t.search("rotate database passwords");
  const hit = result.hits[0]!;
  assert.equal(hit.path, join(t.repo, "docs/guide.md"));
  assert.equal(hit.kind, "section");
  assert.equal(hit.source, "docs");
  assert.equal(hit.symbol, "Operations guide > Rotating credentials");
  assert.equal(hit.line, 11);
  assert.equal(hit.verdict, "STRONG");
});

Deno.test("a markdown file's text before its first heading is summarised by its own first line", () =>
  withTempDir("heimdall-search-", async (base) => {
    const repo = join(base, "repo");
    Deno.mkdirSync(repo);
    Deno.writeTextFileSync(
      join(repo, "intro.md"),
      "Quokkas are marsupials of Rottnest Island.\nThey eat grasses.\n\n# Habitat\n\nScrub.\n",
    );
    Deno.writeTextFileSync(join(repo, "one.md"), "Wombats dig burrows with their claws.\n");
    const home = join(base, "home");
    assert.equal((await cli(home, ["index", repo])).code, 0);
    for (
      const [query, symbol, summary] of [
        ["quokkas marsupials", "intro.md (top)", "Quokkas are marsupials of Rottnest Island."],
        ["wombats burrows", "one.md (top)", "Wombats dig burrows with their claws."],
      ]
    ) {
      const r = await cli(home, ["search", "--json", query!]);
      const hit = (JSON.parse(r.stdout) as SearchResult).hits[0]!;
      assert.equal(hit.symbol, symbol);
      assert.equal(hit.summary, summary, "its first line, not its second or none");
    }
  }));

Deno.test("filters narrow by kind, language, path and repo; an unknown repo or language is a usage error", async () => {
  using t = await indexedFixture();
  const docs = await t.search("deploy", "--kind", "docs");
  assert.ok(docs.result.hits.length > 0);
  assert.ok(docs.result.hits.every((h) => h.source === "docs"));
  const py = await t.search("retry backoff circuit", "--lang", "python");
  assert.ok(py.result.hits.every((h) => h.path!.endsWith(".py")));
  const under = await t.search("returns weights covariance", "--path", "src/portfolio");
  assert.ok(under.result.hits.length > 0);
  assert.ok(under.result.hits.every((h) => h.path!.startsWith(join(t.repo, "src/portfolio/"))));
  const repo = await t.search("covariance", "--repo", "repo");
  assert.ok(repo.result.hits.length > 0);
  const bad = await cli(t.home, ["search", "covariance", "--repo", "nope"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /No repository "nope"/);
  // A repository by path, as typed from where one stands: the root, a folder inside it.
  const here = async (cwd: string, repo: string) => {
    const r = await cli(
      t.home,
      ["search", "returns weights covariance", "--repo", repo, "--json"],
      {
        cwd,
      },
    );
    assert.equal(r.code, 0, `--repo ${repo} from ${cwd}: ${r.stderr}`);
    return (JSON.parse(r.stdout) as SearchResult).hits.map((h) => h.path!);
  };
  assert.ok((await here(t.repo, ".")).length > 0);
  const portfolio = join(t.repo, "src/portfolio");
  for (
    const [cwd, repo] of [
      [t.repo, "./src/portfolio"],
      [join(t.repo, "src"), "./portfolio"],
      [portfolio, "."],
      [t.repo, portfolio],
      // A folder's path without `./`: from here, or under a root when it is not here.
      [t.repo, "src/portfolio"],
      ["/", "src/portfolio"],
    ]
  ) {
    const paths = await here(cwd!, repo!);
    assert.ok(
      paths.length > 0 && paths.every((p) => p.startsWith(portfolio + "/")),
      `${repo} from ${cwd}: ${paths}`,
    );
  }
  const outside = await cli(t.home, ["search", "covariance", "--repo", "."], { cwd: Deno.cwd() });
  assert.equal(outside.code, 2);
  assert.match(
    outside.stderr,
    /No repository "[^"]+": it is neither a root nor an indexed folder inside one/,
  );
  // Two places or languages are not narrowed to the last one given, silently.
  for (
    const twice of [
      ["--repo", "repo", "--repo", "src/portfolio"],
      ["--path", "src/portfolio", "--path=docs"],
      ["--lang", "python", "--lang", "typescript"],
      // Searched docs alone, saying nothing of code.
      ["--kind", "code", "--kind=docs"],
    ]
  ) {
    const r = await cli(t.home, ["search", "covariance", ...twice]);
    assert.equal(r.code, 2, `${twice.join(" ")}: ${r.stdout}`);
    assert.match(
      r.stderr,
      /--(repo|path|lang|kind) given 2 times \("[^"]+", "[^"]+"\): a search takes one/,
    );
  }
  assert.equal(
    (await cli(t.home, ["search", "retry backoff", "--lang", "python", "--lang", "python"])).code,
    0,
  );
  const badKind = await cli(t.home, ["search", "x", "--kind", "tests"]);
  assert.equal(badKind.code, 2);
  const badLang = await cli(t.home, ["search", "covariance", "--lang", "cobol"]);
  assert.equal(badLang.code, 2);
  assert.match(badLang.stderr, /No language "cobol" in the index; languages indexed: .*python/);
  assert.match(badLang.stderr, /markdown/);
  // A --path that names nothing, from here or under any root, is a typo, not "no match".
  const badPath = await cli(t.home, ["search", "covariance", "--path", "src/portfolo"]);
  assert.equal(badPath.code, 2);
  assert.match(badPath.stderr, /No file or folder "src\/portfolo" .*roots: .*repo/);
  // One that holds only files the index has not got is a real place: no match, exit 1.
  Deno.mkdirSync(join(t.repo, "src/empty"));
  const empty = await cli(t.home, ["search", "covariance", "--path", join(t.repo, "src/empty")]);
  assert.equal(empty.code, 1, empty.stderr);
});

Deno.test("search exits 1 with no hits; the human output names verdicts and the summary", async () => {
  using t = await indexedFixture();
  const none = await cli(t.home, ["search", "zebra quokka marmalade"]);
  assert.equal(none.code, 1);
  assert.match(none.stdout, /no match for "zebra quokka marmalade"/);
  // A pasted log is echoed by its start, and a terminal's escapes are shown, not obeyed.
  const pasted = await cli(t.home, ["search", `zebra\x1b[2J ${"quokka ".repeat(300)}`]);
  assert.equal(pasted.code, 1);
  const echo = pasted.stdout.split("\n")[0]!;
  assert.match(
    echo,
    /^no match for "zebra\\x1b\[2J quokka .*…" \(its first 120 of 2109 characters\)$/,
  );
  assert.ok(echo.length < 200, echo);
  const human = await cli(t.home, ["search", "circuit breaker recover"]);
  assert.equal(human.code, 0);
  assert.match(human.stdout, /^1\. \[STRONG\] cov \d+% {2}CircuitBreaker — .*retry\.py:\d+/m);
  assert.match(
    human.stdout,
    /semantic leg off: no model; run heimdall model pull multilingual-e5-small-int8/,
  );
  assert.ok(!human.stdout.includes("\x1b["), "no colour when not a terminal");
});

Deno.test("reconciling twice leaves the search rows byte-identical; a deleted file leaves no chunk", async () => {
  using t = await indexedFixture();
  const journal = () => Journal.open(homePaths(t.home).journal, { readOnly: true });
  let j = journal();
  const once = dumpIndex(j, "raw");
  const chunks = j.get<{ n: number }>("SELECT count(*) AS n FROM chunks")!.n;
  j.close();
  assert.match(once, /"source":"docs"/);
  assert.ok(chunks > 10);
  assert.equal((await cli(t.home, ["reconcile", "--all", "--deep"])).code, 0);
  j = journal();
  assert.equal(dumpIndex(j, "raw"), once);
  j.close();
  Deno.removeSync(join(t.repo, "src/portfolio/optimizer.ts"));
  assert.equal((await cli(t.home, ["reconcile", "--all"])).code, 0);
  j = journal();
  const orphans = j.get<{ n: number }>(
    "SELECT count(*) AS n FROM chunks WHERE path_id IS NOT NULL AND path_id NOT IN (SELECT id FROM paths)",
  )!.n;
  assert.equal(orphans, 0);
  // The full-text rows went with them: a word only that file held matches nothing.
  const fts = j.get<{ n: number }>(
    "SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH 'simplex'",
  )!.n;
  assert.equal(fts, 0);
  j.close();
});

Deno.test("a code file named like release notes (src/history.ts) scores as it would under another name", () =>
  withTempDir("heimdall-search-", async (base) => {
    const fn = (name: string) =>
      `/** Computes the rolling average of sensor readings over a window. */\nexport function ${name}(readings: number[], window: number): number[] {\n  return readings.slice(0, window);\n}\n`;
    /** The score of `rel` when it is indexed beside an equal file. */
    const scoreOf = async (rel: string) => {
      const repo = join(base, rel.replace(/\W/g, "_"));
      copyTree(
        writeFiles(join(base, "tree"), { [rel]: fn("rollingA"), "src/stats.ts": fn("rollingB") }),
        repo,
      );
      removeTree(join(base, "tree"));
      const home = join(base, `home-${rel.replace(/\W/g, "_")}`);
      assert.equal((await cli(home, ["index", repo])).code, 0);
      const r = await cli(home, [
        "search",
        "--json",
        "rolling average of sensor readings over a window",
      ]);
      const hits = (JSON.parse(r.stdout) as SearchResult).hits;
      return hits.find((h) => h.path?.endsWith(rel))?.score;
    };
    const named = await scoreOf("src/history.ts");
    assert.ok(named !== undefined);
    assert.equal(named, await scoreOf("src/averages.ts"));
  }));

/** Writes `files` under `dir` (created) and returns it. */
function writeFiles(dir: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    const path = join(dir, rel);
    Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    Deno.writeTextFileSync(path, text);
  }
  return dir;
}

Deno.test("a package's .mjs, .cjs and .umd.js builds fold into one hit; a copy that differs where the hit points does not", () =>
  withTempDir("heimdall-search-", async (base) => {
    const fns = Array.from(
      { length: 6 },
      (_, i) =>
        `function helper${i}(value) {\n  if (value == null) return ${i};\n  return String(value).trim().length + ${i}; // kestrel gauge\n}\n`,
    );
    const names = fns.map((_, i) => `helper${i}`);
    const manual = (extra: string) =>
      `# Manual\n\n${
        Array.from({ length: 8 }, (_, i) => `## Topic ${i}\n\nTopic ${i} explains widgets.\n`)
          .join("\n")
      }\n## Deleting records\n\nCall purge_records to remove old rows from the archive table.${extra}\n`;
    const repo = join(base, "repo");
    copyTree(
      writeFiles(join(base, "tree"), {
        "pkg/lib/index.mjs": `${fns.join("\n")}\nexport { ${names.join(", ")} };\n`,
        "pkg/lib/index.cjs": `'use strict';\n\n${fns.join("\n")}\n${
          names.map((n) => `exports.${n} = ${n};\n`).join("")
        }`,
        "pkg/lib/index.umd.js":
          `(function (global, factory) {\n  factory(global.lib = {});\n})(this, (function (exports) { 'use strict';\n\n${
            fns.map((f) => f.replace(/^(?=.)/gm, "  ")).join("\n")
          }\n${names.map((n) => `  exports.${n} = ${n};\n`).join("")}\n}));\n`,
        "v1/docs/manual.md": manual(""),
        "v2/docs/manual.md": manual(" WARNING: version 2 also drops the live table."),
      }),
      repo,
    );
    const home = join(base, "home");
    assert.equal((await cli(home, ["index", repo])).code, 0);
    const search = async (q: string) =>
      (JSON.parse((await cli(home, ["search", "--json", q])).stdout) as SearchResult).hits;
    const builds = await search("helper value trim length kestrel gauge");
    assert.equal(builds.length, 1, builds.map((h) => h.path).join(", "));
    assert.deepEqual(
      [builds[0]!.path, ...builds[0]!.copies].map((p) => p!.slice(p!.lastIndexOf("."))).sort(),
      [".cjs", ".js", ".mjs"],
    );
    const purge = await search("purge records remove old rows archive table");
    assert.deepEqual(purge.map((h) => h.copies.length), [0, 0], "the warning is not 'the same'");
    assert.equal(purge.length, 2);
  }));

Deno.test("a page of a release-notes folder (docs/releases/2.1.md) ranks as release notes do", () =>
  withTempDir("heimdall-search-", async (base) => {
    const page = (title: string) =>
      `# ${title}\n\n## Rotating the signing key\n\nGenerate a fresh signing key, publish its public half, then retire the old key.\n`;
    const scoreOf = async (folder: string) => {
      const rel = `docs/${folder}/2.1.md`;
      const repo = join(base, folder);
      copyTree(writeFiles(join(base, "tree"), { [rel]: page("Version 2.1") }), repo);
      removeTree(join(base, "tree"));
      const home = join(base, `home-${folder}`);
      assert.equal((await cli(home, ["index", repo])).code, 0);
      const r = await cli(home, ["search", "--json", "rotate the signing key, retire the old key"]);
      return (JSON.parse(r.stdout) as SearchResult).hits.find((h) => h.path?.endsWith(rel))?.score;
    };
    const topic = await scoreOf("topics");
    const notes = await scoreOf("releases");
    assert.ok(topic !== undefined && notes !== undefined);
    assert.ok(notes < topic, `${notes} < ${topic}`);
  }));

Deno.test("a search over a root whose first index never finished says so: answers there may be missing", async () => {
  using t = await indexedFixture();
  const done = await t.search("retry exponential backoff");
  assert.doesNotMatch(done.result.summary, /not fully indexed/);
  // A pass killed midway leaves the root's files it committed and no audit of the root.
  const db = new DatabaseSync(homePaths(t.home).journal);
  db.prepare("DELETE FROM meta WHERE key LIKE 'last_audit_ms:%'").run();
  db.close();
  const cut = await t.search("retry exponential backoff");
  assert.ok(cut.result.hits.length > 0, "what was indexed is still answered");
  assert.ok(
    cut.result.summary.includes(`not fully indexed yet: "${t.repo}"`),
    cut.result.summary,
  );
  assert.match(cut.result.summary, /`heimdall index` of it finishes it/);
});

Deno.test("a script's commands past its first 3,000 characters are found though it defines a function", () =>
  withTempDir("heimdall-search-", async (base) => {
    const repo = join(base, "repo");
    const steps = Array.from({ length: 150 }, (_, i) => `echo "step ${i} copies the usual files"`);
    writeTree(repo, {
      "deploy.sh": ["#!/bin/bash", "log() {", '  echo "$1"', "}", ...steps].join("\n") +
        "\nrsync --archive /srv/wolverine/ /backup/\n" +
        steps.slice(0, 10).join("\n") + "\n",
      "setup.py": [
        "import os",
        "",
        "def helper():",
        "    return 1",
        "",
        ...steps.map((s) => `print(${JSON.stringify(s)})`),
      ].join("\n") + '\nos.system("mount /srv/honeybadger")\n',
    });
    const home = join(base, "home");
    assert.equal((await cli(home, ["index", repo])).code, 0);
    for (
      const [query, file, line] of [["wolverine", "deploy.sh", 155], [
        "honeybadger",
        "setup.py",
        156,
      ]] as const
    ) {
      const r = await cli(home, ["search", "--json", query]);
      assert.equal(r.code, 0, `${query}: ${r.stdout}${r.stderr}`);
      const hit = (JSON.parse(r.stdout) as SearchResult).hits[0]!;
      assert.equal(hit.path, join(Deno.realPathSync(repo), file));
      assert.ok(
        hit.line! <= line && line <= hit.end_line!,
        `${query}: ${hit.line}-${hit.end_line}`,
      );
      assert.equal(hit.verdict, "STRONG");
    }
  }));

Deno.test("a what's-new page and a guide's numbered release notes (Doc/whatsnew/3.10.md, 7_1_release_notes.md) rank as release notes do", () =>
  withTempDir("heimdall-search-", async (base) => {
    const page = "# Version 3.10\n\n## Rotating the signing key\n\n" +
      "Generate a fresh signing key, publish its public half, then retire the old key.\n";
    const scoreOf = async (rel: string) => {
      const repo = join(base, rel.replace(/[/.]/g, "_"));
      writeTree(repo, { [rel]: page });
      const home = join(base, `home-${rel.replace(/[/.]/g, "_")}`);
      assert.equal((await cli(home, ["index", repo])).code, 0);
      const r = await cli(home, ["search", "--json", "rotate the signing key, retire the old key"]);
      return (JSON.parse(r.stdout) as SearchResult).hits.find((h) => h.path?.endsWith(rel))?.score;
    };
    // Each against a page of the same words at a path that says nothing of releases.
    for (
      const [rel, other] of [
        ["Doc/whatsnew/3.10.md", "Doc/library/3.10.md"],
        ["guides/source/7_1_release_notes.md", "guides/source/7_1_upgrading.md"],
        ["WHATSNEW.md", "OVERVIEW.md"],
      ]
    ) {
      const notes = await scoreOf(rel!);
      const topic = await scoreOf(other!);
      assert.ok(topic !== undefined && notes !== undefined, rel);
      assert.ok(notes < topic, `${rel}: ${notes} < ${topic}`);
    }
  }));
