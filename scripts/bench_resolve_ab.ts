/**
 * A cold index's cross-file resolution, this tree's against another
 * commit's, on a copy of a journal (by default the one
 * `scripts/bench_search.ts` left in its work folder): every reference of
 * the copy is made pending again, as a crash inside an edit's resolution
 * leaves a root, then each build resolves a fresh copy of that the way a
 * cold index does (`resolveRoot`: imports and bases on this thread, the
 * rest on two resolving Workers while this thread writes what they find).
 * Runs alternate between the builds (which goes first alternates by
 * round), so a host that slows down slows both. Prints each build's wall
 * time (the first phases and the Workers' phase apart), the process's
 * CPU, their ratios to the base, and whether the two builds left the same
 * rows (a SHA-256 over every edge and pending reference, row ids aside):
 * a change made for speed must resolve every reference the same.
 *
 *   deno run -A scripts/bench_resolve_ab.ts --base REV [--journal FILE] [--rounds 2] [--json]
 *
 * A 31,000-file journal takes about a minute a run, plus a copy of it.
 */
import { join } from "node:path";
import process from "node:process";
import {
  abOptions,
  checkoutBuild,
  type Cleanup,
  fmtRatio,
  journalsAtSchemasOf,
  renderTable,
  runBenchMain,
  schemaVersionOf,
  THIS_TREE,
} from "./bench_util.ts";

interface Options {
  base: string;
  journal: string;
  rounds: number;
  json?: boolean;
}

/** One run of one build. */
interface Run {
  headMs: number;
  workersMs: number;
  cpuMs: number;
  rows: number;
  digest: string;
}

interface Build {
  build: string;
  runs: Run[];
}

interface Result {
  base: string;
  journal: string;
  files: number;
  builds: Build[];
  /** True when every run of both builds left the same rows. */
  same: boolean;
}

function parseOptions(args: string[]): Options {
  const { place, ...rest } = abOptions(
    args,
    { name: "journal", default: "/tmp/heimdall-search-bench/home/journal.db" },
    "this tree's resolution",
    2,
  );
  return { ...rest, journal: place };
}

// deno-lint-ignore no-explicit-any
type Module = any;

/** A build's store and resolver modules, loaded from `root`. */
async function load(root: string): Promise<{ store: Module; resolve: Module; root: Module }> {
  return {
    store: await import(join(root, "src/store/mod.ts")),
    resolve: await import(join(root, "src/reconcile/resolve.ts")),
    root: await import(join(root, "src/reconcile/resolve_root.ts")),
  };
}

/** Every edge and pending reference of a journal, as sorted keys (node ids, no row ids). */
const ROWS = `SELECT owner_id || ' e ' || kind || ' ' || src || ' ' || dst || ' ' || how AS k
  FROM edges WHERE target IS NOT NULL
  UNION ALL SELECT owner_id || ' p ' || kind || ' ' || src || ' ' || target FROM pending_edges
  ORDER BY 1`;

/** The SHA-256 (hex, first 16 digits) of the rows a resolution left, and how many. */
async function digestOf(
  j: { all<T>(sql: string): T[] },
): Promise<{ rows: number; digest: string }> {
  const keys = j.all<{ k: string }>(ROWS).map((r) => r.k);
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(keys.join("\n")));
  const hex = [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { rows: keys.length, digest: hex.slice(0, 16) };
}

/** One build's resolution of every root of `file`, timed. */
async function resolveCopy(b: Awaited<ReturnType<typeof load>>, file: string): Promise<Run> {
  const j = b.store.Journal.open(file);
  try {
    const roots: { id: number; path: string }[] = b.store.listRoots(j);
    const resolver = new b.resolve.Resolver(j, () => new Map());
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let workersAt = t0;
    for (const root of roots) {
      await b.root.resolveRoot(j, resolver, root.id, {
        roots: roots.map((r) => [r.id, r.path]),
        workers: 2,
        parallelMin: 200,
        maxMs: 100,
        beforeWorkers: () => workersAt = performance.now(),
      });
    }
    const end = performance.now();
    const cpu = process.cpuUsage(cpu0);
    return {
      headMs: workersAt - t0,
      workersMs: end - workersAt,
      cpuMs: (cpu.user + cpu.system) / 1000,
      ...(await digestOf(j)),
    };
  } finally {
    j.close();
  }
}

