/**
 * `heimdall verify --deep` checks the code graph against a fresh resolution:
 * an edge that incremental resolution left wrong (or a reference it left
 * pending that a fresh index resolves) is drift, named by its file, found
 * without writing to the journal. Real CLI subprocesses, real journals.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { homePaths } from "../src/config/mod.ts";
import { graphDifferences } from "../src/reconcile/mod.ts";
import { Journal } from "../src/store/mod.ts";
import { cli, removeTree, tempDir, writeTree } from "./helpers.ts";

interface Drift {
  kind: string;
  path: string;
  reason: string;
}

/** A repository whose `b.py` calls `helper` of `a.py` through an import, and `callers` more files that do too. */
function repo(dir: string, callers = 0): void {
  const files: Record<string, string> = {
    "a.py": "def helper():\n    return 1\n\n\ndef other():\n    return 2\n",
    "b.py": "from a import helper\n\n\ndef main():\n    return helper()\n",
  };
  for (let i = 0; i < callers; i++) {
    files[`pkg/c${i}.py`] = `from a import helper\n\n\ndef use${i}():\n    return helper()\n`;
  }
  writeTree(dir, files);
}

async function deepDrift(home: string): Promise<{ code: number; drift: Drift[] }> {
  const v = await cli(home, ["verify", "--deep", "--json"]);
  return { code: v.code, drift: JSON.parse(v.stdout).drift };
}

Deno.test("verify --deep finds an edge that resolution left pointing elsewhere, and only with --deep", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const dir = join(base, "repo");
  repo(dir);
  assert.equal((await cli(home, ["index", dir])).code, 0);
  assert.deepEqual(
    await deepDrift(home),
    { code: 0, drift: [] },
    "a fresh index is its own fresh resolution",
  );

  // What an incremental bug leaves: the call bound to a namesake it does not call.
  const journal = Journal.open(homePaths(home).journal);
  const moved = journal.run(
    `UPDATE edges SET dst = (SELECT id FROM nodes WHERE name = 'other')
     WHERE kind = 'calls' AND name = 'helper'`,
  );
  journal.close();
  assert.equal(moved, 1);

  assert.equal((await cli(home, ["verify"])).code, 0, "the stat audit does not look at the graph");
  const { code, drift } = await deepDrift(home);
  assert.equal(code, 1);
  assert.deepEqual(drift.map((d) => [d.kind, d.path]), [["graph", join(dir, "b.py")]]);
  assert.match(drift[0]!.reason, /a fresh index would not, 1: calls main → a\.py:other/);
  assert.match(drift[0]!.reason, /the journal has not, 1: calls main → a\.py:helper/);
  assert.match(drift[0]!.reason, /heimdall rebuild/);
  const human = await cli(home, ["verify", "--deep"]);
  assert.match(human.stdout, /^graph +.*b\.py — /m);
  assert.match(human.stdout, /`heimdall rebuild` for a graph that differs/);

  // Read only: the wrong edge is still there for the person to see, and a rebuild fixes it.
  const after = Journal.open(homePaths(home).journal, { readOnly: true });
  assert.equal(
    after.get<{ n: number }>(
      `SELECT count(*) AS n FROM edges e JOIN nodes d ON d.id = e.dst
       WHERE e.name = 'helper' AND d.name = 'other'`,
    )!.n,
    1,
  );
  after.close();
  assert.equal((await cli(home, ["rebuild"])).code, 0);
  assert.deepEqual(await deepDrift(home), { code: 0, drift: [] });
  removeTree(base);
});

Deno.test("verify --deep finds a reference left pending that a fresh index resolves, on resolving Workers too", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const dir = join(base, "repo");
  // Over 200 files with references: the last phase runs on two resolving Workers.
  repo(dir, 220);
  assert.equal((await cli(home, ["index", dir])).code, 0);
  const file = homePaths(home).journal;
  const journal = Journal.open(file);
  // Drift in a file the Workers resolve, and one in a file of its own.
  for (const rel of ["pkg/c150.py", "b.py"]) {
    journal.tx(() => {
      const owner = journal.get<{ id: number }>("SELECT id FROM paths WHERE rel = ?", rel)!.id;
      journal.run(
        `INSERT INTO pending_edges (owner_id, src, kind, target, name, module, module_tail, line)
         SELECT owner_id, src, kind, target, name, module, module_tail, line FROM edges
         WHERE owner_id = ? AND kind = 'calls'`,
        owner,
      );
      journal.run("DELETE FROM edges WHERE owner_id = ? AND kind = 'calls'", owner);
    });
  }
  journal.close();

  for (const workers of [1, 2]) {
    const live = Journal.open(file, { readOnly: true });
    const found = await graphDifferences(live, { workers });
    live.close();
    assert.deepEqual(
      found.map((d) => d.path),
      [join(dir, "b.py"), join(dir, "pkg/c150.py")],
      `with ${workers} worker(s)`,
    );
    assert.match(found[0]!.reason, /calls main → helper unresolved/);
    assert.match(found[0]!.reason, /the journal has not, 1: calls main → a\.py:helper \(/);
  }
  removeTree(base);
});

Deno.test("verify --deep says a root's resolution is unfinished instead of comparing it", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const dir = join(base, "repo");
  repo(dir);
  assert.equal((await cli(home, ["index", dir])).code, 0);
  const journal = Journal.open(homePaths(home).journal);
  const root = journal.get<{ id: number }>("SELECT id FROM roots")!.id;
  // What a crash in the middle of an edit's resolution leaves (see the reconciler).
  journal.run("INSERT INTO meta (key, value) VALUES (?, '1')", `reresolve:${root}`);
  journal.close();
  const { code, drift } = await deepDrift(home);
  assert.equal(code, 1);
  assert.deepEqual(drift.map((d) => [d.kind, d.path]), [["graph", dir]]);
  assert.match(drift[0]!.reason, /cut short .* `heimdall reconcile --all` finishes it/);
  assert.equal((await cli(home, ["reconcile", "--all"])).code, 0);
  assert.deepEqual(await deepDrift(home), { code: 0, drift: [] });
  removeTree(base);
});
