/**
 * Measures the single writer alone: what a cold index costs the main thread
 * once the Workers' results are in hand. A first index of `--tree` runs as
 * usual (two Workers) and records every prepared batch; each timed run then
 * indexes the same tree into a fresh home with a pool that replays those
 * results, so the process's CPU time is the writer's own (commits, search
 * rows, vocabulary, cross-file resolution, checkpoints) and does not move
 * with the parsers or with other load on the machine the way wall time does.
 *
 *     deno run -A scripts/bench_writer.ts --tree DIR [--runs 3] [--recording FILE] [--json]
 * `--recording FILE` keeps the Workers' results in FILE (written when it does
 * not exist, read when it does), so that comparing two builds of the writer
 * replays the very same rows; the baseline is then the recorded run's.
 *
 * Baseline, in the same run: the recording index's wall time, which is what
 * the writer's CPU must hide behind (the Workers parse in parallel with it).
 * Also the longest write transaction, the journal's bytes and the row counts.
 * Exit 0 when the run completed, 1 when it failed, 2 on bad arguments.
 */
import process from "node:process";
import { parseArgs } from "node:util";
import { deserialize, serialize } from "node:v8";
import { defaultConfig, homePaths } from "../src/config/mod.ts";
import { createExtractor } from "../src/extract/mod.ts";
import { PreparePool, Reconciler } from "../src/reconcile/mod.ts";
import type { Prepared, PrepareRequest } from "../src/reconcile/prepare.ts";
import { Journal } from "../src/store/mod.ts";
import { fmtMiB, fmtMs, fmtRatio, renderTable, UsageError, wholeNumber } from "./bench_util.ts";

const USAGE =
  "usage: deno run -A scripts/bench_writer.ts --tree DIR [--runs N] [--recording FILE] [--json]";

/** A pool that keeps what the Workers prepared, by path. */
class RecordingPool extends PreparePool {
  readonly recorded = new Map<string, Prepared>();
  override async prepareMany(requests: PrepareRequest[]): Promise<Prepared[]> {
    const out = await super.prepareMany(requests);
    for (const p of out) this.recorded.set(p.path, p);
    return out;
  }
}

/** A pool that answers from a recording: no Worker, no parse. */
class ReplayPool extends PreparePool {
  constructor(readonly recorded: ReadonlyMap<string, Prepared>) {
    super();
  }
  override prepareMany(requests: PrepareRequest[]): Promise<Prepared[]> {
    return Promise.resolve(requests.map((r) => {
      const p = this.recorded.get(r.path);
      if (!p) throw new Error(`no recorded result for "${r.path}": the tree changed`);
      return p;
    }));
  }
}

interface RunFigures {
  wallMs: number;
  cpuMs: number;
  longestTxMs: number;
  slowestStep: string;
  longestCommitMs: number;
  transactions: number;
  checkpoints: number;
  journalBytes: number;
  rows: Record<string, number>;
}

async function indexOnce(tree: string, pool: PreparePool): Promise<RunFigures> {
  const home = homePaths(await Deno.makeTempDir({ prefix: "heimdall-bench-writer-" }));
  const journal = Journal.open(home.journal);
  try {
    const config = { ...defaultConfig(), roots: [{ path: tree, depth: "max" as const }] };
    const r = new Reconciler(journal, home, config, createExtractor(), undefined, pool);
    r.syncRoots();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await r.audit();
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    journal.run("PRAGMA wal_checkpoint(TRUNCATE)");
    const rows: Record<string, number> = {};
    for (const t of ["paths", "nodes", "edges", "pending_edges", "chunks"]) {
      rows[t] = journal.get<{ n: number }>(`SELECT count(*) AS n FROM ${t}`)!.n;
    }
    return {
      wallMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
      longestTxMs: journal.holds.maxMs,
      longestCommitMs: journal.holds.maxCommitMs,
      slowestStep: `${fmtMs(journal.holds.maxStepMs)}: ${journal.holds.maxStep}`,
      transactions: journal.holds.count,
      checkpoints: journal.holds.checkpoints,
      journalBytes: Deno.statSync(home.journal).size,
      rows,
    };
  } finally {
    pool.close();
    journal.close();
    await Deno.remove(home.home, { recursive: true });
  }
}

/** The Workers' results for `tree` and the figures of the index that made them. */
async function recordingOf(
  tree: string,
  file: string | undefined,
): Promise<{ prepared: Map<string, Prepared>; recorded: RunFigures }> {
  if (file !== undefined) {
    try {
      return deserialize(await Deno.readFile(file));
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }
  console.error(`[bench_writer] recording: indexing ${tree} with the Workers`);
  const pool = new RecordingPool();
  const recorded = await indexOnce(tree, pool);
  const out = { prepared: pool.recorded, recorded };
  if (file !== undefined) await Deno.writeFile(file, serialize(out));
  return out;
}

async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      tree: { type: "string" },
      runs: { type: "string", default: "3" },
      recording: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  if (!values.tree) throw new UsageError(`--tree is required\n${USAGE}`);
  let tree: string;
  try {
    tree = await Deno.realPath(values.tree);
  } catch {
    throw new UsageError(`--tree "${values.tree}" is not a folder here: give the folder to index`);
  }
  const runs = wholeNumber("runs", values.runs, 1);
  const { prepared, recorded } = await recordingOf(tree, values.recording);
  const replays: RunFigures[] = [];
  for (let i = 0; i < runs; i++) {
    console.error(`[bench_writer] replay ${i + 1}/${runs}`);
    replays.push(await indexOnce(tree, new ReplayPool(prepared)));
  }
  const best = replays.reduce((a, b) => (b.cpuMs < a.cpuMs ? b : a));
  if (values.json) {
    console.log(JSON.stringify({ tree, recorded, replays }));
    return 0;
  }
  console.log(`Writer bench: ${tree}, ${prepared.size} prepared paths replayed\n`);
  console.log(renderTable(
    ["figure", "writer", "baseline (same run)", "ratio"],
    [
      [
        "writer CPU, replayed cold index (least of the runs)",
        fmtMs(best.cpuMs),
        `${fmtMs(recorded.wallMs)} cold index wall, with Workers`,
        fmtRatio(best.cpuMs, recorded.wallMs),
      ],
      ["writer wall, replayed", fmtMs(best.wallMs), "", ""],
      ["longest write transaction", fmtMs(best.longestTxMs), "", ""],
      ["slowest step (what no transaction can split)", best.slowestStep, "", ""],
      ["longest COMMIT statement", fmtMs(best.longestCommitMs), "", ""],
      ["write transactions / checkpoints", `${best.transactions} / ${best.checkpoints}`, "", ""],
      ["journal after checkpoint", fmtMiB(best.journalBytes), "", ""],
      ...Object.entries(best.rows).map(([t, n]) => [`rows: ${t}`, n.toLocaleString("en"), "", ""]),
    ],
  ));
  return 0;
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    Deno.exit(e instanceof UsageError ? 2 : 1);
  }
}