async function run(opts: Options, cleanup: Cleanup): Promise<Result> {
  try {
    Deno.statSync(opts.journal);
  } catch {
    throw new Error(
      `No journal at ${opts.journal}: run scripts/bench_search.ts first, or pass --journal FILE`,
    );
  }
  const dir = Deno.makeTempDirSync({ prefix: "heimdall-resolve-ab-" });
  cleanup.add(`remove ${dir}`, () => Deno.removeSync(dir, { recursive: true }));
  const tree = checkoutBuild(opts.base, cleanup);
  const builds = [
    { name: `base (${opts.base})`, ...(await load(tree)) },
    { name: "this tree", ...(await load(THIS_TREE)) },
  ];

  // The copy every run starts from: its references all pending, as after a
  // crash. Made by the build of the older schema, so that each build opens
  // its run's copy (the newer migrating it before the clock starts).
  const older = (await schemaVersionOf(tree)) <= (await schemaVersionOf(THIS_TREE))
    ? tree
    : THIS_TREE;
  const maker = await load(older);
  const [source] = await journalsAtSchemasOf([older], opts.journal, dir);
  const pending = join(dir, "pending.db");
  const live = maker.store.Journal.open(source!, { readOnly: true });
  let files: number;
  try {
    await maker.store.backupJournal(live, pending);
    files = (live.get("SELECT count(*) AS n FROM paths") as { n: number }).n;
  } finally {
    live.close();
  }
  const copy = maker.store.Journal.open(pending);
  try {
    const resolver = new maker.resolve.Resolver(copy, () => new Map());
    const roots: { id: number }[] = maker.store.listRoots(copy);
    await copy.txChunked(
      (function* () {
        for (const root of roots) yield* resolver.unresolveSteps(root.id);
      })(),
      { maxMs: 5_000 },
    );
    copy.run("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    copy.close();
  }

  const runs: Run[][] = builds.map(() => []);
  for (let round = 0; round < opts.rounds; round++) {
    for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const file = join(dir, "run.db");
      for (const f of [file, `${file}-wal`, `${file}-shm`]) {
        try {
          Deno.removeSync(f);
        } catch (e) {
          if (!(e instanceof Deno.errors.NotFound)) throw e;
        }
      }
      Deno.copyFileSync(pending, file);
      const r = await resolveCopy(builds[i]!, file);
      runs[i]!.push(r);
      console.error(
        `[bench_resolve_ab] round ${round + 1}, ${builds[i]!.name}: ${
          (r.headMs / 1000).toFixed(1)
        } s + ${(r.workersMs / 1000).toFixed(1)} s, CPU ${
          (r.cpuMs / 1000).toFixed(1)
        } s, ${r.rows} rows ${r.digest}`,
      );
    }
  }
  const digests = new Set(runs.flat().map((r) => r.digest));
  return {
    base: opts.base,
    journal: opts.journal,
    files,
    builds: builds.map((b, i) => ({ build: b.name, runs: runs[i]! })),
    same: digests.size === 1,
  };
}

/** The median of a few runs' figures. */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function render(r: Result): string {
  const figures = r.builds.map((b) => ({
    build: b.build,
    head: median(b.runs.map((x) => x.headMs)),
    workers: median(b.runs.map((x) => x.workersMs)),
    wall: median(b.runs.map((x) => x.headMs + x.workersMs)),
    cpu: median(b.runs.map((x) => x.cpuMs)),
  }));
  const [base] = figures;
  const table = renderTable(
    [
      "build (median of runs)",
      "first phases",
      "Workers' phase",
      "wall",
      "CPU",
      "wall ratio",
      "CPU ratio",
    ],
    figures.map((f) => [
      f.build,
      sec(f.head),
      sec(f.workers),
      sec(f.wall),
      sec(f.cpu),
      fmtRatio(f.wall, base!.wall),
      fmtRatio(f.cpu, base!.cpu),
    ]),
    [1, 2, 3, 4, 5, 6],
  );
  const rows = r.builds[0]!.runs[0]!.rows;
  const same = r.same
    ? `every run left the same ${rows} edge and pending rows`
    : `the builds left different rows: ${
      r.builds.map((b) => `${b.build} ${b.runs.map((x) => `${x.rows} ${x.digest}`).join(", ")}`)
        .join("; ")
    }`;
  return `Resolution of ${r.files} files (${r.journal}, every reference pending again), this tree against ${r.base}, ${
    r.builds[0]!.runs.length
  } run(s) each, alternating\n${table}\n${same}`;
}

if (import.meta.main) {
  Deno.exit(await runBenchMain("bench_resolve_ab", parseOptions, run, render));
}
