/**
 * The single writer never hogs the lock: a cold L3 index of ~20,000 real
 * files (a subset of the benchmark corpus, hard-linked; `--files N` changes
 * the size) runs in this process while two other processes write to the same
 * journal the whole time:
 *
 * - a raw writer that commits one small transaction every ~200 ms and times
 *   how long each waits for the lock (what `insert` or a hook record meets);
 * - `heimdall remember`, the real CLI, one run after another (wall time from
 *   spawn to exit, Deno's start-up included; a baseline is taken first with
 *   no index running).
 *
 * Reports the longest write transaction of the index (`Journal.holds`), how
 * many held the lock past 250 ms, busy failures of the other writers, and
 * their latency p95. Then the same for edits of the file with the most
 * symbols in that index: a changed copy (a line added at its end, so every
 * row of the file is rewritten) reconciled {@link EDITS} times. Without the corpus (`scripts/bench_corpus.ts` builds
 * it) a synthetic TypeScript tree of the same size is generated.
 *
 * Run alone: `deno run -A scripts/faults/writer.ts [--files 20000]`.
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { defaultConfig, homePaths } from "../../src/config/mod.ts";
import { createExtractor } from "../../src/extract/mod.ts";
import { PreparePool, Reconciler } from "../../src/reconcile/mod.ts";
import { Journal } from "../../src/store/mod.ts";
import { emptyHolds } from "../../src/store/write_lock.ts";
import { percentile } from "../bench_util.ts";
import type { FaultRow } from "./row.ts";

const CORPUS = "/tmp/heimdall-corpus/tree";
const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const REMEMBER_TIMEOUT_MS = 60_000;
/** Edits of the largest file after the index. */
const EDITS = 3;

/** Builds the root to index: whole corpus folders, smallest first, until `want` files. */
function buildRoot(root: string, want: number): { files: number; source: string } {
  Deno.mkdirSync(root, { recursive: true });
  let dirs: string[] = [];
  try {
    dirs = [...Deno.readDirSync(CORPUS)].filter((e) => e.isDirectory).map((e) => e.name);
  } catch { /* no corpus: synthetic below */ }
  if (dirs.length > 0) {
    const sized = dirs.map((d) => ({ d, n: countFiles(join(CORPUS, d)) })).sort((a, b) =>
      a.n - b.n || a.d.localeCompare(b.d)
    );
    let files = 0;
    for (const { d, n } of sized) {
      if (files >= want) break;
      const out = new Deno.Command("cp", { args: ["-al", join(CORPUS, d), join(root, d)] })
        .outputSync();
      if (out.code !== 0) {
        throw new Error(`cp -al ${d} failed: ${new TextDecoder().decode(out.stderr)}`);
      }
      files += n;
    }
    return { files, source: `${CORPUS} (${sized.length} folders, smallest first)` };
  }
  // A web of modules that import and call each other, as a stand-in.
  for (let i = 0; i < want; i++) {
    const dir = join(root, `pkg${i % 200}`);
    Deno.mkdirSync(dir, { recursive: true });
    const next = (i + 1) % want;
    Deno.writeTextFileSync(
      join(dir, `m${i}.ts`),
      `import { f${next} } from "../pkg${next % 200}/m${next}.ts";\n` +
        `export function f${i}(x: number): number {\n  return f${next}(x) + ${i};\n}\n` +
        `export class C${i} {\n  run(): number {\n    return f${i}(1);\n  }\n}\n`,
    );
  }
  return { files: want, source: "synthetic TypeScript (no corpus found)" };
}

function countFiles(dir: string): number {
  let n = 0;
  for (const e of Deno.readDirSync(dir)) {
    if (e.isDirectory) n += countFiles(join(dir, e.name));
    else if (e.isFile) n++;
  }
  return n;
}

