/**
 * The bulk writer never holds the journal's write lock for a whole index:
 * commits and end-of-index resolution run in short transactions, any prefix
 * of them converges, and a writer in another process gets its turn.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultConfig, homePaths } from "../config/mod.ts";
import { GraphLangExtractor } from "./graph_lang_fixture.ts";
import { dumpIndex, Journal, listRoots, UNFINISHED } from "../store/mod.ts";
import { PART_ROWS } from "../store/owned.ts";
import { createExtractor } from "../extract/mod.ts";
import { PreparePool } from "./prepare_pool.ts";
import { Reconciler } from "./reconciler.ts";
import { type Resolved, Resolver } from "./resolve.ts";
import { resolveOnWorkers } from "./resolve_pool.ts";
import { resolveRoot } from "./resolve_root.ts";

/** 120 files that import, call by unique name and call through imports, in a web. */
function corpus(root: string): void {
  for (let i = 0; i < 120; i++) {
    const next = (i + 1) % 120;
    const far = (i * 7 + 3) % 120;
    const text = [
      `import f${next} from ./m${next}.ts`,
      `def f${i}`,
      `call f${next}`,
      `call g${far}`,
      `call missing${i % 5}`,
      `def g${i}`,
      `call f${i}`,
    ].join("\n");
    Deno.mkdirSync(join(root, `d${i % 6}`), { recursive: true });
    Deno.writeTextFileSync(join(root, `d${i % 6}`, `m${i}.ts`), text + "\n");
  }
}

/** A temp folder with the corpus written to its `repo/`; the caller removes it. */
function corpusFolder(): { base: string; root: string } {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-budget-" });
  const root = join(base, "repo");
  corpus(root);
  return { base, root };
}

/** Asserts the corpus resolved its cross-file calls into edges. */
function assertResolvesEdges(journal: Journal): void {
  const edges = journal.get<{ n: number }>("SELECT count(*) AS n FROM edges")!.n;
  assert.ok(edges > 100, `the corpus resolves edges (${edges})`);
}

function open(base: string, name: string, root: string) {
  const home = homePaths(join(base, name));
  const journal = Journal.open(home.journal);
  const config = { ...defaultConfig(), roots: [{ path: root, depth: "max" as const }] };
  const r = new Reconciler(journal, home, config, new GraphLangExtractor());
  r.syncRoots();
  return { journal, r };
}

/** `steps` that throw "stopped" in place of step `stopAt`: a crash after that many committed steps. */
function* stoppedAfter<T>(steps: Iterable<T>, stopAt: number): Generator<T> {
  let n = 0;
  for (const s of steps) {
    if (n++ === stopAt) throw new Error("stopped");
    yield s;
  }
}

Deno.test("a cold index resolves its cross-file edges in many short transactions, to the same rows as one", async () => {
  const { base, root } = corpusFolder();
  const whole = open(base, "whole", root);
  whole.r.txBudgetMs = Infinity;
  await whole.r.audit();
  const split = open(base, "split", root);
  // Commit at every consistent point: one path, one owner's references.
  split.r.txBudgetMs = 0;
  await split.r.audit();
  assertResolvesEdges(whole.journal);
  // 120 paths committed one by one, then at least one transaction per owner
  // and phase of the resolution: never the whole resolution in one.
  assert.ok(
    split.journal.holds.count - whole.journal.holds.count >= 120 * 2,
    `${split.journal.holds.count} transactions split vs ${whole.journal.holds.count} whole`,
  );
  assert.equal(dumpIndex(split.journal), dumpIndex(whole.journal));
  whole.journal.close();
  split.journal.close();
  Deno.removeSync(base, { recursive: true });
});

Deno.test("resolution read on resolving Workers gives the same rows as one resolver", async () => {
  const { base, root } = corpusFolder();
  const one = open(base, "one", root);
  await one.r.audit();
  const split = open(base, "split", root);
  split.r.resolveWorkers = 2;
  split.r.parallelResolveMin = 1;
  split.r.txBudgetMs = 0;
  await split.r.audit();
  assertResolvesEdges(one.journal);
  assert.equal(dumpIndex(split.journal), dumpIndex(one.journal));
  one.journal.close();
  split.journal.close();
  Deno.removeSync(base, { recursive: true });
});

