/**
 * Files a pass cannot fully index get a state with a reason, and are retried
 * only when retrying can help: a parse cut short by the time budget (a busy
 * machine) is parsed again with more time, at most `PARSE_TRIES` times per
 * content. Real files, a real journal, the real tree-sitter extractor.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultConfig, homePaths } from "../config/mod.ts";
import { createExtractor, type Extractor } from "../extract/mod.ts";
import { Journal } from "../store/mod.ts";
import { PARSE_TRIES } from "./plan.ts";
import { Reconciler } from "./reconciler.ts";
import { verifyJournal } from "./verify.ts";

/** A TypeScript file of `n` functions (~50 bytes each). */
function bigSource(n: number, tag: string): string {
  let s = "";
  for (let i = 0; i < n; i++) s += `export function ${tag}${i}(a: number) { return a + ${i}; }\n`;
  return s;
}

// A budget no parse of thousands of lines meets: what a busy machine looks like to the parser.
const busy = createExtractor({ budget: { maxMillis: 1e-6 } });
const idle = createExtractor();

Deno.test("a parse that missed the time budget is retried with more time, then recorded as terminal", async () => {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-terminal-" });
  const root = join(base, "repo");
  Deno.mkdirSync(root);
  const file = join(root, "big.ts");
  Deno.writeTextFileSync(file, bigSource(3000, "fa"));
  const home = homePaths(join(base, "home"));
  const journal = Journal.open(home.journal);
  const config = { ...defaultConfig(), roots: [{ path: root, depth: "max" as const }] };
  const pass = async (extractor: Extractor) => {
    const r = new Reconciler(journal, home, config, extractor);
    r.syncRoots();
    await r.audit();
  };
  const row = () =>
    journal.get<
      { effective_depth: number; depth_reason: string | null; generation: number; n: number }
    >(
      `SELECT effective_depth, depth_reason, generation,
         (SELECT count(*) FROM nodes WHERE path_id = paths.id AND kind = 'function') AS n
       FROM paths WHERE path = ?`,
      file,
    )!;
  const verify = () =>
    verifyJournal(journal, { deep: false, extractor: idle, globalIgnore: "", home: home.home });
  try {
    // The first pass misses twice: once in the walk, once at its end.
    await pass(busy);
    assert.equal(row().effective_depth, 1);
    assert.match(row().depth_reason!, /took longer than .*\(try 2 of 3; retried with twice/);
    let report = verify();
    assert.deepEqual(report.drift, []);
    assert.equal(report.skipped.length, 1);
    assert.match(report.skipped[0]!.reason, /at L1: .*try 2 of 3.*reconcile --all` tries again/);

    // The machine is quiet again: the next audit parses the same bytes in full.
    await pass(idle);
    assert.equal(row().effective_depth, 3);
    assert.equal(row().depth_reason, null);
    assert.equal(row().n, 3000);
    assert.deepEqual(verify().skipped, []);

    // New bytes on a machine that stays busy: tries run out and the row says so.
    Deno.writeTextFileSync(file, bigSource(3000, "fb"));
    await pass(busy);
    assert.match(row().depth_reason!, /\(try 2 of 3;/);
    await pass(busy);
    assert.match(row().depth_reason!, new RegExp(`\\(try ${PARSE_TRIES} of ${PARSE_TRIES}; not`));
    const settled = row().generation;
    await pass(busy);
    assert.equal(row().generation, settled, "no further try once they ran out");
    report = verify();
    assert.deepEqual(report.drift, []);
    assert.match(report.skipped[0]!.reason, /not retried until the file changes\)$/);
  } finally {
    journal.close();
    Deno.removeSync(base, { recursive: true });
  }
});