/** The raw writer: one small transaction every ~200 ms until `stop` exists; prints its waits as JSON. */
const RAW_WRITER = (journal: string, stop: string) => `
  import { Journal } from ${
  JSON.stringify(new URL("../../src/store/mod.ts", import.meta.url).href)
};
  const j = Journal.open(${JSON.stringify(journal)});
  const waits = [];
  let failed = 0;
  let i = 0;
  const stopped = () => { try { Deno.statSync(${
  JSON.stringify(stop)
}); return true; } catch { return false; } };
  while (!stopped()) {
    const t = performance.now();
    try {
      j.tx(() => j.run("INSERT INTO meta (key, value) VALUES (?, ?)", "fault-bench:" + i++, "x"));
      waits.push(performance.now() - t);
    } catch (e) {
      failed++;
      console.error(String(e));
    }
    await new Promise((r) => setTimeout(r, 150 + Math.random() * 100));
  }
  j.run("DELETE FROM meta WHERE key LIKE 'fault-bench:%'");
  j.close();
  console.log(JSON.stringify({ waits, failed }));`;

/** One `heimdall remember` run: wall ms and whether it failed. */
async function remember(
  home: string,
  n: number,
): Promise<{ ms: number; ok: boolean; err: string }> {
  const t = performance.now();
  // A run stuck for a minute counts as failed, and the benchmark goes on.
  const out = await new Deno.Command(Deno.execPath(), {
    signal: AbortSignal.timeout(REMEMBER_TIMEOUT_MS),
    args: [
      "run",
      "-A",
      MAIN,
      "remember",
      "--kind",
      "note",
      "--about",
      "README.md",
      `fault bench note ${n}`,
    ],
    env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - t;
  const err = out.signal !== null
    ? `killed after ${REMEMBER_TIMEOUT_MS} ms`
    : new TextDecoder().decode(out.stderr).split("\n")[0] ?? "";
  if (ms > 5000 || out.code !== 0) console.error(`remember ${n}: ${Math.round(ms)} ms, ${err}`);
  return { ms, ok: out.code === 0, err };
}

/** Measures the writer's lock holds during a cold index, and the other writers' waits. */
export async function run(options: { files?: number } = {}): Promise<FaultRow[]> {
  const want = options.files ?? 20_000;
  const base = Deno.makeTempDirSync({ prefix: "heimdall-fault-writer-" });
  try {
    const root = join(base, "repo");
    const built = buildRoot(root, want);
    const home = homePaths(join(base, "home"));
    const config = { ...defaultConfig(), roots: [{ path: root, depth: "max" as const }] };
    Deno.mkdirSync(home.home, { recursive: true });
    Deno.writeTextFileSync(home.config, JSON.stringify(config), { mode: 0o600 });
    const journal = Journal.open(home.journal);
    // Baseline: remember with nobody else writing.
    const baseline: number[] = [];
    for (let i = 0; i < 5; i++) baseline.push((await remember(home.home, -i)).ms);

    const stop = join(base, "stop");
    const raw = new Deno.Command(Deno.execPath(), {
      args: ["eval", RAW_WRITER(home.journal, stop)],
      env: { DENO_NO_UPDATE_CHECK: "1" },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let indexing = true;
    const cli: { ms: number; ok: boolean; err: string }[] = [];
    const cliLoop = (async () => {
      for (let n = 0; indexing; n++) {
        cli.push(await remember(home.home, n));
        await new Promise((r) => setTimeout(r, 250));
      }
    })();

    const pool = new PreparePool(undefined, undefined, true); // as `heimdall index` runs it
    const reconciler = new Reconciler(journal, home, config, createExtractor(), undefined, pool);
    reconciler.syncRoots();
    const t = performance.now();
    const stats = await reconciler.audit({
      onProgress: (p) => {
        if (p.walkDone) console.error(`indexed ${p.done} files; resolving`);
      },
    });
    const indexMs = performance.now() - t;
    indexing = false;
    await cliLoop;
    const holds = { ...journal.holds };
    const large = await editLargest(journal, reconciler);
    pool.close();
    Deno.writeTextFileSync(stop, "");
    const rawOut = await raw.output();
    const rawResult = JSON.parse(new TextDecoder().decode(rawOut.stdout).trim() || "{}") as {
      waits?: number[];
      failed?: number;
    };
    const edges = journal.get<{ n: number }>("SELECT count(*) AS n FROM edges")!.n;
    journal.close();

    const waits = rawResult.waits ?? [];
    const cliOk = cli.filter((c) => c.ok).map((c) => c.ms);
    const cliFailed = cli.filter((c) => !c.ok);
    const ms = (v: number) => `${Math.round(v)} ms`;
    const corpus =
      `${stats.seen} files (${built.files} wanted) of ${built.source}, ${edges} edges, ${
        (indexMs / 1000).toFixed(0)
      } s`;
    return [
      {
        figure: `longest write-lock hold, cold L3 index of ${corpus}`,
        value: `${ms(holds.maxMs)} (${
          holds.maxWhat || "a plain transaction"
        }; ${holds.count} transactions, ${holds.over250} over 250 ms; slowest single step ${
          ms(holds.maxStepMs)
        }: ${holds.maxStep}; ${holds.checkpoints} checkpoints between transactions, ${
          ms(holds.checkpointMs)
        })`,
        target: "≤ 250 ms",
        met: holds.maxMs <= 250,
      },
      {
        figure:
          `longest write-lock hold, edit of the file with the most symbols in that index (${large.symbols} symbols, ${large.file}), ${EDITS} edits`,
        value: `${large.holds.map(ms).join(", ")} (slowest single step ${
          ms(large.slowestStepMs)
        }: ${large.slowestStep})`,
        target: "≤ 250 ms",
        met: Math.max(...large.holds) <= 250,
      },
      {
        figure: "raw write transactions from another process during that index: failed (busy)",
        value: `${rawResult.failed ?? "?"} of ${waits.length + (rawResult.failed ?? 0)}`,
        target: "0",
        met: rawResult.failed === 0 && waits.length > 0,
      },
      {
        figure: "raw write transaction from another process during that index: wait for the lock",
        value: `p50 ${ms(percentile(waits, 50))}, p95 ${ms(percentile(waits, 95))}, max ${
          ms(Math.max(...waits))
        }`,
        target: "p95 ≤ 250 ms",
        met: percentile(waits, 95) <= 250,
      },
      {
        figure: "`heimdall remember` during that index: failed",
        value: `${cliFailed.length} of ${cli.length}${
          cliFailed.length > 0 ? ` (${cliFailed[0]!.err})` : ""
        }`,
        target: "0",
        met: cliFailed.length === 0 && cli.length > 0,
      },
      {
        figure: "`heimdall remember` during that index: wall time incl. Deno start-up",
        value: `p95 ${ms(percentile(cliOk, 95))} (idle baseline p95 ${
          ms(percentile(baseline, 95))
        }, n=${cliOk.length})`,
        // The index keeps both cores busy, which slows Deno's start-up too: the
        // bar is never waiting out the 5 s busy timeout; the lock wait itself
        // is the raw writer's figure above.
        target: "p95 < 5000 ms (busy timeout)",
        met: percentile(cliOk, 95) < 5000,
      },
    ];
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
}

/**
 * Edits the indexed file with the most symbols {@link EDITS} times, each a
 * changed copy (the corpus is hard-linked: the link is replaced, never
 * written through), and returns each edit's longest write transaction.
 */
async function editLargest(journal: Journal, reconciler: Reconciler) {
  const large = journal.get<{ path: string; rel: string; n: number }>(
    `SELECT p.path, p.rel, count(*) AS n FROM nodes n JOIN paths p ON p.id = n.path_id
     GROUP BY p.id ORDER BY n DESC LIMIT 1`,
  )!;
  const original = Deno.readTextFileSync(large.path);
  const holds: number[] = [];
  let slowestStepMs = 0;
  let slowestStep = "";
  for (let i = 0; i < EDITS; i++) {
    Deno.removeSync(large.path);
    Deno.writeTextFileSync(large.path, original + "\n".repeat(i + 1));
    Object.assign(journal.holds, emptyHolds());
    await reconciler.reconcilePaths([large.path]);
    holds.push(journal.holds.maxMs);
    if (journal.holds.maxStepMs > slowestStepMs) {
      slowestStepMs = journal.holds.maxStepMs;
      slowestStep = journal.holds.maxStep;
    }
  }
  return { file: large.rel, symbols: large.n, holds, slowestStepMs, slowestStep };
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: { files: { type: "string" } } });
  console.table(await run(values.files ? { files: Number(values.files) } : {}));
}