Deno.test("files a resolving Worker could not answer come back to the caller", async () => {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-budget-" });
  let applied = 0;
  const left = await resolveOnWorkers(
    { journal: join(base, "no-such-journal.db"), roots: [] },
    [3, 1, 2, 40, 41],
    2,
    (found) => {
      applied += found.length;
      return Promise.resolve();
    },
  );
  assert.deepEqual(left, [1, 2, 3, 40, 41]);
  assert.equal(applied, 0);
  Deno.removeSync(base, { recursive: true });
});

Deno.test("an index stopped between two of its resolution transactions converges on the next audit", async () => {
  const { base, root } = corpusFolder();
  const clean = open(base, "clean", root);
  await clean.r.audit();
  for (const stopAt of [1, 150, 300]) {
    const name = `stopped${stopAt}`;
    const first = open(base, name, root);
    first.r.txBudgetMs = 0;
    // Stands in for a crash: the resolution throws after `stopAt` committed
    // steps, so what it committed stays and its open transaction rolls back.
    const journal = first.journal;
    const chunked = journal.txChunked.bind(journal);
    journal.txChunked = (steps, options) => {
      const resolving = journal.get<{ n: number }>(
            "SELECT count(*) AS n FROM meta WHERE key LIKE 'resolve_pending:%'",
          )!.n > 0 && journal.get<{ n: number }>("SELECT count(*) AS n FROM paths")!.n >= 120;
      if (!resolving) return chunked(steps, options);
      return chunked(
        stoppedAfter(steps, stopAt),
        options,
      );
    };
    await assert.rejects(() => first.r.audit(), /stopped/);
    journal.close();
    // A new writer, as after a restart.
    const again = open(base, name, root);
    await again.r.audit();
    assert.equal(dumpIndex(again.journal), dumpIndex(clean.journal), `stopped at ${stopAt}`);
    again.journal.close();
  }
  clean.journal.close();
  Deno.removeSync(base, { recursive: true });
});

Deno.test("a removed root's files are retracted in short transactions, and a crash among them converges on the next writer", async () => {
  const { base, root } = corpusFolder();
  const kept = join(base, "kept");
  Deno.mkdirSync(kept);
  Deno.writeTextFileSync(join(kept, "k.ts"), "def k\ncall k\n");
  /** A writer on `roots`, as a command starts one: removed roots emptied, then mirrored. */
  const writer = async (name: string, roots: string[]) => {
    const home = homePaths(join(base, name));
    const journal = Journal.open(home.journal);
    const config = {
      ...defaultConfig(),
      roots: roots.map((path) => ({ path, depth: "max" as const })),
    };
    const r = new Reconciler(journal, home, config, new GraphLangExtractor());
    await r.retractRemovedRoots();
    r.syncRoots();
    return { journal, r, config };
  };
  const filesUnder = (j: Journal) =>
    j.get<{ n: number }>("SELECT count(*) AS n FROM paths WHERE path LIKE ?", `${root}/%`)!.n;
  const clean = await writer("clean", [kept]);
  await clean.r.audit();
  for (const stopAt of [undefined, 1, 60]) {
    const name = `removed${stopAt ?? ""}`;
    const t = await writer(name, [root, kept]);
    await t.r.audit();
    assert.equal(filesUnder(t.journal), 120);
    t.r.txBudgetMs = 0;
    const without = { ...t.config, roots: t.config.roots.filter((x) => x.path === kept) };
    if (stopAt === undefined) {
      const before = t.journal.holds.count;
      await t.r.retractRemovedRoots(without);
      t.r.syncRoots(without);
      // At a budget of 0 ms, a transaction per file: never the root's 120 files in one.
      const count = t.journal.holds.count - before;
      assert.ok(count >= 120, `${count} transactions`);
      assert.equal(t.r.takeRootsRetracted(), 120);
      assert.equal(dumpIndex(t.journal), dumpIndex(clean.journal), "removed in parts");
      t.journal.close();
      continue;
    }
    // Stands in for a kill: the retraction throws after `stopAt` committed steps.
    const journal = t.journal;
    const chunked = journal.txChunked.bind(journal);
    journal.txChunked = (steps, options) =>
      chunked(
        stoppedAfter(steps, stopAt),
        options,
      );
    await assert.rejects(() => t.r.retractRemovedRoots(without), /stopped/);
    const left = filesUnder(journal);
    assert.ok(left > 0 && left < 120, `stopped mid-way (${left} files left)`);
    journal.close();
    // The next command's writer, on the configuration without the root, finishes it.
    const again = await writer(name, [kept]);
    assert.equal(filesUnder(again.journal), 0);
    const roots = again.journal.all<{ path: string }>("SELECT path FROM roots");
    assert.deepEqual(roots.map((x) => x.path), [kept]);
    assert.equal(dumpIndex(again.journal), dumpIndex(clean.journal), `stopped at ${stopAt}`);
    again.journal.close();
  }
  clean.journal.close();
  Deno.removeSync(base, { recursive: true });
});

