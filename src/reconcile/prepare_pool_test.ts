import assert from "node:assert/strict";
import { join } from "node:path";
import { createExtractor } from "../extract/mod.ts";
import { type Prepared, preparePath, type PrepareRequest } from "./prepare.ts";
import { PreparePool } from "./prepare_pool.ts";

/** A real folder of `n` small Python files and one large one at `heavyAt`. */
function tree(n: number, heavyAt: number): { dir: string; requests: PrepareRequest[] } {
  const dir = Deno.makeTempDirSync({ prefix: "heimdall-pool-" });
  const requests: PrepareRequest[] = [];
  for (let i = 0; i < n; i++) {
    const rel = `m${String(i).padStart(3, "0")}.py`;
    const body = i === heavyAt
      ? Array.from({ length: 3000 }, (_, k) => `def f${k}(x):\n    return g(x) + ${k}\n`).join("")
      : `def f${i}(x):\n    """Adds ${i}."""\n    return x + ${i}\n`;
    Deno.writeTextFileSync(join(dir, rel), body);
    requests.push({
      path: join(dir, rel),
      rel,
      rootId: 1,
      requested: 3,
      indexed: undefined,
      excluded: undefined,
      secret: false,
      maxFileBytes: 1 << 20,
      deep: false,
      fresh: true,
    });
  }
  return { dir, requests };
}

/** What a prepared path decided, without what differs run to run. */
function decided(p: Prepared): string {
  if (p.do !== "replace") return `${p.path} ${p.do}`;
  return `${p.path} replace ${p.rows.path.hash} ${p.rows.nodes.map((n) => n.qualname).join(",")}`;
}

Deno.test("a pool's batches come back whole and in their order, prepared as on this thread", async () => {
  const { dir, requests } = tree(60, 5);
  const pool = new PreparePool(2, 60_000);
  try {
    // Two batches at once, as the reconciler sends them ahead: each in its own order.
    const [a, b] = await Promise.all([
      pool.prepareMany(requests.slice(0, 37)),
      pool.prepareMany(requests.slice(37)),
    ]);
    const extractor = createExtractor({ keepTrees: 0 });
    const here: Prepared[] = [];
    for (const r of requests) here.push(await preparePath({ ...r, extractor }));
    assert.deepEqual([...a, ...b].map(decided), here.map(decided));
    assert.ok(here.every((p) => p.do === "replace"));
  } finally {
    pool.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a pool closed with pieces queued and in flight answers each of their paths with a retry", async () => {
  const { dir, requests } = tree(120, 0);
  const pool = new PreparePool(2, 60_000);
  try {
    const pending = pool.prepareMany(requests);
    pool.close();
    const out = await pending;
    assert.deepEqual(out.map((p) => p.path), requests.map((r) => r.path));
    assert.ok(
      out.every((p) => p.do === "retry"),
      JSON.stringify(out.find((p) => p.do !== "retry")),
    );
    // And the pool starts again on next use.
    const again = await pool.prepareMany(requests.slice(0, 3));
    assert.deepEqual(again.map((p) => p.do), ["replace", "replace", "replace"]);
  } finally {
    pool.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a released pool ends its idle Workers and starts again on next use; busy, it keeps them", async () => {
  const { dir, requests } = tree(40, 0);
  const pool = new PreparePool(2, 60_000);
  try {
    assert.equal(pool.running, 0);
    const pending = pool.prepareMany(requests);
    assert.equal(pool.running, 2);
    // Paths in flight: release is no stop, and every path is prepared.
    pool.release();
    assert.equal(pool.running, 2);
    assert.ok((await pending).every((p) => p.do === "replace"));
    pool.release();
    assert.equal(pool.running, 0);
    const again = await pool.prepareMany(requests.slice(0, 3));
    assert.deepEqual(again.map((p) => p.do), ["replace", "replace", "replace"]);
    assert.equal(pool.running, 2);
  } finally {
    pool.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