/**
 * Runs `bulkMs` of bulk steps through `txChunked` (budget `maxMs`) while
 * another process, after half a second, makes `writes` small write
 * transactions 150 ms apart, each announcing its wait as `Journal.tx` does.
 * Returns the bulk journal (open; the caller closes it) and each write's
 * wait for the lock, in ms.
 */
async function bulkBesideOther(
  base: string,
  writes: number,
  bulkMs: number,
  maxMs: number,
): Promise<{ journal: Journal; waits: number[] }> {
  const file = join(base, "journal.db");
  const journal = Journal.open(file);
  journal.run("CREATE TABLE IF NOT EXISTS bulk (x)");
  const code = `
    import { Journal } from ${JSON.stringify(new URL("../store/mod.ts", import.meta.url).href)};
    const j = Journal.open(${JSON.stringify(file)});
    await new Promise((r) => setTimeout(r, 500));
    const waits = [];
    for (let i = 0; i < ${writes}; i++) {
      const t = performance.now();
      j.tx(() => j.run("INSERT INTO meta (key, value) VALUES (?, 'x')", "other" + i));
      waits.push(Math.round(performance.now() - t));
      await new Promise((r) => setTimeout(r, 150));
    }
    console.log(JSON.stringify(waits));`;
  const other = new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    env: { DENO_NO_UPDATE_CHECK: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const until = Date.now() + bulkMs;
  await journal.txChunked(
    (function* () {
      while (Date.now() < until) {
        journal.run("INSERT INTO bulk VALUES (randomblob(64))");
        yield;
      }
    })(),
    { maxMs },
  );
  const out = await other.output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return { journal, waits: JSON.parse(new TextDecoder().decode(out.stdout)) };
}

Deno.test("a writer in another process gets the lock while a bulk writer works for longer than its busy timeout", async () => {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-budget-" });
  // Bulk work for 7 s, longer than the other process's 5 s busy timeout.
  const { journal, waits } = await bulkBesideOther(base, 20, 7_000, 100);
  assert.equal(waits.length, 20);
  assert.ok(journal.holds.count > 10, `${journal.holds.count} bulk transactions`);
  journal.close();
  Deno.removeSync(base, { recursive: true });
});

Deno.test("a bulk writer commits at its next step when another writer waits, however much of its budget is left", async () => {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-budget-" });
  // 4 s of steps within one budget of 60 s: without a waiter, one transaction.
  const { journal, waits } = await bulkBesideOther(base, 5, 4_000, 60_000);
  assert.equal(waits.length, 5);
  // Each waited for a step and a commit, not for the rest of the 4 s.
  assert.ok(Math.max(...waits) < 1_500, `waits ${waits.join(", ")} ms`);
  assert.ok(journal.holds.early >= 5, `${journal.holds.early} early commits`);
  journal.close();
  Deno.removeSync(base, { recursive: true });
});

Deno.test("a bulk writer's many short chunked writes checkpoint the WAL between transactions", async () => {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-budget-" });
  const journal = Journal.open(join(base, "journal.db"));
  const blob = "x".repeat(4000);
  // Thirty calls of one transaction each, as a batch commit makes them:
  // the count of commits since the last checkpoint runs across calls.
  const before = journal.holds.count;
  for (let i = 0; i < 30; i++) {
    await journal.txChunked((function* () {
      journal.run("INSERT INTO meta (key, value) VALUES (?, ?)", `k${i}`, blob);
      yield "one row";
    })());
  }
  assert.equal(journal.holds.count - before, 30);
  assert.ok(journal.holds.checkpoints >= 3, `${journal.holds.checkpoints} checkpoints`);
  journal.close();
  Deno.removeSync(base, { recursive: true });
});

/**
 * Wraps `journal.txChunked` so that every step's rows are counted (SQLite's
 * `total_changes()`), and so that the commit throws, standing in for a
 * crash, once `stopAt` steps of `file`'s parts have committed.
 */
function watchSteps(
  journal: Journal,
  file: string,
  stopAt?: number,
): { maxRows: number; maxStep: string } {
  const seen = { maxRows: 0, maxStep: "" };
  const changes = () => journal.get<{ n: number }>("SELECT total_changes() AS n")!.n;
  const chunked = journal.txChunked.bind(journal);
  journal.txChunked = (steps, options) =>
    chunked(
      (function* () {
        let parts = 0;
        const it = steps[Symbol.iterator]();
        for (;;) {
          const before = changes();
          const s = it.next();
          if (s.done) return;
          if (changes() - before > seen.maxRows) {
            seen.maxRows = changes() - before;
            seen.maxStep = String(s.value);
          }
          if (String(s.value).includes(`${file}" (a part)`) && ++parts > (stopAt ?? Infinity)) {
            throw new Error("stopped");
          }
          yield s.value;
        }
      })(),
      options,
    );
  return seen;
}

Deno.test("a large file's rows commit in parts, and a crash between two parts converges on the next audit", async () => {
  const { base, root } = corpusFolder();
  // 900 definitions, each calling another file's function: ~2,700 rows.
  const big = join(root, "big.ts");
  const bigText = Array.from({ length: 900 }, (_, i) => `def b${i}\ncall f${i % 120}`).join("\n");
  Deno.writeTextFileSync(big, bigText + "\n");
  const clean = open(base, "clean", root);
  await clean.r.audit();
  assertResolvesEdges(clean.journal);

  const split = open(base, "split", root);
  split.r.txBudgetMs = 0;
  const seen = watchSteps(split.journal, big);
  await split.r.audit();
  // A part's rows (SQLite counts the full-text index's own writes too): never the file's ~2,700.
  assert.ok(seen.maxRows <= 2 * PART_ROWS, `${seen.maxStep} wrote ${seen.maxRows} rows`);
  assert.equal(dumpIndex(split.journal), dumpIndex(clean.journal), "committed in parts");
  split.journal.close();

  for (const stopAt of [1, 3]) {
    const crashed = open(base, `crash${stopAt}`, root);
    crashed.r.txBudgetMs = 0;
    watchSteps(crashed.journal, big, stopAt);
    await crashed.r.audit().catch(() => {});
    const row = crashed.journal.get<{ derivation: string }>(
      "SELECT derivation FROM paths WHERE path = ?",
      big,
    );
    assert.equal(row?.derivation, UNFINISHED, `stopped after ${stopAt} parts`);
    crashed.journal.close();
    const again = open(base, `crash${stopAt}`, root);
    await again.r.audit();
    assert.equal(dumpIndex(again.journal), dumpIndex(clean.journal), `stopped after ${stopAt}`);
    again.journal.close();
  }

  // Gone from disk: its rows go in parts too, and a crash among them converges.
  Deno.removeSync(big);
  await clean.r.audit();
  const gone = open(base, "split", root);
  gone.r.txBudgetMs = 0;
  const retracting = watchSteps(gone.journal, big, 2);
  await gone.r.audit().catch(() => {});
  assert.ok(
    retracting.maxRows <= 2 * PART_ROWS,
    `${retracting.maxStep} deleted ${retracting.maxRows} rows`,
  );
  assert.ok(gone.journal.get("SELECT 1 FROM paths WHERE path = ?", big), "stopped mid-way");
  gone.journal.close();
  const after = open(base, "split", root);
  await after.r.audit();
  assert.equal(dumpIndex(after.journal), dumpIndex(clean.journal), "retracted");
  after.journal.close();
  clean.journal.close();
  Deno.removeSync(base, { recursive: true });
});

Deno.test("an edit's resolution runs in short transactions, and a crash inside it converges on the next audit", async () => {
  const { base, root } = corpusFolder();
  for (let i = 0; i < 150; i++) {
    Deno.writeTextFileSync(join(root, `u${i}.ts`), `def u${i}\ncall h${i}\n`);
  }
  // A file of 150 definitions that 150 files call, calling 120 functions itself: 300 references.
  const hub = join(root, "hub.ts");
  const hubText = Array.from({ length: 250 }, (_, i) => `def h${i}\ncall f${i % 120}`).join("\n");
  const stops = [0, 1];
  const edits = [undefined, ...stops].map((stopAt) => {
    const e = open(base, `edit${stopAt ?? "whole"}`, root);
    return { ...e, stopAt };
  });
  for (const e of edits) await e.r.audit();
  Deno.writeTextFileSync(hub, hubText + "\n");
  const clean = open(base, "clean", root);
  await clean.r.audit();
  assertResolvesEdges(clean.journal);
  for (const { journal, r, stopAt } of edits) {
    r.txBudgetMs = 0;
    if (stopAt === undefined) {
      const before = journal.holds.count;
      await r.reconcilePaths([hub]);
      // Its rows with the first of its references, then steps of 100 references.
      assert.ok(journal.holds.count - before >= 4, `${journal.holds.count - before} transactions`);
    } else {
      // Stands in for a crash: the edit throws `stopAt` committed steps after its rows' step.
      const chunked = journal.txChunked.bind(journal);
      journal.txChunked = (steps, options) =>
        chunked(
          (function* () {
            let after = -1;
            for (const s of steps) {
              if (after >= 0 && ++after > stopAt) throw new Error("stopped");
              if (s === `committing "${hub}"`) after = 0;
              yield s;
            }
          })(),
          options,
        );
      // The reconciler logs the failed batch and requeues its path: the crash's rows stay.
      await r.reconcilePaths([hub]).catch(() => {});
      assert.ok(journal.get("SELECT 1 FROM meta WHERE key LIKE 'reresolve:%'"), "stopped mid-way");
      journal.close();
      const again = open(base, `edit${stopAt}`, root);
      again.r.txBudgetMs = 0;
      // Another large edit, made and undone before the audit, leaves the crash's flag alone.
      const other = join(root, "other.ts");
      Deno.writeTextFileSync(other, hubText.replaceAll("def h", "def k") + "\n");
      await again.r.reconcilePaths([other]);
      Deno.removeSync(other);
      await again.r.reconcilePaths([other]);
      assert.ok(again.journal.get("SELECT 1 FROM meta WHERE key LIKE 'reresolve:%'"), "flag kept");
      await again.r.audit();
      assert.equal(dumpIndex(again.journal), dumpIndex(clean.journal), `stopped at ${stopAt}`);
      again.journal.close();
      continue;
    }
    assert.equal(dumpIndex(journal), dumpIndex(clean.journal), "edited in short transactions");
    assert.equal(journal.get("SELECT 1 FROM meta WHERE key LIKE 'reresolve:%'"), undefined);
    journal.close();
  }
  clean.journal.close();
  Deno.removeSync(base, { recursive: true });
});

Deno.test("a cold index ends its preparing Workers before its references are resolved on Workers of their own", async () => {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-budget-" });
  const root = join(base, "repo");
  Deno.mkdirSync(root);
  for (let i = 0; i < 40; i++) {
    Deno.writeTextFileSync(
      join(root, `m${i}.py`),
      `from m${(i + 1) % 40} import f${(i + 1) % 40}\n\ndef f${i}(x):\n    return f${
        (i + 1) % 40
      }(x)\n`,
    );
  }
  const config = { ...defaultConfig(), roots: [{ path: root, depth: "max" as const }] };
  const running: number[] = [];
  for (const [name, parallelMin] of [["workers", 1], ["here", Infinity]] as const) {
    const home = homePaths(join(base, name));
    const journal = Journal.open(home.journal);
    const pool = new PreparePool(2, 60_000, true);
    const r = new Reconciler(journal, home, config, createExtractor(), undefined, pool);
    r.parallelResolveMin = parallelMin;
    r.syncRoots();
    await r.audit();
    assertResolvesCalls(journal, 40);
    running.push(pool.running);
    pool.close();
    journal.close();
  }
  // Resolved on this thread alone, the idle Workers wait for their timer.
  assert.deepEqual(running, [0, 2]);
  Deno.removeSync(base, { recursive: true });
});

/** Asserts `n` cross-file calls resolved into edges. */
function assertResolvesCalls(journal: Journal, n: number): void {
  const calls =
    journal.get<{ n: number }>("SELECT count(*) AS n FROM edges WHERE kind = 'calls'")!.n;
  assert.equal(calls, n);
}

/** The corpus indexed, then its references made pending again and its first phases resolved. */
async function beforeLastPhase(base: string, root: string) {
  const { journal, r } = open(base, "index", root);
  await r.audit();
  const rootId = listRoots(journal)[0]!.id;
  const writer = new Resolver(journal, () => new Map());
  let owners: number[] = [];
  journal.tx(() => {
    for (const _ of writer.unresolveSteps(rootId)) { /* one transaction */ }
    const head = writer.resolveHeadSteps(rootId);
    for (let step = head.next();; step = head.next()) {
      if (step.done) {
        owners = step.value;
        break;
      }
    }
  });
  return { journal, rootId, writer, owners };
}

Deno.test("a one-pass resolver answers the last phase as a caching one does, and keeps no file's look-ups", async () => {
  const { base, root } = corpusFolder();
  const { journal, owners } = await beforeLastPhase(base, root);
  assert.ok(owners.length >= 100, `${owners.length} files with pending references`);
  const answers = (resolver: Resolver) => [...resolver.resolvedReferences(owners)];
  const reader = () => Journal.open(journal.file, { readOnly: true });
  const caching = new Resolver(reader(), () => new Map());
  const onePass = new Resolver(reader(), () => new Map(), { onePass: true });
  const found: (Resolved | null)[] = answers(caching);
  assert.ok(found.filter((f) => f !== null).length > 100);
  assert.deepEqual(answers(onePass), found);
  assert.ok(caching.cachedLookups > owners.length, `${caching.cachedLookups} cached`);
  assert.equal(onePass.cachedLookups, 0);
  for (const r of [caching, onePass]) r.journal.close();
  journal.close();
  Deno.removeSync(base, { recursive: true });
});

Deno.test("a root resolved on Workers leaves the writer's resolver with nothing cached; resolved here, it keeps its caches", async () => {
  const { base, root } = corpusFolder();
  const { journal, rootId, writer } = await beforeLastPhase(base, root);
  const cached: number[] = [];
  const dumps: string[] = [];
  for (const workers of [2, 1]) {
    journal.tx(() => {
      for (const _ of writer.unresolveSteps(rootId)) { /* one transaction */ }
    });
    await resolveRoot(journal, writer, rootId, {
      roots: [[rootId, root]],
      workers,
      parallelMin: 1,
      maxMs: 100,
    });
    cached.push(writer.cachedLookups);
    assertResolvesEdges(journal);
    dumps.push(dumpIndex(journal));
  }
  assert.equal(dumps[0], dumps[1]);
  assert.equal(cached[0], 0);
  assert.ok(cached[1]! > 0, `${cached[1]} cached resolved here`);
  journal.close();
  Deno.removeSync(base, { recursive: true });
});
